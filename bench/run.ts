/**
 * `npm run bench`: measures the kit and writes reports/bench.json and reports/bench.md, and the
 * goals table into README.md between `<!-- bench:start -->` and `<!-- bench:end -->`.
 *
 * Sections (one file each): durable write (bench/durable.ts), digest (bench/digest.ts), model
 * and differential steps/s with exhaustive merge order-independence (bench/model.ts), runner
 * overhead (bench/runner.ts), growth with N (bench/growth.ts), test suite and the default
 * certification (bench/suite.ts), the same certification with `--jobs 2` (bench/sharding.ts), and
 * the start of `srk --help` and `srk list` from the packed package (bench/startup.ts).
 * A section that fails is reported as not measured, with the error; the others still run.
 *
 * Environment:
 *   BENCH_QUICK=1            smoke mode: small sizes, a short certification; writes to a temporary
 *                            directory (or BENCH_OUT) and leaves the README alone
 *   BENCH_OUT=<dir>          where to write bench.json and bench.md (default: reports/)
 *   BENCH_GROWTH_BUDGET_S=n  seconds for the growth section (default 180; quick 20)
 *   BENCH_SUITE=1            also run the whole vitest suite, measuring its wall time and memory
 *
 * `npm run bench -- --render-only` recomputes the goals and rewrites bench.md (and the README
 * block) from bench.json's data, without measuring.
 *
 * The whole run stays under 10 minutes on 2 cores: the growth section adapts N to its budget and
 * the certifications are bounded by a timeout.
 */
import { LOG_GOALS, logGoals, runLog, type LogResult } from "./log.ts";
import { EXPLORE_GOALS, exploreGoals, runExplore, type ExploreBenchResult } from "./explore.ts";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { currentInputs, inputChanges, inputsOf } from "../conformance/evidence/inputs.ts";
import { makeContext, REPO_ROOT, type BenchContext } from "./context.ts";
import {
  DIGEST_GOAL_SPEC,
  DIGEST_WORKLOADS,
  digestGoal,
  digestGoalName,
  runDigest,
  type DigestResult,
} from "./digest.ts";
import { DURABLE_GOAL, durableGoal, runDurable, type DurableResult } from "./durable.ts";
import { notMeasured, type Goal } from "./goals.ts";
import { GROWTH_GOALS, GROWTH_OPS, OP_LABELS, growthGoals, runGrowth, type GrowthResult } from "./growth.ts";
import { MODEL_GOALS, modelGoals, runModel, type ModelResult } from "./model.ts";
import { renderMarkdown, renderReadmeBlock, goalsTable, spliceReadme } from "./render.ts";
import { isError, type BenchReport, type Section, type SectionError } from "./report.ts";
import { RUNNER_GOAL, runRunner, runnerGoal, type RunnerResult } from "./runner.ts";
import { runSharding, SHARDING_GOAL, SHARDING_GOAL_NAME, shardingGoal, type ShardingResult } from "./sharding.ts";
import { runSuite, type SuiteResult } from "./suite.ts";
import { runStartup, startupGoals, startupNotMeasured, type StartupResult } from "./startup.ts";

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** Runs a section; on failure the section is the error (its goals are then "not measured"). */
const section = async <T>(ctx: BenchContext, name: string, f: () => Promise<T>): Promise<Section<T>> => {
  const t = Date.now();
  try {
    const r = await f();
    ctx.log(`bench: ${name} done in ${Math.round((Date.now() - t) / 1000)} s`);
    return r;
  } catch (e) {
    ctx.log(`bench: ${name} FAILED: ${message(e)}`);
    if (e instanceof Error && e.stack !== undefined) ctx.log(e.stack);
    return { error: message(e) };
  }
};

