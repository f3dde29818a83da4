/**
 * Witnesses per check clause (issue 12, point 6): how often a generated command got past each
 * check of spec/checks.ts, how often that check was the first to fail, and how often each numeric,
 * text or list boundary of a rule was hit. A generator that never reaches a check (or never one
 * side of a boundary) cannot tell two readings of it apart, however many runs it does, so
 * `properties/witness.property.test.ts` prints this table and fails on any zero.
 *
 * The book reads only what crosses the wire: the view before the step, the command and the
 * outcome (with the model's informative `check` on a rejection). What the boundaries need beyond
 * the view (an instance's manifest and trace) it remembers from the accepted commands it saw.
 */
import { CHECKS, checksOf, type CheckClause } from "../spec/checks.ts";
import { COMPARISONS } from "./comparisons.ts";
import { failedAt, field, passedAt, signalOf, type StepContext, type StepOutcome } from "./step-reads.ts";
import type { Command, DistillationObligation as ObligationView, JanmaManifest, WorldView } from "../spec/index.ts";

// The step a boundary reads is defined beside the readers (step-reads.ts), which the comparison
// cells share; re-exported so the book's users keep one import.
export type { StepContext, StepOutcome } from "./step-reads.ts";

export interface Boundary {
  /** `OP-2.3.c6@deadline`: the check (or clause, for an effect rule) and the side of the boundary. */
  readonly id: string;
  readonly what: string;
  readonly hit: (s: StepContext) => boolean;
}

// --- helpers over the context -------------------------------------------------------------

const isOp = (s: StepContext, op: string) => s.cmd.op === op;
const ttlDeadline = (s: StepContext): number | null =>
  s.instance?.born_tick === null || s.instance === undefined || s.manifest === undefined
    ? null
    : s.instance.born_tick + s.manifest.ttl_ticks;
const withdrewBy = (s: StepContext, id: string) =>
  s.outcome.ok &&
  s.outcome.events.some(
    (e) => e.type === "instance.withdrawn" && e.reason.kind === "termination_condition" && e.reason.condition_id === id,
  );
const withdrewAtTtl = (s: StepContext) =>
  s.outcome.ok && s.outcome.events.some((e) => e.type === "instance.withdrawn" && e.reason.kind === "ttl");

/** D-010's tokens, written again here (NFKC, lower case, runs of letters, marks and digits). */
const tokens = (t: string): string[] =>
  t
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
const rawTokens = (t: string): string[] => t.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
/** The longest run of consecutive trace tokens the guidance reproduces; the trace is one token sequence, runs span entries (review G-51). */
const longestRun = (guidance: string, trace: readonly string[], tok: (t: string) => string[] = tokens): number => {
  const g = tok(guidance);
  const e = trace.flatMap(tok);
  let best = 0;
  for (let i = 0; i < g.length; i++)
    for (let j = 0; j < e.length; j++) {
      let k = 0;
      while (i + k < g.length && j + k < e.length && g[i + k] === e[j + k]) k++;
      best = Math.max(best, k);
    }
  return best;
};
const guidances = (s: StepContext): string[] => {
  const d = field(s, "distillate") as { dispositions?: unknown } | undefined;
  return Array.isArray(d?.dispositions)
    ? d.dispositions.flatMap((x) =>
        typeof (x as { guidance?: unknown }).guidance === "string" ? [(x as { guidance: string }).guidance] : [],
      )
    : [];
};
const maxRun = (s: StepContext, tok?: (t: string) => string[]) =>
  Math.max(0, ...guidances(s).map((g) => longestRun(g, s.trace, tok)));

const unsorted = (xs: readonly string[]) => xs.some((x, i) => i > 0 && (xs[i - 1] as string) > x);
const duplicated = (xs: readonly string[]) => new Set(xs).size < xs.length;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** D-016: `p.*` covers `c` iff `c` starts with `p.`; the boundary is the separator. */
const wildcardPrefixWithoutSeparator = (grants: readonly string[], c: string) =>
  grants.some((g) => g.endsWith(".*") && c.startsWith(g.slice(0, -2)) && !c.startsWith(g.slice(0, -1)));
const coveredByWildcard = (grants: readonly string[], c: string) =>
  grants.some((g) => g.endsWith(".*") && c.startsWith(g.slice(0, -1)));

