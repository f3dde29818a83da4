/**
 * The benchmark's pure parts (bench/): statistics, goals and their shortfalls, the Markdown and
 * SVG rendering, the README splice — and a smoke run of three in-process sections in quick mode
 * (BENCH_QUICK sizes), rendered into a report. No assertion depends on a timing.
 */
import { describe, expect, it } from "vitest";
import { XMLValidator } from "fast-xml-parser";
import { makeContext } from "../bench/context.ts";
import { parseStraceSummary, durableGoal, type DurableResult } from "../bench/durable.ts";
import { runDigest } from "../bench/digest.ts";
import { evaluate, meets, notMeasured, shortfall } from "../bench/goals.ts";
import { growthGoals, projectOp, runGrowth, type GrowthLevel, type GrowthResult } from "../bench/growth.ts";
import { LOG_GOALS, logGoals, type LogResult } from "../bench/log.ts";
import { EXPLORE_GOALS, exploreGoals } from "../bench/explore.ts";
import { batchesOf, MODEL_GOALS, modelGoals, nthPermutation, runModel, type ModelResult } from "../bench/model.ts";
import {
  logLogChart,
  README_END,
  README_START,
  renderMarkdown,
  renderReadmeBlock,
  spliceReadme,
} from "../bench/render.ts";
import type { BenchReport } from "../bench/report.ts";
import { runnerGoal, type RunnerResult } from "../bench/runner.ts";
import { shardingGoal } from "../bench/sharding.ts";
import { figure, fitLogLog, median, rateFigure, showFigure } from "../bench/stats.ts";
import { readLastTestRun, type CertRun } from "../bench/suite.ts";

const fig = (median_: number, unit = "ms"): ReturnType<typeof figure> =>
  figure([median_ * 0.9, median_, median_ * 1.2], unit);

describe("bench statistics", () => {
  it("median, min and max of the runs", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
    expect(figure([5, 1, 9], "ms")).toEqual({ median: 5, min: 1, max: 9, runs: 3, unit: "ms" });
    expect(
      rateFigure(
        [
          { count: 100, ms: 1000 },
          { count: 100, ms: 500 },
          { count: 100, ms: 250 },
        ],
        "ops/s",
      ).median,
    ).toBe(200);
    expect(() => figure([1, Number.NaN], "ms")).toThrow(/finite/);
    expect(showFigure(figure([2], "ms"))).toBe("2.00 ms (1 run)");
  });

  it("the log-log fit gives the growth exponent: linear 1, flat 0, quadratic 2", () => {
    const xs = [10, 100, 1_000, 10_000];
    const linear = fitLogLog(xs.map((x) => ({ x, y: 0.003 * x })));
    expect(linear.exponent).toBeCloseTo(1, 10);
    expect(linear.r2).toBeCloseTo(1, 10);
    expect(fitLogLog(xs.map((x) => ({ x, y: 4.2 }))).exponent).toBeCloseTo(0, 10);
    expect(fitLogLog(xs.map((x) => ({ x, y: 7 * x * x }))).exponent).toBeCloseTo(2, 10);
    const noisy = fitLogLog([
      { x: 10, y: 1 },
      { x: 100, y: 3 },
      { x: 1_000, y: 2 },
    ]);
    expect(noisy.r2).toBeLessThan(1);
    expect(() => fitLogLog([{ x: 10, y: 1 }])).toThrow();
    expect(() =>
      fitLogLog([
        { x: 10, y: 1 },
        { x: 10, y: 2 },
      ]),
    ).toThrow(/distinct/);
    expect(() =>
      fitLogLog([
        { x: 10, y: 0 },
        { x: 100, y: 2 },
      ]),
    ).toThrow(/positive/);
  });

  it("an operation's next run is projected from its last two measured sizes, at least linearly", () => {
    const level = (n: number, ms: number): GrowthLevel => ({
      n,
      build_ms: 0,
      build_ms_per_distillate: 0,
      data_dir_bytes: 0,
      data_dir_files: [],
      state_bytes: 0,
      state_digest: fig(1),
      ops: { replay: figure([ms], "ms") },
      skipped_ops: {},
    });
    const levels = [level(10, 1), level(100, 100)];
    // local exponent 2, plus the 0.5 margin
    expect(projectOp(levels, "replay", 1_000)).toBeCloseTo(100 * 10 ** 2.5, 6);
    // flatter than linear is projected as linear (plus the margin)
    expect(projectOp([level(10, 5), level(100, 5)], "replay", 1_000)).toBeCloseTo(5 * 10 ** 1.5, 6);
    expect(projectOp(levels, "merge", 1_000)).toBeNull();
  });
});

