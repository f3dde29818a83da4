/**
 * Step 3 of the implementer's path: the operations of the Samskara store, spec/OPERATIONS.md OP-4.1
 * `samskara.merge`, OP-4.2 `samskara.excise` and OP-4.3 `samskara.replay`, on the world of step 1
 * (world.mjs) and the lives of step 2 (lifecycle.mjs), with the algebra of store.mjs. Every
 * operation lists its checks in the order of spec/CHECKS.md, each with its clause, so that the
 * first failing one decides the code (D-032); only then does it change the world.
 *
 * The store's view (StoreView: chain, batches, state, retained distillates as ids and digests,
 * excisions, quarantined versions, momentum) is the agent's `store`, which step 1 already shows.
 * What the view does not show is the content of each retained distillate, needed to aggregate
 * again and to replay: it is kept in the agent's private `lives` (lifecycle.mjs) as `retained`,
 * by distillate id, and deleted by an excision (OP-1.8), so that no file keeps it (W-7.2).
 */
import { Refusal } from "../index.mjs";
import { canonical, digestOf } from "./canonical.mjs";
import { byString, checkQuiescent, own, sortedSet } from "./world.mjs";
import { discharge, livesOf } from "./lifecycle.mjs";
import { derive, genesisVersion, kappa, mergeStep } from "./store.mjs";

/** distillate id → the distillate, for every distillate the store retains. */
const contentsOf = (agent) => (livesOf(agent).retained ??= {});

const headOf = (store) => store.chain[store.chain.length - 1];

const byDigest = (a, b) => byString(a.digest, b.digest);
const byDistillateId = (a, b) => byString(a.distillate_id, b.distillate_id);

const J4 = (message, path) => new Refusal("JANMA_DISTILLATION_OBLIGATION", "J-4", message, path);

/**
 * OP-1.10: memory extends with a snapshot of the store head after the change and of the task ids
 * (D-024); a merge and an excision extend it here, a task start (ripa, continuity.mjs) too.
 */
export const extendMemory = (agent, cause) => {
  const memory = agent.substrate.memory;
  const store_head = headOf(agent.store).version_id;
  const snapshot = digestOf("memorySnapshot", {
    prev: memory.ancestry[memory.ancestry.length - 1],
    cause,
    store_head,
    task_ids: memory.task_ids,
  });
  memory.ancestry.push(snapshot);
  memory.store_head = store_head;
  return { type: "memory.extended", snapshot };
};

/** OP-4.1 samskara.merge */
export const merge = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const ids = sortedSet(cmd.obligation_ids); // de-duplicated first
  const obligations = ids.map((id) => {
    // c2: every one is looked up before any J-4 check (G-23)
    const obligation = own(agent.obligations, id);
    if (obligation === undefined)
      throw new Refusal("NOT_FOUND", null, `no obligation ${id}`, ["obligation_ids", cmd.obligation_ids.indexOf(id)]);
    return obligation;
  });
  for (const o of obligations) {
    if (o.status === "discharged" && o.outcome !== "applied")
      throw J4(`obligation ${o.obligation_id} was discharged ${o.outcome}`, ["obligation_ids"]); // c3
    // c4, strict: at the deadline tick only custody.expire acts (D-060)
    if (o.status === "pending" && cmd.tick >= o.deadline_tick)
      throw J4(`obligation ${o.obligation_id} reached its deadline, tick ${o.deadline_tick}`, ["obligation_ids"]);
  }

  const pending = obligations.filter((o) => o.status === "pending"); // applied ones are skipped (D-008)
  if (pending.length === 0) return [{ type: "store.merge_noop", obligation_ids: ids }];
  const lives = livesOf(agent);
  const added = pending.map((o) => lives.held[o.obligation_id]);
  const store = agent.store;
  const contents = contentsOf(agent);
  const step = mergeStep(
    headOf(store),
    store.distillates.map((d) => contents[d.distillate_id]),
    added,
  ); // OP-1.6
  store.momentum.push(kappa(store.state, step.state)); // OP-1.9
  store.chain.push(step.version);
  store.batches.push(step.batch);
  store.state = step.state;
  store.distillates = [...store.distillates, ...step.batch.members].sort(byDistillateId);
  for (const d of added) contents[d.distillate_id] = d;

  const events = [
    {
      type: "store.merged",
      version_id: step.version.version_id,
      batch_digest: step.batch.batch_digest,
      added: sortedSet(added.map((d) => d.distillate_id)),
    },
  ];
  for (const o of pending) events.push(...discharge(agent, o, "applied")); // sorted by obligation id, as `ids` is
  events.push(extendMemory(agent, "merge"));
  return events;
};

