/**
 * The reference model's speed, in process:
 *
 * - model steps/s: generated commands interpreted against the model's view and applied with
 *   `transition` (the work of one property-test step);
 * - differential steps/s: the same generated sequence through `compareRun` (model and the
 *   implementation in process, volatile in-memory storage: the logic, not the disk), with the
 *   world views compared after every step;
 * - exhaustive merge order-independence: for 7 and 8 distillates with shared and contested keys,
 *   (order, batching) cases checked per second by the depth-first walk `npm run ad3:exhaustive`
 *   runs (properties/merge-space.ts: a prefix of batches merged once for every case that shares
 *   it), over slices of the space; and, as the baseline in the same run, the same check with each
 *   case replayed from genesis on its own (cases spread over the whole space). The whole space is
 *   n! orders × 2^(n−1) batchings; the walk's rate says how long checking all of it takes.
 */
import fc from "fast-check";
import type { SamskaraDistillate } from "../spec/index.ts";
import { aggregate, initialWorld, replay, stateDigest, transition, view } from "../model/index.ts";
import { EIGHT, factorial, SPACE_GENESIS as GENESIS, spaceSize, walkMergeSpace } from "../properties/merge-space.ts";
import { Result } from "effect";
import { openImplementation } from "../impl/api.ts";
import { choicesArb, materialize, newMemory, type Choice } from "../properties/generators/commands.ts";
import { compareRun, type CompareStats } from "../properties/differential.ts";
import type { BenchContext } from "./context.ts";
import { evaluate, notMeasured, type Goal, type GoalSpec } from "./goals.ts";
import { rateFigure, sig, type Figure } from "./stats.ts";

export interface Ad3Rate {
  readonly distillates: number;
  /** n! × 2^(n−1). */
  readonly space: number;
  /** Cases of one timed run of the walk (a slice of the space: the orders beginning with fixed distillates). */
  readonly checks_per_run: number;
  /** The walk (properties/merge-space.ts), cases per second. */
  readonly checks_per_s: Figure;
  /** The baseline: each case replayed from genesis on its own, cases per second (absent in reports made before the walk). */
  readonly replay_checks_per_s?: Figure;
  /** Seconds to check the whole space at the walk's median rate. */
  readonly whole_space_s: number;
}

/** Where a generated model step's time goes, timed call by call over the same sequences (µs per step). */
export interface ModelSplit {
  /** `view(world)`: the world view the generator reads its next command from. */
  readonly view_us: number;
  /** `materialize`: the generator turning a choice into a command against that view. */
  readonly materialize_us: number;
  /** `transition`: the model's step itself (guards, state, digests). */
  readonly transition_us: number;
}

export interface ModelResult {
  readonly sequences: number;
  readonly steps_per_sequence: number;
  readonly steps: number;
  readonly model_steps_per_s: Figure;
  /** Absent from reports made before it was measured. */
  readonly model_split?: ModelSplit;
  readonly differential_steps_per_s: Figure;
  readonly ad3: readonly Ad3Rate[];
}

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
    if (head !== expected)
      throw new Error(
        `merge order-independence broken for ${n} distillates at case ${at}: ${head ?? "no head"} ≠ ${expected}`,
      );
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

/** One pass over the sequences with each part of a step timed on its own (the clock's cost is in the parts). */
const modelSplit = (seqs: readonly (readonly Choice[])[]): ModelSplit => {
  let viewMs = 0;
  let materializeMs = 0;
  let transitionMs = 0;
  let steps = 0;
  for (const choices of seqs) {
    const mem = newMemory("mixed");
    let world = initialWorld();
    for (const c of choices) {
      const t0 = performance.now();
      const v = view(world);
      const t1 = performance.now();
      const command = materialize(v, mem, c);
      const t2 = performance.now();
      const r = transition(world, command);
      const t3 = performance.now();
      viewMs += t1 - t0;
      materializeMs += t2 - t1;
      transitionMs += t3 - t2;
      steps++;
      if (Result.isSuccess(r)) world = r.success.world;
    }
  }
  const us = (ms: number): number => (ms * 1000) / steps;
  return { view_us: us(viewMs), materialize_us: us(materializeMs), transition_us: us(transitionMs) };
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
  const split = modelSplit(seqs);
  const ad3: Ad3Rate[] = [];
  for (const n of [7, 8]) {
    ctx.log(`bench: exhaustive merge order-independence, ${n} distillates`);
    const ds = EIGHT.slice(0, n);
    // Each timed run walks one slice: the orders beginning with n − 5 fixed distillates (5!·2^(n−1)
    // cases: 7,680 for 7, 15,360 for 8), a different slice each run; quick runs fix one more.
    const fixed = ctx.quick ? n - 4 : n - 5;
    const sliceOf = (r: number): number[] => Array.from({ length: fixed }, (_, i) => (r + i) % n);
    const perRun = spaceSize(n, fixed);
    const walk: { count: number; ms: number }[] = [];
    const alone: { count: number; ms: number }[] = [];
    const perReplayRun = ctx.quick ? 50 : 600;
    walkMergeSpace(GENESIS, ds, { prefix: sliceOf(reps) });
    ad3Checks(ds, Math.ceil(perReplayRun / 10), reps * perReplayRun);
    for (let r = 0; r < reps; r++) {
      let t = performance.now();
      const w = walkMergeSpace(GENESIS, ds, { prefix: sliceOf(r) });
      if (w.mismatchCount > 0)
        throw new Error(`merge order-independence broken for ${n} distillates: ${JSON.stringify(w.mismatches[0])}`);
      walk.push({ count: w.cases, ms: performance.now() - t });
      t = performance.now();
      ad3Checks(ds, perReplayRun, r * perReplayRun);
      alone.push({ count: perReplayRun, ms: performance.now() - t });
    }
    const rate = rateFigure(walk, "checks/s");
    const space = spaceSize(n);
    ad3.push({
      distillates: n,
      space,
      checks_per_run: perRun,
      checks_per_s: rate,
      replay_checks_per_s: rateFigure(alone, "checks/s"),
      whole_space_s: space / rate.median,
    });
  }
  return {
    sequences,
    steps_per_sequence: length,
    steps,
    model_steps_per_s: rateFigure(model, "steps/s"),
    model_split: split,
    differential_steps_per_s: rateFigure(diff, "steps/s"),
    ad3,
  };
};

