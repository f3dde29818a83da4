/**
 * Runs one algebra script over the wire and compares it, step by step, with the model: `reset`
 * (W-2.4) and a `world` query that must show the empty world, then every scripted request,
 * pipelined (the order is fixed by W-1.6, so the run stays deterministic). The first step whose
 * normative reply (W-9) differs from the model's is the run's mismatch, attributed to an
 * invariant by `attribute()` (D-035).
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
import { WireBreak } from "../core/driver-errors.ts";
import type { Phase, Script, ScriptStep } from "./algebra-script.ts";

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

export interface WireRun {
  readonly script: Script;
  /** The requests exactly as sent, ids included (reset and its check excluded: a trace starts on an empty directory). */
  readonly requests: readonly Record<string, unknown>[];
  readonly replies: readonly Reply[];
  /** Normative parts of the replies (W-9), in order. */
  readonly actual: readonly unknown[];
  readonly mismatch: Mismatch | null;
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
const replyDifference = (step: ScriptStep, reply: Reply): ReplyDifference | null => {
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

const opBefore = (steps: readonly ScriptStep[], index: number): string => {
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
  script: Script,
  replies: readonly Reply[],
  index: number,
  difference: ReplyDifference,
): { readonly invariant: InvariantId; readonly after: string | null } => {
  const step = script.steps[index];
  const reply = replies[index];
  if (step === undefined || reply === undefined)
    throw new Error("algebra stage (runner bug): mismatch outside the run");
  const op = opBefore(script.steps, index);
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
  const next = script.steps[index + 1];
  const nextReply = replies[index + 1];
  const after =
    step.request.type === "command" && next?.request.type === "query" && nextReply?.ok === true
      ? replyDifference(next, nextReply)
      : null;
  return {
    invariant: attribute({ op, modelRejected: null, implRejected: null, path: (after ?? difference).place }),
    after: after?.text ?? null,
  };
};

const EMPTY_WORLD = { tick: 0, roots_used: [], agents: [] };

/**
 * Resets the implementation, checks the world is empty, sends the script and compares it.
 * Throws Undrivable (exit, hang) or WireBreak (protocol violation, or a reset that does not empty
 * the world: W-2.4).
 */
export const runScript = async (session: Session, script: Script, idPrefix: string): Promise<WireRun> => {
  const requests = script.steps.map((s, k): Record<string, unknown> => ({ ...s.request, id: `${idPrefix}-${k + 1}` }));
  const resetId = `${idPrefix}-reset`;
  const emptyId = `${idPrefix}-empty`;
  const sent = [
    session.client.send({ type: "reset", id: resetId }),
    session.client.send({ type: "query", id: emptyId, query: { name: "world" } }),
    ...requests.map((r) => session.client.send(r as { type: string })),
  ];
  const outcomes = await Promise.all(sent);
  const [reset, empty, ...rest] = outcomes.map((o, k) =>
    session.check(
      o,
      k === 0
        ? `reset ${resetId}`
        : k === 1
          ? `query ${emptyId}`
          : `${String(requests[k - 2]?.["type"])} ${String(requests[k - 2]?.["id"])}`,
    ),
  );
  if (reset === undefined || empty === undefined) throw new Error("algebra stage (runner bug): reset replies missing");
  if (!reset.ok) throw new WireBreak("W-2.4", `reset was refused with ${refused(reset)}`, JSON.stringify(reset));
  const notEmpty = empty.ok ? firstDifference(EMPTY_WORLD, empty.result, "$world") : `refused with ${refused(empty)}`;
  if (notEmpty !== null)
    throw new WireBreak(
      "W-2.4",
      `after reset the world is not the empty world (${notEmpty.replace(": model ", ": expected ").replace(" vs impl ", " vs ")})`,
      JSON.stringify(empty),
    );
  const actual = rest.map((r) => normativePart(r));
  let mismatch: Mismatch | null = null;
  for (const [index, step] of script.steps.entries()) {
    const reply = rest[index];
    if (reply === undefined) break;
    const difference = replyDifference(step, reply);
    if (difference === null) continue;
    mismatch = {
      index,
      phase: step.phase,
      op: opBefore(script.steps, index),
      difference: difference.text,
      ...attributeAt(script, rest, index, difference),
    };
    break;
  }
  return { script, requests, replies: rest, actual, mismatch };
};

/** JSON values as the certificate schema types them (everything here came from or goes to JSON). */
const json = (x: unknown): TraceStep["expected"] => JSON.parse(JSON.stringify(x)) as TraceStep["expected"];

/** A portable trace of a run: its requests with the model's and the implementation's normative replies. */
export const traceOf = (
  run: WireRun,
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
  steps: run.requests.map(
    (request, k): TraceStep => ({
      request: json(request) as TraceStep["request"],
      expected: json(run.script.steps[k]?.expected ?? null),
      actual: run.actual[k] === undefined ? null : json(run.actual[k]),
    }),
  ),
  failing_step: f.failingStep,
  difference: f.difference,
  shrink: null,
});
