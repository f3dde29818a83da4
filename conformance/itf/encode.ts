/**
 * JSON values ⇄ ITF expressions (the Informal Trace Format, Apalache ADR-015, as Quint writes it).
 *
 * ITF has strings, booleans, integers, lists, records, `#tup`, `#set`, `#map` (and Quint's
 * variants `{tag, value}`), but no null and no non-integer numbers; JSON has no tuples, sets or
 * maps. The kit's values are JSON, so `encodeJson` picks one ITF form for each JSON form and
 * `decodeItf` reads every ITF form back to JSON. `decodeItf(encodeJson(v))` deep-equals `v` for
 * every JSON value `v` (itf.test.ts checks it on generated values):
 *
 * - integer → `{"#bigint": "…"}` always: ADR-015 allows plain JSON integers only up to 2^53, and
 *   Quint writes every integer this way; one form for all needs no range check by any reader.
 * - non-integer number → the variant `{"tag": "Float", "value": "<JS number text>"}`:
 *   ITF has no reals, a kit trace may still carry one in an implementation's reply.
 * - null → the variant `{"tag": "None", "value": {"#tup": []}}`, exactly what Quint writes for
 *   `Option`'s `None`: in a portable trace null means "absent" (no reply came, no model note), which
 *   is what `None` means to a Quint reader. A string such as "null" would collide with a string.
 * - array → list; object → record; except an object a reader would take for something else (a key
 *   starting with `#`, which ADR-015 forbids in records; one starting with `__`, which Quint's
 *   reader drops; or exactly the keys `tag` and `value`, which is a variant) →
 *   `{"#map": [[key, value], …]}` with string keys, read back as an object.
 *
 * Decoding (what Quint and Apalache write too): `#bigint` and plain integers → numbers (exactly, or
 * an error: a JSON value cannot hold a larger integer exactly); `#tup` → array; `#set` → array in
 * canonical order, the order of the elements' RFC 8785 text (sets have no order, so equal sets
 * decode equal); `#map` → object when every key is a string, else an array of `[key, value]`
 * pairs in canonical key order; the `None` (unit value `{"#tup": []}`, or `{}` as Quint 0.1x
 * wrote it) and `Float` variants → null and the number; any other variant → the record
 * `{tag, value}`; `#unserializable` (a value Quint could not write, e.g. an infinite set) → an
 * error, never data.
 */
import canonicalize from "canonicalize";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An ITF expression (ADR-015 and Quint's variants). */
export type ItfExpr =
  | string
  | boolean
  | number
  | ItfExpr[]
  | { "#bigint": string }
  | { "#tup": ItfExpr[] }
  | { "#set": ItfExpr[] }
  | { "#map": [ItfExpr, ItfExpr][] }
  | { "#unserializable": string }
  | { [field: string]: ItfExpr };

/** A value that is not an ITF expression, or not one a JSON value can hold; `path` says where. */
export class ItfValueError extends Error {
  override readonly name = "ItfValueError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path === "" ? "(top)" : path}: ${reason}`);
  }
}

export const NONE: ItfExpr = { tag: "None", value: { "#tup": [] } };

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);
const isVariantShaped = (keys: readonly string[]): boolean =>
  keys.length === 2 && keys.includes("tag") && keys.includes("value");
// "__" too: Quint's ITF reader drops record fields that start with "__" (quint/src/itf.ts ofItfValue).
const needsMap = (keys: readonly string[]): boolean =>
  isVariantShaped(keys) || keys.some((k) => k.startsWith("#") || k.startsWith("__"));
const at = (path: string, k: string | number): string => (typeof k === "number" ? `${path}[${k}]` : `${path}.${k}`);

/** A JSON value as an ITF expression (see the file comment for the choice of forms). */
export const encodeJson = (v: unknown, path = ""): ItfExpr => {
  if (v === null) return NONE;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new ItfValueError(path, `${v} is not a JSON number`);
    // -0 is written 0, as JSON text writes it: no file could carry the difference anyway.
    if (Number.isInteger(v)) return { "#bigint": BigInt(v).toString() };
    return { tag: "Float", value: String(v) };
  }
  if (Array.isArray(v)) return v.map((x, i) => encodeJson(x, at(path, i)));
  if (isPlainObject(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (needsMap(keys)) return { "#map": keys.map((k) => [k, encodeJson(v[k], at(path, k))] as [ItfExpr, ItfExpr]) };
    return Object.fromEntries(keys.map((k) => [k, encodeJson(v[k], at(path, k))]));
  }
  throw new ItfValueError(path, `a ${typeof v} is not a JSON value`);
};

