/**
 * The differential campaign's history and its checkers (issue 22). The driver (differential.ts)
 * records each generated run's exchanges, with the model's expected replies, in a part of its own
 * (`run-<k+1>`), and every replay of its shrink in its own part (`run-<k+1>/again`, the first
 * replay of the failing case; `run-<k+1>/shrink-<n>`, the n-th candidate; `run-<k+1>/replay`, the
 * shrunk case replayed once more; `run-<k+1>/refine`, the probes that sharpen it). Everything the
 * stage reports — findings, notes, the check count, the witnesses and coverage of the runs that
 * agreed, the outcome — is decided here, afterwards, by pure functions of that history.
 *
 * One checker is also asked while driving, as a shrinker asks: `judgeRunPart` says whether a run or
 * a candidate failed and how, and `isRepeat` whether a failure would be reported or only counted
 * (so the driver knows whether shrinking it is worth the time).
 */
import type { PortableTrace } from "../../spec/certificate.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { eventsOf, exchangesOf, partOf, type History, type SentRequest } from "../core/history.ts";
import type { ExpectedReply, RejectedAt } from "../core/reply.ts";
import { placeText } from "../oracle/attribution.ts";
import type { Mismatch } from "../oracle/compare.ts";
import { breakTrace, judgePlanned, PlannedBreak, plannedTrace, type PlannedStep } from "../oracle/planned.ts";
import { refinedFromHistory } from "../oracle/refine.ts";
import { WireBreak } from "../core/driver-errors.ts";
import { SHRINK_BUDGET_REASON, TIME_BUDGET_REASON } from "../shrink-budget.ts";
import { CANDIDATES } from "./differential-guide.ts";
import { NONE_OWNED, outcome, type Finding, type StageOutcome } from "./types.ts";

/**
 * Distinct failures one campaign shrinks and reports (by invariant, or by W rule for a break of the
 * wire protocol). The campaign does not stop at the first: every run is still made, so the
 * invariants the failure did not touch are witnessed and get a verdict; a later failing run of an
 * invariant already reported is counted in the notes, not shrunk again.
 */
export const MAX_DIFFERENTIAL_FINDINGS = 4;

/** The part holding what concerns the whole campaign (its settings, the guidance, its end). */
export const CAMPAIGN = "campaign";
/** The part of run k (from 0); its shrink's parts are under it. */
export const runPart = (k: number): string => `run-${k + 1}`;

/** The differential driver's own observations, beside the common exchanges, breaks and restarts. */
export type DifferentialEvent =
  /** What the campaign was asked to do (the families it may send, the runs this shard owns). */
  | {
      readonly kind: "differential-campaign";
      readonly part: string;
      readonly seed: number;
      readonly runs: number;
      readonly families: readonly string[];
      /** How many of the runs are this shard's. */
      readonly mine: number;
      readonly shard: { readonly index: number; readonly count: number } | null;
    }
  /** The coverage guidance's choice of cases (D-075), planned in the model before anything is sent. */
  | {
      readonly kind: "differential-guidance";
      readonly part: string;
      readonly scope: string;
      readonly steered: number;
      readonly guided: number;
      readonly unguided: number;
      readonly reachable: number;
    }
  /** Run k begins (its part is runPart(k)), with its seed. */
  | { readonly kind: "differential-run"; readonly part: string; readonly run: number; readonly seed: number }
  /** The plan a part runs: its length, and the abstract edges of its commands where coverage counts them. */
  | {
      readonly kind: "differential-plan";
      readonly part: string;
      readonly length: number;
      readonly edges?: readonly string[];
    }
  /** The step of a part that got a break instead of a reply: sent, never answered. */
  | {
      readonly kind: "differential-unanswered";
      readonly part: string;
      readonly step: number;
      readonly request: SentRequest;
      readonly expected: ExpectedReply;
      readonly rejectedAt?: RejectedAt;
    }
  /** The implementation could no longer be driven: the campaign ended there. */
  | { readonly kind: "differential-fault"; readonly part: string; readonly reason: string }
  /** The time budget ended the campaign before its runs were all made. */
  | { readonly kind: "differential-interrupted"; readonly part: string }
  /**
   * How the shrink of a run's failure ended (fast-check's report): whether the case still failed,
   * the part of the smallest failing case, and whether the shrink budget or the time cut it short.
   */
  | {
      readonly kind: "differential-shrunk";
      readonly part: string;
      readonly failed: boolean;
      readonly original: string | null;
      readonly seed: number;
      readonly path: string | null;
      readonly numShrinks: number;
      readonly interrupted: boolean;
      readonly budgetCut: boolean;
    }
  /** The campaign's runs are over, `elapsedMs` after it began. */
  | { readonly kind: "differential-end"; readonly part: string; readonly elapsedMs: number };

