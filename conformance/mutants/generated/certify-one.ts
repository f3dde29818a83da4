/**
 * Certifies one generated mutant (or the unmutated implementation, the control) the way a user
 * would: a copy of impl/ with the patch applied, built (copy.ts `buildCopy`), started as its own
 * process and certified by
 * `certify` over the wire with every stage, stopping at the first stage that finds a violation.
 *
 * What a row says, from the certificate alone:
 * - did-not-start: no handshake succeeded (`protocol_version` null), so nothing was certified;
 *   counted apart, never as killed (issue 21, 5);
 * - killed: the certificate found a violation (exit 1), or the runner could not drive the
 *   implementation through its campaign because the implementation broke (exit 2 with an
 *   implementation fault: a crash, a hang past the request timeout, a protocol break). A user's
 *   CI is red either way, and the fault names what broke;
 * - inconclusive: exit 2 with no implementation fault (the budget ran out before a decision);
 *   not a kill;
 * - survived: certified (exit 0).
 * "did-not-compile" is decided before (compile.ts): such a mutant is never started.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InvariantId } from "../../../spec/catalog.ts";
import type { StageName } from "../../../spec/certificate.ts";
import { certify } from "../../certify.ts";
import { readTrace } from "../../trace/trace.ts";
import { REPO_ROOT } from "../../transport/local.ts";
import { buildCopy, discard, materializeWith } from "./copy.ts";
import { applyMutant, type GeneratedMutant } from "./source.ts";

export type Outcome = "killed" | "survived" | "inconclusive" | "did-not-start" | "did-not-compile";

export interface WireRow {
  /** The mutant's id, or "control" for the unmutated implementation. */
  readonly id: string;
  readonly outcome: Outcome;
  /** Exit code of the certification (null when it was not run: did-not-compile). */
  readonly exitCode: number | null;
  /** The stage of the first finding, and its check and invariant (null for a wire finding or a fault). */
  readonly stage: StageName | null;
  readonly check: string | null;
  readonly invariant: InvariantId | null;
  /** Every invariant the certificate failed. */
  readonly reported: readonly InvariantId[];
  readonly summary: string | null;
  /** Seconds from the start of the certification to the end of the stage that found it. */
  readonly secondsToKill: number | null;
  /** Differential runs before the one that failed, from the trace's fast-check path (null when the finding is not a generated run). */
  readonly runsToKill: number | null;
  /** Requests in the counterexample as reported (shrunk, or not when the shrink was cut short). */
  readonly steps: number | null;
  readonly shrink: { readonly attempts: number; readonly originalLength: number; readonly interrupted: boolean } | null;
  /** The whole certification's wall time. */
  readonly seconds: number;
  /** The first implementation fault, when one decided the row; or the compile error. */
  readonly fault: string | null;
}

export interface WireOptions {
  readonly seed: number;
  readonly runs: number;
  readonly timeBudgetMs: number;
  /** Stages to run; default every stage (the default certification). */
  readonly stages?: readonly StageName[];
}

/** A fast data root: tmpfs when the machine has one (the crash stage's cuts are in-process hooks, not the device). */
const dataRoot = (): string =>
  mkdtempSync(
    join(
      process.platform === "linux" && process.env["SRK_MUTANT_TMPFS"] !== "0" ? "/dev/shm" : tmpdir(),
      "srk-gen-mutant-",
    ),
  );

const runsOf = (path: string | null): number | null => {
  if (path === null) return null;
  const first = Number(path.split(":")[0]);
  return Number.isSafeInteger(first) ? first : null;
};

/** Certifies `m` (null: the control) and returns its row. */
export const certifyGenerated = async (m: GeneratedMutant | null, o: WireOptions): Promise<WireRow> => {
  // The process id keeps the copies of shards running side by side in one clone apart.
  const name = `gen-${process.pid}-${m === null ? "control" : m.id.replace(/[^A-Za-z0-9._-]/g, "_")}`;
  const api = materializeWith(name, m === null ? null : { file: m.file, apply: (text) => applyMutant(m, text) });
  const commandLine = `${process.execPath} ${buildCopy(api)}`;
  const root = dataRoot();
  const out = mkdtempSync(join(tmpdir(), "srk-gen-mutant-cert-"));
  const t0 = Date.now();
  try {
    const { certificate } = await certify({
      commandLine,
      cwd: REPO_ROOT,
      outDir: out,
      dataRoot: root,
      seed: o.seed,
      runs: o.runs,
      timeBudgetMs: o.timeBudgetMs,
      requestTimeoutMs: 15_000,
      startupTimeoutMs: 30_000,
      only: [],
      failFast: true,
      graceMs: 10_000,
      ...(o.stages === undefined ? {} : { stages: o.stages }),
    });
    const seconds = (Date.now() - t0) / 1000;
    const reported = certificate.invariants.filter((i) => i.verdict === "fail").map((i) => i.invariant);
    const findings = certificate.stages.flatMap((s) => s.findings);
    const first = findings[0] ?? null;
    const fault = certificate.implementation_faults[0] ?? null;
    const outcome: Outcome =
      certificate.protocol_version === null
        ? "did-not-start"
        : certificate.exit_code === 0
          ? "survived"
          : certificate.exit_code === 1 || fault !== null
            ? "killed"
            : "inconclusive";
    let elapsed = 0;
    let secondsToKill: number | null = null;
    if (outcome === "killed") {
      const at = first?.stage ?? certificate.stages.find((s) => s.verdict !== "pass")?.stage;
      for (const s of certificate.stages) {
        elapsed += s.duration_ms;
        if (s.stage === at) {
          secondsToKill = elapsed / 1000;
          break;
        }
      }
    }
    const trace = first?.trace_file == null ? null : readTrace(join(out, first.trace_file));
    return {
      id: m?.id ?? "control",
      outcome,
      exitCode: certificate.exit_code,
      stage:
        first?.stage ??
        (outcome === "killed" ? (certificate.stages.find((s) => s.verdict !== "pass")?.stage ?? null) : null),
      check: first?.check ?? null,
      invariant: first?.invariant ?? null,
      reported,
      summary:
        first?.summary ??
        (outcome === "survived" ? null : (certificate.stages.find((s) => s.verdict !== "pass")?.reason ?? null)),
      secondsToKill,
      runsToKill: outcome === "killed" ? runsOf(trace?.path ?? null) : null,
      steps: first?.steps ?? null,
      shrink:
        trace?.shrink == null
          ? null
          : {
              attempts: trace.shrink.attempts,
              originalLength: trace.shrink.original_length,
              interrupted: trace.shrink.interrupted,
            },
      seconds,
      fault:
        outcome === "killed" && first === null
          ? fault
          : outcome === "did-not-start" || outcome === "inconclusive"
            ? fault
            : null,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    discard(name);
  }
};

/** The row of a mutant TypeScript rejects: never started. */
export const didNotCompile = (m: GeneratedMutant, error: string): WireRow => ({
  id: m.id,
  outcome: "did-not-compile",
  exitCode: null,
  stage: null,
  check: null,
  invariant: null,
  reported: [],
  summary: null,
  secondsToKill: null,
  runsToKill: null,
  steps: null,
  shrink: null,
  seconds: 0,
  fault: error,
});