const termination = (s: StepContext, op: string) =>
  (s.manifest?.termination_conditions ?? []).flatMap((t) =>
    t.when.op === op && "n" in t.when ? [{ id: t.id, n: t.when.n }] : [],
  );
/** After an accepted act: the counters the termination conditions see (OP-2.3 effects). */
const afterAct = (s: StepContext) => {
  const i = s.instance;
  const signed = field(s, "signed") as { action: { outcome: string } } | undefined;
  if (i === undefined || signed === undefined || i.born_tick === null) return null;
  const failed = signed.action.outcome === "failed";
  return {
    acts: i.acts + 1,
    failures: failed ? i.failures + 1 : i.failures,
    consecutive: failed ? i.consecutive_failures + 1 : 0,
    ticks: s.cmd.tick - i.born_tick,
  };
};
/** A termination condition `op` with threshold n saw its counter at n + delta after an act. */
const counterAt = (
  s: StepContext,
  op: string,
  key: "acts" | "failures" | "consecutive" | "ticks",
  delta: number,
  also: (a: NonNullable<ReturnType<typeof afterAct>>, n: number) => boolean = () => true,
) => {
  if (!isOp(s, "janma.act") || !s.outcome.ok) return false;
  const a = afterAct(s);
  return (
    a !== null &&
    termination(s, op).some((t) => a[key] === t.n + delta && also(a, t.n) && delta >= 0 === withdrewBy(s, t.id))
  );
};
/** A predicate that uses `op` anywhere in it (D-015's all / any / not nest). */
const uses = (p: { op: string; of?: unknown }, op: string): boolean =>
  p.op === op ||
  (Array.isArray(p.of)
    ? (p.of as { op: string }[]).some((q) => uses(q, op))
    : typeof p.of === "object" && p.of !== null && uses(p.of as { op: string }, op));
/** After an accepted act, a termination condition using `op` fired (withdrew the life) or held back. */
const composite = (s: StepContext, op: string, fired: boolean) =>
  isOp(s, "janma.act") &&
  s.outcome.ok &&
  (s.manifest?.termination_conditions ?? []).some((t) => uses(t.when, op) && withdrewBy(s, t.id) === fired);

// --- the boundary witnesses -----------------------------------------------------------------

