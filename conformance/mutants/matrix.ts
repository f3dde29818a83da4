/**
 * The kill matrix over the wire: each mutant of the implementation (properties/mutants/catalog.ts)
 * runs as its own process (a patched copy of impl/, started like any third-party implementation)
 * and is certified by the runner. A mutant is killed only when its certificate says `fail` under
 * the invariant the mutant breaks — a failure blamed on another invariant is a finding against
 * the runner's attribution, not a kill. A mutant of the wire layer (`invariant: null`) breaks no
 * invariant: it is killed when the certificate holds a wire-protocol finding (`invariant: null`),
 * from the golden stage's wire session or the wire stage, which are the stages it is certified with.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, StageName, TraceStep } from "../../spec/certificate.ts";
import type { Mutant } from "../../properties/mutants/catalog.ts";
import { certify } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { readTrace } from "../trace/trace.ts";
import { materialize } from "./harness.ts";

export interface KillRow {
  readonly id: string;
  /** null: a wire mutant (properties/mutants/catalog.ts). */
  readonly invariant: InvariantId | null;
  readonly description: string;
  /** Every invariant the certificate failed. */
  readonly reported: readonly InvariantId[];
  readonly killed: boolean;
  /** The stage and check of the first finding under the mutant's invariant (or the first finding). */
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

/**
 * A portable trace as reports/mutants.json keeps it (the docs show it per invariant): the failing
 * step whole, and the steps before it either whole (a shrunk run) or, when they are the first lines
 * of a golden session in order, as a reference to those lines.
 */
export interface CounterexampleSketch {
  readonly steps_total: number;
  /** The steps before the failing one are the first `lines` requests of this golden session. */
  readonly golden_prefix: { readonly file: string; readonly lines: number } | null;
  /** The steps before the failing one, when they are not a golden prefix. */
  readonly before: readonly TraceStep[];
  readonly failing: TraceStep | null;
  readonly difference: string | null;
}

/** Expected or actual parts longer than this (whole world views) are replaced by a note; the difference names the field. */
const MAX_PART_CHARS = 1500;

const shorten = (v: unknown): TraceStep["expected"] => {
  const text = JSON.stringify(v) ?? "null";
  return (text.length <= MAX_PART_CHARS ? v : `(${text.length} characters, a whole world view: see the difference)`) as TraceStep["expected"];
};

export const sketchTrace = (t: PortableTrace): CounterexampleSketch => {
  const at = t.failing_step ?? t.steps.length - 1;
  const before = t.steps.slice(0, at);
  const failing = t.steps[at];
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const golden = GOLDEN_SESSIONS.map((g) => goldenPath(g)).find((file) => {
    const lines = readGolden(join(REPO_ROOT, file));
    return before.length > 0 && before.length <= lines.length && before.every((s, i) => same(s.request, lines[i]?.request));
  });
  return {
    steps_total: t.steps.length,
    golden_prefix: golden === undefined ? null : { file: golden, lines: before.length },
    before: golden === undefined ? before : [],
    failing: failing === undefined ? null : { request: failing.request, expected: shorten(failing.expected), actual: shorten(failing.actual) },
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

export const MATRIX_STAGES: readonly StageName[] = ["golden", "differential", "algebra", "forgetting"];
/** The stages a wire mutant is certified with: the golden stage replays the wire session (W-9.1), the wire stage sends the hostile catalog. */
export const WIRE_MATRIX_STAGES: readonly StageName[] = ["golden", "wire"];

/** A fast data root: tmpfs when the machine has one (mutants are not durability bugs). */
const dataRoot = (): string => mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "srk-mutant-"));

export const mutantCommandLine = (m: Mutant | null, name = `wire-${m?.id ?? "unpatched"}`): string => {
  const api = materialize(name, m);
  return `${process.execPath} --import tsx ${join(dirname(api), "main.ts")}`;
};

