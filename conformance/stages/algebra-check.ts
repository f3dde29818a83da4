/**
 * The algebra stage's checkers (issue 22): pure functions of a recorded history (algebra-history.ts)
 * that never drive the implementation. By concern:
 * - `judgeRun`: one run against the model, step by step (AD-3 after a merge, S-5 after an
 *   excision, S-4 for the replay, or the prefix): a finding for its first mismatch, else an S-4
 *   witness (its replay agreed);
 * - `judgeGroup`: a merge group's runs against each other (AD-3 order-independence) on the fields
 *   the model's own schedules agree on, with the group's note;
 * - `judgeExcision`: an excision case against the run that never merged the excised lives (S-5);
 * - `checkAlgebra`: the whole history in the driver's order, with where the driver stopped (a
 *   break of the wire protocol, an undrivable implementation, a broken reset, the time budget)
 *   and the session's wire violations; it returns the stage's outcome and witnesses.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import { eventsOf, partOf } from "../core/history.ts";
import { AlgebraLedger } from "./algebra-ledger.ts";
import { type AlgebraEvent, type AlgebraHistory, OPEN_PART, type RecordedRun, runOf } from "./algebra-history.ts";
import {
  agreedFields,
  claimContradiction,
  implOutcome,
  modelOutcomeOf,
  outcomeDifference,
  type Outcome,
} from "./algebra-outcome.ts";
import type { Phase } from "./algebra-script.ts";
import { type Mismatch, mismatchOf, resetProblem, traceOf } from "./algebra-wire.ts";
import type { StageOutcome } from "./types.ts";

const CHECK_OF_PHASE: Readonly<Record<Phase, string>> = {
  prefix: "algebra/prefix",
  merge: "algebra/AD-3-merge",
  excise: "algebra/S-5-excision",
  replay: "algebra/S-4-replay",
};

/** A recorded run with its first mismatch with the model. */
export interface JudgedRun {
  readonly run: RecordedRun;
  readonly mismatch: Mismatch | null;
}

type Group = Extract<AlgebraEvent, { kind: "algebra-group" }>;
type Excision = Extract<AlgebraEvent, { kind: "algebra-excision" }>;

/** Did the run agree with the model through its merges (a later replay mismatch is S-4's)? */
const mergesAgreed = (j: JudgedRun): boolean => j.mismatch === null || j.mismatch.phase === "replay";

/** The run to show for a disagreement between two runs: the one that also deviates from the model, if any. */
const culprit = (a: JudgedRun, b: JudgedRun): JudgedRun => (b.mismatch !== null || a.mismatch === null ? b : a);

/** The fields on which the model's own runs of a group (or case) agree: what must agree over the wire. */
export const fieldsOf = (models: readonly Parameters<typeof modelOutcomeOf>[0][]): string[] =>
  agreedFields(models.map(modelOutcomeOf));

/** Compares one run with the model: a finding for its first mismatch, else an S-4 witness (its replay agreed). */
export const judgeRun = (led: AlgebraLedger, seed: number, run: RecordedRun): JudgedRun => {
  led.checks++;
  led.done++;
  const m = mismatchOf(run);
  if (m === null) {
    led.witness("S-4");
    return { run, mismatch: null };
  }
  const check = CHECK_OF_PHASE[m.phase];
  const contradiction = m.phase === "replay" ? claimContradiction(run) : null;
  const summary =
    `${run.label}: step ${m.index + 1} (${m.op}) differs from the model: ${m.difference}` +
    (m.after === null ? "" : `; the store right after it: ${m.after}`) +
    (contradiction === null ? "" : `; the claim also contradicts the implementation's own store: ${contradiction}`);
  led.finding({
    invariant: m.invariant,
    stage: "algebra",
    check,
    summary,
    trace: traceOf(run, {
      invariant: m.invariant,
      check,
      summary,
      seed,
      failingStep: m.index,
      difference: m.difference,
    }),
  });
  return { run, mismatch: m };
};

/** A finding of a comparison between two runs (AD-3 order, S-5 excision) shown on the run `shown`. */
const comparisonFinding = (
  led: AlgebraLedger,
  seed: number,
  invariant: InvariantId,
  check: string,
  summary: string,
  shown: JudgedRun,
  difference: string,
): void =>
  led.finding({
    invariant,
    stage: "algebra",
    check,
    summary,
    trace: traceOf(shown.run, {
      invariant,
      check,
      summary,
      seed,
      failingStep: shown.mismatch?.index ?? shown.run.steps.length - 1,
      difference,
    }),
  });

/**
 * Where the driver could not go on in this run, as the stage's end: a wire finding (a break, a
 * broken reset) or why it stopped. True when the run ended the stage (it is not judged).
 */
const ended = (led: AlgebraLedger, run: RecordedRun): boolean => {
  if (run.end?.kind === "break") {
    led.finding({
      invariant: null,
      stage: "algebra",
      check: `wire/${run.end.rule}`,
      summary: run.end.message,
      trace: null,
    });
    return true;
  }
  if (run.end?.kind === "stopped") {
    led.stopped = `the implementation could not be driven: ${run.end.reason}`;
    return true;
  }
  const reset = resetProblem(run);
  if (reset === null) return false;
  led.finding({ invariant: null, stage: "algebra", check: "wire/W-2.4", summary: reset, trace: null });
  return true;
};