const canonical = (x: Json): string => canonicalize(x) ?? "";
const byCanonical = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const integer = (text: string, path: string): number => {
  if (!/^-?[0-9]+$/.test(text)) throw new ItfValueError(path, `#bigint "${text}" is not an integer`);
  const n = Number(text);
  // Exactly, or not at all: a rounded integer in a trace would be a different request.
  if (BigInt(n) !== BigInt(text)) throw new ItfValueError(path, `the integer ${text} has no exact JSON (double) value`);
  return Object.is(n, -0) ? 0 : n;
};

const UNIT_FORMS = (x: unknown): boolean =>
  isPlainObject(x) &&
  (Object.keys(x).length === 0 || (Object.keys(x).length === 1 && Array.isArray(x["#tup"]) && x["#tup"].length === 0));

/** An ITF expression as a JSON value (see the file comment); throws ItfValueError naming the path. */
export const decodeItf = (e: unknown, path = ""): Json => {
  if (typeof e === "string" || typeof e === "boolean") return e;
  if (typeof e === "number") {
    if (!Number.isInteger(e)) throw new ItfValueError(path, `${e}: ITF numbers are integers`);
    return e;
  }
  if (Array.isArray(e)) return e.map((x, i) => decodeItf(x, at(path, i)));
  if (!isPlainObject(e)) throw new ItfValueError(path, `${e === null ? "null" : typeof e} is not an ITF expression`);
  const keys = Object.keys(e);
  const special = keys.filter((k) => k.startsWith("#"));
  if (special.length > 0) {
    const k = special[0] as string;
    if (keys.length !== 1)
      throw new ItfValueError(path, `${k} must be the only key of its object, found ${keys.join(", ")}`);
    const body = e[k];
    const list = (what: string): unknown[] => {
      if (!Array.isArray(body)) throw new ItfValueError(at(path, k), `${what} holds an array`);
      return body;
    };
    switch (k) {
      case "#bigint":
        if (typeof body !== "string") throw new ItfValueError(at(path, k), "#bigint holds a string of digits");
        return integer(body, at(path, k));
      case "#tup":
        return list("#tup").map((x, i) => decodeItf(x, at(at(path, k), i)));
      case "#set":
        return list("#set")
          .map((x, i) => decodeItf(x, at(at(path, k), i)))
          .map((x) => ({ x, c: canonical(x) }))
          .sort((a, b) => byCanonical(a.c, b.c))
          .map(({ x }) => x);
      case "#map": {
        const pairs = list("#map").map((p, i): [Json, Json] => {
          const pp = at(at(path, k), i);
          if (!Array.isArray(p) || p.length !== 2) throw new ItfValueError(pp, "a #map entry is a [key, value] pair");
          return [decodeItf(p[0], at(pp, 0)), decodeItf(p[1], at(pp, 1))];
        });
        if (pairs.every(([key]) => typeof key === "string")) {
          const seen = new Set<string>();
          for (const [key] of pairs) {
            if (seen.has(key as string)) throw new ItfValueError(at(path, k), `the key "${String(key)}" appears twice`);
            seen.add(key as string);
          }
          // fromEntries makes own properties: a key "__proto__" stays a key, as JSON.parse keeps it.
          return Object.fromEntries(pairs);
        }
        return pairs
          .map(([key, value]) => ({ key, value, c: canonical(key) }))
          .sort((a, b) => byCanonical(a.c, b.c))
          .map(({ key, value }) => [key, value]);
      }
      case "#unserializable":
        throw new ItfValueError(path, `a value the writer could not serialise: ${JSON.stringify(body)}`);
      default:
        throw new ItfValueError(path, `${k} is not an ITF form (#bigint, #tup, #set, #map, #unserializable)`);
    }
  }
  if (isVariantShaped(keys) && typeof e["tag"] === "string") {
    if (e["tag"] === "None" && UNIT_FORMS(e["value"])) return null;
    if (e["tag"] === "Float" && typeof e["value"] === "string") {
      const n = Number(e["value"]);
      if (e["value"].trim() === "" || !Number.isFinite(n))
        throw new ItfValueError(at(path, "value"), `"${e["value"]}" is not a number`);
      return n;
    }
  }
  return Object.fromEntries(keys.map((k) => [k, decodeItf(e[k], at(path, k))]));
};
