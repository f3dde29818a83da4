/**
 * The reference model's speed, in process:
 *
 * - model steps/s: generated commands interpreted against the model's view and applied with
 *   `transition` (the work of one property-test step);
 * - differential steps/s: the same generated sequence through `compareRun` (model and the
 *   implementation in process, volatile in-memory storage: the logic, not the disk), with the
 *   world views compared after every step;
 * - exhaustive merge order-independence: for 7 and 8 distillates with shared and contested keys,
 *   (permutation, batching) pairs checked per second — each check replays the batches from
 *   genesis with the model and compares the head's state digest with the aggregate's. The whole
 *   space is n! orders × 2^(n−1) batchings; the rate says how long checking all of it would take.
 */
import fc from "fast-check";
import type { SamskaraDistillate } from "../spec/index.ts";
import { aggregate, genesisVersion, initialWorld, replay, stateDigest, transition, view } from "../model/index.ts";
import { Result } from "effect";
import { openImplementation } from "../impl/api.ts";
import { choicesArb, materialize, newMemory, type Choice } from "../properties/generators/commands.ts";
import { compareRun, type CompareStats } from "../properties/differential.ts";
import type { BenchContext } from "./context.ts";
import { rateFigure, sig, type Figure } from "./stats.ts";

export interface Ad3Rate {
  readonly distillates: number;
  /** n! × 2^(n−1). */
  readonly space: number;
  readonly checks_per_run: number;
  readonly checks_per_s: Figure;
  /** Seconds to check the whole space at the median rate. */
  readonly whole_space_s: number;
}

export interface ModelResult {
  readonly sequences: number;
  readonly steps_per_sequence: number;
  readonly steps: number;
  readonly model_steps_per_s: Figure;
  readonly differential_steps_per_s: Figure;
  readonly ad3: readonly Ad3Rate[];
}

const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
const GENESIS = genesisVersion(BASE, "root-bench");

const mk = (id: string, valence: number, confidence: number, ds: [string, number, string][]): SamskaraDistillate => ({
  distillate_id: id,
  source: { identity: BASE, nonce: `n-${id}`, instance_id: `i-${id}` },
  born_from: GENESIS.version_id,
  signal: { valence, confidence, model_version: null, explicit: true },
  dispositions: ds.map(([key, weight, guidance]) => ({ key, guidance, weight, evidence_digest: EVIDENCE, category: "operational" as const })),
});

/** Eight distillates: every key contested, overlapping contributors, ties in |w|·c (D-007). */
const EIGHT: SamskaraDistillate[] = [
  mk("d1", 600_000, 500_000, [["k.a", 600_000, "a1"], ["k.b", 300_000, "b1"]]),
  mk("d2", -800_000, 375_000, [["k.a", -800_000, "a2"]]),
  mk("d3", 300_000, 1_000_000, [["k.a", 300_000, "a3"], ["k.c", 100_000, "c3"]]),
  mk("d4", -500_000, 600_000, [["k.b", -500_000, "b4"], ["k.c", -5, "c4"]]),
  mk("d5", 1, 1, [["k.d", 1, "d5"], ["k.b", 1, "b5"]]),
  mk("d6", -1, 3, [["k.d", -1, "d6"], ["k.a", -1, "a6"]]),
  mk("d7", 250_000, 800_000, [["k.c", 250_000, "c7"], ["k.d", 125_000, "d7"]]),
  mk("d8", -400_000, 800_000, [["k.b", -200_000, "b8"], ["k.e", -400_000, "e8"]]),
];

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** The k-th permutation of 0..n-1 in lexicographic order (Lehmer code). */
export const nthPermutation = (n: number, k: number): number[] => {
  const pool = Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  let rest = k;
  for (let i = n; i >= 1; i--) {
    const f = factorial(i - 1);
    const idx = Math.floor(rest / f);
    rest %= f;
    out.push(pool.splice(idx, 1)[0] as number);
  }
  return out;
};

