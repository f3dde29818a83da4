/** OP-4.1..4.3: merge (AD-3, S-3, J-4), excise (S-5, I2) and replay (S-4). */
import type { Event } from "../../../spec/index.ts";
import { compareCodeUnits } from "../../../spec/index.ts";
import type { Obligation } from "../obligation.ts";
import { refuse, violates } from "../rejection.ts";
import type { HeldDistillate } from "../store.ts";
import { requireNotQuiesced, sortedUnique, type Handler } from "./context.ts";

/** OP-4.1 */
export const merge: Handler<"samskara.merge"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4
  const ids = sortedUnique(cmd.obligation_ids);
  const obligations: Obligation[] = ids.map(
    (id) => agent.obligations.touch(id) ?? refuse("NOT_FOUND", `no obligation ${id}`, ["obligation_ids"]), // for update
  );
  for (const ob of obligations) {
    // J-4 (D-018): a discharged obligation cannot be applied later; none after its deadline.
    if (ob.status === "discharged" && ob.outcome !== "applied")
      violates("J-4", `obligation ${ob.obligationId} was discharged ${ob.outcome}`);
    if (ob.status === "pending" && cmd.tick >= ob.deadlineTick)
      violates("J-4", `obligation ${ob.obligationId} reached its deadline (D-060)`);
  }
  // AD-3 (D-008): re-merging what was already applied is a no-op.
  const pending = obligations.filter((ob) => ob.status === "pending");
  if (pending.length === 0) return [{ type: "store.merge_noop", obligation_ids: ids }];

  const batch: HeldDistillate[] = pending.map((ob) => {
    if (ob.held === null) throw new Error(`pending obligation ${ob.obligationId} holds no distillate`);
    return ob.held;
  });
  const { version, batch: recorded } = agent.store.merge(batch); // S-3: appends exactly one version
  const events: Event[] = [
    {
      type: "store.merged",
      version_id: version.version_id,
      batch_digest: recorded.batch_digest,
      added: batch.map((h) => h.distillate.distillate_id).sort(compareCodeUnits),
    },
  ];
  for (const ob of pending) {
    ob.discharge("applied");
    events.push({ type: "custody.discharged", obligation_id: ob.obligationId, outcome: "applied" });
  }
  events.push({ type: "memory.extended", snapshot: agent.extendMemory("merge") }); // I2
  return events;
};

/** OP-4.2 (S-5 exact excision; I2 governed memory repair) */
export const excise: Handler<"samskara.excise"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4
  if (agent.store.excisions.some((e) => e.excision_id === cmd.excision_id)) {
    refuse("DUPLICATE_ID", `excision ${cmd.excision_id} already exists`, ["excision_id"]);
  }
  if (!agent.isCustodian(cmd.authorization.custodian)) {
    violates("I2", `${cmd.authorization.custodian} is not a custodian; memory repair needs authorisation`, [
      "authorization",
      "custodian",
    ]);
  }
  const ids = sortedUnique(cmd.distillate_ids);
  for (const id of ids)
    if (!agent.store.retains(id)) refuse("NOT_FOUND", `the store does not retain distillate ${id}`, ["distillate_ids"]);

  const excised = ids
    .map((id) => ({ distillate_id: id, digest: (agent.store.held(id) as HeldDistillate).digest }))
    .sort((a, b) => compareCodeUnits(a.digest, b.digest));
  const priorHead = agent.storeHead;
  agent.store.excise(new Set(ids)); // S-5: replay without them (from the first batch holding one); their content is dropped
  const newHead = agent.storeHead;
  agent.store.excisions.push({
    excision_id: cmd.excision_id,
    tick: cmd.tick,
    excised,
    prior_head: priorHead,
    new_head: newHead,
    authorization: cmd.authorization,
  });
  return [
    { type: "store.excised", excision_id: cmd.excision_id, new_head: newHead },
    { type: "memory.extended", snapshot: agent.extendMemory("excise") },
  ];
};

/** OP-4.3 (S-4): replay from genesis and attest it. */
export const replay: Handler<"samskara.replay"> = (_world, _cmd, agent) => {
  if (!agent.store.replayReproducesChain())
    violates("S-4", "replaying the recorded batches does not reproduce the chain");
  const chain = agent.store.chain();
  const head = agent.store.head();
  return [
    {
      type: "lineage.replayed",
      claim: {
        claim_type: "samskara.lineage_replay/v1",
        identity: agent.identity.identity,
        genesis: agent.store.genesis,
        head: head.version_id,
        versions: chain.length,
        batch_digests: agent.store.batches().map((b) => b.batch_digest),
        state_digest: head.state_digest,
        excisions: agent.store.excisions.length,
      },
    },
  ];
};