/** Every goal, from the sections' data alone (so a report can be re-rendered without measuring again). */
export const goalsOf = (s: BenchReport["sections"]): Goal[] => {
  const why = (name: string, x: SectionError): string => `the ${name} section failed: ${x.error}`;
  return [
    ...(isError(s.durable)
      ? [notMeasured(DURABLE_GOAL.name, "durable", DURABLE_GOAL.spec, why("durable write", s.durable))]
      : [durableGoal(s.durable)]),
    ...(isError(s.growth)
      ? GROWTH_OPS.flatMap((op) => {
          const spec = GROWTH_GOALS[op];
          return spec === undefined || !isError(s.growth)
            ? []
            : [notMeasured(`Growth: ${OP_LABELS[op]}`, "growth", spec, why("growth", s.growth))];
        })
      : growthGoals(s.growth)),
    ...(isError(s.runner)
      ? [notMeasured(RUNNER_GOAL.name, "runner", RUNNER_GOAL.spec, why("runner overhead", s.runner))]
      : [runnerGoal(s.runner)]),
    ...(isError(s.model)
      ? [MODEL_GOALS.steps, MODEL_GOALS.ad3].map((g) =>
          notMeasured(g.name, "model", g.spec, why("model", s.model as SectionError)),
        )
      : modelGoals(s.model)),
    ...(isError(s.digest)
      ? DIGEST_WORKLOADS.map((w) =>
          notMeasured(digestGoalName(w), "digest", DIGEST_GOAL_SPEC, why("digest", s.digest as SectionError)),
        )
      : s.digest.workloads.map(digestGoal)),
    ...(isError(s.sharding)
      ? [notMeasured(SHARDING_GOAL_NAME, "sharding", SHARDING_GOAL, why("sharding", s.sharding))]
      : [shardingGoal(s.sharding.jobs1, s.sharding.jobs2)]),
    ...(s.startup === undefined
      ? startupNotMeasured("this report was made before the startup section existed")
      : isError(s.startup)
        ? startupNotMeasured(why("startup", s.startup))
        : startupGoals(s.startup)),
    ...(s.log === undefined
      ? LOG_GOALS.map((g) => notMeasured(g.name, "log", g.spec, "this report was made before the log section existed"))
      : isError(s.log)
        ? LOG_GOALS.map((g) => notMeasured(g.name, "log", g.spec, why("log", s.log as SectionError)))
        : logGoals(s.log)),
    ...(s.explore === undefined
      ? EXPLORE_GOALS.map((g) =>
          notMeasured(g.name, "explore", g.spec, "this report was made before the explore section existed"),
        )
      : isError(s.explore)
        ? EXPLORE_GOALS.map((g) => notMeasured(g.name, "explore", g.spec, why("explore", s.explore as SectionError)))
        : exploreGoals(s.explore)),
  ];
};

const write = (report: BenchReport, outDir: string, updateReadme: boolean): void => {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "bench.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, "bench.md"), renderMarkdown(report));
  if (updateReadme) {
    const readme = join(REPO_ROOT, "README.md");
    writeFileSync(readme, spliceReadme(readFileSync(readme, "utf8"), renderReadmeBlock(report)));
  }
};

/** The kit measured, at the commit its inputs were recorded at (null outside git). */
const kit = (commit: string): BenchReport["kit"] => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version, commit: commit === "unknown" ? null : commit };
};