export const BOUNDARIES: readonly Boundary[] = [
  // J-3 TTL at act (OP-2.3.c6): tick ≥ born_tick + ttl_ticks fails.
  {
    id: "OP-2.3.c6@deadline-1",
    what: "act one tick before the TTL deadline passes",
    hit: (s) => passedAt(s, "OP-2.3.c6") && s.cmd.tick === (ttlDeadline(s) ?? NaN) - 1,
  },
  {
    id: "OP-2.3.c6@deadline",
    what: "act exactly at the TTL deadline fails",
    hit: (s) => failedAt(s, "OP-2.3.c6") && s.cmd.tick === ttlDeadline(s),
  },
  {
    id: "OP-2.3.c6@deadline+1",
    what: "act one tick after the TTL deadline fails",
    hit: (s) => failedAt(s, "OP-2.3.c6") && s.cmd.tick === (ttlDeadline(s) ?? NaN) + 1,
  },
  // J-3 TTL at expire (OP-2.5 effects): the instance is withdrawn iff tick ≥ deadline.
  {
    id: "OP-2.5@deadline-1",
    what: "expire one tick before the deadline changes nothing",
    hit: (s) =>
      isOp(s, "janma.expire") &&
      s.outcome.ok &&
      ["ready", "active"].includes(s.instance?.state ?? "") &&
      s.cmd.tick === (ttlDeadline(s) ?? NaN) - 1 &&
      !withdrewAtTtl(s),
  },
  {
    id: "OP-2.5@deadline",
    what: "expire exactly at the deadline withdraws",
    hit: (s) => isOp(s, "janma.expire") && withdrewAtTtl(s) && s.cmd.tick === ttlDeadline(s),
  },
  {
    id: "OP-2.5@deadline+1",
    what: "expire after the deadline withdraws",
    hit: (s) => isOp(s, "janma.expire") && withdrewAtTtl(s) && s.cmd.tick > (ttlDeadline(s) ?? Infinity),
  },
  // D-015 termination predicates after an act, at n-1 (does not fire), n and n+1 (fire).
  {
    id: "OP-2.3@acts_at_least:n-1",
    what: "acts reach n-1: no withdrawal",
    hit: (s) => counterAt(s, "acts_at_least", "acts", -1),
  },
  {
    id: "OP-2.3@acts_at_least:n",
    what: "acts reach n: withdrawn by the condition",
    hit: (s) => counterAt(s, "acts_at_least", "acts", 0),
  },
  {
    id: "OP-2.3@consecutive_failures_at_least:n-1",
    what: "consecutive failures reach n-1: no withdrawal",
    hit: (s) => counterAt(s, "consecutive_failures_at_least", "consecutive", -1),
  },
  {
    id: "OP-2.3@consecutive_failures_at_least:n",
    what: "consecutive failures reach n: withdrawn",
    hit: (s) => counterAt(s, "consecutive_failures_at_least", "consecutive", 0),
  },
  {
    id: "OP-2.3@failures_at_least:n-1",
    what: "failures reach n-1: no withdrawal",
    hit: (s) => counterAt(s, "failures_at_least", "failures", -1),
  },
  {
    id: "OP-2.3@failures_at_least:n-apart",
    what: "failures reach n, not all consecutive: withdrawn",
    hit: (s) => counterAt(s, "failures_at_least", "failures", 0, (a, n) => a.consecutive < n),
  },
  {
    id: "OP-2.3@all:fires",
    what: "a condition using all fires once every operand holds",
    hit: (s) => composite(s, "all", true),
  },
  {
    id: "OP-2.3@all:holds",
    what: "a condition using all holds back while an operand fails",
    hit: (s) => composite(s, "all", false),
  },
  {
    id: "OP-2.3@any:fires",
    what: "a condition using any fires once one operand holds",
    hit: (s) => composite(s, "any", true),
  },
  {
    id: "OP-2.3@any:holds",
    what: "a condition using any holds back while no operand holds",
    hit: (s) => composite(s, "any", false),
  },
  {
    id: "OP-2.3@not:fires",
    what: "a condition using not fires (its operand fails)",
    hit: (s) => composite(s, "not", true),
  },
  { id: "OP-2.3@not:holds", what: "a condition using not holds back", hit: (s) => composite(s, "not", false) },
  {
    id: "OP-2.3@ticks_since_birth_at_least:n-1",
    what: "n-1 ticks since birth: no withdrawal",
    hit: (s) => counterAt(s, "ticks_since_birth_at_least", "ticks", -1),
  },
  {
    id: "OP-2.3@ticks_since_birth_at_least:n",
    what: "exactly n ticks since birth: withdrawn",
    hit: (s) => counterAt(s, "ticks_since_birth_at_least", "ticks", 0),
  },
  {
    id: "OP-2.3@ticks_since_birth_at_least:n+1",
    what: "first act n+1 ticks after birth: withdrawn",
    hit: (s) => counterAt(s, "ticks_since_birth_at_least", "ticks", 1),
  },
  // J-4 custody deadlines, strict for delivery (D-060): OP-3.1.c3 tick < deadline, OP-4.1.c4 a
  // pending obligation at tick ≥ deadline fails, OP-3.2.c3 expiry at tick ≥ deadline.
  {
    id: "OP-3.1.c3@deadline-1",
    what: "attempt one tick before the deadline passes",
    hit: (s) => passedAt(s, "OP-3.1.c3") && s.cmd.tick === (s.obligation?.deadline_tick ?? NaN) - 1,
  },
  {
    id: "OP-3.1.c3@deadline",
    what: "attempt exactly at the deadline fails",
    hit: (s) => failedAt(s, "OP-3.1.c3") && s.cmd.tick === s.obligation?.deadline_tick,
  },
  {
    id: "OP-3.1.c3@deadline+1",
    what: "attempt one tick after the deadline fails",
    hit: (s) => failedAt(s, "OP-3.1.c3") && s.cmd.tick === (s.obligation?.deadline_tick ?? NaN) + 1,
  },
  {
    id: "OP-3.2.c3@deadline-1",
    what: "custody expiry one tick before the deadline fails",
    hit: (s) => failedAt(s, "OP-3.2.c3") && s.cmd.tick === (s.obligation?.deadline_tick ?? NaN) - 1,
  },
  {
    id: "OP-3.2.c3@deadline",
    what: "custody expiry exactly at the deadline passes",
    hit: (s) => passedAt(s, "OP-3.2.c3") && s.cmd.tick === s.obligation?.deadline_tick,
  },
  {
    id: "OP-4.1.c4@deadline-1",
    what: "merge of a pending obligation one tick before its deadline passes",
    hit: (s) =>
      passedAt(s, "OP-4.1.c4") &&
      mergedObligations(s).some((o) => o.status === "pending" && o.deadline_tick - 1 === s.cmd.tick),
  },
  {
    id: "OP-4.1.c4@deadline",
    what: "merge of a pending obligation exactly at its deadline fails",
    hit: (s) =>
      failedAt(s, "OP-4.1.c4") &&
      mergedObligations(s).some((o) => o.status === "pending" && o.deadline_tick === s.cmd.tick),
  },
  {
    id: "OP-4.1.c4@deadline+1",
    what: "merge one tick after a pending obligation's deadline fails",
    hit: (s) =>
      failedAt(s, "OP-4.1.c4") &&
      mergedObligations(s).some((o) => o.status === "pending" && o.deadline_tick + 1 === s.cmd.tick),
  },
  // S-2 the principal's signal (OP-2.7.c6): its model (D-053) and the zero confidence (D-057).
  {
    id: "OP-2.7.c6@declared-model",
    what: "distil under a non-null satisfaction model the manifest declares passes",
    hit: (s) =>
      passedAt(s, "OP-2.7.c6") &&
      signalOf(s)?.model_version !== null &&
      signalOf(s)?.model_version === s.manifest?.distillation_policy.satisfaction_model,
  },
  {
    id: "OP-2.7.c6@other-model",
    what: "distil under another satisfaction model than the manifest declares fails",
    hit: (s) =>
      failedAt(s, "OP-2.7.c6") && signalOf(s)?.model_version !== s.manifest?.distillation_policy.satisfaction_model,
  },
  {
    id: "OP-2.7.c6@no-feedback",
    what: "the no-feedback distillate (confidence 0, valence 0, no dispositions) passes",
    hit: (s) => passedAt(s, "OP-2.7.c6") && signalOf(s)?.confidence === 0,
  },
  {
    id: "OP-2.7.c6@zero-with-valence",
    what: "confidence 0 with a non-zero valence fails",
    hit: (s) =>
      failedAt(s, "OP-2.7.c6") && signalOf(s)?.confidence === 0 && signalOf(s)?.valence !== 0 && modelMatches(s),
  },
  {
    id: "OP-2.7.c6@zero-with-disposition",
    what: "confidence 0 and valence 0 backing a disposition fails",
    hit: (s) =>
      failedAt(s, "OP-2.7.c6") && signalOf(s)?.confidence === 0 && signalOf(s)?.valence === 0 && modelMatches(s),
  },
  {
    id: "OP-2.7.c6@least-confidence",
    what: "the smallest positive confidence (1 millionth) backing dispositions passes",
    hit: (s) => passedAt(s, "OP-2.7.c6") && signalOf(s)?.confidence === 1 && guidances(s).length > 0,
  },
  // S-1 consent (OP-2.7.c8, D-058): storage and training each decide.
  {
    id: "OP-2.7.c8@storage-refuses",
    what: "a category whose storage sensitivity alone exceeds the ceiling fails",
    hit: (s) => failedAt(s, "OP-2.7.c8") && refusedBy(s, "storage") && !refusedBy(s, "training"),
  },
  {
    id: "OP-2.7.c8@training-refuses",
    what: "a category whose training sensitivity alone exceeds the ceiling fails",
    hit: (s) => failedAt(s, "OP-2.7.c8") && refusedBy(s, "training") && !refusedBy(s, "storage"),
  },
  {
    id: "OP-2.7.c8@both-within",
    what: "a category within the ceiling on both dimensions (medium under a medium ceiling) passes",
    hit: (s) =>
      passedAt(s, "OP-2.7.c8") &&
      s.manifest?.consent_scope.persist_ceiling === "medium" &&
      categoriesOf(s).some((c) => sensitivity(s, c, "storage") === "medium"),
  },
  // D-010 leakage (OP-2.7.c9): runs of 3 pass, 4 and 5 fail; case and NFKC do not hide a run.
  {
    id: "OP-2.7.c9@run-3",
    what: "guidance quoting 3 consecutive trace tokens passes",
    hit: (s) => passedAt(s, "OP-2.7.c9") && maxRun(s) === 3,
  },
  {
    id: "OP-2.7.c9@run-4",
    what: "guidance quoting exactly 4 consecutive trace tokens fails",
    hit: (s) => failedAt(s, "OP-2.7.c9") && maxRun(s) === 4,
  },
  {
    id: "OP-2.7.c9@run-5",
    what: "guidance quoting 5 or more consecutive trace tokens fails",
    hit: (s) => failedAt(s, "OP-2.7.c9") && maxRun(s) >= 5,
  },
  {
    id: "OP-2.7.c9@case",
    what: "a run that matches only after lower-casing fails",
    hit: (s) =>
      failedAt(s, "OP-2.7.c9") && maxRun(s, rawTokens) < 4 && maxRun(s, (t) => rawTokens(t.toLowerCase())) >= 4,
  },
  {
    id: "OP-2.7.c9@nfkc",
    what: "a run that matches only after NFKC normalisation fails",
    hit: (s) => failedAt(s, "OP-2.7.c9") && maxRun(s, (t) => rawTokens(t.toLowerCase())) < 4 && maxRun(s) >= 4,
  },
  // D-016 capability algebra: a wildcard covers only below its separator.
  {
    id: "OP-2.2.c7@wildcard-covers",
    what: "an exact grant under an offered wildcard is grantable",
    hit: (s) =>
      passedAt(s, "OP-2.2.c7") &&
      (s.manifest?.capability_grants ?? []).some((g) => !g.endsWith(".*") && coveredByWildcard(grantableOf(s), g)),
  },
  {
    id: "OP-2.2.c7@nested-wildcard",
    what: "a narrower wildcard under an offered wildcard is grantable",
    hit: (s) =>
      passedAt(s, "OP-2.2.c7") &&
      (s.manifest?.capability_grants ?? []).some(
        (g) => g.endsWith(".*") && !grantableOf(s).includes(g) && coveredByWildcard(grantableOf(s), g.slice(0, -2)),
      ),
  },
  {
    id: "OP-2.2.c7@no-separator",
    what: "a grant sharing the wildcard's prefix without its separator is not grantable",
    hit: (s) =>
      failedAt(s, "OP-2.2.c7") &&
      (s.manifest?.capability_grants ?? []).some((g) =>
        wildcardPrefixWithoutSeparator(grantableOf(s), g.replace(/\.\*$/, "")),
      ),
  },
  {
    id: "OP-2.3.c7@wildcard-covers",
    what: "an act whose capability a held wildcard covers passes",
    hit: (s) => passedAt(s, "OP-2.3.c7") && coveredByWildcard(s.instance?.grants ?? [], actCapability(s)),
  },
  {
    id: "OP-2.3.c7@no-separator",
    what: "an act whose capability shares a held wildcard's prefix without its separator fails",
    hit: (s) => failedAt(s, "OP-2.3.c7") && wildcardPrefixWithoutSeparator(s.instance?.grants ?? [], actCapability(s)),
  },
  {
    id: "OP-2.3.c7@bound-not-granted",
    what: "a capability the tool binds but no grant covers fails",
    hit: (s) =>
      failedAt(s, "OP-2.3.c7") &&
      (s.instance?.tools ?? []).includes(actTool(s)) &&
      !(s.instance?.grants ?? []).some((g) => g === actCapability(s) || coveredByWildcard([g], actCapability(s))),
  },
  // List orders (OP-0.6): inputs given unsorted and with duplicates are accepted and sorted.
  {
    id: "OP-2.2@grants-unsorted",
    what: "birth with the manifest's grants unsorted",
    hit: (s) => isOp(s, "janma.birth") && s.outcome.ok && unsorted(s.manifest?.capability_grants ?? []),
  },
  {
    id: "OP-2.2@grants-duplicated",
    what: "birth with a grant listed twice",
    hit: (s) => isOp(s, "janma.birth") && s.outcome.ok && duplicated(s.manifest?.capability_grants ?? []),
  },
  {
    id: "OP-2.2@bindings-unsorted",
    what: "birth with tool bindings (and their capabilities) unsorted",
    hit: (s) =>
      isOp(s, "janma.birth") &&
      s.outcome.ok &&
      (unsorted((s.manifest?.tool_bindings ?? []).map((b) => b.tool)) ||
        (s.manifest?.tool_bindings ?? []).some((b) => unsorted(b.capabilities))),
  },
  {
    id: "OP-5.1@custodians-unsorted",
    what: "mint with custodians unsorted",
    hit: (s) => isOp(s, "advaita.mint") && s.outcome.ok && unsorted(strings(field(s, "custodians"))),
  },
  {
    id: "OP-5.1@custodians-duplicated",
    what: "mint with a custodian listed twice",
    hit: (s) => isOp(s, "advaita.mint") && s.outcome.ok && duplicated(strings(field(s, "custodians"))),
  },
  {
    id: "OP-5.1@required-unsorted",
    what: "mint with required capabilities unsorted",
    hit: (s) => isOp(s, "advaita.mint") && s.outcome.ok && unsorted(strings(field(s, "required_capabilities"))),
  },
  {
    id: "OP-5.1@required-duplicated",
    what: "mint with a required capability listed twice",
    hit: (s) => isOp(s, "advaita.mint") && s.outcome.ok && duplicated(strings(field(s, "required_capabilities"))),
  },
  {
    id: "OP-4.1@obligations-unsorted",
    what: "merge with obligation ids unsorted",
    hit: (s) => isOp(s, "samskara.merge") && s.outcome.ok && unsorted(strings(field(s, "obligation_ids"))),
  },
  {
    id: "OP-4.1@obligations-duplicated",
    what: "merge with an obligation id listed twice",
    hit: (s) => isOp(s, "samskara.merge") && s.outcome.ok && duplicated(strings(field(s, "obligation_ids"))),
  },
  {
    id: "OP-4.2@distillates-unsorted",
    what: "excise with distillate ids unsorted",
    hit: (s) => isOp(s, "samskara.excise") && s.outcome.ok && unsorted(strings(field(s, "distillate_ids"))),
  },
  {
    id: "OP-4.2@distillates-duplicated",
    what: "excise with a distillate id listed twice",
    hit: (s) => isOp(s, "samskara.excise") && s.outcome.ok && duplicated(strings(field(s, "distillate_ids"))),
  },
];

