/**
 * What every certification stage receives and returns. A stage is a function
 * `(ctx: StageContext) => Promise<StageOutcome>`; it records witnesses in `ctx.witnesses`, reports
 * violations as findings (each attributed to an invariant, or to the wire protocol when
 * `invariant` is null), and ends `inconclusive` when the implementation could not be driven.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { HelloResult } from "../../spec/wire/index.ts";
import type { Family } from "../oracle/families.ts";
import type { WitnessBook } from "../verdicts/witnesses.ts";
import type { CoverageBook } from "../oracle/transitions.ts";
import type { Target } from "../driver/target.ts";
import type { Progress } from "../core/progress.ts";
import type { Shard } from "../shard/shard.ts";
import type { ShrinkLedger } from "../shrink-budget.ts";

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

// Findings and outcomes live in core/finding.ts (the verdict rules and the shard merge read them
// too); re-exported for the stages.
export {
  type Finding,
  NONE_OWNED,
  notThisShard,
  outcome,
  type StageOutcome,
  wasNotThisShard,
} from "../core/finding.ts";

// The driver's errors live in core/driver-errors.ts (the driver throws them, stages catch them);
// re-exported for the stages.
export { CannotStart, Undrivable, WireBreak } from "../core/driver-errors.ts";