/** OP-4.2 samskara.excise */
export const excise = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const store = agent.store;
  if (store.excisions.some((x) => x.excision_id === cmd.excision_id))
    throw new Refusal("DUPLICATE_ID", null, `excision ${cmd.excision_id} exists`, ["excision_id"]); // c2
  if (!agent.ripa.custodians.includes(cmd.authorization.custodian)) {
    // c3 (OP-0.5)
    throw new Refusal(
      "RIPA_MEMORY_ANCESTRY_BROKEN",
      "I2",
      `${cmd.authorization.custodian} is not a custodian of the agent`,
      ["authorization", "custodian"],
    );
  }
  const forget = new Set(cmd.distillate_ids); // de-duplicated
  const retained = new Set(store.distillates.map((d) => d.distillate_id));
  cmd.distillate_ids.forEach((id, i) => {
    // c4
    if (!retained.has(id))
      throw new Refusal("NOT_FOUND", null, `the store retains no distillate ${id}`, ["distillate_ids", i]);
  });

  // OP-1.8: replay the recorded batches without the forgotten distillates; empty batches vanish.
  const contents = contentsOf(agent);
  const prior_head = headOf(store).version_id;
  const derived = derive(
    store.chain[0],
    store.batches.map((b) =>
      b.members.filter((m) => !forget.has(m.distillate_id)).map((m) => contents[m.distillate_id]),
    ),
  );
  const excised = store.distillates.filter((d) => forget.has(d.distillate_id)).sort(byDigest);
  store.chain = derived.chain;
  store.batches = derived.batches;
  store.state = derived.state;
  store.momentum = derived.momentum; // recomputed over the re-derived chain (G-26)
  store.distillates = store.distillates.filter((d) => !forget.has(d.distillate_id));
  for (const id of forget) delete contents[id]; // the content is deleted (D-009, W-7.2)
  const new_head = headOf(store).version_id;
  store.excisions.push({
    excision_id: cmd.excision_id,
    tick: cmd.tick,
    excised,
    prior_head,
    new_head,
    authorization: cmd.authorization,
  });

  return [{ type: "store.excised", excision_id: cmd.excision_id, new_head }, extendMemory(agent, "excise")];
};

const S4 = (message) => new Refusal("SAMSKARA_REPLAY_DIVERGED", "S-4", message);

/** OP-4.3 samskara.replay */
export const replay = (world, cmd, agent) => {
  const store = agent.store;
  const contents = contentsOf(agent);
  const batches = store.batches.map((b) =>
    b.members.map((m) => {
      const d = own(contents, m.distillate_id);
      if (d === undefined) throw S4(`the content of distillate ${m.distillate_id} is missing`);
      return d;
    }),
  );
  const { base_digest, root } = agent.identity;
  const replayed = derive(genesisVersion(base_digest, root), batches); // c1 (OP-1.7)
  for (const part of ["chain", "batches", "state"]) {
    if (canonical(replayed[part]) !== canonical(store[part]))
      throw S4(`replaying from genesis does not reproduce the recorded ${part}`);
  }

  const head = headOf(store);
  return [
    {
      type: "lineage.replayed",
      claim: {
        claim_type: "samskara.lineage_replay/v1",
        identity: agent.identity.identity,
        genesis: agent.identity.lineage_root,
        head: head.version_id,
        versions: store.chain.length,
        batch_digests: store.batches.map((b) => b.batch_digest),
        state_digest: head.state_digest,
        excisions: store.excisions.length,
      },
    },
  ];
};

/** The operations step 3 adds, by op. */
export const lineageOperations = {
  "samskara.merge": merge,
  "samskara.excise": excise,
  "samskara.replay": replay,
};
