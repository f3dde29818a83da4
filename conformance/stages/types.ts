/**
 * What every certification stage receives and returns. A stage is a function
 * `(ctx: StageContext) => Promise<StageOutcome>`; it records witnesses in `ctx.witnesses`, reports
 * violations as findings (each attributed to an invariant, or to the wire protocol when
 * `invariant` is null), and ends `inconclusive` when the implementation could not be driven.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, StageName, Verdict } from "../../spec/certificate.ts";
import type { HelloResult } from "../../spec/wire/index.ts";
import type { Family } from "../oracle/families.ts";
import type { WitnessBook } from "../verdicts/witnesses.ts";
import type { CoverageBook } from "../oracle/transitions.ts";
import type { Target } from "../driver/target.ts";
import type { Progress } from "../cli/progress.ts";
import type { Shard } from "../shard/shard.ts";
import type { ShrinkLedger } from "../shrink-budget.ts";

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

export interface CertifySettings {
  readonly seed: number;
  /** Generated runs of the differential campaign. */
  readonly runs: number;
  /** Wall-clock budget of the whole certification, in ms. */
  readonly timeBudgetMs: number;
  readonly requestTimeoutMs: number;
  readonly startupTimeoutMs: number;
  /** --only: the invariants certified; empty means all. */
  readonly only: readonly InvariantId[];
  /** --exhaustive: the scope (a shipped name or a file) of the exhaustive stage; absent: `quick` (D-074). */
  readonly exhaustiveScope?: string;
}

export interface StageContext {
  readonly settings: CertifySettings;
  readonly hello: HelloResult;
  /** The families declared in the profile (W-5.2). */
  readonly families: readonly Family[];
  readonly crashHook: boolean;
  /** Starts fresh implementation processes on data directories the runner owns. */
  readonly target: Target;
  readonly witnesses: WitnessBook;
  /** Transition counts of the Janma and migration machines (golden, exhaustive and differential stages). */
  readonly coverage?: CoverageBook;
  readonly progress: Progress;
  /** Absolute time (Date.now()) at which the time budget ends (test it with budget.ts `outOfTime`). */
  readonly deadline: number;
  /**
   * Fires when the stage is cut short: an interrupt of the certification, or its hard time limit
   * (the budget plus grace). Its processes are stopped and their requests reject with a CutShort
   * (core/abort.ts) by the transport, so a stage need not watch it; absent: never cut short.
   */
  readonly signal?: AbortSignal;
  /** The part of the campaign this run does (conformance/shard/shard.ts); the whole when absent. */
  readonly shard?: Shard;
  /** --fail-fast: a stage that can go on after a finding (the differential campaign) stops at its first. */
  readonly failFast?: boolean;
  /**
   * The shrinking time the certification has used, against its share of the time budget (D-064);
   * when absent, one per run (conformance/shrink-budget.ts, shrinkLedgerOf).
   */
  readonly shrinkLedger?: ShrinkLedger;
}

const NOT_THIS_SHARD = "no unit of this stage belongs to shard";

/** The outcome of a stage none of whose units belong to this shard. */
export const notThisShard = (shard: Shard): StageOutcome => ({
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

// The driver's errors live in core/driver-errors.ts (the driver throws them, stages catch them);
// re-exported for the stages.
export { CannotStart, Undrivable, WireBreak } from "../core/driver-errors.ts";

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