export type DifferentialHistory = History<DifferentialEvent>;

/** The plan of a part as far as it was sent: the answered steps, then the unanswered one, if any. */
const stepsOf = (h: DifferentialHistory, part: string): PlannedStep[] => {
  const steps: PlannedStep[] = exchangesOf(h, part).map((e) => ({
    request: e.request,
    expected: e.expected as ExpectedReply,
    ...(e.rejectedAt === undefined ? {} : { rejectedAt: e.rejectedAt }),
  }));
  for (const u of eventsOf(h, "differential-unanswered"))
    if (u.part === part)
      steps.push({
        request: u.request,
        expected: u.expected,
        ...(u.rejectedAt === undefined ? {} : { rejectedAt: u.rejectedAt }),
      });
  return steps;
};

const planOf = (
  h: DifferentialHistory,
  part: string,
): Extract<DifferentialEvent, { kind: "differential-plan" }> | undefined =>
  eventsOf(h, "differential-plan").find((e) => e.part === part);

/** What one part's run came to, read from the history. */
export type PartVerdict =
  /** Nothing was sent for it. */
  | { readonly kind: "not-run" }
  /** A break of the wire protocol: at a step of the plan (a PlannedBreak), or before it (the reset, a restart). */
  | { readonly kind: "break"; readonly error: WireBreak; readonly steps: readonly PlannedStep[] }
  /** The implementation could not be driven (no reply in time, it ended) before the run could be judged. */
  | { readonly kind: "stopped" }
  /** The first step whose reply differs from the model's. */
  | {
      readonly kind: "mismatch";
      readonly index: number;
      readonly mismatch: Mismatch;
      readonly steps: readonly PlannedStep[];
      readonly replies: readonly Reply[];
      readonly length: number;
    }
  /** Every reply as the model's. */
  | {
      readonly kind: "agreed";
      readonly steps: readonly PlannedStep[];
      readonly edges: readonly string[];
    };

/**
 * Judges one run of a plan recorded as `part`: a break (before the plan or at a step) first, then
 * a stop, then the first differing reply, as the driver met them (a break or a stop ends a run even
 * after a differing reply in the same pipelined window).
 */
export const judgeRunPart = (h: DifferentialHistory, part: string): PartVerdict => {
  const plan = planOf(h, part);
  if (plan === undefined) return { kind: "not-run" };
  const before = partOf(h, `${part}/reset`).find((e) => e.kind === "break");
  if (before !== undefined && before.kind === "break")
    return { kind: "break", error: new WireBreak(before.rule, before.message, before.raw), steps: [] };
  const steps = stepsOf(h, part);
  const v = judgePlanned(h, part, steps);
  if (v.broken !== null) return { kind: "break", error: v.broken, steps };
  if (partOf(h, part).some((e) => e.kind === "stopped")) return { kind: "stopped" };
  if (v.mismatch !== null) return { kind: "mismatch", ...v.mismatch, steps, replies: v.replies, length: plan.length };
  if (v.replies.length !== plan.length) return { kind: "stopped" };
  return { kind: "agreed", steps, edges: plan.edges ?? [] };
};

/** A run that agreed with the model: its commands are witnesses, its steps and edges coverage. */
export interface AgreedRun {
  readonly steps: readonly PlannedStep[];
  readonly edges: readonly string[];
}

/** What the checkers have decided so far, run after run, in the order the runs were made. */
export interface CampaignState {
  readonly findings: Finding[];
  /** The notes of the runs (shrinks, flaky runs), in run order. */
  readonly notes: string[];
  readonly reported: Set<string>;
  /** Failing runs whose failure was already reported (same invariant or rule): counted, not shrunk. */
  readonly repeats: Map<string, number>;
  readonly agreed: AgreedRun[];
  runsDone: number;
  steps: number;
}

export const emptyState = (): CampaignState => ({
  findings: [],
  notes: [],
  reported: new Set(),
  repeats: new Map(),
  agreed: [],
  runsDone: 0,
  steps: 0,
});

/** The key a failure is reported under: its invariant, `wire` for a wire reply difference, `wire/<rule>` for a break. */
export const failureKey = (v: PartVerdict): string | null =>
  v.kind === "break" ? `wire/${v.error.rule}` : v.kind === "mismatch" ? (v.mismatch.invariant ?? "wire") : null;

/** Whether a failure of `key` is only counted: already reported, or the campaign's findings are full. */
export const isRepeat = (state: CampaignState, key: string): boolean =>
  state.reported.has(key) || state.findings.length >= MAX_DIFFERENTIAL_FINDINGS;

