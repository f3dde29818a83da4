/**
 * Growth: the per-command latency of the durable implementation (in process, `openImplementation
 * ({ dataDir })` on a data directory under the OS temporary directory) with N = 10, 100, 1,000 and
 * 10,000 distillates in one agent's lineage, and the fitted log-log exponent of each operation.
 *
 * Building a lineage is five accepted commands per distillate. It is done by the same
 * implementation through the same API, on a build directory in memory (/dev/shm when present) so
 * that building does not pay an fsync per command; the store's files are then copied to a fresh
 * directory on disk and every measurement runs there, on the real filesystem. The store on disk is
 * exactly the one the implementation wrote: whatever storage `impl/` uses (the data directory's
 * files are listed in the report), it is measured the same way.
 *
 * Measured at each N, each a median of several runs: `ripa.task_start` (cheap, forgets nothing),
 * `samskara.merge` of one new distillate, three queries (`authority`: small; `store` and `world`:
 * their results grow with N), `samskara.excise` of the most recent distillate (the one just
 * merged, so N is unchanged afterwards), `samskara.replay`, and recovery (opening the directory).
 * Besides, the cost of one state digest at N (canonical JSON + SHA-256 of the aggregated state, the
 * work OP-1.6 does once per merge and OP-1.7 once per version), to say where the time goes.
 *
 * The 10-minute budget: before each N the time to build and measure it is projected from the
 * previous N; an N that would not fit in what is left of the section's budget is skipped, and the
 * report says so.
 */
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { openImplementation, type Implementation } from "../impl/api.ts";
import { DOMAIN, digestOf, canonicalJson } from "../spec/index.ts";
import { budgetedRuns, type BenchContext } from "./context.ts";
import { evaluate, notMeasured, type Goal, type GoalSpec } from "./goals.ts";
import { LineageBuilder, must } from "./lineage.ts";
import { figure, fitLogLog, sig, type Figure, type LogLogFit } from "./stats.ts";

export const GROWTH_OPS = [
  "task_start",
  "merge",
  "query_authority",
  "query_store",
  "query_world",
  "excise",
  "replay",
  "recovery",
] as const;
export type GrowthOp = (typeof GROWTH_OPS)[number];

export const OP_LABELS: Record<GrowthOp, string> = {
  task_start: "ripa.task_start",
  merge: "samskara.merge (1 new distillate)",
  query_authority: "query authority",
  query_store: "query store",
  query_world: "query world",
  excise: "samskara.excise (most recent)",
  replay: "samskara.replay",
  recovery: "recovery (open the data directory)",
};

/** The goal of each operation: flat (≤ 0.2) for commands and queries that forget nothing and whose result does not grow; ≤ 1.2 for excision, replay and recovery. */
export const GROWTH_GOALS: Partial<Record<GrowthOp, GoalSpec>> = {
  task_start: { comparator: "<=", target: 0.2, kind: "exponent" },
  merge: { comparator: "<=", target: 0.2, kind: "exponent" },
  query_authority: { comparator: "<=", target: 0.2, kind: "exponent" },
  excise: { comparator: "<=", target: 1.2, kind: "exponent" },
  replay: { comparator: "<=", target: 1.2, kind: "exponent" },
  recovery: { comparator: "<=", target: 1.2, kind: "exponent" },
};

export interface GrowthLevel {
  readonly n: number;
  /** Wall time to grow the lineage from the previous level to n (build directory). */
  readonly build_ms: number;
  readonly build_ms_per_distillate: number;
  /** Bytes of the data directory on disk at n, and its files. */
  readonly data_dir_bytes: number;
  readonly data_dir_files: readonly string[];
  /** Canonical JSON bytes of the aggregated store state, and the time of one digestOf over it. */
  readonly state_bytes: number;
  readonly state_digest: Figure;
  /** Each operation's latency; an operation missing here was skipped at this N (see `skipped_ops`). */
  readonly ops: Partial<Record<GrowthOp, Figure>>;
  readonly skipped_ops: Partial<Record<GrowthOp, string>>;
}

