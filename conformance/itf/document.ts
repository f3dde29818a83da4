/**
 * The ITF trace object (ADR-015): `{"#meta"?, "params"?, "vars", "states", "loop"?}`, each state
 * `{"#meta"?, <var>: <expr>, …}`. `readItf` checks that shape and decodes every state's values to
 * JSON (encode.ts), with errors that name the state index and the variable.
 *
 * The variables are taken from the states' keys as well as from `vars`, each once: Quint 0.32
 * lists its `mbt::` variables twice in `vars`, and a state is what actually holds the values.
 * `vars` is still checked to name only variables the states hold, and every state must hold
 * every variable.
 */
import { decodeItf, ItfValueError, type ItfExpr, type Json } from "./encode.ts";

export const ITF_FORMAT_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html";

export interface ItfState {
  readonly "#meta"?: Record<string, unknown>;
  readonly [variable: string]: ItfExpr | Record<string, unknown> | undefined;
}

export interface ItfTrace {
  readonly "#meta"?: Record<string, unknown>;
  readonly params?: readonly string[];
  readonly vars: readonly string[];
  readonly states: readonly ItfState[];
  readonly loop?: number;
}

/** A decoded state: its `#meta` (or {}) and each variable's value as JSON. */
export interface DecodedState {
  readonly meta: Record<string, unknown>;
  readonly values: Readonly<Record<string, Json>>;
}

export interface DecodedItf {
  readonly meta: Record<string, unknown>;
  readonly params: readonly string[];
  /** The variables: those of `vars`, each once and in its order, then any more the states hold. */
  readonly vars: readonly string[];
  readonly states: readonly DecodedState[];
  readonly loop: number | null;
}

export class ItfFormatError extends Error {
  override readonly name = "ItfFormatError";
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");

/** True when `x` looks like an ITF trace object (top-level `vars` and `states` arrays). */
export const looksLikeItf = (x: unknown): boolean =>
  isObject(x) && Array.isArray(x["vars"]) && Array.isArray(x["states"]);

/** Checks the ITF shape of `x` and decodes every state; throws ItfFormatError naming where. */
export const readItf = (x: unknown): DecodedItf => {
  if (!isObject(x)) throw new ItfFormatError("an ITF trace is a JSON object");
  if (!isStrings(x["vars"])) throw new ItfFormatError("vars: an array of variable names is required");
  if (!Array.isArray(x["states"])) throw new ItfFormatError("states: an array of states is required");
  const meta = x["#meta"] ?? {};
  if (!isObject(meta)) throw new ItfFormatError("#meta: an object");
  const params = x["params"] ?? [];
  if (!isStrings(params)) throw new ItfFormatError("params: an array of names");
  const loop = x["loop"] ?? null;
  if (loop !== null && !(Number.isInteger(loop) && (loop as number) >= 0 && (loop as number) < x["states"].length)) {
    throw new ItfFormatError(`loop: an index into states, got ${JSON.stringify(loop)}`);
  }
  const vars: string[] = [];
  const states = x["states"].map((s, i): DecodedState => {
    if (!isObject(s)) throw new ItfFormatError(`state ${i}: an object`);
    const m = s["#meta"] ?? {};
    if (!isObject(m)) throw new ItfFormatError(`state ${i}: #meta: an object`);
    const values: Record<string, Json> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === "#meta") continue;
      if (k.startsWith("#")) throw new ItfFormatError(`state ${i}: "${k}" is neither #meta nor a variable`);
      try {
        values[k] = decodeItf(v, "");
      } catch (e) {
        if (e instanceof ItfValueError) throw new ItfFormatError(`state ${i}, variable ${k}${e.path}: ${e.reason}`);
        throw e;
      }
      if (!vars.includes(k)) vars.push(k);
    }
    return { meta: m, values };
  });
  for (const v of x["vars"]) {
    if (states.length > 0 && !vars.includes(v)) throw new ItfFormatError(`vars names ${v}, which no state holds`);
  }
  for (const [i, s] of states.entries()) {
    for (const v of vars)
      if (!(v in s.values))
        throw new ItfFormatError(`state ${i}: variable ${v} is missing (every state sets every variable)`);
  }
  // In the order of vars (writers sort state keys; Quint alphabetically), then any the states add.
  const ordered = [...new Set([...x["vars"], ...vars])];
  return { meta, params, vars: ordered, states, loop: loop as number | null };
};
