/**
 * reports/mutants.json and reports/mutants.md from the kill matrix's rows (matrix.ts): how many
 * mutants were killed under their own invariant, how many under another (each listed with the
 * finding that decided it, the D-035 rule that applied and the decision taken,
 * conformance/mutants/decisions.json), and how many survived.
 *
 * The JSON is the measurement; the Markdown is rendered from it and the decisions, so a decision
 * written after a run re-renders the Markdown in seconds (render-matrix.ts) without certifying 83
 * processes again, and matrix-report.test.ts fails while the committed Markdown is not that rendering.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { Attribution, CounterexampleSketch, Finding, KillRow, MatrixOptions } from "./matrix.ts";
import { MATRIX_STAGES } from "./matrix.ts";
import type { Decision, Decisions } from "./decisions.ts";

/** One mutant as reports/mutants.json records it. */
export interface MatrixRow {
  readonly id: string;
  readonly invariant: InvariantId | null;
  readonly clause: string;
  readonly description: string;
  readonly reported: readonly InvariantId[];
  readonly killed: boolean;
  readonly own: boolean;
  readonly attribution: Attribution;
  readonly findings: readonly Finding[];
  readonly stage: string | null;
  readonly check: string | null;
  readonly summary: string | null;
  readonly ms_to_failure: number | null;
  readonly shrunk_steps: number | null;
  readonly exit_code: number;
  readonly counterexample: CounterexampleSketch | null;
}

/** reports/mutants.json. */
export interface MatrixDoc {
  readonly generated_by: string;
  /** conformance/evidence/inputs.ts inputsOf("mutants"), taken before the run (and the same after it). */
  readonly inputs: unknown;
  readonly settings: {
    readonly seed: number;
    readonly runs: number;
    readonly time_budget_ms: number;
    readonly stages: readonly string[];
  };
  readonly counts: Counts;
  readonly mutants: readonly MatrixRow[];
}

export type Counts = Readonly<Record<Attribution, number>>;

export const countsOf = (rows: readonly { readonly attribution: Attribution }[]): Counts => ({
  own: rows.filter((r) => r.attribution === "own").length,
  other: rows.filter((r) => r.attribution === "other").length,
  survived: rows.filter((r) => r.attribution === "survived").length,
});

/** "N killed under their own invariant, M killed under another, K survived": the line both reports print. */
export const countsLine = (c: Counts): string =>
  `${c.own} killed under their own invariant, ${c.other} killed under another, ${c.survived} survived`;

/**
 * Which D-035 rule put a finding where it is, read from the summary compare.ts words
 * (conformance/oracle/compare.ts): a rejection code with an invariant is rule (1); a generic code
 * (or both generic) names none, so rule (3) chose the operation's first guard; an agreed outcome
 * with differing events or world views is rule (2).
 */
export const ruleOf = (summary: string): string => {
  const outcomes =
    /the model (?:rejected with \S+(?: \((\S+)\))?(?: at \S+(?:, rule \S+)?, which protects (?:no invariant|\S+))?|accepted), the implementation (?:rejected with \S+(?: \((\S+)\))?|accepted)/.exec(
      summary,
    );
  if (outcomes !== null) {
    if (outcomes[1] !== undefined) return `rule (1): the model's rejection names ${outcomes[1]}`;
    const check = /the model rejected with \S+ at ([^\s,]+)(?:, rule ([^\s,]+))?, which protects ([^\s,]+)/.exec(
      summary,
    );
    if (check !== null && check[3] !== "no")
      return `rule (1): the model's rejection failed at ${check[1]}${check[2] === undefined ? "" : ` (rule ${check[2]})`}, which protects ${check[3]}`;
    if (outcomes[2] !== undefined) return `rule (1): the implementation's rejection names ${outcomes[2]}`;
    const impl = /every check rejecting with \S+ protects (\S+?)\)/.exec(summary);
    if (impl !== null)
      return `rule (1): every check of the operation that rejects with the implementation's code protects ${impl[1]}`;
    return "rule (1) found no invariant (a generic code whose check protects none, or an implementation's generic code that checks protecting different invariants share), so rule (3): the operation's first guard in catalog order";
  }
  if (/the world views differ at|the world after it differs too/.test(summary))
    return "rule (2): the owner of the first differing world field (field-owners.ts)";
  if (/both .* but \$reply\.events/.test(summary))
    return "rule (2): the owner of the differing event (field-owners.ts)";
  if (/both .* but \$reply/.test(summary)) return "rule (2) found no owner for the differing reply field, so rule (3)";
  return "a stage's own check (not a reply comparison): see the summary";
};

const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const label = (r: MatrixRow): string => r.invariant ?? "wire";
const mark = (a: Attribution): string => (a === "own" ? "own" : a === "other" ? "**other**" : "**survived**");

/** What each kind of decision says before its reason. */
const VERDICT: Readonly<Record<Decision["wrong"], string>> = {
  label: "the label was wrong (fixed in the catalog with its new reason).",
  attribution: "the attribution did not follow D-035 (fixed in conformance/oracle/).",
  "D-035": "D-035 as written puts the failure there; a change of D-035 is proposed.",
  neither:
    "the label and D-035 both stand: what would attribute the failure to the label is not on the wire, and D-035 says so.",
};