const agree = (state: CampaignState, v: Extract<PartVerdict, { kind: "agreed" }>): void => {
  state.runsDone++;
  state.steps += v.steps.length;
  state.agreed.push({ steps: v.steps, edges: v.edges });
};

/** The finding (or the flaky note) of run k's shrink, read from its parts. */
const judgeShrink = (h: DifferentialHistory, k: number, runs: number, state: CampaignState): void => {
  const base = runPart(k);
  const s = eventsOf(h, "differential-shrunk").find((e) => e.part === `${base}/shrink`);
  if (s === undefined) throw new Error(`runner bug: run ${k + 1} failed and has no shrink`);
  if (!s.failed) {
    state.notes.push(`run ${k + 1} failed once and passed when run again to shrink it (a flaky implementation?)`);
    const again = judgeRunPart(h, `${base}/again`);
    if (again.kind === "agreed") agree(state, again);
    return;
  }
  const original = s.original === null ? ({ kind: "not-run" } as const) : judgeRunPart(h, s.original);
  if (original.kind !== "mismatch") throw new Error(`runner bug: the shrunk case of run ${k + 1} did not fail`);
  // The shrunk case replayed once more: its trace, if it reproduces (else the original's, said so).
  const replay = judgeRunPart(h, `${base}/replay`);
  const reproducible = replay.kind === "mismatch";
  const final = replay.kind === "mismatch" ? replay : original;
  const refined = reproducible
    ? refinedFromHistory(h, `${base}/refine`, final.steps, final.index, final.mismatch)
    : null;
  const m = refined?.mismatch ?? final.mismatch;
  const shown = refined ?? final;
  const attempts = eventsOf(h, "differential-plan").filter((e) => e.part.startsWith(`${base}/shrink-`)).length;
  const cutBy = s.budgetCut ? SHRINK_BUDGET_REASON : s.interrupted ? TIME_BUDGET_REASON : null;
  const commands = shown.steps.slice(0, shown.index + 1).filter((x) => x.request.type === "command").length;
  const trace: PortableTrace = {
    trace_version: 1,
    invariant: m.invariant,
    stage: "differential",
    check: "differential/step",
    summary: `${m.summary}${reproducible ? "" : " (did not reproduce on a second replay)"}`,
    seed: s.seed,
    path: s.path,
    steps: plannedTrace(shown.steps, shown.replies, shown.index),
    failing_step: shown.index,
    difference: m.path === null ? null : placeText(m.path),
    shrink: {
      attempts: s.numShrinks,
      original_length: original.length,
      interrupted: cutBy !== null,
      ...(cutBy === null ? {} : { reason: cutBy }),
    },
  };
  const run =
    cutBy === null
      ? `a shrunk run of ${commands} command(s)`
      : `a run of ${commands} command(s), not fully shrunk, ${cutBy}`;
  state.findings.push({
    invariant: m.invariant,
    stage: "differential",
    check: "differential/step",
    summary: `step ${shown.index + 1} of ${run}: ${trace.summary}`,
    trace,
  });
  state.reported.add(m.invariant ?? "wire");
  state.notes.push(
    `run ${k + 1} of ${runs} failed (${m.invariant ?? "wire"}); shrunk over the wire in ${s.numShrinks} step(s) and ${attempts} replay(s)${cutBy === null ? "" : `, not fully (${cutBy})`}; run seed ${s.seed}, path ${s.path ?? ""}`,
  );
};

/**
 * Judges run k from its parts and adds what it decides to `state`: a run that agreed, a break of
 * the wire protocol (a finding once per W rule, with the trace up to it), a difference from the
 * model (the finding of its shrink), or a repeat of a failure already reported (counted).
 */
export const judgeRun = (
  h: DifferentialHistory,
  k: number,
  state: CampaignState,
  /** The verdict of run k's own part when the caller has it already (judgeRunPart). */
  v: PartVerdict = judgeRunPart(h, runPart(k)),
): void => {
  const campaign = campaignOf(h);
  const seed = eventsOf(h, "differential-run").find((e) => e.run === k)?.seed ?? null;
  if (v.kind === "agreed") {
    agree(state, v);
    return;
  }
  const key = failureKey(v);
  if (key === null) return;
  if (isRepeat(state, key)) {
    state.repeats.set(key, (state.repeats.get(key) ?? 0) + 1);
    return;
  }
  if (v.kind === "mismatch") {
    judgeShrink(h, k, campaign.runs, state);
    return;
  }
  if (v.kind !== "break") return;
  state.reported.add(key);
  const b = v.error;
  const at = b instanceof PlannedBreak ? `step ${b.index + 1} of run ${k + 1}: ` : `run ${k + 1}: `;
  state.findings.push({
    invariant: null,
    stage: "differential",
    check: key,
    summary: `${at}${b.message}; raw: ${b.raw}`,
    trace: b instanceof PlannedBreak ? breakTrace(b, v.steps, "differential", key, seed) : null,
  });
};