describe("bench goals", () => {
  it("a ratio goal is met or short, and the shortfall says by how much", () => {
    expect(meets(0.5, { comparator: ">=", target: 0.5, kind: "ratio" })).toBe(true);
    expect(meets(0.49, { comparator: ">=", target: 0.5, kind: "ratio" })).toBe(false);
    expect(meets(1, { comparator: ">", target: 1, kind: "speedup" })).toBe(false);
    const base = {
      name: "x",
      section: "s",
      measured: { value: 100, unit: "ops/s", label: "m" },
      baseline: { value: 1000, unit: "ops/s", label: "b" },
      goal: { comparator: ">=" as const, target: 0.5, kind: "ratio" as const },
      whenMet: "fine",
      whenShort: "because the disk flushes five times",
    };
    const short = evaluate({ ...base, ratio: 0.1 });
    expect(short.status).toBe("short");
    expect(short.met).toBe(false);
    expect(short.note).toBe("because the disk flushes five times");
    expect(short.short_by).toContain("0.400 below 0.5×");
    expect(short.short_by).toContain("5.00× faster would meet it");
    expect(short.goal.text).toBe("≥ 0.5×");
    const met = evaluate({ ...base, ratio: 0.7 });
    expect(met).toMatchObject({ status: "met", met: true, short_by: null, note: "fine" });
    expect(() => evaluate({ ...base, ratio: Number.NaN })).toThrow(/finite/);
    expect(() => evaluate({ ...base, ratio: 0.1, whenShort: " " })).toThrow(/without a note/);
  });

  it("exponent and speedup goals explain their shortfall in their own terms", () => {
    expect(shortfall(1.9, { comparator: "<=", target: 1.2, kind: "exponent" })).toContain(
      "exponent 1.90 is 0.700 above 1.2",
    );
    expect(shortfall(0.8, { comparator: ">", target: 1, kind: "speedup" })).toContain("25.0% slower than the baseline");
    const nm = notMeasured("g", "s", { comparator: "<=", target: 0.2, kind: "exponent" }, "the section failed: boom");
    expect(nm).toMatchObject({ status: "not measured", met: false, ratio: null, note: "the section failed: boom" });
    expect(nm.goal.text).toBe("exponent ≤ 0.2");
  });

  it("a rate goal (stated absolutely by its issue) is met or short in its unit, with no ratio column", () => {
    const spec = { comparator: ">=" as const, target: 50_000, kind: "rate" as const, unit: "steps/s" };
    expect(meets(50_000, spec)).toBe(true);
    expect(meets(49_999, spec)).toBe(false);
    expect(shortfall(10_000, spec)).toBe(
      "10,000 steps/s is 40,000 below 50,000 steps/s (20.0% of the goal; 5.00× faster would meet it)",
    );
    expect(notMeasured("m", "model", spec, "the model section failed: x").goal.text).toBe("≥ 50,000 steps/s");
  });

  it("the model goals: steps/s with where a step's time goes, and the 8-distillate walk's cases/s", () => {
    const fig = (median: number, unit: string) => ({ median, min: median, max: median, runs: 5, unit });
    const r: ModelResult = {
      sequences: 6,
      steps_per_sequence: 120,
      steps: 720,
      model_steps_per_s: fig(10_000, "steps/s"),
      model_split: { view_us: 20, materialize_us: 10, transition_us: 70 },
      differential_steps_per_s: fig(2_000, "steps/s"),
      ad3: [
        { distillates: 7, space: 322_560, checks_per_run: 7_680, checks_per_s: fig(1, "checks/s"), whole_space_s: 1 },
        {
          distillates: 8,
          space: 5_160_960,
          checks_per_run: 15_360,
          checks_per_s: fig(40_000, "checks/s"),
          replay_checks_per_s: fig(1_000, "checks/s"),
          whole_space_s: 129,
        },
      ],
    };
    const [steps, ad3] = modelGoals(r);
    expect(steps).toMatchObject({ name: MODEL_GOALS.steps.name, status: "short", ratio: 10_000 });
    // 100 µs per step, split 20/10/70: the transitions alone cap the rate at 1e6/70 steps/s.
    expect(steps?.note).toContain("100 µs per step against the 20 µs the goal allows");
    expect(steps?.note).toContain("70.0 µs in transition (70.0%)");
    expect(steps?.note).toContain("cap the rate at 14,286 steps/s");
    expect(ad3).toMatchObject({ name: MODEL_GOALS.ad3.name, status: "met", ratio: 40_000 });
    expect(ad3?.baseline?.value).toBe(1_000);
    const fast = modelGoals({ ...r, model_steps_per_s: fig(60_000, "steps/s"), ad3: [] });
    expect(fast[0]?.status).toBe("met");
    expect(fast[1]).toMatchObject({ status: "not measured", note: "no 8-distillate run in this report" });
  });

  it("the exploration goals: the overhead over bare transitions, and the distinct-state rate bounded by them", () => {
    // 88,000 steps, 10,000 distinct: 8.8 steps per distinct state; bare transitions at 80,000 steps/s cap the rate at 9,091/s.
    const [overhead, rate] = exploreGoals({
      scope: "default",
      steps: 88_000,
      distinct: 10_000,
      depth: 6,
      explore_ms: 5_500,
      bare_ms: 1_100,
      distinct_per_s: 10_000 / 5.5,
      steps_per_s: 88_000 / 5.5,
      bare_steps_per_s: 80_000,
      visited_bytes_per_million: 1,
      heap_bytes_per_million: 1,
    });
    expect(overhead).toMatchObject({ name: EXPLORE_GOALS[0].name, status: "short", ratio: 5 });
    expect(rate).toMatchObject({ name: EXPLORE_GOALS[1].name, status: "short" });
    expect(rate?.ratio).toBeCloseTo(1818.18, 1);
    expect(rate?.goal.text).toBe("≥ 30,000 distinct states/s");
    expect(rate?.note).toContain("would reach 9091 distinct/s");
  });

  it("the durable, runner and sharding goals carry the measured reasons when short", () => {
    const durable: DurableResult = {
      dir_fs: "/tmp on / (ext4)",
      writes_per_run: 100,
      fsync_loop: fig(1000, "writes/s"),
      append_fsync: fig(500, "writes/s"),
      sqlite_bare: fig(250, "transactions/s"),
      impl_in_process: fig(120, "commands/s"),
      impl_wire: null,
      impl_wire_error: "x",
      syscalls: { per_command: { fsync: 5, fdatasync: 0, write: 0, pwrite64: 18, ftruncate: 1 }, commands: 100 },
      syscalls_reason: "strace",
      data_dir_files: ["state.db (4096 B)", "state.db-journal (0 B)"],
    };
    const d = durableGoal(durable);
    expect(d.ratio).toBeCloseTo(0.12, 10);
    expect(d.status).toBe("short");
    expect(d.note).toContain("5.00 fsync/fdatasync");
    expect(d.note).toContain("0.250× the loop");
    const runner: RunnerResult = {
      seed: 7,
      runs_per_campaign: 40,
      requests_per_campaign: 2000,
      certify_steps_per_s: fig(6000, "steps/s"),
      impl_busy_percent: fig(10, "%"),
      model_steps_per_s: fig(800, "steps/s"),
      model_busy_share: 0.7,
      echo_round_trips_per_s: fig(10_000, "round trips/s"),
      plan_us_per_request: fig(90, "µs"),
      validate_us_per_request: fig(40, "µs"),
    };
    expect(runnerGoal(runner)).toMatchObject({ status: "met", ratio: 0.6 });
    const cert = (ms: number): CertRun => ({
      args: [],
      exit_code: 0,
      wall_ms: ms,
      peak_rss_bytes: 2 ** 28,
      peak_processes: 3,
      result: "certified",
      stages: [{ stage: "differential", verdict: "pass", duration_ms: ms / 2 }],
      error: null,
    });
    expect(shardingGoal(cert(100_000), cert(60_000))).toMatchObject({ status: "met" });
    expect(shardingGoal(cert(100_000), cert(120_000)).note).toContain("share the 2 cores");
    expect(shardingGoal(cert(100_000), { ...cert(1), error: "killed" }).status).toBe("not measured");
  });

  it("a growth goal is short with the state's size and digest cost as the reason", () => {
    const level = (n: number, merge: number): GrowthLevel => ({
      n,
      build_ms: n,
      build_ms_per_distillate: 1,
      data_dir_bytes: n * 100,
      data_dir_files: ["state.db"],
      state_bytes: n * 16,
      state_digest: fig(n / 1000),
      ops: {
        task_start: fig(2),
        merge: fig(merge),
        query_authority: fig(0.01),
        excise: fig(2),
        replay: fig(n / 10),
        recovery: fig(5 + n / 100),
      },
      skipped_ops: {},
    });
    const levels = [level(10, 2), level(100, 2.1), level(1_000, 4), level(10_000, 30)];
    const fits = Object.fromEntries(
      (["task_start", "merge", "query_authority", "excise", "replay", "recovery"] as const).map((op) => [
        op,
        fitLogLog(levels.map((l) => ({ x: l.n, y: l.ops[op]?.median ?? 1 }))),
      ]),
    );
    const r: GrowthResult = {
      levels_planned: [10, 100, 1_000, 10_000],
      levels,
      skipped: [],
      build_dir_fs: "shm",
      measure_dir_fs: "disk",
      fits,
      state_digest_fit: fitLogLog(levels.map((l) => ({ x: l.n, y: l.state_digest.median }))),
      budget_s: 180,
      op_cap_ms: 15_000,
      duration_ms: 1,
    };
    const goals = growthGoals(r);
    expect(goals.map((g) => g.name)).toEqual([
      "Growth: ripa.task_start",
      "Growth: samskara.merge (1 new distillate)",
      "Growth: query authority",
      "Growth: samskara.excise (most recent)",
      "Growth: samskara.replay",
      "Growth: recovery (open the data directory)",
    ]);
    const merge = goals[1];
    expect(merge?.status).toBe("short");
    expect(merge?.note).toContain("160,000 bytes of canonical JSON at N = 10,000");
    expect(goals[0]?.status).toBe("met");
    expect(goals[4]?.status).toBe("met"); // exponent 1 ≤ 1.2
  });

  it("the log goals: srk record against the direct trip and against a bare relay measured in the same run", () => {
    const base: LogResult = {
      commands: 100,
      log_bytes: 10_000,
      check_commands_per_s: fig(6000, "commands/s"),
      bare_commands_per_s: fig(10_000, "commands/s"),
      round_trips: 2000,
      direct_rtt_us: fig(50, "µs"),
      recorded_rtt_us: fig(130, "µs"),
    };
    // Before the relay was measured: the relay goal is not measured, the goal short as before.
    const old = logGoals(base);
    expect(old.map((g) => g.name)).toEqual(LOG_GOALS.map((g) => g.name));
    expect(old[1]).toMatchObject({ status: "short", ratio: 2.6 });
    expect(old[2]).toMatchObject({ status: "not measured" });
    // A relay at 2.2× the direct trip: the goal is short, and says the relay alone misses it.
    const [, direct, relay] = logGoals({ ...base, relay_rtt_us: fig(120, "µs") });
    expect(direct?.status).toBe("short");
    expect(direct?.note).toContain("took 120 µs in this run, 2.40× the direct trip");
    expect(direct?.note).toContain("no proxy process meets it");
    expect(relay).toMatchObject({ status: "met", baseline: { value: 120, label: "bare relay" } });
    expect(relay?.ratio).toBeCloseTo(130 / 120, 10);
    expect(logGoals({ ...base, relay_rtt_us: fig(100, "µs") })[2]).toMatchObject({ status: "short" });
    expect(logGoals({ ...base, relay_rtt_us: fig(52, "µs") })[1]?.note).toContain(
      "srk record's logging is what misses it",
    );
  });
});

