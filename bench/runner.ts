/**
 * Runner overhead: generated certification steps per second of `srk certify`'s differential
 * campaign against an implementation that answers instantly, against the same wire client
 * (`WireClient`) doing bare request round trips with a child that only echoes an empty reply
 * (bench/echo-child.ts) — the transport's ceiling.
 *
 * - The instant implementation: the reference model behind the wire (bench/model-impl.ts) answers
 *   the campaign once while recording the exchange (that run is reported too: steps/s against the
 *   model itself); then it plays the recording back, answering the k-th request with the k-th
 *   recorded reply — the campaign is deterministic, and a request that differs fails it.
 * - Measured: `certify()` with only the differential stage, in process; the implementation counts
 *   the requests it answered after hello and the window from the first of them to the shutdown
 *   request (so process start-up is not counted), and how long it was busy.
 * - Baseline: the same planned requests of the same campaign (same seed, same runs), sent by a
 *   `WireClient` to the echo child, pipelined in windows of 256 as the runner does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { certify } from "../conformance/certify.ts";
import { planRun, runCaseArb } from "../conformance/stages/differential-plan.ts";
import { runSeed } from "../conformance/shard/shard.ts";
import { WireClient } from "../conformance/transport/client.ts";
import { Reply } from "../spec/wire/index.ts";
import { REPO_ROOT, type BenchContext } from "./context.ts";
import { evaluate, type Goal } from "./goals.ts";
import { figure, rateFigure, sig, type Figure } from "./stats.ts";

const FAMILIES = ["janma", "samskara", "advaita", "ripa"] as const;

export interface RunnerResult {
  readonly seed: number;
  readonly runs_per_campaign: number;
  /** Requests of one campaign (reset + planned commands and world queries, every run). */
  readonly requests_per_campaign: number;
  /** Against the recorded campaign played back (the instant implementation). */
  readonly certify_steps_per_s: Figure;
  /** Percent of the window the playing-back implementation was busy. */
  readonly impl_busy_percent: Figure;
  /** The recording run: against the model computing every reply (one run). */
  readonly model_steps_per_s: Figure;
  readonly model_busy_share: number;
  readonly echo_round_trips_per_s: Figure;
  /** In-process cost of planning the campaign with the model (the runner's oracle), per request. */
  readonly plan_us_per_request: Figure;
  /** In-process cost of reading the campaign's replies as the client does (JSON.parse + the Reply schema), per request. */
  readonly validate_us_per_request: Figure;
}

interface ImplStats {
  readonly requests: number;
  readonly window_ms: number;
  readonly busy_ms: number;
}

/** The campaign's requests as the runner plans them: per run, a reset and the planned steps. */
const campaignRequests = (seed: number, runs: number): { type: string; [k: string]: unknown }[] => {
  const out: { type: string; [k: string]: unknown }[] = [];
  for (let k = 0; k < runs; k++) {
    const [c] = fc.sample(runCaseArb(), { seed: runSeed(seed, k), numRuns: 1 });
    if (c === undefined) throw new Error("fast-check produced no run case");
    out.push({ type: "reset" });
    for (const s of planRun(c, [...FAMILIES])) out.push({ ...s.request });
  }
  return out;
};

const echoRun = async (
  requests: readonly { type: string; [k: string]: unknown }[],
): Promise<{ count: number; ms: number }> => {
  const client = WireClient.spawnRaw(
    { command: process.execPath, args: ["--import", "tsx", "bench/echo-child.ts"], cwd: REPO_ROOT },
    { timeoutMs: 60_000 },
  );
  try {
    // Warm up: the child is up and answering before the clock starts.
    const warm = await client.send({ type: "query", query: { name: "world" } });
    if (warm.kind !== "reply") throw new Error(`the echo child did not answer: ${warm.kind}`);
    const t = performance.now();
    for (let start = 0; start < requests.length; start += 256) {
      const window = requests.slice(start, start + 256).map((r, k) => client.send({ ...r, id: `e${start + k}` }));
      for (const o of window) {
        const x = await o;
        if (x.kind !== "reply") throw new Error(`the echo child did not answer a request: ${x.kind}`);
      }
    }
    return { count: requests.length, ms: performance.now() - t };
  } finally {
    await client.shutdown();
  }
};

const certifyRun = async (
  ctx: BenchContext,
  seed: number,
  runs: number,
  mode: { record: string } | { playback: string },
): Promise<ImplStats> => {
  const stats = join(ctx.tmp("runner-stats"), "stats.jsonl");
  const env =
    "record" in mode ? { BENCH_MODEL_IMPL_RECORD: mode.record } : { BENCH_MODEL_IMPL_PLAYBACK: mode.playback };
  const result = await certify({
    commandLine: "node --import tsx bench/model-impl.ts",
    cwd: REPO_ROOT,
    env: { ...process.env, BENCH_MODEL_IMPL_STATS: stats, ...env },
    seed,
    runs,
    timeBudgetMs: 600_000,
    requestTimeoutMs: 30_000,
    startupTimeoutMs: 60_000,
    only: [],
    stages: ["differential"],
    outDir: ctx.tmp("runner-cert"),
  });
  const stage = result.certificate.stages.find((s) => s.stage === "differential");
  if (stage?.verdict !== "pass")
    throw new Error(
      `the differential stage against the model behind the wire did not pass: ${stage?.verdict ?? "missing"} — ${stage?.reason ?? ""}`,
    );
  const lines = readFileSync(stats, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ImplStats);
  const busiest = lines.reduce((a, b) => (b.requests > a.requests ? b : a));
  if (busiest.requests === 0) throw new Error("the model behind the wire answered no request");
  return busiest;
};

