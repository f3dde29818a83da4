/**
 * The kill matrix over the wire: each mutant of the implementation (properties/mutants/catalog.ts)
 * runs as its own process (a patched copy of impl/, started like any third-party implementation)
 * and is certified by the runner. The matrix measures attribution instead of assuming it:
 *
 * - killed: the certificate failed something — an invariant, or for a wire mutant a wire-protocol
 *   finding (`invariant: null`, from the golden stage's wire session or the wire stage, which are
 *   the stages a wire mutant is certified with);
 * - own: it failed under the mutant's label, the invariant decided from the spec (a wire mutant:
 *   a wire finding);
 * - other: killed, but only under other invariants (D-035 attributed the first finding elsewhere),
 *   a finding against the label or the attribution rule, reported with the finding's check and
 *   summary (reports/mutants.md lists each, with the decision of conformance/mutants/decisions.ts);
 * - survived: nothing failed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, StageName, TraceStep } from "../../spec/certificate.ts";
import type { LabelledMutant, Mutant } from "../../properties/mutants/catalog.ts";
import { certify } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { readTrace } from "../trace/trace.ts";
import { materialize } from "./harness.ts";
import { buildCopy } from "./generated/copy.ts";

export type Attribution = "own" | "other" | "survived";

/** A failing invariant's first counterexample, or a wire finding (invariant null). */
export interface Finding {
  readonly invariant: InvariantId | null;
  readonly stage: string;
  readonly check: string;
  readonly summary: string;
}

export interface KillRow {
  readonly id: string;
  /** The label: null for a wire mutant (properties/mutants/catalog.ts). */
  readonly invariant: InvariantId | null;
  /** The clause the label names (a check id, an OP clause, a D-record or a W rule). */
  readonly clause: string;
  readonly description: string;
  /** Every invariant the certificate failed. */
  readonly reported: readonly InvariantId[];
  /** The certificate failed something: an invariant, or a wire-protocol finding. */
  readonly killed: boolean;
  /** Failed under the label (a wire mutant: a wire finding). */
  readonly own: boolean;
  readonly attribution: Attribution;
  /** The first counterexample of every failed invariant, then the first wire finding, if any. */
  readonly findings: readonly Finding[];
  /** The stage and check of the finding under the label, else of the first finding. */
  readonly stage: string | null;
  readonly check: string | null;
  readonly summary: string | null;
  /** Time from the start of the certification to the end of the stage that found it. */
  readonly msToFailure: number | null;
  /** Requests in the (shrunk) counterexample. */
  readonly shrunkSteps: number | null;
  readonly exitCode: number;
  /** The counterexample of that finding, compacted for reports/mutants.json (null when it has no trace). */
  readonly counterexample: CounterexampleSketch | null;
}

/** own / other / survived from what the certificate failed and the label. */
export const attributionOf = (
  label: InvariantId | null,
  reported: readonly InvariantId[],
  wireFinding: boolean,
): { killed: boolean; own: boolean; attribution: Attribution } => {
  const killed = reported.length > 0 || wireFinding;
  const own = label === null ? wireFinding : reported.includes(label);
  return { killed, own, attribution: own ? "own" : killed ? "other" : "survived" };
};

/**
 * A portable trace as reports/mutants.json keeps it (the docs show it per invariant): the failing
 * step whole, and the steps before it either whole (a shrunk run) or, when they are the first lines
 * of a golden session in order, as a reference to those lines.
 */
export interface CounterexampleSketch {
  readonly steps_total: number;
  /**
   * The steps before the failing one are the first `lines` requests of this golden session, or,
   * with `commands_only`, its commands among those lines, its queries left out (a sharper
   * attribution replays the commands alone and then asks for the world, oracle/refine.ts).
   */
  readonly golden_prefix: { readonly file: string; readonly lines: number; readonly commands_only?: true } | null;
  /** The steps before the failing one, when they are not a golden prefix. */
  readonly before: readonly TraceStep[];
  readonly failing: TraceStep | null;
  readonly difference: string | null;
}

/** Expected or actual parts longer than this (whole world views) are replaced by a note; the difference names the field. */
const MAX_PART_CHARS = 1500;

const shorten = (v: unknown): TraceStep["expected"] => {
  const text = JSON.stringify(v) ?? "null";
  return (
    text.length <= MAX_PART_CHARS ? v : `(${text.length} characters, a whole world view: see the difference)`
  ) as TraceStep["expected"];
};