export const certifyMutant = async (m: Mutant, o: MatrixOptions): Promise<KillRow> => {
  const commandLine = mutantCommandLine(m);
  const root = dataRoot();
  const out = mkdtempSync(join(tmpdir(), "srk-mutant-cert-"));
  try {
    const { certificate } = await certify({
      commandLine, cwd: REPO_ROOT, outDir: out, dataRoot: root, seed: o.seed, runs: o.runs, timeBudgetMs: o.timeBudgetMs,
      requestTimeoutMs: 15_000, startupTimeoutMs: 30_000, only: [], stages: o.stages ?? (m.invariant === null ? WIRE_MATRIX_STAGES : MATRIX_STAGES), failFast: true, graceMs: 10_000,
    });
    const reported = certificate.invariants.filter((i) => i.verdict === "fail").map((i) => i.invariant);
    const wireFinding = certificate.stages.flatMap((s) => s.findings).find((f) => f.invariant === null);
    const own = m.invariant === null ? wireFinding : certificate.invariants.find((i) => i.invariant === m.invariant)?.counterexamples[0];
    const first = own ?? certificate.invariants.flatMap((i) => i.counterexamples)[0] ?? null;
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
      id: m.id, invariant: m.invariant, description: m.description, reported, killed: m.invariant === null ? wireFinding !== undefined : reported.includes(m.invariant),
      stage: first?.stage ?? null, check: first?.check ?? null, summary: first?.summary ?? null, msToFailure,
      shrunkSteps: first?.steps ?? null, exitCode: certificate.exit_code, counterexample,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
};

/** reports/mutants.json: the kill matrix for the generated docs (reports/render.ts shows each invariant's mutants from it). */
export const matrixJson = (rows: readonly KillRow[], o: MatrixOptions): string =>
  `${JSON.stringify({
    generated_by: "npm run mutants (conformance/mutants/matrix.ts); do not edit",
    settings: { seed: o.seed, runs: o.runs, time_budget_ms: o.timeBudgetMs, stages: o.stages ?? MATRIX_STAGES },
    mutants: rows.map((r) => ({
      id: r.id, invariant: r.invariant, description: r.description, reported: r.reported, killed: r.killed, stage: r.stage, check: r.check,
      summary: r.summary, ms_to_failure: r.msToFailure, shrunk_steps: r.shrunkSteps, exit_code: r.exitCode, counterexample: r.counterexample,
    })),
  }, null, 2)}\n`;

const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** reports/mutants.md: the kill matrix as a person reads it. */
export const renderMatrix = (rows: readonly KillRow[], o: MatrixOptions): string => {
  const killed = rows.filter((r) => r.killed).length;
  const lines = [
    "# Kill matrix over the wire",
    "",
    "Generated by `npm run mutants` (conformance/mutants/matrix.ts); do not edit. Each mutant of the",
    "implementation (properties/mutants/catalog.ts) runs as its own process and is certified by",
    `\`srk certify\` (stages ${(o.stages ?? MATRIX_STAGES).join(", ")}; seed ${o.seed}, ${o.runs} runs, fail-fast).`,
    "A mutant counts as killed only when the certificate fails the invariant the mutant breaks.",
    "",
    `**${killed} of ${rows.length} mutants killed under their own invariant.**`,
    "",
    "| mutant | breaks | reported | killed | stage / check | time to failure | shrunk requests | what disagreed |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) =>
      `| \`${r.id}\` | ${r.invariant ?? "wire"} | ${r.reported.join(", ") || "—"} | ${r.killed ? "yes" : "**no**"} | ${r.stage ?? "—"} / ${r.check ?? "—"} | ${r.msToFailure === null ? "—" : `${(r.msToFailure / 1000).toFixed(1)} s`} | ${r.shrunkSteps ?? "—"} | ${cell((r.summary ?? "").slice(0, 240))} |`),
    "",
  ];
  return lines.join("\n");
};
