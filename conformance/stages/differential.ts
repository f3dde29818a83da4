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
 */
import { placeText } from "../oracle/attribution.ts";
import fc from "fast-check";
import type { Reply } from "../../spec/wire/index.ts";
import type { PortableTrace } from "../../spec/certificate.ts";
import { guardsOf } from "../oracle/families.ts";
import { refineMismatch } from "../oracle/refine.ts";
import { breakTrace, opAt, PlannedBreak, plannedTrace, runPlanned, type PlannedStep } from "../oracle/planned.ts";
import type { Mismatch } from "../oracle/compare.ts";
import type { Session } from "../driver/target.ts";
import { recordAgreedStep } from "../verdicts/witnesses.ts";
import { owns, runSeed } from "../shard/shard.ts";
import { SHRINK_BUDGET_REASON, shrinkLedgerOf, TIME_BUDGET_REASON, type ShrinkClock } from "../shrink-budget.ts";
import { outOfTime } from "./budget.ts";
import { planRun, planRunAndEdges, runCaseArb, type RunCase } from "./differential-plan.ts";
import { CANDIDATES, guidedSchedule } from "./differential-guide.ts";
import { coverOf, scopeOf } from "./scope-cover.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import {
  NONE_OWNED,
  outcome,
  Undrivable,
  WireBreak,
  type Finding,
  type StageContext,
  type StageOutcome,
} from "./types.ts";

class Divergence extends Error {
  override readonly name = "Divergence";
  constructor(
    readonly index: number,
    readonly mismatch: Mismatch,
    readonly steps: readonly PlannedStep[],
    readonly replies: readonly Reply[],
  ) {
    super(`step ${index + 1}: ${mismatch.summary}`);
  }
}

/** Resets the session and runs one case; throws Divergence on the first disagreement. */
const runOnce = async (session: Session, plan: readonly PlannedStep[]): Promise<readonly Reply[]> => {
  await session.ok({ type: "reset" });
  const { replies, mismatch } = await runPlanned(session, plan);
  if (mismatch !== null) throw new Divergence(mismatch.index, mismatch.mismatch, plan, replies);
  return replies;
};

/**
 * Distinct failures one campaign shrinks and reports (by invariant, or by W rule for a break of the
 * wire protocol). The campaign does not stop at the first: every run is still made, so the
 * invariants the failure did not touch are witnessed and get a verdict; a later failing run of an
 * invariant already reported is counted in the notes, not shrunk again.
 */
export const MAX_DIFFERENTIAL_FINDINGS = 4;

