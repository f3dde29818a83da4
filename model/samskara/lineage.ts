/**
 * The lineage algebra: genesis (OP-1.4), one merge step (OP-1.6), replay (OP-1.7, S-4) and
 * excision by replay (OP-1.8, S-5). Pure functions over distillate content; the store module
 * wraps them with the agent's bookkeeping.
 */
import {
  batchDigestOf,
  genesisVersionOf,
  versionIdOf,
  type Digest,
  type MergeBatch,
  type SamskaraDistillate,
  type StoreState,
  type StoreVersion,
} from "../../spec/index.ts";
import { EMPTY_STATE, aggregate, distillateDigest, stateDigest } from "./aggregate.ts";

/** A chain with its batches and the state at every version. */
export interface Lineage {
  readonly chain: readonly StoreVersion[];
  readonly batches: readonly MergeBatch[];
  readonly states: readonly StoreState[];
}

/** OP-1.4: the genesis version of (base digest, root). Its id is the lineage root. */
export const genesisVersion = (baseDigest: Digest, root: string): StoreVersion => ({
  version_id: genesisVersionOf(baseDigest, root),
  seq: 0,
  parent: null,
  batch_digest: null,
  state_digest: stateDigest(EMPTY_STATE),
});

/** The batch record of a set of distillates: members sorted by digest (OP-1.6). */
export const batchOf = (added: readonly SamskaraDistillate[]): MergeBatch => {
  const members = added
    .map((d) => ({ distillate_id: d.distillate_id, digest: distillateDigest(d) }))
    .sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));
  const dedup = members.filter((m, i) => i === 0 || members[i - 1]?.digest !== m.digest);
  return { batch_digest: batchDigestOf(dedup.map((m) => m.digest as Digest)), members: dedup };
};

/**
 * OP-1.6: merge the non-empty set `added` onto `head`, whose retained set is `retained`.
 * The state is aggregated over R ∪ N, so it is a function of the set (AD-3).
 */
export const mergeStep = (
  head: StoreVersion,
  retained: readonly SamskaraDistillate[],
  added: readonly SamskaraDistillate[],
): { readonly version: StoreVersion; readonly batch: MergeBatch; readonly state: StoreState } => {
  if (added.length === 0) throw new RangeError("mergeStep: a batch must not be empty (OP-1.6)");
  const batch = batchOf(added);
  const state = aggregate([...retained, ...added]);
  const sd = stateDigest(state);
  const version: StoreVersion = {
    version_id: versionIdOf(head.version_id as Digest, batch.batch_digest as Digest, sd),
    seq: head.seq + 1,
    parent: head.version_id,
    batch_digest: batch.batch_digest,
    state_digest: sd,
  };
  return { version, batch, state };
};

/** OP-1.7 (S-4): rebuild the chain from genesis by applying each batch's distillates in order. */
export const replay = (genesis: StoreVersion, batches: readonly (readonly SamskaraDistillate[])[]): Lineage => {
  const chain: StoreVersion[] = [genesis];
  const states: StoreState[] = [EMPTY_STATE];
  const out: MergeBatch[] = [];
  let retained: SamskaraDistillate[] = [];
  let head = genesis;
  for (const added of batches) {
    if (added.length === 0) continue; // an empty batch produces no version (D-009)
    const step = mergeStep(head, retained, added);
    chain.push(step.version);
    states.push(step.state);
    out.push(step.batch);
    retained = [...retained, ...added];
    head = step.version;
  }
  return { chain, batches: out, states };
};

/**
 * OP-1.8 (S-5, D-009): replay without the excised distillates, skipping batches left empty.
 * By construction the result is the chain a store that never saw them would have produced.
 */
export const excise = (
  genesis: StoreVersion,
  batches: readonly (readonly SamskaraDistillate[])[],
  excisedIds: Iterable<string>,
): Lineage => {
  const gone = new Set(excisedIds);
  return replay(
    genesis,
    batches.map((b) => b.filter((d) => !gone.has(d.distillate_id))).filter((b) => b.length > 0),
  );
};

/** Two lineages are bit-identical when their chains and batches are (S-4, S-5). */
export const sameChain = (a: Pick<Lineage, "chain" | "batches">, b: Pick<Lineage, "chain" | "batches">): boolean =>
  JSON.stringify(a.chain) === JSON.stringify(b.chain) && JSON.stringify(a.batches) === JSON.stringify(b.batches);
