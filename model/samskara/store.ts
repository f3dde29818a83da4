/**
 * Samskara store operations (OP-4): merge (AD-3, S-3, J-4), excise (S-5, I2), replay (S-4),
 * and the closed door `advaita.project_write` (AD-2).
 */
import { Result } from "effect";
import type { Digest, Event, ExcisionRecord, SamskaraDistillate, StoreVersion } from "../../spec/index.ts";
import { generic, no, violates } from "../rejection.ts";
import { sortStrings, type Agent, type Retained, type Store } from "../state.ts";
import { withAgent, authorised, type Handler } from "../step.ts";
import { extendMemory } from "../advaita/memory.ts";
import { discharge } from "../custody/custody.ts";
import { findInstance } from "../janma/instances.ts";
import { distillateDigest } from "./aggregate.ts";
import { excise as exciseLineage, mergeStep, replay as replayLineage, sameChain, type Lineage } from "./lineage.ts";

export const head = (store: Store): StoreVersion => {
  const h = store.chain[store.chain.length - 1];
  if (h === undefined) throw new Error("a store chain always has its genesis");
  return h;
};

/** The recorded batches as distillate content, in chain order (input to replay and excision). */
export const batchContents = (store: Store): SamskaraDistillate[][] =>
  store.batches.map((b) =>
    b.members.map((m) => {
      const r = store.retained.get(m.distillate_id);
      if (r === undefined) throw new Error(`store lost the content of retained distillate ${m.distillate_id}`);
      return r.distillate;
    }),
  );

/** S-4: does replaying the recorded batches reproduce the recorded chain? */
export const replayReproduces = (store: Store): { readonly ok: boolean; readonly lineage: Lineage | null } => {
  const genesis = store.chain[0];
  if (genesis === undefined) return { ok: false, lineage: null };
  let contents: SamskaraDistillate[][];
  try {
    contents = batchContents(store);
  } catch {
    return { ok: false, lineage: null };
  }
  const lineage = replayLineage(genesis, contents);
  return { ok: sameChain(lineage, store), lineage };
};

/** OP-4.1 merge. */
export const merge: Handler<"samskara.merge"> = (world, agent, cmd) => {
  const ids = [...new Set(cmd.obligation_ids)];
  for (const [i, id] of ids.entries())
    if (!agent.obligations.has(id))
      return no(generic("NOT_FOUND", "OP-4.1.c2", `no obligation ${id}`, ["obligation_ids", i]));
  const obs = ids.map((id) => agent.obligations.get(id)).filter((o) => o !== undefined);
  for (const ob of obs) {
    if (ob.view.status === "discharged" && ob.view.outcome !== "applied")
      return no(
        violates(
          "J-4",
          "OP-4.1.c3",
          `obligation ${ob.view.obligation_id} was discharged ${ob.view.outcome ?? ""}; it can no longer be applied`,
        ),
      );
    // Strict (D-060): at the deadline tick only custody.expire acts.
    if (ob.view.status === "pending" && cmd.tick >= ob.view.deadline_tick)
      return no(violates("J-4", "OP-4.1.c4", `obligation ${ob.view.obligation_id} has reached its deadline`));
  }
  const pending = obs
    .filter((o) => o.view.status === "pending")
    .sort((a, b) => (a.view.obligation_id < b.view.obligation_id ? -1 : 1));
  if (pending.length === 0)
    return withAgent(world, agent, [{ type: "store.merge_noop", obligation_ids: sortStrings(ids) }]); // D-008
  const added = pending.map((o) => {
    if (o.held === null) throw new Error(`pending obligation ${o.view.obligation_id} holds no distillate`);
    return o.held;
  });
  const store = agent.store;
  const step = mergeStep(
    head(store),
    [...store.retained.values()].map((r) => r.distillate),
    added,
  );
  const retained = new Map<string, Retained>(store.retained);
  for (const d of added) retained.set(d.distillate_id, { distillate: d, digest: distillateDigest(d) });
  let next: Agent = {
    ...agent,
    store: {
      ...store,
      chain: [...store.chain, step.version],
      states: [...store.states, step.state],
      batches: [...store.batches, step.batch],
      retained,
    },
  };
  const events: Event[] = [
    {
      type: "store.merged",
      version_id: step.version.version_id,
      batch_digest: step.batch.batch_digest,
      added: sortStrings(added.map((d) => d.distillate_id)),
    },
  ];
  for (const ob of pending) {
    const current = next.obligations.get(ob.view.obligation_id) ?? ob;
    const settled = discharge(next, current, "applied", false);
    next = settled.agent;
    events.push(...settled.events);
  }
  const mem = extendMemory(next, "merge");
  return withAgent(world, mem.agent, [...events, mem.event]);
};

