/**
 * Stage 4, the generated differential campaign: the property generator drives the implementation
 * over the wire with the reference model as oracle. Commands are generated from the model's
 * state (so the same seed sends the same commands to any implementation); every reply's normative
 * part must equal the model's, and the implementation's `world` view must equal the model's at
 * checkpoints and at the end of every run. `reset` between runs (W-2.4).
 *
 * Swarm testing: each run disables a random subset of operation kinds (never the bootstrap
 * `mint`) and picks a generator profile, so rare interleavings of the remaining kinds are common.
 * A failure is shrunk over the wire by fast-check (every attempt is a reset and a replay, within
 * the time budget and the shrink budget, D-064), then replayed once more to record a portable trace
 * and check it reproduces. A shrink cut short keeps the smallest failing case found so far, and its
 * finding and trace say it is not fully shrunk.
 *
 * Driver and checker (issue 22): `driveDifferential` sends the runs and records every one of them,
 * every shrink candidate and every probe in a history (differential-check.ts names its parts); it
 * judges nothing but what it needs to go on — whether a run or a candidate failed, and whether a
 * failure is worth shrinking — and for that it asks the checkers. `checkDifferential` then decides
 * the findings, notes, check count, witnesses and outcome from the history alone.
 */
import fc from "fast-check";
import { refineMismatch } from "../oracle/refine.ts";
import { PlannedBreak, runPlanned, opAt, type PlannedStep } from "../oracle/planned.ts";
import { guardsOf } from "../oracle/families.ts";
import type { Session } from "../driver/target.ts";
import { newHistory } from "../core/history.ts";
import { recordAgreedStep } from "../verdicts/witnesses.ts";
import { owns, runSeed } from "../shard/shard.ts";
import { shrinkLedgerOf, type ShrinkClock } from "../shrink-budget.ts";
import { outOfTime } from "./budget.ts";
import { planRun, planRunAndEdges, runCaseArb, type RunCase } from "./differential-plan.ts";
import { guidedSchedule } from "./differential-guide.ts";
import {
  CAMPAIGN,
  checkDifferential,
  emptyState,
  failureKey,
  isRepeat,
  judgeRun,
  judgeRunPart,
  runPart,
  type DifferentialEvent,
  type DifferentialHistory,
} from "./differential-check.ts";
import { coverOf, scopeOf } from "./scope-cover.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import { Undrivable, WireBreak, type StageContext, type StageOutcome } from "./types.ts";

export { MAX_DIFFERENTIAL_FINDINGS } from "./differential-check.ts";

/** Thrown to fast-check by the property when the checker finds the candidate recorded as `part` failing. */
class Divergence extends Error {
  override readonly name = "Divergence";
  constructor(readonly part: string) {
    super(`${part} differs from the model`);
  }
}

/**
 * Resets the session and runs a plan, recorded as `part` (the reset's reply as `<part>/reset`).
 * Throws what the wire throws: Undrivable, PlannedBreak, or a WireBreak of the reset.
 */
const runRecorded = async (
  session: Session,
  plan: readonly PlannedStep[],
  history: DifferentialHistory,
  part: string,
): Promise<void> => {
  const reply = await session.ok({ type: "reset" });
  history.events.push({
    kind: "exchange",
    part: `${part}/reset`,
    step: 0,
    request: { type: "reset", id: "reset" },
    expected: { ok: true, events: [] },
    reply,
  });
  await runPlanned(session, plan, undefined, { history: history, part });
};

/**
 * The campaign's driver: the guided schedule, then each of this shard's runs (recorded as
 * runPart(k)); a run the checker finds failing, unless its failure is a repeat, shrunk over the
 * wire (every candidate recorded, the checker asked whether it still fails), replayed once more and
 * probed to sharpen it (refine.ts); a process that broke the protocol started afresh.
 */