export const runBench = async (o: {
  quick: boolean;
  outDir: string;
  updateReadme: boolean;
  growthBudgetS: number;
}): Promise<BenchReport> => {
  const ctx = makeContext(o.quick);
  // What is measured, before measuring: the commit and the digest of every input (conformance/evidence/inputs.ts).
  const inputs = inputsOf("bench");
  const loadStart = loadavg();
  const generatedAt = new Date().toISOString();
  try {
    const startup = await section<StartupResult>(ctx, "startup", async () => runStartup(ctx));
    const durable = await section<DurableResult>(ctx, "durable write", async () => (await runDurable(ctx)).result);
    const digest = await section<DigestResult>(ctx, "digest", async () => runDigest(ctx).result);
    const model = await section<ModelResult>(ctx, "model", async () => runModel(ctx));
    const runner = await section<RunnerResult>(ctx, "runner overhead", async () => (await runRunner(ctx)).result);
    const growth = await section<GrowthResult>(ctx, "growth", async () => runGrowth(ctx, o.growthBudgetS).result);
    const suite = await section<SuiteResult>(ctx, "test suite and certification", () => runSuite(ctx));
    const sharding = await section<ShardingResult>(ctx, "sharding", async () => {
      if (isError(suite)) throw new Error("the --jobs 1 certification it compares with did not run");
      return (await runSharding(ctx, suite.certification)).result;
    });
    const log = await section<LogResult>(ctx, "log", async () => runLog(ctx));
    const explored = await section<ExploreBenchResult>(ctx, "explore", async () => runExplore(ctx));
    const sections: BenchReport["sections"] = {
      durable,
      growth,
      runner,
      model,
      digest,
      suite,
      sharding,
      startup,
      log,
      explore: explored,
    };
    const changed = inputChanges(inputs, currentInputs("bench"));
    if (changed.length > 0)
      throw new Error(
        `inputs changed while the benchmark ran, its figures are of no one commit; nothing written, run again:\n  ${changed.join("\n  ")}`,
      );
    const report: BenchReport = {
      bench_version: 1,
      generated_at: generatedAt,
      quick: o.quick,
      duration_s: ctx.elapsedS(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model.trim() ?? "unknown",
        total_memory_bytes: totalmem(),
        node: process.versions.node,
        platform: `${process.platform} ${process.arch}`,
        load_start: loadStart,
        load_end: loadavg(),
      },
      kit: kit(inputs.commit),
      inputs,
      sections,
      goals: goalsOf(sections),
      bench_peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
    };
    write(report, o.outDir, o.updateReadme);
    return report;
  } finally {
    ctx.cleanup();
  }
};

/** `--render-only`: the goals, bench.md and the README block again from bench.json's data (no measuring). */
export const rerender = (outDir: string, updateReadme: boolean): BenchReport => {
  const old = JSON.parse(readFileSync(join(outDir, "bench.json"), "utf8")) as BenchReport;
  if (old.bench_version !== 1)
    throw new Error(`${join(outDir, "bench.json")}: unknown bench_version ${String(old.bench_version)}`);
  const report: BenchReport = { ...old, goals: goalsOf(old.sections) };
  write(report, outDir, updateReadme);
  return report;
};

const main = async (): Promise<void> => {
  const quick = process.env["BENCH_QUICK"] === "1";
  const out = process.env["BENCH_OUT"];
  const outDir =
    out !== undefined && out !== ""
      ? out
      : quick
        ? mkdtempSync(join(tmpdir(), "srk-bench-quick-"))
        : join(REPO_ROOT, "reports");
  const budget = Number(process.env["BENCH_GROWTH_BUDGET_S"] ?? (quick ? 20 : 180));
  if (!Number.isFinite(budget) || budget <= 0)
    throw new Error(
      `BENCH_GROWTH_BUDGET_S must be a positive number of seconds, got ${process.env["BENCH_GROWTH_BUDGET_S"]}`,
    );
  const updateReadme = !quick && (out === undefined || out === "");
  if (process.argv.includes("--render-only")) {
    const report = rerender(outDir, updateReadme);
    process.stdout.write(
      `${goalsTable(report.goals)}\n\nre-rendered ${join(outDir, "bench.md")} from ${join(outDir, "bench.json")}\n`,
    );
    return;
  }
  const report = await runBench({ quick, outDir, updateReadme, growthBudgetS: budget });
  process.stdout.write(
    `${goalsTable(report.goals)}\n\nwrote ${join(outDir, "bench.json")} and ${join(outDir, "bench.md")} in ${Math.round(report.duration_s)} s\n`,
  );
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(70);
  });
}