function modelMatches(s: StepContext): boolean {
  return signalOf(s)?.model_version === s.manifest?.distillation_policy.satisfaction_model;
}
function categoriesOf(s: StepContext): string[] {
  const d = field(s, "distillate") as { dispositions?: unknown } | undefined;
  return Array.isArray(d?.dispositions)
    ? d.dispositions.flatMap((x) =>
        typeof (x as { category?: unknown }).category === "string" ? [(x as { category: string }).category] : [],
      )
    : [];
}
/** D-011's resolution, written again here: the exact cell, else the category's default row, else low. */
function sensitivity(s: StepContext, category: string, dimension: string): string {
  const g = s.manifest?.consent_scope;
  return (
    g?.cells.find((c) => c.category === category && c.dimension === dimension)?.sensitivity ??
    g?.category_defaults.find((d) => d.category === category)?.sensitivity ??
    "low"
  );
}
/** Some disposition's category is above the ceiling on `dimension`. */
function refusedBy(s: StepContext, dimension: string): boolean {
  const rank: Record<string, number> = { low: 0, medium: 1, high: 2 };
  const ceiling = rank[s.manifest?.consent_scope.persist_ceiling ?? "low"] ?? 0;
  return categoriesOf(s).some((c) => (rank[sensitivity(s, c, dimension)] ?? 0) > ceiling);
}

