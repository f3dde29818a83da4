/**
 * Abstract edges: what the coverage figure of issue 27 item 4 counts (D-075). A step of any
 * campaign — an edge of the explored graph, a command of a generated run — is abstracted to
 * (abstract state before it, operation, outcome), so steps over different ids, manifests, texts and
 * ticks compare: the explored scope's reachable edges are the ground truth, and the differential
 * campaign's agreed steps are what it covered of them.
 *
 * The abstract state of a world view keeps, per agent, the shape the rules branch on and drops every
 * value: how many lives are in each Janma state, how many obligations of each kind wait, how many
 * distillates the store holds and whether it has excised or quarantined, the migration's phase,
 * how many replicas, live attempts, effects, fences, surfaces and migration reports, whether a
 * target marker is set. Counts are capped at CAP (two: "none, one, more" is what guards compare),
 * and agents are sorted by their abstract text, so which agent is which does not matter. The
 * outcome is `ok` for an accepted command, else the check that refused it (spec/CHECKS.md id).
 */
import type { WorldView } from "../../spec/index.ts";

/** Counts above this are "more" (guards compare with zero and one: none, one, more). */
export const CAP = 2;

const capped = (n: number): number => Math.min(n, CAP);

type AgentView = WorldView["agents"][number];

const countBy = (xs: readonly string[]): string => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, n]) => `${k}${capped(n)}`)
    .join(",");
};

const agentShape = (a: AgentView): string =>
  [
    `i[${countBy(a.instances.map((i) => i.state))}]`,
    `o[${countBy(a.obligations.map((o) => o.kind))}]`,
    `d${capped(a.store.distillates.length)}x${capped(a.store.excisions.length)}q${capped(a.store.quarantined.length)}`,
    `m${a.ripa.migration?.phase ?? "-"}`,
    `r${capped(a.ripa.replicas.length)}l${capped(a.ripa.live_attempts.length)}e${capped(a.ripa.effects.length)}f${capped(a.ripa.fences.length)}`,
    `s${capped(a.ripa.surfaces.length)}p${capped(a.ripa.reports.length)}k${a.ripa.marker === null ? 0 : 1}`,
  ].join(" ");

/** The abstract state of a world view: its agents' shapes, sorted. */
export const abstractState = (w: WorldView): string => `{${w.agents.map(agentShape).sort().join(" | ")}}`;

/** The outcome part of an abstract edge: `ok`, or the check that refused the command. */
export const outcomeOf = (accepted: boolean, check: string | undefined): string =>
  accepted ? "ok" : (check ?? "refused");

/** One abstract edge: the abstract state before the step, the operation and the outcome. */
export const abstractEdge = (before: WorldView, op: string, outcome: string): string =>
  `${abstractState(before)} ${op} ${outcome}`;

/** The coverage figure's record (spec/certificate.ts EdgeCoverage): the covered edges as indices into the sorted reachable ones. */
export const edgeCoverage = (
  scope: string,
  reachable: ReadonlySet<string>,
  covered: ReadonlySet<string>,
): { scope: string; reachable: number; covered: number[] } => {
  const sorted = [...reachable].sort();
  return { scope, reachable: sorted.length, covered: sorted.flatMap((e, i) => (covered.has(e) ? [i] : [])) };
};

/** "C of R reachable abstract edges (P %)" for notes and reports. */
export const showEdgeCoverage = (c: { readonly reachable: number; readonly covered: readonly number[] }): string =>
  `${c.covered.length} of ${c.reachable} reachable abstract edges (${c.reachable === 0 ? "—" : `${((100 * c.covered.length) / c.reachable).toFixed(1)} %`})`;