/** Batching number `mask` of a sequence: bit i set = a batch ends after element i (2^(n−1) batchings). */
export const batchesOf = <T>(xs: readonly T[], mask: number): T[][] => {
  const out: T[][] = [];
  let cur: T[] = [];
  xs.forEach((x, i) => {
    cur.push(x);
    if (i === xs.length - 1 || ((mask >> i) & 1) === 1) {
      out.push(cur);
      cur = [];
    }
  });
  return out;
};

/** Checks `count` (permutation, batching) pairs spread over the whole space; throws on a disagreement. */
const ad3Checks = (ds: readonly SamskaraDistillate[], count: number, offset: number): void => {
  const n = ds.length;
  const expected = stateDigest(aggregate([...ds]));
  const batchings = 2 ** (n - 1);
  const space = factorial(n) * batchings;
  // A stride coprime with the space walks it evenly, so each run samples all orders and batchings.
  const stride = 7_919;
  for (let i = 0; i < count; i++) {
    const at = ((offset + i) * stride) % space;
    const order = nthPermutation(n, Math.floor(at / batchings)).map((k) => ds[k] as SamskaraDistillate);
    const lineage = replay(GENESIS, batchesOf(order, at % batchings));
    const head = lineage.chain[lineage.chain.length - 1]?.state_digest;
    if (head !== expected) throw new Error(`merge order-independence broken for ${n} distillates at case ${at}: ${head ?? "no head"} ≠ ${expected}`);
  }
};

/** A model-only run of the same generated sequence compareRun drives: materialize against the view, transition. */
const modelRun = (choices: readonly Choice[]): number => {
  const mem = newMemory("mixed");
  let world = initialWorld();
  for (const c of choices) {
    const r = transition(world, materialize(view(world), mem, c));
    if (Result.isSuccess(r)) world = r.success.world;
  }
  return choices.length;
};

export const runModel = (ctx: BenchContext): ModelResult => {
  const sequences = ctx.quick ? 2 : 6;
  const length = 120;
  const reps = ctx.quick ? 2 : 5;
  const seqs = fc.sample(choicesArb(length, length), { seed: 11, numRuns: sequences });
  const steps = seqs.reduce((s, c) => s + c.length, 0);
  const model: { count: number; ms: number }[] = [];
  const diff: { count: number; ms: number }[] = [];
  ctx.log("bench: model and differential steps/s");
  // Warm-up (unmeasured): the first pass compiles the model's and the implementation's code paths.
  for (const c of seqs) modelRun(c);
  for (const c of seqs) compareRun(() => openImplementation({}), c);
  for (let r = 0; r < reps; r++) {
    let t = performance.now();
    for (const c of seqs) modelRun(c);
    model.push({ count: steps, ms: performance.now() - t });
    const stats: CompareStats = { steps: 0, agreedRejections: 0, ops: new Set() };
    t = performance.now();
    for (const c of seqs) compareRun(() => openImplementation({}), c, { stats });
    diff.push({ count: stats.steps, ms: performance.now() - t });
  }
  const ad3: Ad3Rate[] = [];
  for (const n of [7, 8]) {
    ctx.log(`bench: exhaustive merge order-independence, ${n} distillates`);
    const ds = EIGHT.slice(0, n);
    const perRun = ctx.quick ? 50 : 600;
    const samples: { count: number; ms: number }[] = [];
    ad3Checks(ds, Math.ceil(perRun / 10), reps * perRun);
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      ad3Checks(ds, perRun, r * perRun);
      samples.push({ count: perRun, ms: performance.now() - t });
    }
    const rate = rateFigure(samples, "checks/s");
    const space = factorial(n) * 2 ** (n - 1);
    ad3.push({ distillates: n, space, checks_per_run: perRun, checks_per_s: rate, whole_space_s: space / rate.median });
  }
  return {
    sequences, steps_per_sequence: length, steps,
    model_steps_per_s: rateFigure(model, "steps/s"), differential_steps_per_s: rateFigure(diff, "steps/s"), ad3,
  };
};

export const describeAd3 = (a: Ad3Rate): string =>
  `${a.distillates} distillates: ${sig(a.checks_per_s.median)} checks/s; all ${a.space.toLocaleString("en-US")} (orders × batchings) would take ${sig(a.whole_space_s)} s`;