function grantableOf(s: StepContext): string[] {
  const env = field(s, "environment") as { grantable?: unknown } | undefined;
  return strings(env?.grantable);
}
function actCapability(s: StepContext): string {
  return (field(s, "signed") as { action?: { capability?: string } } | undefined)?.action?.capability ?? "";
}
function actTool(s: StepContext): string {
  return (field(s, "signed") as { action?: { tool?: string } } | undefined)?.action?.tool ?? "";
}
function mergedObligations(s: StepContext): ObligationView[] {
  const ids = new Set(strings(field(s, "obligation_ids")));
  return (s.agent?.obligations ?? []).filter((o) => ids.has(o.obligation_id));
}

// --- the book ---------------------------------------------------------------------------------

export interface WitnessBook {
  readonly passed: Map<string, number>;
  readonly firstFail: Map<string, number>;
  readonly boundaries: Map<string, number>;
  /** Ordered comparisons (properties/comparisons.ts): hits per (operation, check, side) cell. */
  readonly comparisons: Map<string, number>;
  /** Rejections whose check is not one of the command's operation's checks, or allows another code. */
  readonly misnamed: string[];
  /** Generator memory of the book itself: manifests and traces by `agent/instance`. */
  readonly manifests: Map<string, JanmaManifest>;
  readonly traces: Map<string, string[]>;
  steps: number;
}

