/** The result of an exploration as JSON and Markdown (states, distinct, depths, operations, checks, predicates, time). */
import { CHECKS } from "../../spec/checks.ts";
import type { ExploreResult } from "./explore.ts";
import type { TraceFiles } from "./traces.ts";
import { scopeReach } from "./scope-reach.ts";

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

/**
 * The JSON report: the result and its check coverage, and, when traces were written (srk explore
 * --out), the trace files of the violations (paths relative to the report).
 */
export const exploreJson = (r: ExploreResult, traces?: readonly TraceFiles[]): string =>
  `${JSON.stringify({ ...r, coverage: checkCoverage(r), reach: scopeReach(r), ...(traces === undefined ? {} : { traces }) }, null, 2)}\n`;

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

export const exploreMarkdown = (r: ExploreResult, traces?: readonly TraceFiles[]): string => {
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
  const reach = scopeReach(r);
  lines.push(`| check clauses fired and held | ${reach.firedAndHeld} of ${reach.checks} |`);
  lines.push(
    `| operations tried / accepted | ${reach.operationsTried} / ${reach.operationsAccepted} of ${reach.operations} |`,
  );
  lines.push(
    `| symmetry reduction | ${r.symmetry ? "on (states identified up to the scope's interchangeable ids)" : "off"} |`,
  );
  lines.push(
    `| visited set | ${mb(r.memory.visitedBytes)} (${mb(r.memory.visitedBytesPerMillion)} per million states) |`,
  );
  lines.push(
    `| heap growth | ${mb(r.memory.heapDeltaBytes)} (${mb(r.memory.heapBytesPerMillion)} per million states; mostly the worlds kept for shortest paths) |`,
  );
  lines.push(`| predicate violations | ${r.violations.length} |`, "");
  if (r.parts.length > 1) {
    lines.push(
      "## Parts (each explored from the initial world; the figures above are their sums)",
      "",
      "| part | steps | distinct | depth / bound | closed | time |",
      "|---|---:|---:|---|---|---:|",
    );
    for (const p of r.parts)
      lines.push(
        `| ${p.name} | ${p.states} | ${p.distinct} | ${p.depth} / ${p.maxDepth} | ${p.exhausted ? "yes" : p.truncated ? "no (max_states)" : "no"} | ${(p.elapsedMs / 1000).toFixed(1)} s |`,
      );
    lines.push("");
  }
  lines.push("## New distinct states per depth", "", "| depth | states |", "|---:|---:|");
  r.perDepth.forEach((n, d) => lines.push(`| ${d} | ${n} |`));
  lines.push("", "## Operations", "", "| operation | accepted | rejected |", "|---|---:|---:|");
  for (const [op, c] of Object.entries(r.perOp).sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(`| ${op} | ${c.accepted} | ${c.rejected} |`);
  lines.push(
    "",
    "## Predicates",
    "",
    "Each invariant's predicate, and for six of them a step clause (D-076) read on every accepted step: a rule the step breaks but no state shows.",
    "",
    "| invariant | checked | step clause checked | violation |",
    "|---|---:|---:|---|",
  );
  for (const [id, n] of Object.entries(r.predicateChecks)) {
    const v = r.violations.find((x) => x.predicate === id);
    const steps = r.stepClauseChecks[id];
    lines.push(
      `| ${id} | ${n} | ${steps === undefined ? "—" : steps} | ${v === undefined ? "none" : `${v.violation} (depth ${v.depth})`} |`,
    );
  }
  for (const v of r.violations) {
    lines.push("", `### ${v.predicate}: shortest path (${v.path.length} commands)`, "", "```json");
    for (const c of v.path) lines.push(JSON.stringify(c));
    lines.push("```");
    const t = traces?.find((x) => x.predicate === v.predicate);
    if (t !== undefined)
      lines.push(
        "",
        `Portable trace: \`${t.json}\` (ITF: \`${t.itf}\`); run it over the wire with \`srk replay ${t.json} --impl "<command line>"\`.`,
      );
  }
  if (traces !== undefined) {
    lines.push("", `## Portable traces (${traces.length})`, "");
    if (traces.length === 0) lines.push("none: no predicate was violated");
    else {
      lines.push("| invariant | commands | trace | ITF |", "|---|---:|---|---|");
      for (const t of traces) lines.push(`| ${t.predicate} | ${t.depth} | ${t.json} | ${t.itf} |`);
    }
  }
  lines.push("", "## Check clauses reached", "", "| check | fired | held |", "|---|---:|---:|");
  for (const k of CHECKS) {
    const c = r.perCheck[k.id];
    if (c !== undefined && c.fired + c.held > 0) lines.push(`| ${k.id} | ${c.fired} | ${c.held} |`);
  }
  lines.push(
    "",
    `## Check clauses never reached (${cov.unreached.length})`,
    "",
    cov.unreached.length === 0 ? "none" : cov.unreached.join(", "),
    "",
  );
  lines.push(
    `## Not reached both ways (${reach.unreachedClauses.length} clauses, ${reach.unreachedOperations.length} operations)`,
    "",
  );
  if (reach.unreachedClauses.length + reach.unreachedOperations.length === 0)
    lines.push("none: every clause fired and held, every operation was accepted", "");
  else {
    lines.push("| clause or operation | never | by construction | why |", "|---|---|---|---|");
    for (const c of reach.unreachedClauses)
      lines.push(
        `| ${c.id} | ${c.missing.join(", ")} | ${c.byConstruction ? "yes" : "no: the scope's limit"} | ${c.reason} |`,
      );
    for (const o of reach.unreachedOperations)
      lines.push(`| ${o.op} | ${o.missing} | ${o.byConstruction ? "yes" : "no: the scope's limit"} | ${o.reason} |`);
    lines.push("");
  }
  return lines.join("\n");
};
