/**
 * A planned exchange: requests with the model's expected normative replies, sent to a session
 * (pipelined: the model fixed every request in advance, W-1.6 lets the runner pipeline) and
 * compared in order. Used by the golden stage, the differential campaign and `srk replay`.
 */
import type { Reply } from "../../spec/wire/index.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { normativePart, type ExpectedReply, type RejectedAt } from "../core/reply.ts";
import type { Session } from "../driver/target.ts";
import { compareReply, compareWorld, type Mismatch } from "./compare.ts";
import { Undrivable, WireBreak } from "../core/driver-errors.ts";
import { eventsOf, exchangesOf, type AnyHistory } from "../core/history.ts";

/**
 * A protocol violation in the reply to step `index` of a plan (a schema-invalid reply, a line that
 * is not JSON): a WireBreak that knows where in the plan it happened, so a stage can write a
 * portable trace of the steps up to it and go on with its next session or run.
 */
export class PlannedBreak extends WireBreak {
  constructor(
    broken: WireBreak,
    readonly index: number,
    readonly replies: readonly Reply[],
  ) {
    super(broken.rule, broken.message, broken.raw);
  }
}

/** The portable trace of a break: the steps up to the broken one, its actual part null (no Reply came). */
export const breakTrace = (
  b: PlannedBreak,
  steps: readonly PlannedStep[],
  stage: TraceStage,
  check: string,
  seed: number | null,
): PortableTrace => ({
  trace_version: 1,
  invariant: null,
  stage,
  check,
  summary: `${b.rule}: ${b.message}`,
  seed,
  path: null,
  steps: plannedTrace(steps, b.replies, b.index),
  failing_step: b.index,
  difference: null,
  shrink: null,
});
type TraceStage = PortableTrace["stage"];

export interface PlannedStep {
  readonly request: { readonly type: string; readonly id: string | number; readonly [k: string]: unknown };
  readonly expected: ExpectedReply;
  /** Where the model's rejection failed (informative, D-035 rule 1). */
  readonly rejectedAt?: RejectedAt;
}

export interface PlannedResult {
  readonly replies: readonly Reply[];
  /** The first step whose reply (or world, for a world query) differs, with its diagnosis. */
  readonly mismatch: { readonly index: number; readonly mismatch: Mismatch } | null;
}

/** The op a step's request names; for a query, the op of the latest command before it. */
export const opAt = (steps: readonly PlannedStep[], index: number): string => {
  for (let i = index; i >= 0; i--) {
    const r = steps[i]?.request;
    if (r?.type === "command") return String((r["command"] as { op?: unknown } | undefined)?.op ?? "unknown");
  }
  return "advaita.mint";
};

const isWorldQuery = (s: PlannedStep): boolean =>
  s.request.type === "query" && (s.request["query"] as { name?: unknown } | undefined)?.name === "world";

/** Compares one reply with its plan. */
export const comparePlanned = (steps: readonly PlannedStep[], index: number, reply: Reply): Mismatch | null => {
  const step = steps[index];
  if (step === undefined) throw new Error(`runner bug: no step ${index}`);
  const op = opAt(steps, index);
  if (isWorldQuery(step) && step.expected.ok && reply.ok && "result" in step.expected) {
    return compareWorld(op, step.expected.result, reply.result);
  }
  return compareReply(op, step.expected, reply, step.rejectedAt);
};

/** Whether a planned step is a `shutdown`: the process stops after it and is started again on the same directory. */
export const isRestart = (s: PlannedStep): boolean => s.request.type === "shutdown";

/** The end (exclusive) of the pipelined window from `start`: at most `size` steps, and never past a shutdown. */
const windowEnd = (steps: readonly PlannedStep[], start: number, size: number): number => {
  const end = Math.min(steps.length, start + size);
  for (let i = start; i < end; i++) if (isRestart(steps[i] as PlannedStep)) return i + 1;
  return end;
};

/**
 * Sends every step pipelined, then compares replies in order. A `shutdown` step ends its window:
 * once it is answered as expected, the process is started again on the same data directory
 * (W-7.1) and the next steps go to the new process. Throws Undrivable, or PlannedBreak (a
 * WireBreak at a step).
 */
/** Where a run of a plan records what it sent and got: a history and the part of it that the run is. */
export interface Recording {
  readonly history: AnyHistory;
  readonly part: string;
}