export const newWitnessBook = (): WitnessBook => ({
  passed: new Map(),
  firstFail: new Map(),
  boundaries: new Map(),
  comparisons: new Map(),
  misnamed: [],
  manifests: new Map(),
  traces: new Map(),
  steps: 0,
});

/**
 * Start a new run: ids repeat between runs (the generator's counters start again), so what the
 * book remembers of manifests and traces must not leak from one run into the next.
 */
export const beginRun = (book: WitnessBook): void => {
  book.manifests.clear();
  book.traces.clear();
};

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/**
 * Record one step. A command that fails its schema (OP-0.2.c1) has no usable op if its `op` is
 * not one of the spec's; it is counted against OP-0.2.c1 only.
 */
export const recordWitness = (
  book: WitnessBook,
  pre: WorldView,
  cmd: Command,
  outcome: StepOutcome,
  codeOf: (c: CheckClause) => readonly string[],
): void => {
  book.steps++;
  const chain = (() => {
    try {
      return checksOf(cmd.op);
    } catch {
      return [];
    }
  })();
  const order = chain.length > 0 ? chain : CHECKS.filter((c) => c.id === "OP-0.2.c1");
  const passed = new Set<string>();
  let failed: string | null = null;
  if (outcome.ok) {
    for (const c of order) {
      // OP-6.6.c4 is a branch: a repeated effect id is "taken" (counted as its first-fail).
      if (c.targets.length === 0 && outcome.events.some((e) => e.type === "effect.duplicate")) failed = c.id;
      else passed.add(c.id);
    }
  } else {
    const at = order.findIndex((c) => c.id === outcome.check);
    const rejecting = order[at];
    if (at < 0 || rejecting === undefined || !codeOf(rejecting).includes(outcome.code)) {
      book.misnamed.push(`${cmd.op} rejected with ${outcome.code} at ${outcome.check}`);
    } else {
      for (const c of order.slice(0, at)) passed.add(c.id);
    }
    failed = outcome.check;
  }
  for (const id of passed) bump(book.passed, id);
  if (failed !== null) bump(book.firstFail, failed);

  const member = (k: string): unknown => (cmd as unknown as Record<string, unknown>)[k];
  const agentId = member("agent");
  const agent = typeof agentId === "string" ? pre.agents.find((a) => a.identity.identity === agentId) : undefined;
  const instanceId = member("instance_id");
  const key = `${String(agentId)}/${String(instanceId)}`;
  const obligationId = member("obligation_id");
  const ctx: StepContext = {
    pre,
    cmd,
    outcome,
    passed,
    failedAt: outcome.ok ? null : outcome.check,
    agent,
    instance: agent?.instances.find((i) => i.instance_id === instanceId),
    obligation: agent?.obligations.find((o) => o.obligation_id === obligationId),
    manifest: book.manifests.get(key),
    trace: book.traces.get(key) ?? [],
  };
  for (const b of BOUNDARIES) if (b.hit(ctx)) bump(book.boundaries, b.id);
  for (const k of COMPARISONS) if (k.hit?.(ctx) === true) bump(book.comparisons, k.id);

  if (outcome.ok && cmd.op === "janma.conceive") book.manifests.set(key, cmd.manifest);
  if (outcome.ok && cmd.op === "janma.act")
    book.traces.set(key, [...(book.traces.get(key) ?? []), ...cmd.signed.action.trace]);
};