export const describeAd3 = (a: Ad3Rate): string =>
  a.replay_checks_per_s === undefined
    ? `${a.distillates} distillates: ${sig(a.checks_per_s.median)} checks/s; all ${a.space.toLocaleString("en-US")} (orders × batchings) would take ${sig(a.whole_space_s)} s`
    : `${a.distillates} distillates: ${sig(a.checks_per_s.median)} checks/s by the walk (${sig(a.checks_per_s.median / a.replay_checks_per_s.median)}× replaying each case from genesis, ${sig(a.replay_checks_per_s.median)} checks/s); all ${a.space.toLocaleString("en-US")} (orders × batchings) take ${sig(a.whole_space_s)} s (npm run ad3:exhaustive)`;

/** Issue 26's goals for the model, as it states them: absolute rates (see goals.ts, kind "rate"). */
export const MODEL_GOALS = {
  steps: {
    name: "Model: generated steps/s (generate + transition), in process",
    spec: { comparator: ">=", target: 50_000, kind: "rate", unit: "steps/s" },
  },
  ad3: {
    name: "Exhaustive merge order-independence, 8 distillates: cases/s by the walk",
    spec: { comparator: ">=", target: 20_000, kind: "rate", unit: "checks/s" },
  },
} as const satisfies Record<string, { name: string; spec: GoalSpec }>;

export const modelGoals = (r: ModelResult): Goal[] => {
  const steps = r.model_steps_per_s.median;
  const sp = r.model_split;
  const perStep = 1e6 / steps;
  const splitText =
    sp === undefined
      ? "where a step's time goes was not measured in this report"
      : (() => {
          const parts = sp.view_us + sp.materialize_us + sp.transition_us;
          const share = (x: number): string => `${sig((x / parts) * 100)}%`;
          return `timed call by call, a step takes ${sig(sp.view_us)} µs in view(world) (${share(sp.view_us)}), ${sig(sp.materialize_us)} µs in materialize (${share(sp.materialize_us)}) and ${sig(sp.transition_us)} µs in transition (${share(sp.transition_us)}); the transitions alone would cap the rate at ${sig(1e6 / sp.transition_us)} steps/s, and the generator's view and command at ${sig(1e6 / (sp.view_us + sp.materialize_us))} steps/s`;
        })();
  const out: Goal[] = [
    evaluate({
      name: MODEL_GOALS.steps.name,
      section: "model",
      measured: {
        value: steps,
        unit: "steps/s",
        label: `${r.sequences} generated sequences of ${r.steps_per_sequence} steps`,
      },
      baseline: null,
      ratio: steps,
      goal: MODEL_GOALS.steps.spec,
      whenMet: `${sig(perStep)} µs per step; ${splitText}`,
      whenShort: `${sig(perStep)} µs per step against the 20 µs the goal allows; ${splitText}`,
    }),
  ];
  const eight = r.ad3.find((a) => a.distillates === 8);
  if (eight === undefined)
    out.push(notMeasured(MODEL_GOALS.ad3.name, "model", MODEL_GOALS.ad3.spec, "no 8-distillate run in this report"));
  else
    out.push(
      evaluate({
        name: MODEL_GOALS.ad3.name,
        section: "model",
        measured: {
          value: eight.checks_per_s.median,
          unit: "checks/s",
          label: "the depth-first walk, slices of the space",
        },
        baseline:
          eight.replay_checks_per_s === undefined
            ? null
            : { value: eight.replay_checks_per_s.median, unit: "checks/s", label: "each case replayed from genesis" },
        ratio: eight.checks_per_s.median,
        goal: MODEL_GOALS.ad3.spec,
        whenMet: describeAd3(eight),
        whenShort: `${describeAd3(eight)}: every case still merges the batches after the prefix it shares with the case before it`,
      }),
    );
  return out;
};
