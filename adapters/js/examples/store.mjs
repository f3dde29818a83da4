/**
 * Step 3 of the implementer's path: the store algebra of spec/OPERATIONS.md OP-1 (Samskara,
 * Advaita), as pure functions over distillates. Nothing here knows about agents, obligations or
 * the wire; lineage.mjs runs the operations of OP-4 with these functions.
 *
 *   distillateDigest(d)              OP-1.1
 *   aggregate(ds)                    OP-1.2: the store state of a set of distillates
 *   stateDigest(state)               OP-1.3
 *   genesisVersion(base, root)       OP-1.4
 *   mergeStep(head, retained, added) OP-1.6: one batch onto a head
 *   derive(genesis, batches)         OP-1.7 and OP-1.8: a chain replayed from genesis
 *   momentum(states)                 OP-1.9: weight-only karmic momentum of each merge batch
 *
 * A distillate is the parsed SamskaraDistillate that janma.distil accepted (lifecycle.mjs).
 */
import { digestOf } from "./canonical.mjs";
import { byString, sortedSet } from "./world.mjs";

/** OP-1.1. */
export const distillateDigest = (d) => digestOf("distillate", d);

/** Half to even of n / d, exactly, for BigInts with d > 0 (D-002). */
const roundHalfEven = (n, d) => {
  let q = n / d; // truncates toward zero
  if (n % d !== 0n && n < 0n) q -= 1n; // floor
  const twice = 2n * (n - q * d); // 2r with 0 ≤ r < d
  if (twice > d || (twice === d && q % 2n !== 0n)) q += 1n;
  return q;
};

const abs = (x) => (x < 0 ? -x : x);

/**
 * D-007's order of contributors, the leader first: |w|·c, then |w|, then c descending, then the
 * smallest distillate id. It is total, so the leader depends on the set only (AD-3).
 */
const leaderFirst = (a, b) =>
  abs(b.w) * b.c - abs(a.w) * a.c || abs(b.w) - abs(a.w) || b.c - a.c || byString(a.id, b.id);

/**
 * OP-1.2: the store state `{ entries }` of the set of distillates `ds` (each distillate once; the
 * caller never passes one twice), one entry per disposition key, sorted by key.
 * @param {any[]} ds
 */
export const aggregate = (ds) => {
  /** @type {Map<string, { id: string, w: number, c: number, p: any }[]>} */
  const byKey = new Map();
  for (const d of ds) {
    for (const p of d.dispositions) {
      const list = byKey.get(p.key) ?? [];
      list.push({ id: d.distillate_id, w: p.weight, c: d.signal.confidence, p });
      byKey.set(p.key, list);
    }
  }
  const entries = [...byKey.keys()].sort(byString).map((key) => {
    const cs = byKey.get(key) ?? [];
    const num = cs.reduce((s, x) => s + BigInt(x.w) * BigInt(x.c), 0n);
    const den = cs.reduce((s, x) => s + BigInt(x.c), 0n); // > 0: a zero confidence passes S-2 only without dispositions (D-057)
    const leader = [...cs].sort(leaderFirst)[0];
    return {
      key,
      guidance: leader.p.guidance,
      weight: Number(roundHalfEven(num, den)),
      category: leader.p.category,
      contested: cs.some((x) => x.w > 0) && cs.some((x) => x.w < 0),
      contributors: sortedSet(cs.map((x) => x.id)),
    };
  });
  return { entries };
};

/** OP-1.3. */
export const stateDigest = (state) => digestOf("storeState", state);

/** The state of a store that retains nothing. */
export const emptyState = () => ({ entries: [] });

/** OP-1.4 (ENC-7): the genesis version, whose id is the lineage root. */
export const genesisVersion = (baseDigest, root) => ({
  version_id: digestOf("genesis", { base_digest: baseDigest, root }),
  seq: 0,
  parent: null,
  batch_digest: null,
  state_digest: stateDigest(emptyState()),
});

const byDigest = (a, b) => byString(a.digest, b.digest);

/**
 * OP-1.6: merges the non-empty set `added` onto `head`, the store retaining `retained`. Returns
 * the new version, the MergeBatch to record and the state of `retained ∪ added`.
 */
export const mergeStep = (head, retained, added) => {
  const members = added.map((d) => ({ distillate_id: d.distillate_id, digest: distillateDigest(d) })).sort(byDigest);
  const batch_digest = digestOf("batch", { distillates: sortedSet(members.map((m) => m.digest)) });
  const state = aggregate([...retained, ...added]);
  const state_digest = stateDigest(state);
  const version = {
    version_id: digestOf("version", { parent: head.version_id, batch: batch_digest, state: state_digest }),
    seq: head.seq + 1,
    parent: head.version_id,
    batch_digest,
    state_digest,
  };
  return { version, batch: { batch_digest, members }, state };
};

/** OP-1.9, weight-only: Σ_k |w_n(k) − w_{n−1}(k)| from state `before` to state `after`, absent keys 0. */
export const kappa = (before, after) => {
  const weights = (s) => new Map(s.entries.map((e) => [e.key, e.weight]));
  const a = weights(before);
  const b = weights(after);
  let sum = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) sum += Math.abs((b.get(k) ?? 0) - (a.get(k) ?? 0));
  return sum;
};

/**
 * OP-1.7 (replay) and OP-1.8 (excision): the chain, batches, state and momentum obtained by
 * applying OP-1.6 from `genesis` with nothing retained, for each batch of `batches` in order (each
 * a list of distillates); a batch left empty is skipped (D-009), so excising a batch's every member
 * removes its version, exactly as a store that never merged them would have none.
 * @param {object} genesis the genesis version (OP-1.4)
 * @param {any[][]} batches
 */
export const derive = (genesis, batches) => {
  const chain = [genesis];
  const recorded = [];
  const momentum = [];
  let retained = [];
  let state = emptyState();
  for (const added of batches) {
    if (added.length === 0) continue;
    const step = mergeStep(chain[chain.length - 1], retained, added);
    chain.push(step.version);
    recorded.push(step.batch);
    momentum.push(kappa(state, step.state));
    retained = [...retained, ...added];
    state = step.state;
  }
  return { chain, batches: recorded, state, momentum };
};