export interface WitnessRow {
  readonly id: string;
  readonly op: string;
  readonly passed: number;
  readonly firstFail: number;
  /** Why a zero in a column is expected (unreachable first-fail, a check that always rejects). */
  readonly exempt: { readonly passed?: string; readonly firstFail?: string };
}

export const witnessRows = (book: WitnessBook): WitnessRow[] =>
  CHECKS.map((c) => ({
    id: c.id,
    op: c.op ?? "*",
    passed: book.passed.get(c.id) ?? 0,
    firstFail: book.firstFail.get(c.id) ?? 0,
    exempt: {
      ...(c.unreachable === undefined ? {} : { firstFail: c.unreachable }),
      ...(c.alwaysRejects === true ? { passed: "the check rejects every command that reaches it" } : {}),
    },
  }));

/** The hits of each cell of properties/comparisons.ts: its own count, or its boundary's; null when impossible. */
export const comparisonCounts = (
  book: WitnessBook,
): Array<{ readonly id: string; readonly what: string; readonly hits: number | null; readonly impossible?: string }> =>
  COMPARISONS.map((k) => ({
    id: k.id,
    what: k.what,
    hits:
      k.impossible !== undefined
        ? null
        : k.sameAs !== undefined
          ? (book.boundaries.get(k.sameAs) ?? 0)
          : (book.comparisons.get(k.id) ?? 0),
    ...(k.impossible === undefined ? {} : { impossible: k.impossible }),
  }));

