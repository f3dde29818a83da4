/**
 * What the algebra stage's driver records (issue 22): its own event types beside the common ones
 * of core/history.ts, and how a checker reads one run back out of a history. Plain JSON: a history
 * survives `JSON.parse(JSON.stringify(h))` and is judged the same.
 *
 * Parts. `algebra` holds the plan (seed, runs planned), a spent time budget and the wire
 * violations collected over the session; `open` a start that failed; a merge group (`algebra-n3`)
 * or an excision case (`algebra-x1`) names the parts of its runs and carries the model's side of
 * every script it planned (a group's note and the fields compared depend on all of them, run or
 * not); each run (`algebra-n3-1`, `algebra-x1-a`) holds its reset check, its scripted steps and,
 * when the driver could not go on, the break or stop that ended the stage.
 *
 * Steps. The reset (W-2.4) and the world query that must show the empty world are common
 * `exchange` events numbered -2 and -1, so that step k of a run is step k of its script and of its
 * portable trace (a trace starts, like `srk replay`, on an empty world). The scripted steps are
 * `algebra-step` events: a store query's expected reply is a `StoreView`, which the common
 * exchange's `ExpectedReply` does not type, and each step carries its phase (which check a
 * mismatch is reported under).
 */
import type { Reply } from "../../spec/wire/index.ts";
import { type History, type HistoryEvent, type SentRequest, partOf } from "../core/history.ts";
import type { Expected, Phase, ScriptRequest } from "./algebra-script.ts";

/** The model's expected replies to a script's final replay and store query: what its outcome is made of. */
export interface ModelSide {
  readonly label: string;
  readonly replay: Expected;
  readonly store: Expected;
}

/** A scripted request as sent: the script's request with its wire id. */
export type AlgebraRequest = ScriptRequest & { readonly id: string };

export type AlgebraEvent =
  /** The campaign of this shard: the certification seed (traces carry it) and how many runs it plans. */
  | { readonly kind: "algebra-plan"; readonly part: string; readonly seed: number; readonly runs: number }
  /** A merge group (AD-3): its lives, the parts of its runs in schedule order, the model's side of each schedule. */
  | {
      readonly kind: "algebra-group";
      readonly part: string;
      readonly n: number;
      readonly runs: readonly string[];
      readonly models: readonly ModelSide[];
    }
  /**
   * An excision case (S-5): the run that merges and excises (`excising`), then the reference that
   * never merged the excised lives (`never`), with the model's side of each.
   */
  | {
      readonly kind: "algebra-excision";
      readonly part: string;
      readonly excising: string;
      readonly never: string;
      readonly models: readonly [ModelSide, ModelSide];
    }
  /** A run of one script starts (its part is the run's name). */
  | { readonly kind: "algebra-run"; readonly part: string; readonly label: string }
  /** Step `step` of the run's script: its phase, the request as sent, the model's reply and the implementation's. */
  | {
      readonly kind: "algebra-step";
      readonly part: string;
      readonly step: number;
      readonly phase: Phase;
      readonly request: AlgebraRequest;
      readonly expected: Expected;
      readonly reply: Reply;
    }
  /** The time budget was spent: the driver started no further run. */
  | { readonly kind: "algebra-budget"; readonly part: string }
  /** Wire violations the client saw over the session that still produced a reply (e.g. out of order, W-1.6). */
  | {
      readonly kind: "algebra-violations";
      readonly part: string;
      readonly violations: readonly { readonly rule: string; readonly message: string }[];
    };

export type AlgebraHistory = History<AlgebraEvent>;

export type AlgebraStep = Extract<AlgebraEvent, { kind: "algebra-step" }>;
type Exchange = Extract<HistoryEvent, { kind: "exchange" }>;

/** The part holding the plan, the budget and the session's violations. */
export const STAGE_PART = "algebra";
/** The part of a start that failed. */
export const OPEN_PART = "open";
/** Steps of the reset check, before the script's own (see the header). */
export const RESET_STEP = -2;
export const EMPTY_STEP = -1;

/** One recorded run, as a checker reads it. */
export interface RecordedRun {
  readonly part: string;
  readonly label: string;
  readonly reset: Reply | null;
  readonly empty: Reply | null;
  /** The scripted steps that got a reply, in order. */
  readonly steps: readonly AlgebraStep[];
  /** Where the driver could not go on: a break of the wire protocol or a stop (no reply, an exit). */
  readonly end:
    | { readonly kind: "break"; readonly rule: string; readonly message: string }
    | { readonly kind: "stopped"; readonly reason: string }
    | null;
}

const exchangeAt = (events: readonly { kind: string }[], step: number): Reply | null =>
  (events.find((e): e is Exchange => e.kind === "exchange" && (e as Exchange).step === step)?.reply ??
    null) as Reply | null;

/** The run recorded under `part`, or null when the driver never started it. */
export const runOf = (h: AlgebraHistory, part: string): RecordedRun | null => {
  const events = partOf(h, part);
  const start = events.find((e) => e.kind === "algebra-run");
  if (start === undefined || start.kind !== "algebra-run") return null;
  let end: RecordedRun["end"] = null;
  for (const e of events) {
    if (end !== null) break;
    if (e.kind === "break") end = { kind: "break", rule: e.rule, message: e.message };
    else if (e.kind === "stopped") end = { kind: "stopped", reason: e.reason };
  }
  return {
    part,
    label: start.label,
    reset: exchangeAt(events, RESET_STEP),
    empty: exchangeAt(events, EMPTY_STEP),
    steps: events.filter((e): e is AlgebraStep => e.kind === "algebra-step"),
    end,
  };
};

/** The request of a reset-check exchange (a plain wire request: the common vocabulary). */
export const resetRequest = (part: string): SentRequest => ({ type: "reset", id: `${part}-reset` });
export const emptyRequest = (part: string): SentRequest => ({
  type: "query",
  id: `${part}-empty`,
  query: { name: "world" },
});
