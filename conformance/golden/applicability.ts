/**
 * Which golden lines a profile may be sent, computed from the requests themselves (W-5.2, D-034,
 * W-9.1), never declared by hand: a session written tomorrow that uses one more operation is
 * applicable to fewer profiles without anyone remembering to say so.
 *
 * - A command session (session-*.jsonl) applies to a profile when the runner may send every
 *   operation it uses (`opAllowed`: the operation's family is declared, or it is the bootstrap
 *   `advaita.mint` and some family is). Its lines depend on one another, so it is replayed whole
 *   or not at all.
 * - The wire session (wire-session.jsonl) is replayed in part where the whole does not apply: a
 *   step is sent when the operations it needs are allowed. A command line needs the operation it
 *   names (read leniently: a line the strict wire layer refuses, a duplicate member or a lone
 *   surrogate, still names one, so it is never sent where that operation may not be); a query
 *   needs every operation accepted before it, since its expected reply reads the world those
 *   commands made. Hello variations, wire errors, shutdown and commands that name no operation
 *   (MALFORMED whatever the profile, W-2.3) need nothing, so the empty profile replays them.
 */
import { COMMAND_OP_NAMES } from "../../spec/names.ts";
import { PROTOCOLS } from "../../spec/catalog.ts";
import { opAllowed, type Family } from "../oracle/families.ts";
import { lineBytes, type WireStep } from "./wire-session.ts";

/** A golden line or a planned step: what matters here is its request. */
export interface RequestLine {
  readonly request: { readonly type: string; readonly command?: unknown };
}

/** The operations a command session sends, each once, in the order first used. */
export const sessionOps = (lines: readonly RequestLine[]): string[] => [
  ...new Set(
    lines.flatMap((l) => (l.request.type === "command" ? [String((l.request.command as { op: unknown }).op)] : [])),
  ),
];

/** The operations of a session that a profile may not be sent; none: the session applies. */
export const opsOutside = (ops: readonly string[], families: readonly Family[]): string[] =>
  ops.filter((op) => !opAllowed(op, families));

/** Every set of families `hello` can declare, the empty one included (W-5.2). */
export const EVERY_PROFILE: readonly (readonly Family[])[] = Array.from({ length: 1 << PROTOCOLS.length }, (_, mask) =>
  PROTOCOLS.filter((_, i) => (mask & (1 << i)) !== 0),
);

/** The profiles a command session applies to: exactly those that may be sent all its operations. */
export const applicableProfiles = (lines: readonly RequestLine[]): (readonly Family[])[] => {
  const ops = sessionOps(lines);
  return EVERY_PROFILE.filter((p) => opsOutside(ops, p).length === 0);
};

const KNOWN_OPS: ReadonlySet<string> = new Set(COMMAND_OP_NAMES);

const parsed = new WeakMap<WireStep, { readonly value: unknown }>();

/**
 * A wire step's raw line parsed leniently (JSON.parse, lossy UTF-8), or undefined when it is no
 * JSON at all; remembered per step, since lines at the 1 MiB bound are costly to parse again.
 */
const lenient = (step: WireStep): unknown => {
  const known = parsed.get(step);
  if (known !== undefined) return known.value;
  let value: unknown;
  try {
    value = JSON.parse(lineBytes(step.send).toString("utf8"));
  } catch {
    value = undefined;
  }
  parsed.set(step, { value });
  return value;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The operation a wire step's line sends as a command, or null when it names none the spec defines. */
export const wireStepOp = (step: WireStep): string | null => {
  const v = lenient(step);
  if (!isObject(v) || v["type"] !== "command" || !isObject(v["command"])) return null;
  const op = v["command"]["op"];
  return typeof op === "string" && KNOWN_OPS.has(op) ? op : null;
};

const isQuery = (step: WireStep): boolean => {
  const v = lenient(step);
  return isObject(v) && v["type"] === "query";
};

/** The operations each step needs (see the header), in step order. */
export const wireStepNeeds = (steps: readonly WireStep[]): string[][] => {
  const accepted: string[] = [];
  return steps.map((s) => {
    const op = wireStepOp(s);
    const needs = op !== null ? [op] : isQuery(s) ? [...new Set(accepted)] : [];
    if (op !== null && s.reply?.ok === true) accepted.push(op);
    return needs;
  });
};

/** The steps of the wire session a profile may be sent, in order. */
export const wireStepsFor = (steps: readonly WireStep[], families: readonly Family[]): WireStep[] => {
  const needs = wireStepNeeds(steps);
  return steps.filter((_, i) => (needs[i] ?? []).every((op) => opAllowed(op, families)));
};