export const runPlanned = async (
  session: Session,
  steps: readonly PlannedStep[],
  pipelineWindow = 256,
  recording?: Recording,
): Promise<PlannedResult> => {
  const events = recording?.history.events;
  const part = recording?.part ?? "";
  let prefix = session.nextIdPrefix();
  const replies: Reply[] = [];
  let mismatch: PlannedResult["mismatch"] = null;
  for (let start = 0, end = 0; start < steps.length; start = end) {
    end = windowEnd(steps, start, pipelineWindow);
    const window = steps.slice(start, end);
    const outcomes = window.map((s) => session.client.send({ ...s.request, id: `${prefix}${String(s.request.id)}` }));
    for (const [k, o] of outcomes.entries()) {
      const index = start + k;
      let reply: Reply;
      try {
        reply = session.check(
          await o,
          `${window[k]?.request.type ?? "request"} ${JSON.stringify(window[k]?.request.id)} (step ${index + 1})`,
        );
      } catch (e) {
        if (e instanceof WireBreak) {
          events?.push({ kind: "break", part, step: index, rule: e.rule, message: e.message, raw: e.raw });
          throw new PlannedBreak(e, index, [...replies]);
        }
        throw e;
      }
      replies.push(reply);
      const s = steps[index] as PlannedStep;
      events?.push({
        kind: "exchange",
        part,
        step: index,
        request: s.request,
        expected: s.expected,
        ...(s.rejectedAt === undefined ? {} : { rejectedAt: s.rejectedAt }),
        reply,
      });
      if (mismatch === null) {
        const m = comparePlanned(steps, index, reply);
        if (m !== null) mismatch = { index, mismatch: m };
      }
    }
    // A window that ended with a shutdown leaves a stopping process: start it again before anything
    // else is sent, also when a mismatch ends the run (the caller may go on probing the session).
    if (isRestart(window[window.length - 1] as PlannedStep)) {
      try {
        await session.restart();
      } catch (e) {
        if (e instanceof Undrivable) events?.push({ kind: "restart-failed", part, reason: e.message });
        throw e;
      }
      events?.push({ kind: "restart", part });
      prefix = session.nextIdPrefix();
    }
    if (mismatch !== null) break;
  }
  return { replies, mismatch };
};

/** The trace steps of a planned exchange up to `upTo` (inclusive), with the actual normative parts. */
export const plannedTrace = (steps: readonly PlannedStep[], replies: readonly Reply[], upTo: number): TraceStep[] =>
  steps.slice(0, upTo + 1).map((s, i) => {
    const r = replies[i];
    const step: TraceStep = {
      request: { ...s.request } as TraceStep["request"],
      expected: s.expected as never,
      actual: r === undefined ? null : (normativePart(r as never) as never),
    };
    return s.rejectedAt === undefined ? step : { ...step, model: { ...s.rejectedAt } };
  });

/** What a checker reads from the record of one run of a plan (a part of a history). */
export interface PlannedVerdict {
  /** The replies recorded, in step order (up to the break, when there was one). */
  readonly replies: readonly Reply[];
  /** The break of the wire protocol the run ended with, as the driver met it, else null. */
  readonly broken: PlannedBreak | null;
  /** The first reply that differs from the plan (comparePlanned), else null. */
  readonly mismatch: { readonly index: number; readonly mismatch: Mismatch } | null;
}

/**
 * Judges the run of `steps` recorded as `part` of `history` (by runPlanned): the checker's side of
 * a planned exchange, reading the history only. The first differing reply is the one runPlanned
 * stopped after, since both compare with comparePlanned.
 */
export const judgePlanned = (history: AnyHistory, part: string, steps: readonly PlannedStep[]): PlannedVerdict => {
  const replies = exchangesOf(history, part).map((e) => e.reply);
  const b = eventsOf(history, "break").find((e) => e.part === part);
  if (b !== undefined)
    return {
      replies,
      broken: new PlannedBreak(new WireBreak(b.rule, b.message, b.raw), b.step, replies),
      mismatch: null,
    };
  for (const [index, r] of replies.entries()) {
    const m = comparePlanned(steps, index, r);
    if (m !== null) return { replies, broken: null, mismatch: { index, mismatch: m } };
  }
  return { replies, broken: null, mismatch: null };
};
