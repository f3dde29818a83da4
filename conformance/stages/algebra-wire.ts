/**
 * One algebra script over the wire, driver and checkers apart (issue 22). The driver
 * (`driveScript`) resets the implementation (W-2.4), queries the world, sends every scripted
 * request pipelined and records the replies in the history; it judges nothing but whether it can
 * go on. The checkers read a recorded run: `resetProblem` (the reset must empty the world) and
 * `mismatchOf`, the first step whose normative reply (W-9) differs from the model's, attributed to
 * an invariant by `attribute()` (D-035); `traceOf` makes a portable trace of the run.
 *
 * Store views are compared in root-cause order: `state` and `distillates` first, then the lineage
 * (`batches`, `chain`, `head`), then `excisions`, `quarantined`, `momentum`. Version ids are
 * digests over the state, so a wrong aggregate also shows in the head; comparing the state first
 * blames the aggregate (AD-3 after a merge) rather than its consequence (S-3).
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { firstDifference } from "../../properties/differential.ts";
import { normativePart } from "../core/reply.ts";
import { attribute, type Place } from "../oracle/attribution.ts";
import { describeDifference, type Difference, firstDifferenceOf, type JsonPath } from "../../properties/json-diff.ts";
import type { Session } from "../driver/target.ts";
import { Undrivable, WireBreak } from "../core/driver-errors.ts";
import type { Phase, Script, ScriptStep } from "./algebra-script.ts";
import {
  type AlgebraHistory,
  type AlgebraRequest,
  type AlgebraStep,
  emptyRequest,
  type RecordedRun,
  resetRequest,
  runOf,
} from "./algebra-history.ts";

/** The order in which store fields are compared (see the header). */
export const STORE_FIELDS = [
  "state",
  "distillates",
  "batches",
  "chain",
  "head",
  "excisions",
  "quarantined",
  "momentum",
] as const;

/** Where the agent's store sits in a world view; attribution rules match `.store.<field>`. */
const STORE_PATH = "$world.agents.0.store";

export interface Mismatch {
  readonly index: number;
  readonly phase: Phase;
  /** The command concerned (for a query: the last command before it). */
  readonly op: string;
  /** The first differing field, as `path: model … vs impl …`, or what happened instead. */
  readonly difference: string;
  /** For a command whose events differ: how the store (or world) queried right after it differs, if it does. */
  readonly after: string | null;
  readonly invariant: InvariantId;
}

/** How a reply differs from the model's: a line for a person, and where (data, for D-035). */
interface ReplyDifference {
  readonly text: string;
  readonly place: Place;
}

const STORE_AT: JsonPath = ["agents", 0, "store"];

/** The first difference between two store views, in root-cause order (the fields of STORE_FIELDS first). */
const storeDifference = (expected: unknown, actual: unknown): ReplyDifference | null => {
  const place = (d: Difference): Place => ({ in: "world", path: [...STORE_AT, ...d.path] });
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) {
    const d = firstDifferenceOf(expected, actual);
    return d === null ? null : { text: describeDifference(d, STORE_PATH), place: place(d) };
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const f of new Set<string>([...STORE_FIELDS, ...Object.keys(e), ...Object.keys(a)])) {
    const d = firstDifferenceOf(e[f], a[f], [f]);
    if (d !== null) return { text: describeDifference(d, STORE_PATH), place: place(d) };
  }
  return null;
};

const refused = (reply: Reply): string => (reply.ok ? "" : `${reply.error.code}/${reply.error.invariant ?? "-"}`);

const eventsDifference = (expected: unknown, actual: unknown): ReplyDifference | null => {
  const d = firstDifferenceOf(expected, actual);
  return d === null
    ? null
    : { text: describeDifference(d, "$events"), place: { in: "reply", path: ["events", ...d.path] } };
};

/** How a reply differs from the model's, or null; places name the field (events, store or world). */
const replyDifference = (step: Pick<ScriptStep, "request" | "expected">, reply: Reply): ReplyDifference | null => {
  const exp = step.expected;
  if (!exp.ok) throw new Error("algebra stage (runner bug): scripted steps are all accepted by the model");
  if (!reply.ok)
    return {
      text: `$reply: model accepted, implementation refused with ${refused(reply)}`,
      place: { in: "reply", path: [] },
    };
  if (step.request.type === "command") return eventsDifference(exp.events, reply.events);
  const events = eventsDifference([], reply.events);
  if (events !== null) return events;
  if (step.request.query.name === "store") return storeDifference(exp.result, reply.result);
  const d = firstDifferenceOf(exp.result, reply.result);
  return d === null ? null : { text: describeDifference(d, "$world"), place: { in: "world", path: d.path } };
};

const opBefore = (steps: readonly Pick<ScriptStep, "request">[], index: number): string => {
  for (let k = index; k >= 0; k--) {
    const r = steps[k]?.request;
    if (r?.type === "command") return r.command.op;
  }
  return "advaita.mint";
};

/**
 * The invariant a mismatch at `index` violates: the reply's outcome, else the store (or world)
 * queried right after the command, else the events; with the store difference when it decided.
 */