/** What a run came to: judged (with its outcome), never run, or the end of the stage. */
type Step = { readonly judged: JudgedRun; readonly outcome: Outcome | null } | "not-run" | "ended";

const judgeRecorded = (led: AlgebraLedger, h: AlgebraHistory, seed: number, part: string): Step => {
  const run = runOf(h, part);
  if (run === null) return "not-run";
  if (ended(led, run)) return "ended";
  const judged = judgeRun(led, seed, run);
  return { judged, outcome: implOutcome(run) };
};

/**
 * AD-3 over one merge group: each run against the model, then its outcome against the group's
 * first run with an outcome, on the fields the model's schedules agree on. False when the stage
 * ended in it (a run the driver did not start, or one that ended the stage).
 */
export const judgeGroup = (led: AlgebraLedger, h: AlgebraHistory, seed: number, g: Group): boolean => {
  const fields = fieldsOf(g.models);
  led.notes.push(
    `AD-3 over ${g.n} distillates: ${g.models.length} schedules compared on ${fields.join(", ")} (the fields the model's schedules agree on)`,
  );
  let reference: { readonly judged: JudgedRun; readonly outcome: Outcome } | null = null;
  for (const part of g.runs) {
    const s = judgeRecorded(led, h, seed, part);
    if (s === "not-run" || s === "ended") return false;
    const { judged, outcome: out } = s;
    if (out === null) continue; // a refused replay or store query is already a finding: the model accepted it
    if (reference === null) {
      reference = { judged, outcome: out };
      if (mergesAgreed(judged)) led.witness("AD-3");
      continue;
    }
    led.checks++;
    const d = outcomeDifference(reference.outcome, out, fields);
    if (d === null) {
      if (mergesAgreed(judged)) led.witness("AD-3");
      continue;
    }
    const summary = `merging the same ${g.n} distillates under "${reference.judged.run.label}" and "${judged.run.label}" gives different results: ${d}`;
    comparisonFinding(led, seed, "AD-3", "algebra/AD-3-order", summary, culprit(reference.judged, judged), d);
  }
  return true;
};

/**
 * S-5 over one excision case: both runs against the model, then the excising run against the one
 * that never merged the excised lives, on the fields the model shows to be equal.
 */
export const judgeExcision = (led: AlgebraLedger, h: AlgebraHistory, seed: number, c: Excision): boolean => {
  const fields = fieldsOf(c.models);
  const a = judgeRecorded(led, h, seed, c.excising);
  if (a === "not-run" || a === "ended") return false;
  const b = judgeRecorded(led, h, seed, c.never);
  if (b === "not-run" || b === "ended") return false;
  if (a.outcome === null || b.outcome === null) return true;
  led.checks++;
  const d = outcomeDifference(b.outcome, a.outcome, fields);
  const [ra, rb] = [a.judged, b.judged];
  if (d === null) {
    if (ra.mismatch === null && rb.mismatch === null) led.witness("S-5");
    return true;
  }
  const shown = rb.mismatch !== null && ra.mismatch === null ? rb : ra;
  const summary = `"${ra.run.label}" differs from "${rb.run.label}" (the lineage that never had them): ${d}`;
  comparisonFinding(led, seed, "S-5", "algebra/S-5-excision", summary, shown, d);
  return true;
};

/** What the algebra checker decides from a history. */
export interface AlgebraVerdict {
  readonly outcome: StageOutcome;
  /** Every witness counted, in order (the stage reports them to the context). */
  readonly witnessed: readonly InvariantId[];
  /** Runs judged, and distinct violations found (for progress). */
  readonly done: number;
  readonly violations: number;
}

/**
 * The algebra stage's checker: the whole history in the driver's order. A start that failed, a
 * run that ended the stage or a spent budget stops the judging there, as it stopped the driving;
 * the session's wire violations come last.
 */
export const checkAlgebra = (h: AlgebraHistory): AlgebraVerdict => {
  const led = new AlgebraLedger();
  const plan = eventsOf(h, "algebra-plan")[0];
  const seed = plan?.seed ?? 0;
  let going = true;
  for (const e of partOf(h, OPEN_PART)) {
    if (e.kind === "break")
      led.finding({ invariant: null, stage: "algebra", check: `wire/${e.rule}`, summary: e.message, trace: null });
    else if (e.kind === "stopped") led.stopped = `the implementation could not be driven: ${e.reason}`;
    going = false;
  }
  for (const e of h.events) {
    if (!going) break;
    if (e.kind === "algebra-group") going = judgeGroup(led, h, seed, e);
    else if (e.kind === "algebra-excision") going = judgeExcision(led, h, seed, e);
  }
  if (eventsOf(h, "algebra-budget").length > 0)
    led.stopped = `the time budget ran out after ${led.done} of ${plan?.runs ?? 0} runs`;
  for (const e of eventsOf(h, "algebra-violations"))
    for (const v of e.violations)
      led.finding({ invariant: null, stage: "algebra", check: `wire/${v.rule}`, summary: v.message, trace: null });
  return {
    outcome: led.result(
      `${led.witnesses("AD-3")} merge schedules agreed with the model and with each other (AD-3), ${led.witnesses("S-4")} replays agreed (S-4), ${led.witnesses("S-5")} excisions equalled never merging (S-5)`,
    ),
    witnessed: led.witnessOrder,
    done: led.done,
    violations: led.findings.length,
  };
};