export interface GrowthResult {
  readonly levels_planned: readonly number[];
  readonly levels: readonly GrowthLevel[];
  readonly skipped: readonly { readonly n: number; readonly reason: string }[];
  readonly build_dir_fs: string;
  readonly measure_dir_fs: string;
  readonly fits: Partial<Record<GrowthOp, LogLogFit>>;
  readonly state_digest_fit: LogLogFit | null;
  readonly budget_s: number;
  /** An operation is skipped at an N where one run is projected to take longer than this. */
  readonly op_cap_ms: number;
  readonly duration_ms: number;
}

const dirBytes = (dir: string): { bytes: number; files: string[] } => {
  const files = readdirSync(dir).sort();
  return {
    bytes: files.reduce((s, f) => s + statSync(join(dir, f)).size, 0),
    files: files.map((f) => `${f} (${statSync(join(dir, f)).size} B)`),
  };
};

interface Budgets {
  readonly fast: { min: number; max: number; budgetMs: number };
  readonly medium: { min: number; max: number; budgetMs: number };
  readonly slow: { min: number; max: number; budgetMs: number };
}

/** Points (N, median) of an operation over the levels where it was measured. */
const pointsOf = (levels: readonly GrowthLevel[], op: GrowthOp): { x: number; y: number }[] =>
  levels.flatMap((l) => {
    const f = l.ops[op];
    return f === undefined ? [] : [{ x: l.n, y: f.median }];
  });

/**
 * The projected time of one run of `op` at `n`, from the last two levels where it was measured:
 * their local exponent (at least 1) plus 0.5 for safety, since costs such as replay's grow faster
 * than their small-N slope. Null when there is no earlier measurement.
 */
export const projectOp = (levels: readonly GrowthLevel[], op: GrowthOp, n: number): number | null => {
  const pts = pointsOf(levels, op);
  const last = pts[pts.length - 1];
  if (last === undefined) return null;
  const prev = pts[pts.length - 2];
  const local = prev === undefined ? 1 : Math.log(last.y / prev.y) / Math.log(last.x / prev.x);
  return last.y * (n / last.x) ** (Math.max(1, local) + 0.5);
};