/** Every zero that is not exempt: `OP-2.3.c5 first-fail`, `OP-2.3.c6@deadline`, … */
export const witnessZeros = (book: WitnessBook): string[] => [
  ...witnessRows(book).flatMap((r) => [
    ...(r.passed === 0 && r.exempt.passed === undefined ? [`${r.id} passed`] : []),
    ...(r.firstFail === 0 && r.exempt.firstFail === undefined ? [`${r.id} first-fail`] : []),
  ]),
  ...BOUNDARIES.filter((b) => (book.boundaries.get(b.id) ?? 0) === 0).map((b) => b.id),
  ...comparisonCounts(book)
    .filter((k) => k.hits === 0)
    .map((k) => k.id),
];

export const renderWitnessTable = (book: WitnessBook): string => {
  const rows = witnessRows(book);
  const w = Math.max(...rows.map((r) => r.id.length), ...BOUNDARIES.map((b) => b.id.length));
  const ow = Math.max(...rows.map((r) => r.op.length));
  const lines = [
    `witnesses per check clause over ${book.steps} generated steps (spec/CHECKS.md; "-" = exempt, see spec/checks.ts)`,
    `${"check".padEnd(w)}  ${"op".padEnd(ow)}  ${"passed".padStart(7)}  ${"first-fail".padStart(10)}`,
  ];
  for (const r of rows) {
    const p = r.passed === 0 && r.exempt.passed !== undefined ? "-" : String(r.passed);
    const f = r.firstFail === 0 && r.exempt.firstFail !== undefined ? "-" : String(r.firstFail);
    lines.push(`${r.id.padEnd(w)}  ${r.op.padEnd(ow)}  ${p.padStart(7)}  ${f.padStart(10)}`);
  }
  lines.push("", `${"boundary".padEnd(w)}  hits`);
  for (const b of BOUNDARIES)
    lines.push(`${b.id.padEnd(w)}  ${String(book.boundaries.get(b.id) ?? 0).padStart(4)}  ${b.what}`);
  const cells = comparisonCounts(book);
  const cw = Math.max(...cells.map((k) => k.id.length));
  lines.push("", `${"comparison (operation check side)".padEnd(cw)}  hits`);
  for (const k of cells)
    lines.push(
      `${k.id.padEnd(cw)}  ${(k.hits === null ? "-" : String(k.hits)).padStart(4)}  ${k.what}${k.impossible === undefined ? "" : ` (impossible: ${k.impossible})`}`,
    );
  const zeros = witnessZeros(book);
  lines.push(
    "",
    `${CHECKS.length} check clauses, ${BOUNDARIES.length} boundary witnesses, ${cells.length} comparison cells (${cells.filter((k) => k.hits === null).length} impossible); zeros: ${zeros.length === 0 ? "none" : zeros.join(", ")}`,
  );
  return lines.join("\n");
};