const attributeAt = (
  steps: readonly AlgebraStep[],
  index: number,
  difference: ReplyDifference,
): { readonly invariant: InvariantId; readonly after: string | null } => {
  const step = steps[index];
  if (step === undefined) throw new Error("algebra stage (runner bug): mismatch outside the run");
  const reply = step.reply;
  const op = opBefore(steps, index);
  if (!reply.ok)
    return {
      invariant: attribute({
        op,
        modelRejected: null,
        implRejected: { code: reply.error.code, invariant: reply.error.invariant },
        path: null,
      }),
      after: null,
    };
  const next = steps[index + 1];
  const after =
    step.request.type === "command" && next?.request.type === "query" && next.reply.ok
      ? replyDifference(next, next.reply)
      : null;
  return {
    invariant: attribute({ op, modelRejected: null, implRejected: null, path: (after ?? difference).place }),
    after: after?.text ?? null,
  };
};

/**
 * A checker: the run's first step whose normative reply (W-9) differs from the model's, attributed
 * to an invariant (D-035), or null when every reply agreed.
 */
export const mismatchOf = (run: RecordedRun): Mismatch | null => {
  for (const [index, step] of run.steps.entries()) {
    const difference = replyDifference(step, step.reply);
    if (difference === null) continue;
    return {
      index,
      phase: step.phase,
      op: opBefore(run.steps, index),
      difference: difference.text,
      ...attributeAt(run.steps, index, difference),
    };
  }
  return null;
};

const EMPTY_WORLD = { tick: 0, roots_used: [], agents: [] };

/**
 * A checker: how the run's reset check breaks W-2.4 (a refused reset, or a world that is not empty
 * after it), or null. The driver asks it too: after a broken reset the runs that follow prove nothing.
 */
export const resetProblem = (run: RecordedRun): string | null => {
  const { reset, empty } = run;
  if (reset === null || empty === null) return null;
  if (!reset.ok) return `reset was refused with ${refused(reset)}`;
  const notEmpty = empty.ok ? firstDifference(EMPTY_WORLD, empty.result, "$world") : `refused with ${refused(empty)}`;
  return notEmpty === null
    ? null
    : `after reset the world is not the empty world (${notEmpty.replace(": model ", ": expected ").replace(" vs impl ", " vs ")})`;
};

/**
 * The driver of one run: resets the implementation, queries the world (the checker wants it
 * empty), then sends every scripted request, pipelined (the order is fixed by W-1.6, so the run
 * stays deterministic), and records the replies under `part` (also the prefix of the request ids).
 * The first outcome that is no reply (a break of the wire protocol, no reply in time, an exit) is
 * recorded instead and ends the run. True when the driver can go on: every reply came and the
 * reset emptied the world.
 */
export const driveScript = async (
  session: Session,
  script: Script,
  part: string,
  history: AlgebraHistory,
): Promise<boolean> => {
  const events = history.events;
  events.push({ kind: "algebra-run", part, label: script.label });
  const requests = script.steps.map((s, k): AlgebraRequest => ({ ...s.request, id: `${part}-${k + 1}` }));
  const reset = resetRequest(part);
  const empty = emptyRequest(part);
  const outcomes = await Promise.all(
    [reset, empty, ...requests].map((r) => session.client.send(r as unknown as { type: string })),
  );
  for (const [k, o] of outcomes.entries()) {
    const step = k - 2;
    const request = k === 0 ? reset : k === 1 ? empty : requests[step];
    if (request === undefined) throw new Error("algebra stage (runner bug): a reply without its request");
    let reply: Reply;
    try {
      reply = session.check(o, `${String(request["type"])} ${String(request["id"])}`);
    } catch (e) {
      if (e instanceof WireBreak) {
        events.push({ kind: "break", part, step, rule: e.rule, message: e.message, raw: e.raw });
        return false;
      }
      if (e instanceof Undrivable) {
        events.push({ kind: "stopped", part, reason: e.message });
        return false;
      }
      throw e;
    }
    const scripted = script.steps[step];
    if (k === 0)
      events.push({ kind: "exchange", part, step, request: reset, expected: { ok: true, events: [] }, reply });
    else if (k === 1) events.push({ kind: "exchange", part, step, request: empty, expected: null, reply });
    else if (scripted !== undefined)
      events.push({
        kind: "algebra-step",
        part,
        step,
        phase: scripted.phase,
        request: request as AlgebraRequest,
        expected: scripted.expected,
        reply,
      });
  }
  const run = runOf(history, part);
  return run !== null && resetProblem(run) === null;
};

/** JSON values as the certificate schema types them (everything here came from or goes to JSON). */
const json = (x: unknown): TraceStep["expected"] => JSON.parse(JSON.stringify(x)) as TraceStep["expected"];

/** A portable trace of a run: its requests with the model's and the implementation's normative replies. */
export const traceOf = (
  run: RecordedRun,
  f: {
    readonly invariant: InvariantId;
    readonly check: string;
    readonly summary: string;
    readonly seed: number;
    readonly failingStep: number | null;
    readonly difference: string | null;
  },
): PortableTrace => ({
  trace_version: 1,
  invariant: f.invariant,
  stage: "algebra",
  check: f.check,
  summary: f.summary,
  seed: f.seed,
  path: null,
  steps: run.steps.map(
    (s): TraceStep => ({
      request: json(s.request) as TraceStep["request"],
      expected: json(s.expected),
      actual: json(normativePart(s.reply)),
    }),
  ),
  failing_step: f.failingStep,
  difference: f.difference,
  shrink: null,
});