export const runRunner = async (ctx: BenchContext): Promise<{ result: RunnerResult; goals: Goal[] }> => {
  const seed = 7;
  const runs = ctx.quick ? 3 : 40;
  const reps = ctx.quick ? 2 : 3;
  const requests = campaignRequests(seed, runs);
  const plans: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    campaignRequests(seed, runs);
    plans.push(((performance.now() - t) * 1000) / requests.length);
  }
  ctx.log("bench: runner overhead: recording the campaign against the model behind the wire");
  const recording = join(ctx.tmp("runner-recording"), "campaign.jsonl");
  const model = await certifyRun(ctx, seed, runs, { record: recording });
  // The recorded replies with an id in place of the placeholder, as the implementation sends them.
  const replies = readFileSync(recording, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l, k) => (JSON.parse(l) as { reply: string }).reply.replace('"id":null', `"id":"u1.t${k}"`));
  const validate: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    for (const line of replies) {
      if (!Reply.safeParse(JSON.parse(line)).success)
        throw new Error(`a recorded reply does not match the Reply schema: ${line.slice(0, 200)}`);
    }
    validate.push(((performance.now() - t) * 1000) / replies.length);
  }
  const cert: { count: number; ms: number }[] = [];
  const busy: number[] = [];
  const echo: { count: number; ms: number }[] = [];
  for (let r = 0; r < reps; r++) {
    ctx.log(`bench: runner overhead: run ${r + 1}/${reps}`);
    const s = await certifyRun(ctx, seed, runs, { playback: recording });
    cert.push({ count: s.requests, ms: s.window_ms });
    busy.push((100 * s.busy_ms) / Math.max(s.window_ms, 1e-6));
    echo.push(await echoRun(requests));
  }
  const result: RunnerResult = {
    seed,
    runs_per_campaign: runs,
    requests_per_campaign: requests.length,
    certify_steps_per_s: rateFigure(cert, "steps/s"),
    impl_busy_percent: figure(busy, "%"),
    model_steps_per_s: rateFigure([{ count: model.requests, ms: model.window_ms }], "steps/s"),
    model_busy_share: model.busy_ms / Math.max(model.window_ms, 1e-6),
    echo_round_trips_per_s: rateFigure(echo, "round trips/s"),
    plan_us_per_request: figure(plans, "µs"),
    validate_us_per_request: figure(validate, "µs"),
  };
  return { result, goals: [runnerGoal(result)] };
};

export const RUNNER_GOAL = {
  name: "Runner overhead: certification steps/s ÷ bare round trips/s",
  spec: { comparator: ">=", target: 0.5, kind: "ratio" },
} as const;

export const runnerGoal = (r: RunnerResult): Goal => {
  const ratio = r.certify_steps_per_s.median / r.echo_round_trips_per_s.median;
  const stepUs = 1e6 / r.certify_steps_per_s.median;
  const echoUs = 1e6 / r.echo_round_trips_per_s.median;
  const busyUs = (stepUs * r.impl_busy_percent.median) / 100;
  const split = `Per step ${sig(stepUs)} µs, of which the instant implementation was busy ${sig(busyUs)} µs (${sig(r.impl_busy_percent.median)}%); in process, planning the campaign with the model costs ${sig(r.plan_us_per_request.median)} µs per request and reading the replies as the client does (JSON.parse and the Reply schema) ${sig(r.validate_us_per_request.median)} µs; a bare round trip costs ${sig(echoUs)} µs. Against the model computing every reply the runner reaches ${sig(r.model_steps_per_s.median)} steps/s (the model busy ${sig(r.model_busy_share * 100)}% of the time)`;
  return evaluate({
    name: RUNNER_GOAL.name,
    section: "runner",
    measured: {
      value: r.certify_steps_per_s.median,
      unit: "steps/s",
      label: `srk certify, differential stage, ${r.runs_per_campaign} runs, instant implementation`,
    },
    baseline: {
      value: r.echo_round_trips_per_s.median,
      unit: "round trips/s",
      label: "the same WireClient and requests, echo child",
    },
    ratio,
    goal: RUNNER_GOAL.spec,
    whenMet: `${split}.`,
    whenShort: `${split}. What separates a certification step from a bare round trip is the runner's own work: it plans every step with the reference model (a transition and two world views per step: one to generate the next command, one kept as the expected world), validates every reply against the wire schema (a whole world view every 10th step) and compares it with the model's; on 2 cores the runner and the child also compete for the CPU.`,
  });
};
