/**
 * `srk certify`: certifies an implementation over the wire, stage by stage, and writes
 * `certificate.json` (spec/certificate.ts) with one portable trace per counterexample.
 *
 * Bounded whatever the implementation does: every request has a timeout, every stage runs under
 * the time budget plus a grace period after which its processes are killed, and the certificate
 * is written in every case — with `inconclusive` and the reason when the implementation could not
 * be driven, and with faults of the runner itself reported apart (`harness_faults`). The one
 * exception: a command line whose program cannot be started at all (no such program, not
 * executable) is a usage error (UsageError, exit 64) and nothing is written.
 *
 * Cancellation (core/abort.ts): each stage runs under a signal that combines the caller's
 * (`signal`: `srk certify` aborts it on SIGINT or SIGTERM) with the stage's hard time limit. When
 * it fires, the transport stops the stage's processes and rejects its requests, the stage is
 * recorded as cut short, the stages after it as not run, and the certificate of what was done is
 * written as always; `certify` returns once every process it started is gone.
 */
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ShrinkLedger } from "./shrink-budget.ts";
import {
  Certificate,
  CERTIFICATE_VERSION,
  STAGES,
  type CounterexampleRef,
  type StageName,
  type StageResult,
} from "../spec/certificate.ts";
import type { InvariantId } from "../spec/catalog.ts";
import type { HelloResult } from "../spec/wire/index.ts";
import { WHOLE, type Shard } from "./shard/shard.ts";
import { specDigest } from "./certificate/spec-digest.ts";
import { Target } from "./driver/target.ts";
import { silentProgress, type Progress } from "./core/progress.ts";
import { KIT_ROOT } from "./kit-root.ts";
import { writeJsonAtomic } from "./trace/trace.ts";
import { EMPTY_BASELINE, type Baseline } from "./verdicts/baseline.ts";
import { certificateFacts, decide, judge, STAGE_CONCERNS, type StageSummary } from "./verdicts/decide.ts";
import { WitnessBook } from "./verdicts/witnesses.ts";
import { CoverageBook } from "./oracle/transitions.ts";
import { writeReports } from "./reporters/write.ts";
import { prepareOutDir } from "./reporters/out-dir.ts";
import { STAGE_RUNNERS } from "./stages/registry.ts";
import { checkIgnoredShutdowns } from "./stages/shutdowns.ts";
import { DEFAULT_EXHAUSTIVE_SCOPE } from "./stages/exhaustive-scope.ts";
import { coverOf, scopeOf } from "./stages/scope-cover.ts";
import { edgeCoverage } from "./oracle/abstract-edges.ts";
import {
  outcome,
  Undrivable,
  WireBreak,
  type CertifySettings,
  type Finding,
  type StageContext,
  type StageOutcome,
} from "./stages/types.ts";
import type { CertifyResult } from "./core/certify-result.ts";
import { shellWord as shq } from "./core/shell.ts";
import { CutShort, cutShortOf, manyListeners, timeLimit, whenAborted } from "./core/abort.ts";

export interface CertifyOptions extends CertifySettings {
  readonly commandLine: string;
  /** Working directory of the implementation (default: the runner's). */
  readonly cwd?: string;
  /**
   * Where to write; a function gets the implementation's name from hello (null if none). The
   * folder must be new, empty or an earlier srk report (which is replaced); anything else is
   * refused with a UsageError before anything is written (conformance/reporters/out-dir.ts).
   */
  readonly outDir: string | ((implName: string | null) => string);
  readonly dataDir?: string;
  readonly baseline?: Baseline;
  readonly progress?: Progress;
  /** Run only these stages (tests); default: all, less those --only makes irrelevant. */
  readonly stages?: readonly StageName[];
  readonly env?: NodeJS.ProcessEnv;
  /** Run only this shard of the campaign (D-038); the whole campaign by default. */
  readonly shard?: Shard;
  /** Stop after the first stage that finds a violation (the rest are reported as skipped). */
  readonly failFast?: boolean;
  /** Where the runner makes its data directories (default: a fresh temporary directory). */
  readonly dataRoot?: string;
  /** Extra time a stage may overrun the budget before its processes are killed. */
  readonly graceMs?: number;
  /**
   * Cuts the certification short when it fires: the stage under way stops (its processes are
   * terminated), the rest are not run, and the partial certificate is written and returned. Its
   * reason, a CutShort (core/abort.ts), says why in the certificate ("interrupted by SIGINT").
   */
  readonly signal?: AbortSignal;
}

