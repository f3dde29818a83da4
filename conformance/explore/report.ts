/** The result of an exploration as JSON and Markdown (states, distinct, depths, operations, checks, predicates, time). */
import { CHECKS } from "../../spec/checks.ts";
import type { ExploreResult } from "./explore.ts";

export interface CheckCoverage {
  readonly total: number;
  /** Checks that fired (a rejection named them) or held (an accepted operation passed them). */
  readonly reached: number;
  readonly fired: number;
  /** Check ids never reached, in CHECKS order. */
  readonly unreached: readonly string[];
  /** Check ids reached that never fired (only held). */
  readonly neverFired: readonly string[];
}

export const checkCoverage = (r: ExploreResult): CheckCoverage => {
  const c = (id: string) => r.perCheck[id] ?? { fired: 0, held: 0 };
  const reached = CHECKS.filter((k) => c(k.id).fired + c(k.id).held > 0);
  return {
    total: CHECKS.length,
    reached: reached.length,
    fired: CHECKS.filter((k) => c(k.id).fired > 0).length,
    unreached: CHECKS.filter((k) => c(k.id).fired + c(k.id).held === 0).map((k) => k.id),
    neverFired: reached.filter((k) => c(k.id).fired === 0).map((k) => k.id),
  };
};

/** The JSON report: the result and its check coverage. */
export const exploreJson = (r: ExploreResult): string => `${JSON.stringify({ ...r, coverage: checkCoverage(r) }, null, 2)}\n`;

export const exploreMarkdown = (r: ExploreResult): string => {
  const cov = checkCoverage(r);
  const lines: string[] = [];
  lines.push(`# srk explore: scope ${r.scope}`, "");
  lines.push("| | |", "|---|---|");
  lines.push(`| steps tried (states) | ${r.states} |`);
  lines.push(`| distinct states | ${r.distinct} |`);
  lines.push(`| depth reached / bound | ${r.depth} / ${r.maxDepth} |`);
  lines.push(`| stopped by max_states | ${r.truncated ? "yes" : "no"} |`);
  lines.push(`| graph closed below the depth bound | ${r.exhausted ? "yes" : "no"} |`);
  lines.push(`| time | ${(r.elapsedMs / 1000).toFixed(1)} s (${r.statesPerSecond} states/s) |`);
  lines.push(`| checks reached | ${cov.reached} of ${cov.total} (${cov.fired} fired) |`);
  lines.push(`| predicate violations | ${r.violations.length} |`, "");
  lines.push("## New distinct states per depth", "", "| depth | states |", "|---:|---:|");
  r.perDepth.forEach((n, d) => lines.push(`| ${d} | ${n} |`));
  lines.push("", "## Operations", "", "| operation | accepted | rejected |", "|---|---:|---:|");
  for (const [op, c] of Object.entries(r.perOp).sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`| ${op} | ${c.accepted} | ${c.rejected} |`);
  lines.push("", "## Predicates", "", "| invariant | checked | violation |", "|---|---:|---|");
  for (const [id, n] of Object.entries(r.predicateChecks)) {
    const v = r.violations.find((x) => x.predicate === id);
    lines.push(`| ${id} | ${n} | ${v === undefined ? "none" : `${v.violation} (depth ${v.depth})`} |`);
  }
  for (const v of r.violations) {
    lines.push("", `### ${v.predicate}: shortest path (${v.path.length} commands)`, "", "```json");
    for (const c of v.path) lines.push(JSON.stringify(c));
    lines.push("```");
  }
  lines.push("", "## Check clauses reached", "", "| check | fired | held |", "|---|---:|---:|");
  for (const k of CHECKS) {
    const c = r.perCheck[k.id];
    if (c !== undefined && c.fired + c.held > 0) lines.push(`| ${k.id} | ${c.fired} | ${c.held} |`);
  }
  lines.push("", `## Check clauses never reached (${cov.unreached.length})`, "", cov.unreached.length === 0 ? "none" : cov.unreached.join(", "), "");
  return lines.join("\n");
};