/** OP-4.2 excise: a governed memory repair (I2) that re-derives the chain without X (S-5). */
export const excise: Handler<"samskara.excise"> = (world, agent, cmd) => {
  if (agent.store.excisions.some((e) => e.excision_id === cmd.excision_id))
    return no(generic("DUPLICATE_ID", "OP-4.2.c2", `excision ${cmd.excision_id} exists`, ["excision_id"]));
  if (!authorised(agent, cmd.authorization))
    return no(
      violates("I2", "OP-4.2.c3", "excision is a memory repair and needs a custodian's authorisation", [
        "authorization",
      ]),
    );
  const ids = [...new Set(cmd.distillate_ids)];
  for (const [i, id] of ids.entries())
    if (!agent.store.retained.has(id))
      return no(generic("NOT_FOUND", "OP-4.2.c4", `distillate ${id} is not retained`, ["distillate_ids", i]));
  const store = agent.store;
  const genesis = store.chain[0];
  if (genesis === undefined) throw new Error("a store chain always has its genesis");
  const lineage = exciseLineage(genesis, batchContents(store), ids);
  const retained = new Map(store.retained);
  const excised = ids
    .map((id) => ({ distillate_id: id, digest: store.retained.get(id)?.digest ?? ("" as Digest) }))
    .sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));
  for (const id of ids) retained.delete(id); // S-5: the content is gone
  const newHead = lineage.chain[lineage.chain.length - 1] ?? genesis;
  const record: ExcisionRecord = {
    excision_id: cmd.excision_id,
    tick: cmd.tick,
    excised,
    prior_head: head(store).version_id,
    new_head: newHead.version_id,
    authorization: cmd.authorization,
  };
  const next: Agent = {
    ...agent,
    store: {
      ...store,
      chain: lineage.chain,
      states: lineage.states,
      batches: lineage.batches,
      retained,
      excisions: [...store.excisions, record],
    },
  };
  const mem = extendMemory(next, "excise");
  return withAgent(world, mem.agent, [
    { type: "store.excised", excision_id: cmd.excision_id, new_head: newHead.version_id },
    mem.event,
  ]);
};

/** OP-4.3 replay: attest the lineage (S-4). */
export const replay: Handler<"samskara.replay"> = (world, agent) => {
  const store = agent.store;
  if (!replayReproduces(store).ok)
    return no(violates("S-4", "OP-4.3.c1", "replaying the recorded batches does not reproduce the chain"));
  return withAgent(world, agent, [
    {
      type: "lineage.replayed",
      claim: {
        claim_type: "samskara.lineage_replay/v1",
        identity: agent.identity.identity,
        genesis: agent.identity.lineage_root,
        head: head(store).version_id,
        versions: store.chain.length,
        batch_digests: store.batches.map((b) => b.batch_digest),
        state_digest: head(store).state_digest,
        excisions: store.excisions.length,
      },
    },
  ]);
};

/** OP-4.4: a projection never writes the store directly (AD-2). */
export const projectWrite: Handler<"advaita.project_write"> = (_world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-4.4.c1");
  if (Result.isFailure(found)) return no(found.failure);
  return no(
    violates("AD-2", "OP-4.4.c2", "a projection holds no state and cannot write the store; only its distillate can"),
  );
};