/** The golden session whose first lines (all of them, or their commands alone) are `before`, if any. */
export const goldenPrefixOf = (
  before: readonly TraceStep[],
  sessions: readonly { readonly file: string; readonly lines: readonly { readonly request: unknown }[] }[],
): CounterexampleSketch["golden_prefix"] => {
  if (before.length === 0) return null;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  for (const { file, lines } of sessions) {
    if (before.length <= lines.length && before.every((s, i) => same(s.request, lines[i]?.request)))
      return { file, lines: before.length };
  }
  for (const { file, lines } of sessions) {
    const commands = lines
      .map((l, i) => ({ l, i }))
      .filter(({ l }) => (l.request as { type?: unknown }).type === "command");
    if (before.length <= commands.length && before.every((s, k) => same(s.request, commands[k]?.l.request))) {
      return { file, lines: (commands[before.length - 1]?.i ?? 0) + 1, commands_only: true };
    }
  }
  return null;
};

export const sketchTrace = (t: PortableTrace): CounterexampleSketch => {
  const at = t.failing_step ?? t.steps.length - 1;
  const before = t.steps.slice(0, at);
  const failing = t.steps[at];
  const golden = goldenPrefixOf(
    before,
    GOLDEN_SESSIONS.map((g) => goldenPath(g)).map((file) => ({ file, lines: readGolden(join(REPO_ROOT, file)) })),
  );
  return {
    steps_total: t.steps.length,
    golden_prefix: golden,
    before: golden === null ? before : [],
    failing:
      failing === undefined
        ? null
        : { request: failing.request, expected: shorten(failing.expected), actual: shorten(failing.actual) },
    difference: t.difference,
  };
};

export interface MatrixOptions {
  readonly seed: number;
  readonly runs: number;
  readonly timeBudgetMs: number;
  /** Stages to run (crash cuts are left out by default: no mutant is a durability bug). */
  readonly stages?: readonly StageName[];
}

export const MATRIX_STAGES: readonly StageName[] = ["golden", "exhaustive", "differential", "algebra", "forgetting"];
/** The stages a wire mutant is certified with: the golden stage replays the wire session (W-9.1), the wire stage sends the hostile catalog. */
export const WIRE_MATRIX_STAGES: readonly StageName[] = ["golden", "wire"];

/** A fast data root: tmpfs when the machine has one (mutants are not durability bugs). */
const dataRoot = (): string => mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "srk-mutant-"));

/**
 * The command line of a mutant's process: its copy built into one module (generated/copy.ts
 * `buildCopy`, esbuild) and run by node, as the generated mutants are. The golden stage restarts
 * an implementation about forty times (D-069), and through tsx each start cost about half a
 * second of transpiling; the code run is the same.
 */
export const mutantCommandLine = (m: Mutant | null, name = `wire-${m?.id ?? "unpatched"}`): string =>
  `${process.execPath} ${buildCopy(materialize(name, m))}`;

export const certifyMutant = async (m: LabelledMutant, o: MatrixOptions): Promise<KillRow> => {
  const commandLine = mutantCommandLine(m);
  const root = dataRoot();
  const out = mkdtempSync(join(tmpdir(), "srk-mutant-cert-"));
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
      stages: o.stages ?? (m.invariant === null ? WIRE_MATRIX_STAGES : MATRIX_STAGES),
      failFast: true,
      graceMs: 10_000,
    });
    const failed = certificate.invariants.filter((i) => i.verdict === "fail");
    const reported = failed.map((i) => i.invariant);
    const wireFinding = certificate.stages.flatMap((s) => s.findings).find((f) => f.invariant === null);
    const findings: Finding[] = [
      ...failed.flatMap((i) => i.counterexamples.slice(0, 1)),
      ...(wireFinding === undefined ? [] : [wireFinding]),
    ].map((f) => ({ invariant: f.invariant, stage: f.stage, check: f.check, summary: f.summary }));
    const { killed, own, attribution } = attributionOf(m.invariant, reported, wireFinding !== undefined);
    const ownFinding =
      m.invariant === null
        ? wireFinding
        : certificate.invariants.find((i) => i.invariant === m.invariant)?.counterexamples[0];
    const first = ownFinding ?? certificate.invariants.flatMap((i) => i.counterexamples)[0] ?? wireFinding ?? null;
    let elapsed = 0;
    let msToFailure: number | null = null;
    for (const s of certificate.stages) {
      elapsed += s.duration_ms;
      if (first !== null && s.stage === first.stage) {
        msToFailure = elapsed;
        break;
      }
    }
    const traceFile = first?.trace_file ?? null;
    const counterexample = traceFile === null ? null : sketchTrace(readTrace(join(out, traceFile)));
    return {
      id: m.id,
      invariant: m.invariant,
      clause: m.clause,
      description: m.description,
      reported,
      killed,
      own,
      attribution,
      findings,
      stage: first?.stage ?? null,
      check: first?.check ?? null,
      summary: first?.summary ?? null,
      msToFailure,
      shrunkSteps: first?.steps ?? null,
      exitCode: certificate.exit_code,
      counterexample,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
};