export const driveDifferential = async (ctx: StageContext): Promise<DifferentialHistory> => {
  const history = newHistory<DifferentialEvent>(`differential/${ctx.settings.seed}`);
  const record = (e: DifferentialEvent): void => {
    history.events.push(e);
  };
  /**
   * The history from event `from` on, with the campaign's event first: all a checker reads of the
   * part (or run) that began there. Judging it rather than the whole history keeps the driver's
   * questions to the checkers linear in the campaign's length.
   */
  const since = (from: number): DifferentialHistory => ({
    unit: history.unit,
    events: [...history.events.slice(0, 1), ...history.events.slice(from)],
  });
  // Each run k has its own seed, derived from the campaign seed: run k is the same whichever
  // shard runs it, and a failure shrinks within its own run (D-038).
  const mine = [...Array(ctx.settings.runs).keys()].filter((k) => owns(ctx.shard, "differential", k));
  record({
    kind: "differential-campaign",
    part: CAMPAIGN,
    seed: ctx.settings.seed,
    runs: ctx.settings.runs,
    families: [...ctx.families],
    mine: mine.length,
    shard: ctx.shard === undefined ? null : { index: ctx.shard.index, count: ctx.shard.count },
  });
  if (ctx.families.length === 0) return history;
  const session = await ctx.target.open();
  if (mine.length === 0 && ctx.shard !== undefined) {
    await session.close();
    return history;
  }
  let restarts = 0;
  /** The implementation can no longer be driven (exit, hang, restart budget): ends the campaign. */
  let fault = false;
  /** The current run broke the wire protocol: nothing more is sent in it. */
  let broken = false;
  let failureSeen = false;
  /** Is the property shrinking run `base`'s failure (else it runs it the first time)? */
  let shrinking = false;
  let base = "";
  let attempts = 0;
  const started = Date.now();
  /** What the checkers decided of the runs so far: which failures are reported (only to decide what to shrink). */
  const state = emptyState();
  /** The shrink budget of the whole certification (D-064), and the clock of the shrink under way. */
  const ledger = shrinkLedgerOf(ctx);
  let shrinkClock: ShrinkClock | null = null;
  /** Did the shrink under way reach the shrink budget? */
  let cut = false;

  /** Run k's seed: the guided schedule's choice (computed below, before the first run). */
  let seeds: readonly number[] = [];
  const seedOf = (k: number): number => seeds[k] ?? runSeed(ctx.settings.seed, k);

  const predicate = async (c: RunCase): Promise<boolean> => {
    if (fault || broken) return true; // this run cannot go on: end it quickly
    if (failureSeen && shrinkClock?.over() === true) {
      // The shrink budget is spent: every further candidate passes untried, so fast-check ends
      // with the smallest failing case found so far.
      cut = true;
      return true;
    }
    const { plan, edges } = planRunAndEdges(c, ctx.families);
    if (failureSeen) attempts++;
    const part = !shrinking ? base : failureSeen ? `${base}/shrink-${attempts}` : `${base}/again`;
    const from = history.events.length;
    record({ kind: "differential-plan", part, length: plan.length, ...(failureSeen ? {} : { edges }) });
    try {
      if (session.client.hasExited) {
        if (++restarts > 3)
          throw new Undrivable(`the implementation died ${restarts} times; giving up (restart budget 3)`);
        await session.restart();
        history.events.push({ kind: "restart", part });
      }
      await runRecorded(session, plan, history, part);
    } catch (e) {
      if (e instanceof Undrivable) {
        history.events.push({ kind: "stopped", part, reason: e.message });
        record({ kind: "differential-fault", part: CAMPAIGN, reason: e.message });
        fault = true;
        return true;
      }
      if (e instanceof PlannedBreak) {
        const s = plan[e.index] as PlannedStep;
        record({
          kind: "differential-unanswered",
          part,
          step: e.index,
          request: s.request,
          expected: s.expected,
          ...(s.rejectedAt === undefined ? {} : { rejectedAt: s.rejectedAt }),
        });
        broken = true;
        return true;
      }
      if (e instanceof WireBreak) {
        history.events.push({
          kind: "break",
          part: `${part}/reset`,
          step: 0,
          rule: e.rule,
          message: e.message,
          raw: e.raw,
        });
        broken = true;
        return true;
      }
      throw e;
    }
    // The one judgement made while driving: does this case fail? (a checker reading its part)
    if (judgeRunPart(since(from), part).kind === "mismatch") {
      failureSeen = true;
      shrinkClock?.start();
      throw new Divergence(part);
    }
    return true;
  };

  /** Shrinks run k's failure over the wire, recording every candidate, then replays and probes the shrunk case. */
  const shrink = async (k: number, remaining: number): Promise<void> => {
    failureSeen = false;
    shrinking = true;
    attempts = 0;
    cut = false;
    shrinkClock = ledger.begin();
    const details = await fc
      .check(fc.asyncProperty(runCaseArb(), predicate), {
        numRuns: 1,
        seed: seedOf(k),
        interruptAfterTimeLimit: Math.max(1_000, remaining),
        markInterruptAsFailure: false,
      })
      .finally(() => {
        shrinkClock?.end();
        shrinkClock = null;
        shrinking = false;
      });
    const failed = details.failed && details.counterexample !== null && details.errorInstance instanceof Divergence;
    if (details.failed && !failed) {
      const err = details.errorInstance;
      throw err instanceof Error ? err : new Error(String(err));
    }
    record({
      kind: "differential-shrunk",
      part: `${base}/shrink`,
      failed,
      original: details.errorInstance instanceof Divergence ? details.errorInstance.part : null,
      seed: details.seed,
      path: details.counterexamplePath,
      numShrinks: details.numShrinks,
      interrupted: details.interrupted,
      budgetCut: cut,
    });
    if (!failed || details.counterexample === null) return;
    const [shrunk] = details.counterexample;
    // Replay the shrunk case once more, on the live session, to record its trace and see whether it
    // reproduces (a failure that does not reproduce is reported as such, never dropped).
    if (fault) return;
    const replay = `${base}/replay`;
    const from = history.events.length;
    try {
      if (session.client.hasExited) await session.restart();
      const plan = planRun(shrunk, ctx.families);
      record({ kind: "differential-plan", part: replay, length: plan.length });
      await runRecorded(session, plan, history, replay);
    } catch (e) {
      // Whatever ended the replay (but a break, recorded as such), it did not reproduce the failure.
      if (!(e instanceof PlannedBreak))
        history.events.push({ kind: "stopped", part: replay, reason: e instanceof Error ? e.message : String(e) });
    }
    const v = judgeRunPart(since(from), replay);
    if (v.kind === "mismatch")
      await refineMismatch(session, v.steps, v.index, v.mismatch, {
        history: history,
        part: `${base}/refine`,
      }).catch(() => null);
  };

  /** After a break of the wire protocol, what the process holds is unknown: start it afresh. */
  const restartAfterBreak = async (): Promise<void> => {
    // Not counted against the restart budget, which is for deaths: a process that breaks the
    // protocol in every run costs a restart per run, bounded by the runs and the time budget.
    await session.restart().catch((e: unknown) => {
      const reason =
        e instanceof Undrivable
          ? e.message
          : `restart after a protocol break failed: ${e instanceof Error ? e.message : String(e)}`;
      history.events.push({ kind: "restart-failed", part: base, reason });
      record({ kind: "differential-fault", part: CAMPAIGN, reason });
      fault = true;
    });
  };

  // Coverage guidance (D-075): each run's case chosen in the model, before anything is sent, among
  // candidates, for the reachable abstract edges of the certification's scope it adds.
  const scope = scopeOf(ctx.settings);
  const reachable = coverOf(scope, ctx.families).abstractEdges;
  const schedule = guidedSchedule({
    seed: ctx.settings.seed,
    runs: ctx.settings.runs,
    families: ctx.families,
    reachable,
  });
  seeds = schedule.seeds;
  record({
    kind: "differential-guidance",
    part: CAMPAIGN,
    scope,
    steered: schedule.steered,
    guided: schedule.guided.size,
    unguided: schedule.unguided.size,
    reachable: reachable.size,
  });
  for (const k of mine) {
    if (fault || (ctx.failFast === true && state.findings.length > 0)) break;
    if (outOfTime(ctx)) {
      record({ kind: "differential-interrupted", part: CAMPAIGN });
      break;
    }
    const remaining = ctx.deadline - Date.now();
    base = runPart(k);
    const from = history.events.length;
    record({ kind: "differential-run", part: base, run: k, seed: seedOf(k) });
    failureSeen = false;
    broken = false;
    // First without shrinking: only a failure not reported yet is worth the shrinking.
    const d = await fc.check(fc.asyncProperty(runCaseArb(), predicate), {
      numRuns: 1,
      seed: seedOf(k),
      interruptAfterTimeLimit: Math.max(1_000, remaining),
      markInterruptAsFailure: false,
      endOnFailure: true,
    });
    if (d.interrupted && !d.failed) record({ kind: "differential-interrupted", part: base });
    if (d.failed && !(d.errorInstance instanceof Divergence)) {
      const err = d.errorInstance;
      throw err instanceof Error ? err : new Error(String(err));
    }
    const v = judgeRunPart(since(from), base);
    if (v.kind === "break") await restartAfterBreak();
    else if (v.kind === "mismatch" && !isRepeat(state, failureKey(v) ?? "wire"))
      await shrink(k, ctx.deadline - Date.now());
    broken = false;
    const before = state.runsDone;
    judgeRun(since(from), k, state, v); // its shrink and probes are in parts of their own: run k's verdict stands
    if (state.runsDone > before)
      ctx.progress.tick(state.runsDone, mine.length, {
        witnesses: ctx.witnesses.total(),
        violations: state.findings.length,
      });
  }
  record({ kind: "differential-end", part: CAMPAIGN, elapsedMs: Date.now() - started });
  await session.close();
  ctx.progress.done();
  return history;
};

/** The campaign: driven, then judged from its history; the runs that agreed give witnesses and coverage. */
export const differentialStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const history = await driveDifferential(ctx);
  const verdict = checkDifferential(history);
  if (verdict.guidance !== null)
    ctx.coverage?.recordGuidance({
      scope: verdict.guidance.scope,
      unguided: verdict.guidance.unguided,
      guided: verdict.guidance.guided,
      steered: verdict.guidance.steered,
    });
  for (const r of verdict.agreed) {
    for (const [i, s] of r.steps.entries())
      if (s.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(r.steps, i)), s.expected);
    ctx.coverage?.recordSession(r.steps);
    ctx.coverage?.recordEdges(r.edges);
  }
  return verdict.outcome;
};

/**
 * The differential stage: one unit per generated run. Dealt out while running, not before: the
 * campaign starts the implementation before it looks at which runs are this shard's, and a shard
 * with none still starts and stops it (a refused shutdown there is a W-2.2 finding); gating before
 * the run would change that.
 */
export const differential: StageDefinition<"differential"> = {
  ...STAGE_CATALOG.differential,
  shard: { dealt: "while-running" },
  run: differentialStage,
};
