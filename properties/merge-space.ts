/**
 * AD-3 over a whole space, not a sample: every (order, batching) of n distillates — n! orders ×
 * 2^(n−1) batchings — merged from genesis with the model's merge step (OP-1.6), each head's state
 * digest compared with the digest of the aggregate of the set (OP-1.2).
 *
 * The walk is depth first over batch sequences: the chain of a prefix of batches is computed once
 * and shared by every case that begins with it, so a case costs the merge of its last batch rather
 * than a replay from genesis. Each head is still exactly the one `replay(genesis, batches)` computes
 * (the same pure `mergeStep` applied to the same batches in the same order: merge-space.test.ts
 * compares them case by case), which is what lets the whole 8-distillate space (5,160,960 cases)
 * run in minutes: `npm run ad3:exhaustive` (properties/merge-space-cli.ts). Model checkers share
 * prefixes the same way; nothing about the check is weakened, only work that gives the same answer
 * is not done twice.
 *
 * A case is named by its order (the distillates' indices, the k-th permutation in lexicographic
 * order) and its batching mask (bit i set: a batch ends after the i-th distillate of the order), as
 * bench/model.ts sampled them before, so a mismatch can be rebuilt with `replay` alone.
 */
import type { Digest, MergeBatch, SamskaraDistillate, StoreState, StoreVersion } from "../spec/index.ts";
import { aggregate, genesisVersion, mergeStep, stateDigest } from "../model/index.ts";

/** The merge of one batch onto a head whose retained set is `retained` (the model's `mergeStep`, or a planted variant in tests). */
export type MergeStepFn = (
  head: StoreVersion,
  retained: readonly SamskaraDistillate[],
  added: readonly SamskaraDistillate[],
) => { readonly version: StoreVersion; readonly batch: MergeBatch; readonly state: StoreState };

export interface SpaceCase {
  /** Indices into the distillates, in merge order. */
  readonly order: readonly number[];
  /** Bit i set: a batch ends after order[i] (the last always ends one; its bit is not set). */
  readonly mask: number;
}

export interface SpaceMismatch extends SpaceCase {
  readonly head: Digest;
  readonly expected: Digest;
}

export interface SpaceResult {
  readonly distillates: number;
  /** Cases checked (heads compared): n! × 2^(n−1) for the whole space, fewer for a slice. */
  readonly cases: number;
  /** Merge steps computed (each a state aggregate and digest): what the walk costs. */
  readonly merges: number;
  /** The first mismatches found (at most `maxMismatches`), and how many there were in all. */
  readonly mismatches: readonly SpaceMismatch[];
  readonly mismatchCount: number;
  readonly expected: Digest;
}

export interface SpaceOptions {
  /** Only the cases whose order begins with these indices (a slice of the space, for shards and the bench). */
  readonly prefix?: readonly number[];
  readonly step?: MergeStepFn;
  readonly maxMismatches?: number;
  /** Told of every case and its head, in walk order (tests compare each with `replay`). */
  readonly onCase?: (c: SpaceCase, head: StoreVersion) => void;
}

export const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** The number of cases of n distillates whose order begins with `prefixLength` fixed ones. */
export const spaceSize = (n: number, prefixLength = 0): number => factorial(n - prefixLength) * 2 ** (n - 1);

