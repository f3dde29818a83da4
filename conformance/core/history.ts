/**
 * A history (issue 22): the ordered record of what a stage's driver sent an implementation and what
 * came back — requests with the model's expected side where the driver computed it, replies, breaks
 * of the wire protocol, restarts on the same data directory — which checkers read afterwards to
 * decide findings and witnesses. A driver judges nothing but what it needs to go on (where to stop,
 * which probe to send next); a checker never drives. Plain JSON data: a history can be written,
 * read back and checked again, and a portable trace is made from a part of it.
 *
 * Events are grouped in parts (`part`): the run of one plan (a transcript, a probe replaying a
 * prefix, the recovery queries), each with its steps numbered from 0 in the order of that plan.
 */
import type { Reply } from "../../spec/wire/index.ts";
import type { ExpectedReply, RejectedAt } from "./reply.ts";

/** A request as the plan gives it (the session's id prefix is added on the wire, not here). */
export interface SentRequest {
  readonly type: string;
  readonly id: string | number;
  readonly [k: string]: unknown;
}

export type HistoryEvent =
  /** Step `step` of `part`: the request, the model's expected reply (null when the driver computed none) and the reply. */
  | {
      readonly kind: "exchange";
      readonly part: string;
      readonly step: number;
      readonly request: SentRequest;
      readonly expected: ExpectedReply | null;
      /** Where the model's rejection failed (informative, D-035 rule 1). */
      readonly rejectedAt?: RejectedAt;
      readonly reply: Reply;
    }
  /** Step `step` of `part` got no reply but a break of the wire protocol (a rule of W-3 or W-4). */
  | {
      readonly kind: "break";
      readonly part: string;
      readonly step: number;
      readonly rule: string;
      readonly message: string;
      readonly raw: string;
    }
  /**
   * The implementation was stopped and started again on its data directory (W-7.1); `stop` is the
   * request that stopped it when it was not a step of the plan (a plan's shutdown is its own step).
   */
  | { readonly kind: "restart"; readonly part: string; readonly stop?: SentRequest }
  /** It could not be started again on its data directory: why. */
  | { readonly kind: "restart-failed"; readonly part: string; readonly reason: string; readonly stop?: SentRequest }
  /**
   * Files read from the data directory: where each of `markers` occurs (a description per marker
   * found; none when it is in no file). `label` says what the driver scanned for.
   */
  | {
      readonly kind: "scan";
      readonly part: string;
      readonly label: string;
      readonly markers: readonly string[];
      readonly found: readonly { readonly marker: string; readonly where: string }[];
    }
  /** The driver could not go on (no reply in time, the process ended): why. */
  | { readonly kind: "stopped"; readonly part: string; readonly reason: string }
  /** A driver's pointer into its own parts (e.g. the probe its bisection settled on): no verdict. */
  | { readonly kind: "mark"; readonly part: string; readonly label: string; readonly value: number };

/**
 * What every stage-specific event has: its own `kind` (not one of HistoryEvent's) and the part it
 * belongs to. A stage whose driver observes more than these events say (the raw bytes of a hostile
 * line, a crash cut, an algebra digest) declares its own event types beside its driver and records
 * them in a `History<ItsEvents>`: the shared vocabulary stays small, and each stage's observations
 * are typed where they are made and judged. They must be plain JSON too.
 */
export interface StageEvent {
  readonly kind: string;
  readonly part: string;
}

/**
 * The record of one unit of a stage's work. `X` is the stage's own event types, if any (see
 * StageEvent); the common ones (exchanges, breaks, restarts, scans, stops, marks) are always allowed.
 */
export interface History<X extends StageEvent = never> {
  /** The unit of the stage's work the history is of (a golden session's name, a run's seed). */
  readonly unit: string;
  readonly events: (HistoryEvent | X)[];
}

/** A history of any stage, whatever its own event types: what code reading only the common events takes. */
export type AnyHistory = History<StageEvent>;

export const newHistory = <X extends StageEvent = never>(unit: string): History<X> => ({ unit, events: [] });

type Exchange = Extract<HistoryEvent, { kind: "exchange" }>;
type Mark = Extract<HistoryEvent, { kind: "mark" }>;
/** A stage's own events never reuse a common kind (StageEvent), so the kind tells a mark. */
const isMark = (e: HistoryEvent | StageEvent): e is Mark => e.kind === "mark";

/** The exchanges of one part, in step order. */
export const exchangesOf = <X extends StageEvent>(h: History<X>, part: string): Exchange[] =>
  h.events.filter((e): e is Exchange => e.kind === "exchange" && e.part === part);

/** The events of one part, in order. */
export const partOf = <X extends StageEvent>(h: History<X>, part: string): (HistoryEvent | X)[] =>
  h.events.filter((e) => e.part === part);

/** The events of one kind (a common one or a stage's own), in order. */
export const eventsOf = <X extends StageEvent, K extends (HistoryEvent | X)["kind"]>(
  h: History<X>,
  kind: K,
): Extract<HistoryEvent | X, { kind: K }>[] =>
  h.events.filter((e): e is Extract<HistoryEvent | X, { kind: K }> => e.kind === kind);

/** The value of a driver's mark, or undefined. */
export const markOf = <X extends StageEvent>(h: History<X>, part: string, label: string): number | undefined => {
  for (const e of h.events) if (isMark(e) && e.part === part && e.label === label) return e.value;
  return undefined;
};