describe("bench rendering", () => {
  it("a log-log chart is one well-formed SVG element with a point per measurement", () => {
    const svg = logLogChart({
      title: "t <&>",
      xLabel: "N",
      yUnit: "ms",
      series: [
        {
          label: "a",
          points: [
            { x: 10, y: 1, min: 0.5, max: 2 },
            { x: 10_000, y: 1_500 },
          ],
        },
        { label: "b", points: [{ x: 100, y: 0.02 }] },
      ],
    });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).not.toContain("\n");
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain("t &lt;&amp;&gt;");
    expect(svg).toContain(">1 s<"); // the decade labels in ms reach seconds
    expect(XMLValidator.validate(logLogChart({ title: "empty", xLabel: "N", yUnit: "ms", series: [] }))).toBe(true);
  });

  it("the README block replaces what is between the markers and nothing else", () => {
    const readme = `# Kit\n\nintro\n\n${README_START}\nold table\n${README_END}\n\n## Layout\n`;
    const out = spliceReadme(readme, `${README_START}\nnew table\n${README_END}`);
    expect(out).toBe(`# Kit\n\nintro\n\n${README_START}\nnew table\n${README_END}\n\n## Layout\n`);
    expect(() => spliceReadme("# no markers\n", "x")).toThrow(/bench:start/);
  });

  it("vitest's JSON report of the last run is read for the suite's wall time", () => {
    const r = readLastTestRun("/nonexistent/.last-test-run.json");
    expect(r.run).toBeNull();
    expect(r.reason).toContain("does not exist");
  });

  it("strace's summary is parsed into calls per system call", () => {
    const text = [
      "% time     seconds  usecs/call     calls    errors syscall",
      "------ ----------- ----------- --------- --------- ----------------",
      " 56.57    0.028595          95       300           fsync",
      " 40.00    0.021949          73        12         2 pwrite64",
      "------ ----------- ----------- --------- --------- ----------------",
      "100.00    0.050544          84       312         2 total",
    ].join("\n");
    expect(parseStraceSummary(text)).toEqual({ fsync: 300, pwrite64: 12 });
  });

  it("permutations and batchings of the exhaustive merge check enumerate the whole space", () => {
    const perms = new Set(Array.from({ length: 24 }, (_, k) => nthPermutation(4, k).join("")));
    expect(perms.size).toBe(24);
    expect(nthPermutation(3, 0)).toEqual([0, 1, 2]);
    expect(nthPermutation(3, 5)).toEqual([2, 1, 0]);
    expect(batchesOf([1, 2, 3], 0)).toEqual([[1, 2, 3]]);
    expect(batchesOf([1, 2, 3], 0b11)).toEqual([[1], [2], [3]]);
    expect(batchesOf([1, 2, 3], 0b10)).toEqual([[1, 2], [3]]);
  });

  it("quick runs of the in-process sections render into a complete report", () => {
    const ctx = makeContext(true, () => undefined);
    try {
      const growth = runGrowth(ctx, 20);
      const digest = runDigest(ctx);
      const model = runModel(ctx);
      expect(growth.result.levels.map((l) => l.n)).toEqual([10, 30, 100]);
      expect(growth.goals).toHaveLength(6);
      for (const l of growth.result.levels) expect(l.data_dir_files.some((f) => f.length > 0)).toBe(true);
      expect(digest.result.workloads).toHaveLength(3);
      expect(model.ad3.map((a) => a.space)).toEqual([5040 * 64, 40320 * 128]);
      expect(model.model_split?.transition_us).toBeGreaterThan(0);
      expect(modelGoals(model).map((g) => g.name)).toEqual([MODEL_GOALS.steps.name, MODEL_GOALS.ad3.name]);
      const report: BenchReport = {
        bench_version: 1,
        generated_at: "2026-01-01T00:00:00.000Z",
        quick: true,
        duration_s: 1,
        machine: {
          cpus: 2,
          cpu_model: "cpu",
          total_memory_bytes: 2 ** 30,
          node: "20",
          platform: "linux x64",
          load_start: [1, 1, 1],
          load_end: [1, 1, 1],
        },
        kit: { name: "kit", version: "0", commit: null },
        sections: {
          durable: { error: "not run in this test" },
          growth: growth.result,
          runner: { error: "not run in this test" },
          model,
          digest: digest.result,
          suite: { error: "not run in this test" },
          sharding: { error: "not run in this test" },
        },
        goals: [...growth.goals, ...digest.goals],
        bench_peak_rss_bytes: 1,
      };
      const md = renderMarkdown(report);
      expect(md.startsWith("# Benchmark\n")).toBe(true);
      expect(md).toContain("| Goal | Measured | Baseline | Ratio | Goal | Status |");
      expect(md).toContain("Not measured: not run in this test");
      const svgs = md.match(/<svg[^\n]*<\/svg>/g) ?? [];
      expect(svgs).toHaveLength(2);
      for (const s of svgs) expect(XMLValidator.validate(s)).toBe(true);
      // Each SVG stands alone on its line, between blank lines, so Markdown keeps it one HTML block.
      for (const s of svgs) expect(md).toContain(`\n\n${s}\n`);
      const block = renderReadmeBlock(report);
      expect(block.startsWith(README_START)).toBe(true);
      expect(block.endsWith(README_END)).toBe(true);
      expect(block.split("\n").filter((l) => l.startsWith("| Growth: ")).length).toBe(6);
    } finally {
      ctx.cleanup();
    }
  });
});