// What a certification returns is vocabulary its reporters, the shard merge and the library share:
// core/certify-result.ts, so that the reporters need not import certify back.
export type { CertifyResult };

const kitVersion = (): { name: string; version: string } => {
  const pkg = JSON.parse(readFileSync(join(KIT_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
};

/** The stages a run executes: all, or those concerning a selected invariant (the wire stage concerns none). */
export const stagesFor = (only: readonly InvariantId[], requested?: readonly StageName[]): StageName[] =>
  STAGES.filter((s) => (requested === undefined ? true : requested.includes(s))).filter(
    (s) => s === "handshake" || only.length === 0 || STAGE_CONCERNS[s].some((id) => only.includes(id)),
  );

/** Why a stage's hard time limit (the budget plus grace) cuts it short; the reason its outcome has always given. */
const STAGE_TIME_LIMIT = new CutShort("the stage did not finish within the time budget (+ grace)");

/** The outcome of a stage its signal cut short: the time limit's as it always read, an interrupt's saying so. */
const cutOutcome = (c: CutShort, ms: number): StageOutcome =>
  c === STAGE_TIME_LIMIT
    ? outcome("inconclusive", `${c.why}; its processes were killed`, 0)
    : outcome(
        "inconclusive",
        `${c.message}; its processes were stopped and what it found so far is not reported`,
        0,
        [],
        [`cut short after ${ms} ms of this stage`],
      );

/**
 * The stage's outcome, or the CutShort of `signal` as soon as it fires: the stage is not waited
 * for once cut (its processes are being stopped and nothing it still does is recorded).
 */
const untilCut = async (run: Promise<StageOutcome>, signal: AbortSignal): Promise<StageOutcome> => {
  // A stage still unwinding after the cut must not end the runner with an unhandled rejection.
  run.catch(() => undefined);
  const cut = whenAborted(signal);
  try {
    return await Promise.race([run, cut.promise]);
  } finally {
    cut.stop();
  }
};

export const certify = async (o: CertifyOptions): Promise<CertifyResult> => {
  const progress = o.progress ?? silentProgress;
  const shard = o.shard ?? WHOLE;
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const deadline = started + o.timeBudgetMs;
  const grace = o.graceMs ?? 30_000;
  const witnesses = new WitnessBook();
  const coverage = new CoverageBook();
  const harnessFaults: string[] = [];
  const implementationFaults: string[] = [];
  const results: StageResult[] = [];
  const summaries: StageSummary[] = [];
  const traces: { file: string; trace: unknown }[] = [];
  const refs = new Map<Finding, CounterexampleRef>();
  const plan = stagesFor(o.only, o.stages);
  const target = new Target({
    commandLine: o.commandLine,
    requestTimeoutMs: o.requestTimeoutMs,
    startupTimeoutMs: o.startupTimeoutMs,
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
    ...(o.dataRoot === undefined ? {} : { dataRoot: o.dataRoot }),
    ...(o.dataDir === undefined ? {} : { dataDir: o.dataDir }),
    ...(o.env === undefined ? {} : { env: o.env }),
  });

  let hello: HelloResult | null = null;
  let outDir: string | null = typeof o.outDir === "string" ? o.outDir : null;
  const out = (): string => {
    if (outDir === null)
      outDir = typeof o.outDir === "string" ? o.outDir : o.outDir(hello?.implementation.name ?? null);
    return outDir;
  };
  const record = (stage: StageName, out_: StageOutcome, ms: number): void => {
    for (const f of out_.findings) {
      let traceFile: string | null = null;
      if (f.trace !== null) {
        traceFile = `traces/${stage}-${f.invariant ?? "wire"}-${traces.length + 1}.json`;
        traces.push({ file: traceFile, trace: f.trace });
      }
      const cut =
        f.trace?.shrink?.interrupted === true
          ? { shrunk: false as const, shrink_reason: f.trace.shrink.reason ?? "interrupted" }
          : {};
      refs.set(f, {
        invariant: f.invariant,
        stage: f.stage,
        check: f.check,
        summary: f.summary,
        steps: f.trace?.steps.length ?? 0,
        trace_file: traceFile,
        ...cut,
        replay:
          traceFile !== null
            ? `npx srk replay ${shq(join(out(), traceFile))} --impl ${shq(o.commandLine)}`
            : f.rerun !== undefined
              ? `npx srk ${f.rerun} --impl ${shq(o.commandLine)}`
              : null,
      });
    }
    const findings = out_.findings.map((f) => refs.get(f) as CounterexampleRef);
    results.push({
      stage,
      verdict: out_.verdict,
      reason: out_.reason,
      checks: out_.checks,
      duration_ms: ms,
      findings,
      notes: [...out_.notes],
    });
    summaries.push({ stage, verdict: out_.verdict, reason: out_.reason, findings: out_.findings });
    progress.line(`srk: ${stage}: ${out_.verdict} — ${out_.reason}`);
  };

  // A folder given by name is checked before anything runs (and cleared once the program has
  // started: a command line that cannot start is a usage error that leaves an earlier report as it
  // was, and writes no certificate); a name from hello, once hello is in.
  if (outDir !== null) prepareOutDir(outDir, { clear: false });
  // The first handshake is stopped by the caller's signal only; each stage's adds its time limit.
  target.signal = o.signal;
  try {
    try {
      const first = await target.openFirst(() => progress.stage("start", o.commandLine));
      hello = first.client.hello;
      const violations = first.client.violations;
      await first.close();
      if (violations.length > 0)
        implementationFaults.push(...violations.map((v) => `${v.rule}: ${v.message}: ${v.raw}`));
    } catch (e) {
      if (e instanceof CutShort) {
        record("handshake", cutOutcome(e, Date.now() - started), Date.now() - started);
      } else if (e instanceof Undrivable || e instanceof WireBreak) {
        implementationFaults.push(e.message);
        const out = outcome(
          e instanceof WireBreak ? "fail" : "inconclusive",
          `the first handshake failed: ${e.message}`,
          1,
          e instanceof WireBreak
            ? [
                {
                  invariant: null,
                  stage: "handshake",
                  check: `handshake/${e.rule}`,
                  summary: `${e.message}; raw: ${e.raw}`,
                  trace: null,
                },
              ]
            : [],
        );
        record("handshake", out, Date.now() - started);
      } else throw e;
    }

    prepareOutDir(out());
    if (hello !== null) {
      const ctx: StageContext = {
        settings: o,
        hello,
        families: hello.profile.families,
        crashHook: hello.profile.crash_hook,
        // One shrink budget for every stage of this certification (D-064).
        shrinkLedger: new ShrinkLedger(o.timeBudgetMs),
        target,
        witnesses,
        coverage,
        progress,
        deadline,
        ...(o.signal === undefined ? {} : { signal: o.signal }),
        ...(o.shard === undefined ? {} : { shard: o.shard }),
        ...(o.failFast === true ? { failFast: true } : {}),
      };
      for (const stage of plan) {
        const t0 = Date.now();
        progress.stage(stage);
        let out: StageOutcome;
        if (o.signal?.aborted === true) {
          out = outcome("inconclusive", `not run: the certification was ${cutShortOf(o.signal).message}`, 0);
        } else if (o.failFast === true && summaries.some((x) => x.findings.length > 0)) {
          out = outcome("inconclusive", "skipped: an earlier stage found a violation (--fail-fast)", 0);
        } else if (Date.now() >= deadline) {
          out = outcome("inconclusive", "the time budget ended before this stage", 0);
        } else {
          const limit = timeLimit(deadline - Date.now() + grace, STAGE_TIME_LIMIT);
          const signal =
            o.signal === undefined ? limit.signal : manyListeners(AbortSignal.any([o.signal, limit.signal]));
          // Each live process and client of the stage listens to it (and stops listening when it
          // exits): more than Node's default of 10 at once is expected, not a leak.
          setMaxListeners(0, signal);
          target.signal = signal;
          try {
            out = await untilCut(STAGE_RUNNERS[stage]({ ...ctx, signal }), signal);
            // A stage that caught the cut itself and returned is cut short all the same.
            if (signal.aborted) out = cutOutcome(cutShortOf(signal), Date.now() - t0);
          } catch (e) {
            if (signal.aborted) {
              out = cutOutcome(cutShortOf(signal), Date.now() - t0);
            } else if (e instanceof Undrivable) {
              implementationFaults.push(`${stage}: ${e.message}`);
              out = outcome("inconclusive", e.message, 0);
            } else if (e instanceof WireBreak) {
              out = outcome("fail", `${e.rule}: ${e.message}`, 1, [
                {
                  invariant: null,
                  stage,
                  check: `${stage}/${e.rule}`,
                  summary: `${e.message}; raw: ${e.raw}`,
                  trace: null,
                },
              ]);
            } else {
              const msg = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
              harnessFaults.push(`${stage}: ${msg}`);
              out = outcome(
                "inconclusive",
                `the runner failed in this stage (a harness fault, not the implementation's): ${e instanceof Error ? e.message : String(e)}`,
                0,
              );
            }
          } finally {
            limit.clear();
            target.signal = o.signal;
          }
        }
        // W-2.2: a process that answered `shutdown` and then had to be killed, seen by the transport
        // as the stage's sessions closed (stages/shutdowns.ts).
        out = checkIgnoredShutdowns(stage, out, target.takeIgnoredShutdowns());
        record(stage, out, Date.now() - t0);
      }
    }
  } finally {
    await target.dispose();
    progress.done();
  }

  const decision = decide({
    families: hello === null ? null : hello.profile.families,
    only: o.only,
    stages: summaries,
    witnesses,
    baseline: o.baseline ?? EMPTY_BASELINE,
    harnessFaults,
    ref: (f) => refs.get(f) as CounterexampleRef,
  });
  // The coverage figure (D-075): what the differential campaign covered of the scope's reachable
  // abstract edges, when the campaign ran (a shard that owned none of its runs records none).
  const differentialRan = results.some((r) => r.stage === "differential" && r.verdict !== "not-applicable");
  const guidance = coverage.guidance();
  const edges =
    hello === null || !differentialRan
      ? undefined
      : {
          ...edgeCoverage(scopeOf(o), coverOf(scopeOf(o), hello.profile.families).abstractEdges, coverage.edges()),
          ...(guidance === null ? {} : { unguided: guidance.unguided }),
        };
  const certificate: Certificate = {
    certificate_version: CERTIFICATE_VERSION,
    kit: { ...kitVersion(), spec_digest: specDigest() },
    protocol_version: hello?.protocol_version ?? null,
    implementation: {
      name: hello?.implementation.name ?? null,
      version: hello?.implementation.version ?? null,
      command_line: o.commandLine,
      profile: hello === null ? null : { families: [...hello.profile.families], crash_hook: hello.profile.crash_hook },
    },
    settings: {
      seed: o.seed,
      runs: o.runs,
      time_budget_ms: o.timeBudgetMs,
      request_timeout_ms: o.requestTimeoutMs,
      only: [...o.only],
      stages: results.map((r) => r.stage),
      exhaustive_scope: o.exhaustiveScope ?? DEFAULT_EXHAUSTIVE_SCOPE,
    },
    started_at: startedAt,
    duration_ms: Date.now() - started,
    stages: results,
    ...decision,
    implementation_faults: implementationFaults,
    harness_faults: harnessFaults,
    shards: { count: shard.count, indices: [shard.index + 1] },
    coverage: { transitions: coverage.transitions(), ...(edges === undefined ? {} : { edges }) },
  };
  // The certificate is checked against its own schema before it is written: a mismatch is a bug
  // of the runner, reported as such (and the file is still written, for the bug report).
  const checked = Certificate.safeParse(certificate);
  if (!checked.success) {
    certificate.harness_faults.push(`the certificate does not match its schema: ${checked.error.message}`);
    // A harness fault never certifies: the result is judged again so that it agrees with the faults it records.
    const j = judge(certificateFacts(certificate));
    certificate.result = j.result;
    certificate.exit_code = j.exit_code;
  }
  const dir = out();
  const traceFiles = traces.map((t) => {
    writeJsonAtomic(join(dir, t.file), t.trace);
    return join(dir, t.file);
  });
  const certificatePath = join(dir, "certificate.json");
  writeJsonAtomic(certificatePath, certificate);
  await writeReports({ certificate, certificatePath, traceFiles });
  return { certificate, certificatePath, traceFiles };
};
