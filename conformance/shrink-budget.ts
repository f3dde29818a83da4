/**
 * The shrink budget (D-064): shrinking counterexamples over the wire may use at most SHRINK_SHARE
 * of the whole certification's time budget, summed over every shrink of the run. When the share is
 * spent a shrink stops and keeps the smallest counterexample found so far, which the certificate
 * then calls not fully shrunk; the rest of the budget stays for the runs and stages after it, so
 * one violation does not leave the other invariants inconclusive.
 */

/** The share of the time budget all the shrinks of one certification may use together. */
export const SHRINK_SHARE = 0.2;

/** Why a shrink stopped before it was done, as the portable trace and the finding's summary say. */
export const SHRINK_BUDGET_REASON = `shrink budget (${Math.round(SHRINK_SHARE * 100)}% of the time budget) reached`;
export const TIME_BUDGET_REASON = "the time budget ended";

/**
 * Milliseconds of shrinking a certification may still spend: SHRINK_SHARE of its time budget less
 * what its shrinks have used, never negative (0 when the share is spent, or the budget is 0).
 */
export const shrinkLimit = (budgetMs: number, usedMs: number): number => {
  if (!(budgetMs > 0)) return 0;
  const share = Math.floor(budgetMs * SHRINK_SHARE);
  return Math.max(0, share - Math.max(0, usedMs));
};

/** One shrink's clock: started at its first failure, over when its allowance is spent. */
export interface ShrinkClock {
  /** Starts the clock (the first failure of the re-run); later calls do nothing. */
  start(): void;
  /** Has this shrink used all the time it may? False before start. */
  over(): boolean;
  /** Stops the clock and adds its time to the ledger; returns the milliseconds it used. */
  end(): number;
}

/** The shrinking time one certification has used, against its share of the time budget. */
export class ShrinkLedger {
  private used = 0;
  constructor(
    readonly budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get usedMs(): number {
    return this.used;
  }

  /** Milliseconds of shrinking left to the whole certification. */
  remainingMs(): number {
    return shrinkLimit(this.budgetMs, this.used);
  }

  /** A clock for one shrink, allowed what the ledger has left when it begins. */
  begin(): ShrinkClock {
    const allowance = this.remainingMs();
    let started: number | null = null;
    let ended = false;
    return {
      start: () => {
        if (started === null) started = this.now();
      },
      over: () => started !== null && this.now() - started >= allowance,
      end: () => {
        if (ended || started === null) return 0;
        ended = true;
        const ms = Math.max(0, this.now() - started);
        this.used += ms;
        return ms;
      },
    };
  }
}

/**
 * The shrink ledger of the certification a stage runs in: certify passes one to every stage; a stage
 * run on its own (a test, a library caller) without one gets a fresh ledger over its time budget.
 */
// The context is typed by the two fields read, not by StageContext: the ledger is vocabulary the
// stages import, so importing the stages' types back would make a circle (issue 22).
export const shrinkLedgerOf = (ctx: {
  readonly shrinkLedger?: ShrinkLedger | undefined;
  readonly settings: { readonly timeBudgetMs: number };
}): ShrinkLedger => ctx.shrinkLedger ?? new ShrinkLedger(ctx.settings.timeBudgetMs);