/** Walks the space (or the slice `prefix` names), checking every case's head against the aggregate of the set. */
export const walkMergeSpace = (
  genesis: StoreVersion,
  ds: readonly SamskaraDistillate[],
  o: SpaceOptions = {},
): SpaceResult => {
  const n = ds.length;
  if (n === 0 || n > 12) throw new RangeError(`walkMergeSpace: 1 to 12 distillates, not ${n}`);
  const prefix = o.prefix ?? [];
  if (new Set(prefix).size !== prefix.length || prefix.some((i) => !Number.isInteger(i) || i < 0 || i >= n)) {
    throw new RangeError(`walkMergeSpace: the prefix ${JSON.stringify(prefix)} must be distinct indices below ${n}`);
  }
  const step = o.step ?? mergeStep;
  const maxMismatches = o.maxMismatches ?? 10;
  const expected = stateDigest(aggregate([...ds]));
  const order: number[] = [];
  const mismatches: SpaceMismatch[] = [];
  let mismatchCount = 0;
  let cases = 0;
  let merges = 0;

  // head/retained: the chain so far; open: the batch being built (not merged yet); used: bitmask of order; mask: batch ends so far.
  const visit = (
    head: StoreVersion,
    retained: readonly SamskaraDistillate[],
    open: readonly SamskaraDistillate[],
    used: number,
    mask: number,
  ): void => {
    const at = order.length;
    for (let i = 0; i < n; i++) {
      if ((used & (1 << i)) !== 0) continue;
      if (at < prefix.length && prefix[at] !== i) continue;
      const d = ds[i] as SamskaraDistillate;
      order.push(i);
      const batch = [...open, d];
      const usedNow = used | (1 << i);
      if (at === n - 1) {
        // The last distillate ends the last batch: this is a case.
        const s = step(head, retained, batch);
        merges++;
        cases++;
        o.onCase?.({ order: [...order], mask }, s.version);
        if (s.version.state_digest !== expected) {
          mismatchCount++;
          if (mismatches.length < maxMismatches)
            mismatches.push({ order: [...order], mask, head: s.version.state_digest as Digest, expected });
        }
      } else {
        // Either a batch ends after this distillate (merged now, shared by every case below) ...
        const s = step(head, retained, batch);
        merges++;
        visit(s.version, [...retained, ...batch], [], usedNow, mask | (1 << at));
        // ... or the batch goes on.
        visit(head, retained, batch, usedNow, mask);
      }
      order.pop();
    }
  };
  visit(genesis, [], [], 0, 0);
  return { distillates: n, cases, merges, mismatches, mismatchCount, expected };
};

/** The batches of a case, as replay takes them (bit i of `mask`: a batch ends after order[i]). */
export const batchesOfCase = <T>(items: readonly T[], c: SpaceCase): T[][] => {
  const out: T[][] = [];
  let cur: T[] = [];
  c.order.forEach((k, i) => {
    cur.push(items[k] as T);
    if (i === c.order.length - 1 || ((c.mask >> i) & 1) === 1) {
      out.push(cur);
      cur = [];
    }
  });
  return out;
};

const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;

/** The genesis the fixture's distillates were born from. */
export const SPACE_GENESIS: StoreVersion = genesisVersion(BASE, "root-bench");

const mk = (id: string, valence: number, confidence: number, ds: [string, number, string][]): SamskaraDistillate => ({
  distillate_id: id,
  source: { identity: BASE, nonce: `n-${id}`, instance_id: `i-${id}` },
  born_from: SPACE_GENESIS.version_id,
  signal: { valence, confidence, model_version: null, explicit: true },
  dispositions: ds.map(([key, weight, guidance]) => ({
    key,
    guidance,
    weight,
    evidence_digest: EVIDENCE,
    category: "operational" as const,
  })),
});

/**
 * Eight distillates in which every key is contested, contributors overlap and |w|·c ties (D-007),
 * so a merge that depended on order, batching or a tie-break's input order would show: the first n
 * of them are the n-distillate space.
 */
export const EIGHT: readonly SamskaraDistillate[] = [
  mk("d1", 600_000, 500_000, [
    ["k.a", 600_000, "a1"],
    ["k.b", 300_000, "b1"],
  ]),
  mk("d2", -800_000, 375_000, [["k.a", -800_000, "a2"]]),
  mk("d3", 300_000, 1_000_000, [
    ["k.a", 300_000, "a3"],
    ["k.c", 100_000, "c3"],
  ]),
  mk("d4", -500_000, 600_000, [
    ["k.b", -500_000, "b4"],
    ["k.c", -5, "c4"],
  ]),
  mk("d5", 1, 1, [
    ["k.d", 1, "d5"],
    ["k.b", 1, "b5"],
  ]),
  mk("d6", -1, 3, [
    ["k.d", -1, "d6"],
    ["k.a", -1, "a6"],
  ]),
  mk("d7", 250_000, 800_000, [
    ["k.c", 250_000, "c7"],
    ["k.d", 125_000, "d7"],
  ]),
  mk("d8", -400_000, 800_000, [
    ["k.b", -200_000, "b8"],
    ["k.e", -400_000, "e8"],
  ]),
];