const measureLevel = (
  n: number,
  dir: string,
  builder: LineageBuilder,
  b: Budgets,
  build: { ms: number; grown: number },
  earlier: readonly GrowthLevel[],
  capMs: number,
  budgetEnd: number,
): GrowthLevel => {
  const ops: Partial<Record<GrowthOp, Figure>> = {};
  const skippedOps: Partial<Record<GrowthOp, string>> = {};
  /** Runs `measure` unless one run of `op` is projected to exceed the cap at this N. */
  const maybe = (op: GrowthOp, measure: () => number[]): void => {
    const p = projectOp(earlier, op, n);
    const left = budgetEnd - Date.now();
    if (p !== null && p > Math.min(capMs, left)) {
      skippedOps[op] =
        p > capMs
          ? `one run projected at ${sig(p / 1000)} s (from the smaller N), over the ${sig(capMs / 1000)} s cap per run`
          : `one run projected at ${sig(p / 1000)} s (from the smaller N), more than the ${sig(Math.max(0, left) / 1000)} s left of the growth budget`;
      return;
    }
    ops[op] = figure(measure(), "ms");
  };
  // Recovery first: opening the copied directory is the implementation's recovery path.
  maybe("recovery", () =>
    budgetedRuns(
      b.slow,
      () => null,
      () => {
        openImplementation({ dataDir: dir }).close();
      },
    ),
  );
  const impl: Implementation = openImplementation({ dataDir: dir });
  try {
    const apply = (c: Parameters<Implementation["apply"]>[0]) => impl.apply(c);
    const m = builder.on(apply);
    maybe("task_start", () =>
      budgetedRuns(
        b.fast,
        () => null,
        () => must(apply, m.taskStartCommand()),
      ),
    );
    maybe("query_authority", () =>
      budgetedRuns(
        b.fast,
        () => null,
        () => {
          const r = impl.query({ name: "authority", agent: m.agent });
          if (!r.ok) throw new Error(`authority query failed: ${r.error.code}`);
        },
      ),
    );
    // The store query is also how the state's size and digest cost are read, so it always runs once.
    const storeOnce = (): string => {
      const r = impl.query({ name: "store", agent: m.agent });
      if (!r.ok) throw new Error(`store query failed: ${r.error.code}`);
      if (r.result.distillates.length !== n)
        throw new Error(`the store holds ${r.result.distillates.length} distillates, expected ${n}`);
      return canonicalJson(r.result.state);
    };
    const stateJson = storeOnce();
    maybe("query_store", () =>
      budgetedRuns(
        b.medium,
        () => null,
        () => storeOnce(),
      ),
    );
    maybe("query_world", () =>
      budgetedRuns(
        b.medium,
        () => null,
        () => impl.world(),
      ),
    );
    const state = JSON.parse(stateJson) as unknown;
    const stateDigest = budgetedRuns(
      b.medium,
      () => null,
      () => digestOf(DOMAIN.storeState, state),
    );
    // Merge one new distillate (its life prepared untimed), then excise it: the most recent
    // distillate, so N is the same after each pair.
    const merges: number[] = [];
    maybe("excise", () =>
      budgetedRuns(
        b.medium,
        () => {
          const life = m.prepare();
          const t = performance.now();
          m.merge(life.obligation);
          merges.push(performance.now() - t);
          return life;
        },
        (life) => m.excised(must(apply, m.exciseCommand(life.distillate))),
      ),
    );
    if (merges.length > 0) ops.merge = figure(merges, "ms");
    else skippedOps.merge = "measured with excision, which was skipped";
    maybe("replay", () =>
      budgetedRuns(
        b.slow,
        () => null,
        () => must(apply, m.replayCommand()),
      ),
    );
    const size = dirBytes(dir);
    return {
      n,
      build_ms: build.ms,
      build_ms_per_distillate: build.grown > 0 ? build.ms / build.grown : 0,
      data_dir_bytes: size.bytes,
      data_dir_files: size.files,
      state_bytes: Buffer.byteLength(stateJson),
      state_digest: figure(stateDigest, "ms"),
      ops,
      skipped_ops: skippedOps,
    };
  } finally {
    impl.close();
  }
};

/**
 * Copies the store's files and makes the copy durable before anything is measured: otherwise the
 * first fsync of the implementation would also write back the whole freshly copied file.
 */
