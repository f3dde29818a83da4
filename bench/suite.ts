/**
 * Test suite and default certification: wall time and peak memory.
 *
 * - The test suite: running all of `npm test` inside the benchmark would take minutes of the
 *   10-minute budget, so the benchmark reads the last run's report instead — vitest's JSON report
 *   `reports/.last-test-run.json` (written by every `vitest run`, see vitest.config.ts): its
 *   start time and each file's start and end give the wall time; the report says whether that run
 *   covered every test file. vitest does not record memory; with BENCH_SUITE=1 the benchmark runs
 *   `vitest run` itself under the process-tree memory sampler (bench/proc.ts).
 * - The default certification: `node bin/srk.mjs certify --impl "node --import tsx impl/main.ts"`
 *   with the default settings (seed 1, 300 runs), into a temporary directory, measured from the
 *   outside: wall time and the peak of the summed RSS of the runner and every implementation
 *   process it starts. Its certificate gives the time of each stage. (The same campaign with
 *   `--jobs 2` is bench/sharding.ts.)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT, type BenchContext } from "./context.ts";
import { runMeasured, PROC_AVAILABLE, type MeasuredRun } from "./proc.ts";

export interface LastTestRun {
  readonly report: string;
  readonly started_at: string;
  readonly wall_ms: number;
  readonly files: number;
  readonly tests: number;
  readonly passed: number;
  readonly failed: number;
  readonly success: boolean;
  /** Test files matching the suite's include pattern in this checkout. */
  readonly files_in_checkout: number;
  readonly complete: boolean;
  readonly slowest: readonly { readonly file: string; readonly ms: number }[];
}

export interface CertRun {
  readonly args: readonly string[];
  readonly exit_code: number | null;
  readonly wall_ms: number;
  readonly peak_rss_bytes: number | null;
  readonly peak_processes: number;
  readonly result: string | null;
  readonly stages: readonly { readonly stage: string; readonly verdict: string; readonly duration_ms: number }[];
  readonly error: string | null;
}

export interface SuiteResult {
  readonly last_test_run: LastTestRun | null;
  readonly last_test_run_reason: string;
  /**
   * The last run that covered every test file: the one above when it did, else the one the
   * previous reports/bench.json kept (other runs, e.g. of a single file, overwrite vitest's report).
   */
  readonly last_complete_test_run: LastTestRun | null;
  /** BENCH_SUITE=1 only: `vitest run` measured by the benchmark. */
  readonly suite_measured: {
    readonly wall_ms: number;
    readonly peak_rss_bytes: number | null;
    readonly exit_code: number | null;
  } | null;
  readonly certification: CertRun;
  readonly memory_method: string;
}

/** The suite's test files in this checkout, as vitest.config.ts includes them. */
const suiteFiles = (): string[] => {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".test.ts")) out.push(p);
    }
  };
  for (const top of ["spec", "model", "impl", "properties", "conformance", "reports"])
    if (existsSync(join(REPO_ROOT, top))) walk(top);
  return out;
};

