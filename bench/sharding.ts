/**
 * Sharding: the default certification campaign (bench/suite.ts runs it with `--jobs 1`, the
 * default) again with `--jobs 2` — two runner processes, each with its half of every stage's
 * units, then merged (D-038) — right after it, measured the same way. The speedup is the
 * `--jobs 1` wall time over the `--jobs 2` wall time; the goal is that two jobs are measurably
 * faster on this 2-core machine.
 */
import type { BenchContext } from "./context.ts";
import { evaluate, notMeasured, type Goal } from "./goals.ts";
import { sig } from "./stats.ts";
import { certArgs, measureCertification, type CertRun } from "./suite.ts";

export interface ShardingResult {
  readonly jobs1: CertRun;
  readonly jobs2: CertRun;
  readonly speedup: number | null;
}

export const SHARDING_GOAL = { comparator: ">" as const, target: 1, kind: "speedup" as const };
export const SHARDING_GOAL_NAME = "Sharding: srk certify --jobs 2 speedup over --jobs 1 (same campaign)";

export const runSharding = async (
  ctx: BenchContext,
  jobs1: CertRun,
): Promise<{ result: ShardingResult; goals: Goal[] }> => {
  ctx.log("bench: sharding: the same certification with --jobs 2");
  const out = ctx.tmp("cert-jobs2");
  const jobs2 = await measureCertification(
    ctx,
    [...certArgs(ctx.quick, out), "--jobs", "2"],
    out,
    ctx.quick ? 120_000 : 480_000,
  );
  const ok = jobs1.error === null && jobs2.error === null && jobs1.wall_ms > 0 && jobs2.wall_ms > 0;
  const speedup = ok ? jobs1.wall_ms / jobs2.wall_ms : null;
  return { result: { jobs1, jobs2, speedup }, goals: [shardingGoal(jobs1, jobs2)] };
};

export const shardingGoal = (jobs1: CertRun, jobs2: CertRun): Goal => {
  if (jobs1.error !== null || jobs2.error !== null) {
    return notMeasured(
      SHARDING_GOAL_NAME,
      "sharding",
      SHARDING_GOAL,
      `a certification did not complete: ${jobs1.error ?? jobs2.error ?? ""}`,
    );
  }
  const speedup = jobs1.wall_ms / jobs2.wall_ms;
  const slowest = (r: CertRun): string => {
    const s = [...r.stages].sort((a, b) => b.duration_ms - a.duration_ms)[0];
    return s === undefined ? "" : `${s.stage} ${sig(s.duration_ms / 1000)} s`;
  };
  const memory =
    jobs1.peak_rss_bytes !== null && jobs2.peak_rss_bytes !== null
      ? `; peak memory ${sig(jobs1.peak_rss_bytes / 2 ** 20)} MiB with 1 job, ${sig(jobs2.peak_rss_bytes / 2 ** 20)} MiB with 2`
      : "";
  return evaluate({
    name: SHARDING_GOAL_NAME,
    section: "sharding",
    measured: { value: jobs2.wall_ms / 1000, unit: "s", label: "srk certify --jobs 2 (default campaign)" },
    baseline: { value: jobs1.wall_ms / 1000, unit: "s", label: "srk certify --jobs 1 (the default certification)" },
    ratio: speedup,
    goal: SHARDING_GOAL,
    whenMet: `One run each (a certification takes minutes); the slowest stage with 1 job was ${slowest(jobs1)}, the slowest of the merged shards ${slowest(jobs2)}${memory}.`,
    whenShort: `One run each; two runner processes and their implementation processes share the 2 cores with each other (and with any other load on the machine), so the parallel part does not shrink by half; the slowest stage with 1 job was ${slowest(jobs1)}, of the merged shards ${slowest(jobs2)}${memory}.`,
  });
};