const copyDurably = (from: string, to: string): void => {
  for (const f of readdirSync(from)) {
    copyFileSync(join(from, f), join(to, f));
    const fd = openSync(join(to, f), "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  const d = openSync(to, "r");
  try {
    fsyncSync(d);
  } finally {
    closeSync(d);
  }
};

/** Which filesystem a directory is on: its type and mount point (from /proc/mounts), for the report. */
export const fsOf = (dir: string): string => {
  try {
    const mounts = (existsSync("/proc/mounts") ? readFileSync("/proc/mounts", "utf8") : "")
      .split("\n")
      .map((l) => l.split(" "))
      .filter((p) => p.length > 2);
    let best: string[] | undefined;
    for (const p of mounts)
      if (dir.startsWith(p[1] ?? "\0") && (best === undefined || (p[1] ?? "").length > (best[1] ?? "").length))
        best = p;
    return best === undefined ? "unknown filesystem" : `${best[2]} mounted at ${best[1]}`;
  } catch {
    return "unknown filesystem";
  }
};

export const runGrowth = (ctx: BenchContext, budgetS: number): { result: GrowthResult; goals: Goal[] } => {
  const started = Date.now();
  const planned = ctx.quick ? [10, 30, 100] : [10, 100, 1_000, 10_000];
  const budgets: Budgets = ctx.quick
    ? {
        fast: { min: 3, max: 5, budgetMs: 100 },
        medium: { min: 3, max: 3, budgetMs: 200 },
        slow: { min: 2, max: 3, budgetMs: 300 },
      }
    : {
        fast: { min: 5, max: 11, budgetMs: 1_500 },
        medium: { min: 3, max: 7, budgetMs: 3_000 },
        slow: { min: 3, max: 5, budgetMs: 6_000 },
      };
  const capMs = ctx.quick ? 2_000 : 90_000;
  // What is kept for measuring the last N: building stops when only this much of the budget is left.
  const reserveMs = Math.min(45_000, budgetS * 250);
  const buildDeadline = started + budgetS * 1000 - reserveMs;
  const shm = "/dev/shm";
  const buildRoot = existsSync(shm) && statSync(shm).isDirectory() ? shm : null;
  const buildDir = buildRoot === null ? ctx.tmp("growth-build") : ctx.tmpUnder(buildRoot, "growth-build");
  const builderImpl = openImplementation({ dataDir: buildDir });
  const levels: GrowthLevel[] = [];
  const skipped: { n: number; reason: string }[] = [];
  let measureFs = "";
  try {
    const builder = LineageBuilder.mint((c) => builderImpl.apply(c));
    for (const target of planned) {
      const prev = levels[levels.length - 1];
      if (Date.now() >= buildDeadline) {
        skipped.push({
          n: target,
          reason: `the growth budget (${budgetS} s, of which ${sig(reserveMs / 1000)} s are kept for measuring) was spent before building it`,
        });
        continue;
      }
      ctx.log(`bench: growth: building N = ${target.toLocaleString("en-US")}`);
      const t = performance.now();
      const before = builder.retained;
      while (builder.retained < target && (builder.retained % 50 !== 0 || Date.now() < buildDeadline)) builder.grow();
      const buildMs = performance.now() - t;
      const n = builder.retained;
      if (n < target) {
        // Out of time: measure where the build stopped if that is well beyond the previous N.
        const reason = `building stopped at N = ${n.toLocaleString("en-US")} after ${sig(buildMs / 1000)} s, when the build share of the growth budget (${budgetS} s less ${sig(reserveMs / 1000)} s kept for measuring) ran out`;
        if (prev !== undefined && n < prev.n * 2) {
          skipped.push({
            n: target,
            reason: `${reason}; not measured (too close to N = ${prev.n.toLocaleString("en-US")})`,
          });
          continue;
        }
        skipped.push({ n: target, reason: `${reason}; measured at N = ${n.toLocaleString("en-US")} instead` });
      }
      const dir = ctx.tmp(`growth-${n}`);
      copyDurably(buildDir, dir);
      measureFs = fsOf(dir);
      ctx.log(`bench: growth: measuring N = ${n.toLocaleString("en-US")} (built in ${sig(buildMs / 1000)} s)`);
      levels.push(
        measureLevel(
          n,
          dir,
          builder,
          budgets,
          { ms: buildMs, grown: n - before },
          levels,
          capMs,
          started + budgetS * 1000,
        ),
      );
    }
  } finally {
    builderImpl.close();
  }
  const fits: Partial<Record<GrowthOp, LogLogFit>> = {};
  for (const op of GROWTH_OPS) {
    const pts = pointsOf(levels, op);
    if (pts.length >= 2) fits[op] = fitLogLog(pts);
  }
  const stateFit = levels.length >= 2 ? fitLogLog(levels.map((l) => ({ x: l.n, y: l.state_digest.median }))) : null;
  const result: GrowthResult = {
    levels_planned: planned,
    levels,
    skipped,
    build_dir_fs: fsOf(buildDir),
    measure_dir_fs: measureFs,
    fits,
    state_digest_fit: stateFit,
    budget_s: budgetS,
    op_cap_ms: capMs,
    duration_ms: Date.now() - started,
  };
  return { result, goals: growthGoals(result) };
};

const fmtN = (n: number): string => n.toLocaleString("en-US");

/** Why an operation grows, from what was measured alongside it (the state's size and digest cost). */
const why = (op: GrowthOp, r: GrowthResult, low: { x: number; y: number }, top: { x: number; y: number }): string => {
  const first = r.levels[0];
  const last = r.levels[r.levels.length - 1];
  if (first === undefined || last === undefined) return "";
  const atTop = r.levels.find((l) => l.n === top.x) ?? last;
  const digest = atTop.state_digest.median;
  const stateLine = `the aggregated state is ${fmtN(atTop.state_bytes)} bytes of canonical JSON at N = ${fmtN(atTop.n)} (${fmtN(first.state_bytes)} at N = ${first.n}) because every entry lists all its contributors (OP-1.2), and one digest of it takes ${sig(digest)} ms (exponent ${sig(r.state_digest_fit?.exponent ?? NaN)})`;
  const between = `${sig(low.y)} ms at N = ${fmtN(low.x)}, ${sig(top.y)} ms at N = ${fmtN(top.x)}`;
  switch (op) {
    case "merge":
      return `a merge recomputes the state digest of the whole aggregated state (OP-1.6): ${stateLine}, ${sig((digest / top.y) * 100)}% of the ${sig(top.y)} ms merge there. Below about N = 1,000 the merge is flat (its durable write dominates); above, the digest takes over. A flat merge needs a state digest that is not a hash of the whole state: a change of the spec (OP-1.3), not of the store`;
    case "replay":
      return `replay recomputes one state digest per version (OP-1.7): N digests of states that grow with N, so its time grows as N²: ${stateLine}. This is inherent in OP-1.7 as specified (S-4 replays from genesis); an implementation could only check fewer digests by trusting stored ones, which is what replay exists to avoid`;
    case "excise":
      return `excising the most recent distillate replays only the last batch but recomputes a state digest over the remaining state and rewrites what changed (${between}); ${stateLine}`;
    case "recovery":
      return `recovery reads every row of the store, rebuilds the aggregated state and checks the head's state digest (${between}); ${stateLine}`;
    case "task_start":
      return `task_start's memory snapshot covers the task ids, not the lineage, so what grows is the storage's per-command cost in a larger database (${between})`;
    case "query_authority":
      return `the authority result does not depend on N; what grows is the implementation's query path (${between})`;
    default:
      return `the result grows with N (${between})`;
  }
};

/** The exponent between the last two sizes, when there are more than two (where the growth is heading). */
const localNote = (pts: readonly { x: number; y: number }[]): string => {
  const a = pts[pts.length - 2];
  const b = pts[pts.length - 1];
  if (pts.length < 3 || a === undefined || b === undefined) return "";
  return `; exponent ${sig(Math.log(b.y / a.y) / Math.log(b.x / a.x))} between N = ${fmtN(a.x)} and ${fmtN(b.x)}`;
};

export const growthGoals = (r: GrowthResult): Goal[] => {
  const out: Goal[] = [];
  const skippedLevels =
    r.skipped.length > 0 ? ` ${r.skipped.map((s) => `Planned N = ${fmtN(s.n)}: ${s.reason}.`).join(" ")}` : "";
  for (const op of GROWTH_OPS) {
    const spec = GROWTH_GOALS[op];
    if (spec === undefined) continue;
    const name = `Growth: ${OP_LABELS[op]}`;
    const fit = r.fits[op];
    const pts = pointsOf(r.levels, op);
    const low = pts[0];
    const top = pts[pts.length - 1];
    const skippedHere = r.levels
      .flatMap((l) => {
        const why_ = l.skipped_ops[op];
        return why_ === undefined ? [] : [` Not measured at N = ${fmtN(l.n)}: ${why_}.`];
      })
      .join("");
    if (fit === undefined || low === undefined || top === undefined) {
      out.push(notMeasured(name, "growth", spec, `fewer than two N could be measured.${skippedHere}${skippedLevels}`));
      continue;
    }
    const range = `Fitted over N = ${pts.map((p) => fmtN(p.x)).join(", ")} (r² = ${sig(fit.r2)})`;
    out.push(
      evaluate({
        name,
        section: "growth",
        measured: { value: top.y, unit: "ms", label: `median at N = ${fmtN(top.x)}` },
        baseline: { value: low.y, unit: "ms", label: `median at N = ${fmtN(low.x)}` },
        ratio: fit.exponent,
        goal: spec,
        whenMet: `${range}: ${sig(top.y / low.y)}× the time for ${sig(top.x / low.x)}× the distillates.${skippedHere}${skippedLevels}`,
        whenShort: `${range}${localNote(pts)}: ${why(op, r, low, top)}.${skippedHere}${skippedLevels}`,
      }),
    );
  }
  return out;
};