export const differentialStage = async (ctx: StageContext): Promise<StageOutcome> => {
  if (ctx.families.length === 0) return outcome("not-applicable", "the profile declares no family", 0);
  const notes: string[] = [];
  const session = await ctx.target.open();
  let restarts = 0;
  /** The implementation can no longer be driven (exit, hang, restart budget): ends the campaign. */
  let fault: Undrivable | null = null;
  /** A break of the wire protocol in the current run, with the plan it broke in. */
  let broken: { readonly error: WireBreak; readonly plan: readonly PlannedStep[] } | null = null;
  let failureSeen = false;
  let runsDone = 0;
  let steps = 0;
  let attempts = 0;
  const started = Date.now();
  const findings: Finding[] = [];
  const reported = new Set<string>();
  /** Failing runs whose failure was already reported (same invariant or rule): counted, not shrunk. */
  const repeats = new Map<string, number>();
  /** The shrink budget of the whole certification (D-064), and the clock of the shrink under way. */
  const ledger = shrinkLedgerOf(ctx);
  let shrinkClock: ShrinkClock | null = null;
  /** Did the shrink under way reach the shrink budget? */
  let cut = false;

  /** Run k's seed: the guided schedule's choice (computed below, before the first run). */
  let seeds: readonly number[] = [];
  const seedOf = (k: number): number => seeds[k] ?? runSeed(ctx.settings.seed, k);

  const predicate = async (c: RunCase): Promise<boolean> => {
    if (fault !== null || broken !== null) return true; // this run cannot go on: end it quickly
    if (failureSeen && shrinkClock?.over() === true) {
      // The shrink budget is spent: every further candidate passes untried, so fast-check ends
      // with the smallest failing case found so far.
      cut = true;
      return true;
    }
    const { plan, edges } = planRunAndEdges(c, ctx.families);
    if (failureSeen) attempts++;
    try {
      if (session.client.hasExited) {
        if (++restarts > 3)
          throw new Undrivable(`the implementation died ${restarts} times; giving up (restart budget 3)`);
        await session.restart();
      }
      await runOnce(session, plan);
      if (!failureSeen) {
        runsDone++;
        steps += plan.length;
        for (const [i, s] of plan.entries()) {
          if (s.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(plan, i)), s.expected);
        }
        ctx.coverage?.recordSession(plan);
        ctx.coverage?.recordEdges(edges);
        ctx.progress.tick(runsDone, mine.length, { witnesses: ctx.witnesses.total(), violations: findings.length });
      }
      return true;
    } catch (e) {
      if (e instanceof Divergence) {
        failureSeen = true;
        shrinkClock?.start();
        throw e;
      }
      if (e instanceof Undrivable) {
        fault = e;
        return true;
      }
      if (e instanceof WireBreak) {
        broken = { error: e, plan };
        return true;
      }
      throw e;
    }
  };

  /** Shrinks run k's failure over the wire and records it as a finding with its portable trace. */
  const shrinkAndRecord = async (k: number, remaining: number): Promise<void> => {
    failureSeen = false;
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
      });
    const cutBy = cut ? SHRINK_BUDGET_REASON : details.interrupted ? TIME_BUDGET_REASON : null;
    if (!details.failed || details.counterexample === null || !(details.errorInstance instanceof Divergence)) {
      if (details.failed) {
        const err = details.errorInstance;
        throw err instanceof Error ? err : new Error(String(err));
      }
      notes.push(`run ${k + 1} failed once and passed when run again to shrink it (a flaky implementation?)`);
      return;
    }
    const [shrunk] = details.counterexample;
    const original = details.errorInstance;
    // Replay the shrunk case once more, on the live session, to record its trace and check that it
    // reproduces (a failure that does not reproduce is reported as such, never dropped).
    let final: Divergence = original;
    let reproducible = false;
    if (fault === null) {
      try {
        if (session.client.hasExited) await session.restart();
        await runOnce(session, planRun(shrunk, ctx.families));
      } catch (e) {
        if (e instanceof Divergence) {
          final = e;
          reproducible = true;
        }
      }
    }
    const refined =
      reproducible && fault === null
        ? await refineMismatch(session, final.steps, final.index, final.mismatch).catch(() => null)
        : null;
    const m = refined?.mismatch ?? final.mismatch;
    const shown = refined ?? final;
    const commands = shown.steps.slice(0, shown.index + 1).filter((s) => s.request.type === "command").length;
    const trace: PortableTrace = {
      trace_version: 1,
      invariant: m.invariant,
      stage: "differential",
      check: "differential/step",
      summary: `${m.summary}${reproducible ? "" : " (did not reproduce on a second replay)"}`,
      seed: details.seed,
      path: details.counterexamplePath,
      steps: plannedTrace(shown.steps, shown.replies, shown.index),
      failing_step: shown.index,
      difference: m.path === null ? null : placeText(m.path),
      shrink: {
        attempts: details.numShrinks,
        original_length: original.steps.length,
        interrupted: cutBy !== null,
        ...(cutBy === null ? {} : { reason: cutBy }),
      },
    };
    const run =
      cutBy === null
        ? `a shrunk run of ${commands} command(s)`
        : `a run of ${commands} command(s), not fully shrunk, ${cutBy}`;
    findings.push({
      invariant: m.invariant,
      stage: "differential",
      check: "differential/step",
      summary: `step ${shown.index + 1} of ${run}: ${trace.summary}`,
      trace,
    });
    reported.add(m.invariant ?? "wire");
    notes.push(
      `run ${k + 1} of ${ctx.settings.runs} failed (${m.invariant ?? "wire"}); shrunk over the wire in ${details.numShrinks} step(s) and ${attempts} replay(s)${cutBy === null ? "" : `, not fully (${cutBy})`}; run seed ${details.seed}, path ${details.counterexamplePath ?? ""}`,
    );
  };

  /** Records run k's break of the wire protocol (once per W rule) and restarts the process for the next run. */
  const recordBreak = async (
    k: number,
    b: { readonly error: WireBreak; readonly plan: readonly PlannedStep[] },
  ): Promise<void> => {
    const key = `wire/${b.error.rule}`;
    if (reported.has(key) || findings.length >= MAX_DIFFERENTIAL_FINDINGS) {
      repeats.set(key, (repeats.get(key) ?? 0) + 1);
    } else {
      reported.add(key);
      const at = b.error instanceof PlannedBreak ? `step ${b.error.index + 1} of run ${k + 1}: ` : `run ${k + 1}: `;
      findings.push({
        invariant: null,
        stage: "differential",
        check: key,
        summary: `${at}${b.error.message}; raw: ${b.error.raw}`,
        trace: b.error instanceof PlannedBreak ? breakTrace(b.error, b.plan, "differential", key, seedOf(k)) : null,
      });
    }
    // After a reply the runner could not read, what the process holds is unknown: start it afresh.
    // Not counted against the restart budget, which is for deaths: a process that breaks the
    // protocol in every run costs a restart per run, bounded by the runs and the time budget.
    await session.restart().catch((e: unknown) => {
      fault =
        e instanceof Undrivable
          ? e
          : new Undrivable(`restart after a protocol break failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  };

  // Each run k has its own seed, derived from the campaign seed: run k is the same whichever
  // shard runs it, and a failure shrinks within its own run (D-038).
  const mine = [...Array(ctx.settings.runs).keys()].filter((k) => owns(ctx.shard, "differential", k));
  if (mine.length === 0 && ctx.shard !== undefined) {
    await session.close();
    return NONE_OWNED;
  }
  // Coverage guidance (D-075): each run's case chosen in the model, before anything is sent, among
  // candidates, for the reachable abstract edges of the certification's scope it adds.
  const scope = scopeOf(ctx.settings);
  const schedule = guidedSchedule({
    seed: ctx.settings.seed,
    runs: ctx.settings.runs,
    families: ctx.families,
    reachable: coverOf(scope, ctx.families).abstractEdges,
  });
  seeds = schedule.seeds;
  ctx.coverage?.recordGuidance({
    scope,
    unguided: schedule.unguided.size,
    guided: schedule.guided.size,
    steered: schedule.steered,
  });
  notes.push(
    `coverage guidance: ${schedule.steered} of ${ctx.settings.runs} runs chosen among ${CANDIDATES} cases each for the reachable abstract edges of scope ${scope} they add; ` +
      `planned in the model, the guided runs make ${schedule.guided.size} of its ${coverOf(scope, ctx.families).abstractEdges.size} reachable edges, the unguided runs of the same seed ${schedule.unguided.size}`,
  );
  let interrupted = false;
  for (const k of mine) {
    if (fault !== null || (ctx.failFast === true && findings.length > 0)) break;
    if (outOfTime(ctx)) {
      interrupted = true;
      break;
    }
    const remaining = ctx.deadline - Date.now();
    failureSeen = false;
    broken = null;
    // First without shrinking: only a failure not reported yet is worth the shrinking.
    const d = await fc.check(fc.asyncProperty(runCaseArb(), predicate), {
      numRuns: 1,
      seed: seedOf(k),
      interruptAfterTimeLimit: Math.max(1_000, remaining),
      markInterruptAsFailure: false,
      endOnFailure: true,
    });
    if (d.interrupted && !d.failed) interrupted = true;
    const b = broken as { readonly error: WireBreak; readonly plan: readonly PlannedStep[] } | null;
    if (b !== null) {
      await recordBreak(k, b);
      broken = null;
      continue;
    }
    if (!d.failed) continue;
    if (!(d.errorInstance instanceof Divergence)) {
      const err = d.errorInstance;
      throw err instanceof Error ? err : new Error(String(err));
    }
    const key = d.errorInstance.mismatch.invariant ?? "wire";
    if (reported.has(key) || findings.length >= MAX_DIFFERENTIAL_FINDINGS) {
      repeats.set(key, (repeats.get(key) ?? 0) + 1);
      continue;
    }
    await shrinkAndRecord(k, ctx.deadline - Date.now());
  }

  for (const [key, n] of repeats)
    notes.push(
      `${n} more failing run(s) of ${key}, not shrunk (already reported${findings.length >= MAX_DIFFERENTIAL_FINDINGS ? `, or the ${MAX_DIFFERENTIAL_FINDINGS} findings a campaign reports were reached` : ""})`,
    );
  notes.push(
    `${runsDone} run(s), ${steps} request(s) agreed with the model in ${Math.round((Date.now() - started) / 1000)} s (seed ${ctx.settings.seed}${ctx.shard === undefined || ctx.shard.count === 1 ? "" : `, ${mine.length} of ${ctx.settings.runs} runs in shard ${ctx.shard.index + 1}/${ctx.shard.count}`})`,
  );
  await session.close();
  ctx.progress.done();
  const f = fault as Undrivable | null;
  if (findings.length > 0) {
    const tail = f === null ? "" : `; then the implementation could not be driven: ${f.message}`;
    const which = findings.map((x) => x.invariant ?? x.check).join(", ");
    return outcome(
      "fail",
      `${findings.length === 1 ? "" : `${findings.length} distinct failures (${which}); first: `}${findings[0]?.summary ?? "divergence"}${tail}`,
      runsDone,
      findings,
      notes,
    );
  }
  if (f !== null)
    return outcome(
      "inconclusive",
      `the implementation could not be driven after ${runsDone} run(s): ${f.message}`,
      runsDone,
      [],
      notes,
    );
  if (interrupted || runsDone < mine.length) {
    return outcome(
      "inconclusive",
      `the time budget ended after ${runsDone} of ${mine.length} run(s)`,
      runsDone,
      [],
      notes,
    );
  }
  return outcome("pass", `${runsDone} generated run(s) agreed with the model`, runsDone, [], notes);
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
