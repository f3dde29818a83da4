/**
 * When a stage stops starting new work: its time budget is spent (`ctx.deadline`, the soft end
 * after which a stage still reports what it did), or its signal fired (an interrupt, or the hard
 * time limit of the budget plus grace, core/abort.ts). One test for the five places that used to
 * read the clock by hand.
 *
 * The clock stays beside the signal rather than being replaced by a timer signal: a timer fires
 * only when the event loop gets to it, while a stage between two synchronous steps must see a
 * spent budget at once, exactly as before, so that an uncancelled certification stops at the same
 * run as it always did.
 */
import type { StageContext } from "./types.ts";

export const outOfTime = (ctx: Pick<StageContext, "deadline" | "signal">): boolean =>
  ctx.signal?.aborted === true || Date.now() >= ctx.deadline;