interface VitestJson {
  startTime: number;
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** Reads vitest's JSON report of the last suite run (null with the reason when there is none). */
export const readLastTestRun = (
  path = join(REPO_ROOT, "reports", ".last-test-run.json"),
): { run: LastTestRun | null; reason: string } => {
  if (!existsSync(path))
    return { run: null, reason: `${relative(REPO_ROOT, path)} does not exist: run npm test first` };
  let j: VitestJson;
  try {
    j = JSON.parse(readFileSync(path, "utf8")) as VitestJson;
  } catch (e) {
    return {
      run: null,
      reason: `${relative(REPO_ROOT, path)} is not JSON: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  if (!Array.isArray(j.testResults) || typeof j.startTime !== "number")
    return { run: null, reason: `${relative(REPO_ROOT, path)} is not a vitest JSON report` };
  const end = Math.max(j.startTime, ...j.testResults.map((t) => t.endTime));
  const inCheckout = suiteFiles();
  const ran = new Set(j.testResults.map((t) => relative(REPO_ROOT, t.name)));
  const complete = inCheckout.every((f) => ran.has(f));
  const run: LastTestRun = {
    report: relative(REPO_ROOT, path),
    started_at: new Date(j.startTime).toISOString(),
    wall_ms: end - j.startTime,
    files: j.testResults.length,
    tests: j.numTotalTests,
    passed: j.numPassedTests,
    failed: j.numFailedTests,
    success: j.success,
    files_in_checkout: inCheckout.length,
    complete,
    slowest: j.testResults
      .map((t) => ({ file: relative(REPO_ROOT, t.name), ms: t.endTime - t.startTime }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5),
  };
  return {
    run,
    reason: complete
      ? "the last vitest run covered every test file of the suite (vitest records no memory)"
      : `the last vitest run covered ${ran.size} of the ${inCheckout.length} test files the checkout had when the benchmark ran (a partial run: its wall time is not the whole suite's); vitest records no memory`,
  };
};

/** The last complete suite run the previous benchmark report recorded, if any. */
const previousCompleteRun = (file = join(REPO_ROOT, "reports", "bench.json")): LastTestRun | null => {
  try {
    const prev = JSON.parse(readFileSync(file, "utf8")) as {
      sections?: { suite?: { last_complete_test_run?: LastTestRun | null } };
    };
    const run = prev.sections?.suite?.last_complete_test_run ?? null;
    return run !== null && run.complete === true && typeof run.wall_ms === "number" ? run : null;
  } catch {
    return null;
  }
};

export const certArgs = (quick: boolean, out: string): string[] => [
  "bin/srk.mjs",
  "certify",
  "--impl",
  "node --import tsx impl/main.ts",
  "--out",
  out,
  ...(quick ? ["--runs", "2", "--time-budget", "20"] : []),
];

/** Runs `node bin/srk.mjs certify …` measured from the outside; reads its certificate. */
export const measureCertification = async (
  ctx: BenchContext,
  args: readonly string[],
  out: string,
  timeoutMs: number,
): Promise<CertRun> => {
  let run: MeasuredRun;
  try {
    run = await runMeasured(process.execPath, args, {
      cwd: REPO_ROOT,
      timeoutMs,
      onStderrLine: (l) => {
        if (/^srk: \w+: /.test(l) || l.includes("] srk: ")) ctx.log(`bench:   ${l.trim()}`);
      },
    });
  } catch (e) {
    return {
      args,
      exit_code: null,
      wall_ms: 0,
      peak_rss_bytes: null,
      peak_processes: 0,
      result: null,
      stages: [],
      error: e instanceof Error ? e.message : String(e),
    };
  }
  const certPath = join(out, "certificate.json");
  let result: string | null = null;
  let stages: CertRun["stages"] = [];
  let error: string | null = null;
  if (existsSync(certPath)) {
    const c = JSON.parse(readFileSync(certPath, "utf8")) as {
      result?: string;
      stages?: { stage: string; verdict: string; duration_ms: number }[];
    };
    result = c.result ?? null;
    stages = (c.stages ?? []).map((s) => ({ stage: s.stage, verdict: s.verdict, duration_ms: s.duration_ms }));
  } else {
    error = `no certificate was written (exit ${run.code ?? run.signal ?? "?"}${run.wallMs >= timeoutMs ? `, killed at the ${Math.round(timeoutMs / 1000)} s limit` : ""}): ${run.stderrTail.slice(-400)}`;
  }
  return {
    args,
    exit_code: run.code,
    wall_ms: run.wallMs,
    peak_rss_bytes: run.peakRssBytes,
    peak_processes: run.peakProcesses,
    result,
    stages,
    error,
  };
};

export const runSuite = async (ctx: BenchContext): Promise<SuiteResult> => {
  let suite: SuiteResult["suite_measured"] = null;
  if (process.env["BENCH_SUITE"] === "1") {
    ctx.log("bench: test suite (BENCH_SUITE=1): vitest run");
    const r = await runMeasured(process.execPath, [join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs"), "run"], {
      cwd: REPO_ROOT,
      timeoutMs: 1_800_000,
    });
    suite = { wall_ms: r.wallMs, peak_rss_bytes: r.peakRssBytes, exit_code: r.code };
  }
  const last = readLastTestRun();
  const complete = last.run?.complete === true ? last.run : previousCompleteRun();
  ctx.log("bench: default certification (srk certify, default settings)");
  const out = ctx.tmp("cert-default");
  const certification = await measureCertification(ctx, certArgs(ctx.quick, out), out, ctx.quick ? 120_000 : 480_000);
  return {
    last_test_run: last.run,
    last_test_run_reason: last.reason,
    last_complete_test_run: complete,
    suite_measured: suite,
    certification,
    memory_method: PROC_AVAILABLE
      ? "peak of the summed resident set size (VmRSS) of the process and all its descendants, sampled every 100 ms from /proc"
      : "not measured: /proc is not available on this system",
  };
};