const campaignOf = (h: DifferentialHistory): Extract<DifferentialEvent, { kind: "differential-campaign" }> => {
  const c = eventsOf(h, "differential-campaign")[0];
  if (c === undefined) throw new Error("runner bug: a differential history without its campaign");
  return c;
};

/** What the campaign's checkers decide: the outcome, and the runs that agreed (witnesses, coverage). */
export interface DifferentialVerdict {
  readonly outcome: StageOutcome;
  readonly agreed: readonly AgreedRun[];
  readonly guidance: Extract<DifferentialEvent, { kind: "differential-guidance" }> | null;
}

/**
 * The campaign's checker: every run judged in the order it was made (judgeRun), then the notes
 * (the guidance, the shrinks, the repeats, the totals) and the outcome: a failure when anything was
 * found, inconclusive when the implementation could not be driven or the time ran out, else a pass.
 */
export const checkDifferential = (h: DifferentialHistory): DifferentialVerdict => {
  const c = campaignOf(h);
  if (c.families.length === 0)
    return { outcome: outcome("not-applicable", "the profile declares no family", 0), agreed: [], guidance: null };
  if (c.mine === 0 && c.shard !== null) return { outcome: NONE_OWNED, agreed: [], guidance: null };
  const notes: string[] = [];
  // Each run judged on its own events (its parts are `run-<k+1>` and those under it), with the campaign's.
  const byRun = new Map<string, DifferentialHistory>();
  for (const e of h.events) {
    const run = e.part.split("/")[0] ?? "";
    if (!run.startsWith("run-")) continue;
    let v = byRun.get(run);
    if (v === undefined) byRun.set(run, (v = { unit: h.unit, events: [c] }));
    v.events.push(e);
  }
  const guidance = eventsOf(h, "differential-guidance")[0] ?? null;
  if (guidance !== null)
    notes.push(
      `coverage guidance: ${guidance.steered} of ${c.runs} runs chosen among ${CANDIDATES} cases each for the reachable abstract edges of scope ${guidance.scope} they add; ` +
        `planned in the model, the guided runs make ${guidance.guided} of its ${guidance.reachable} reachable edges, the unguided runs of the same seed ${guidance.unguided}`,
    );
  const state = emptyState();
  for (const r of eventsOf(h, "differential-run")) judgeRun(byRun.get(r.part) ?? h, r.run, state);
  const { findings, runsDone } = state;
  notes.push(...state.notes);
  for (const [key, n] of state.repeats)
    notes.push(
      `${n} more failing run(s) of ${key}, not shrunk (already reported${findings.length >= MAX_DIFFERENTIAL_FINDINGS ? `, or the ${MAX_DIFFERENTIAL_FINDINGS} findings a campaign reports were reached` : ""})`,
    );
  const elapsedMs = eventsOf(h, "differential-end")[0]?.elapsedMs ?? 0;
  notes.push(
    `${runsDone} run(s), ${state.steps} request(s) agreed with the model in ${Math.round(elapsedMs / 1000)} s (seed ${c.seed}${c.shard === null || c.shard.count === 1 ? "" : `, ${c.mine} of ${c.runs} runs in shard ${c.shard.index + 1}/${c.shard.count}`})`,
  );
  const fault = eventsOf(h, "differential-fault")[0] ?? null;
  const interrupted = eventsOf(h, "differential-interrupted").length > 0;
  const done = (o: StageOutcome): DifferentialVerdict => ({ outcome: o, agreed: state.agreed, guidance });
  if (findings.length > 0) {
    const tail = fault === null ? "" : `; then the implementation could not be driven: ${fault.reason}`;
    const which = findings.map((x) => x.invariant ?? x.check).join(", ");
    return done(
      outcome(
        "fail",
        `${findings.length === 1 ? "" : `${findings.length} distinct failures (${which}); first: `}${findings[0]?.summary ?? "divergence"}${tail}`,
        runsDone,
        findings,
        notes,
      ),
    );
  }
  if (fault !== null)
    return done(
      outcome(
        "inconclusive",
        `the implementation could not be driven after ${runsDone} run(s): ${fault.reason}`,
        runsDone,
        [],
        notes,
      ),
    );
  if (interrupted || runsDone < c.mine)
    return done(
      outcome("inconclusive", `the time budget ended after ${runsDone} of ${c.mine} run(s)`, runsDone, [], notes),
    );
  return done(outcome("pass", `${runsDone} generated run(s) agreed with the model`, runsDone, [], notes));
};
