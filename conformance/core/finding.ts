/**
 * What a stage reports (a finding, attributed to an invariant or, when `invariant` is null, to the
 * wire protocol) and how it ends (its outcome): the vocabulary the stages write and the verdict
 * rules, the shard merge and the reporters read, kept below all of them.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, StageName, Verdict } from "../../spec/certificate.ts";

export interface Finding {
  /** The invariant violated; null for a break of the wire protocol itself (W-1 … W-7 rules). */
  readonly invariant: InvariantId | null;
  readonly stage: StageName;
  /** A stable check id, e.g. `differential/step`, `wire/W-1.4`, `crash/after_commit`. */
  readonly check: string;
  /** What disagreed, in one sentence a person can act on. */
  readonly summary: string;
  /** A portable, replayable counterexample, when the failure is a sequence of requests. */
  readonly trace: PortableTrace | null;
  /**
   * When no portable trace can hold the failure (the wire session's raw lines: broken framing,
   * invalid UTF-8, lines that are not JSON), the srk subcommand that re-runs it, e.g. `golden`.
   */
  readonly rerun?: string;
}

export interface StageOutcome {
  readonly verdict: Verdict;
  readonly reason: string;
  readonly checks: number;
  readonly findings: readonly Finding[];
  readonly notes: readonly string[];
}

const NOT_THIS_SHARD = "no unit of this stage belongs to shard";

/** The outcome of a stage none of whose units belong to this shard. */
export const notThisShard = (shard: { readonly index: number; readonly count: number }): StageOutcome => ({
  verdict: "not-applicable",
  reason: `${NOT_THIS_SHARD} ${shard.index + 1}/${shard.count}`,
  checks: 0,
  findings: [],
  notes: [],
});

/**
 * What a stage whose units are dealt out only as it runs (definition.ts `while-running`) returns
 * when none of them was this shard's; the shard gate (shard-gate.ts) turns it into `notThisShard`.
 * Compared by identity, so it cannot be mistaken for a real outcome.
 */
export const NONE_OWNED: StageOutcome = Object.freeze({
  verdict: "not-applicable",
  reason: NOT_THIS_SHARD,
  checks: 0,
  findings: [],
  notes: [],
});

/** Was a stage result only "not this shard's" (so a merge does not count it as a verdict)? */
export const wasNotThisShard = (r: { readonly verdict: string; readonly reason: string }): boolean =>
  r.verdict === "not-applicable" && r.reason.startsWith(NOT_THIS_SHARD);

export const outcome = (
  verdict: Verdict,
  reason: string,
  checks: number,
  findings: readonly Finding[] = [],
  notes: readonly string[] = [],
): StageOutcome => ({
  verdict,
  reason,
  checks,
  findings,
  notes,
});