const otherSection = (rows: readonly MatrixRow[], decisions: Decisions): string[] => {
  const others = rows.filter((r) => r.attribution === "other");
  if (others.length === 0)
    return [
      "## Killed under another invariant",
      "",
      "None: every killed mutant failed under the invariant its label names.",
      "",
    ];
  return [
    "## Killed under another invariant",
    "",
    "Each of these was killed, but the runner attributed the finding to an invariant other than the one the",
    "mutant's label names. The label was decided from the spec alone (its clause and reason are in",
    "properties/mutants/catalog.ts); the decision says whether the label or the attribution rule is wrong.",
    "",
    ...others.flatMap((r) => {
      const first = r.findings[0];
      const d = decisions[r.id];
      return [
        `### \`${r.id}\``,
        "",
        `- label: ${label(r)} (${r.clause}); reported: ${r.reported.join(", ") || "a wire finding only"}`,
        ...r.findings.map(
          (f) => `- ${f.invariant ?? "wire"} by ${f.stage} / ${f.check}: ${cell(f.summary.slice(0, 400))}`,
        ),
        `- why there: ${first === undefined ? "no finding" : ruleOf(first.summary)}`,
        `- decision: ${d === undefined ? "**not decided yet**: decide whether the label or the attribution rule is wrong (conformance/mutants/decisions.json)" : `${VERDICT[d.wrong]} ${d.decision}`}`,
        "",
      ];
    }),
  ];
};

/** reports/mutants.md: the kill matrix as a person reads it, rendered from reports/mutants.json and the decisions. */
export const renderMatrix = (doc: MatrixDoc, decisions: Decisions): string => {
  const rows = doc.mutants;
  const c = countsOf(rows);
  const lines = [
    "# Kill matrix over the wire",
    "",
    "Generated by `npm run mutants` (conformance/mutants/matrix.ts) from reports/mutants.json and",
    "conformance/mutants/decisions.json (`npx tsx conformance/mutants/render-matrix.ts` renders it again); do not edit.",
    "Each mutant of the implementation (properties/mutants/catalog.ts) runs as its own process and is certified by",
    `\`srk certify\` (stages ${doc.settings.stages.join(", ")}; seed ${doc.settings.seed}, ${doc.settings.runs} runs, fail-fast).`,
    "Each mutant's label (the invariant and the clause it breaks) is decided from the spec, never from a",
    "run; the matrix measures where the runner's attribution (D-035) puts the failure: **own** (failed",
    "under the label), **other** (failed, but only under other invariants: listed below with the reason),",
    "**survived** (nothing failed). A wire mutant's label is its W rule; it is own when a wire finding is reported.",
    "",
    `**${countsLine(c)}** (${rows.length} mutants).`,
    "",
    "| mutant | label | clause | reported | attribution | stage / check | time to failure | shrunk requests | what disagreed |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| \`${r.id}\` | ${label(r)} | ${r.clause} | ${r.reported.join(", ") || "—"} | ${mark(r.attribution)} | ${r.stage ?? "—"} / ${r.check ?? "—"} | ${r.ms_to_failure === null ? "—" : `${(r.ms_to_failure / 1000).toFixed(1)} s`} | ${r.shrunk_steps ?? "—"} | ${cell((r.summary ?? "").slice(0, 240))} |`,
    ),
    "",
    ...otherSection(rows, decisions),
    "## Survived",
    "",
    ...(c.survived === 0
      ? ["None."]
      : rows
          .filter((r) => r.attribution === "survived")
          .map((r) => `- \`${r.id}\` (${label(r)}, ${r.clause}): ${r.description}`)),
    "",
  ];
  return lines.join("\n");
};

/** reports/mutants.json: the measurement (reports/render.ts shows each invariant's mutants from it). */
export const matrixDoc = (rows: readonly KillRow[], o: MatrixOptions, inputs: unknown): MatrixDoc => ({
  generated_by: "npm run mutants (conformance/mutants/matrix.ts); do not edit",
  inputs,
  settings: { seed: o.seed, runs: o.runs, time_budget_ms: o.timeBudgetMs, stages: o.stages ?? MATRIX_STAGES },
  counts: countsOf(rows),
  mutants: rows.map((r) => ({
    id: r.id,
    invariant: r.invariant,
    clause: r.clause,
    description: r.description,
    reported: r.reported,
    killed: r.killed,
    own: r.own,
    attribution: r.attribution,
    findings: r.findings,
    stage: r.stage,
    check: r.check,
    summary: r.summary,
    ms_to_failure: r.msToFailure,
    shrunk_steps: r.shrunkSteps,
    exit_code: r.exitCode,
    counterexample: r.counterexample,
  })),
});

export const matrixJson = (doc: MatrixDoc): string => `${JSON.stringify(doc, null, 2)}\n`;
