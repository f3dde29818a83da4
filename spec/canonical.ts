/**
 * A one-pass canonical encoder for the kit's JSON subset (ENC-1, ENC-2; D-068).
 *
 * It writes the RFC 8785 (JCS) text of a value while checking that the value is in the subset:
 * `null`, booleans, strings that are well-formed UTF-16 (no lone surrogate, D-044), integers in
 * the IEEE-754 safe range, arrays, and objects whose members are all defined. Anything else is
 * refused with a {@link CanonicalEncodingError} that names where it is (`$.a[0].b`). For every value
 * in the subset the text is byte for byte what the `canonicalize` package writes (spec/canonical.test.ts
 * checks it on the vectors and on generated values). The package refuses lone surrogates and
 * cycles too, but accepts or converts some of what this encoder refuses: fractions, undefined
 * members (dropped), toJSON (called).
 *
 * - Object keys are sorted by UTF-16 code units (the default order of `Array.prototype.sort` on
 *   strings, which is RFC 8785's order).
 * - Strings are written as ECMAScript `JSON.stringify` writes them, which is RFC 8785's rule;
 *   strings that need no escape (the common case) are only quoted.
 * - Where native JSON.stringify already writes the canonical text, it does the writing: a whole
 *   value whose objects are plain with their keys in order (found by a walk that writes nothing and
 *   stops at the first object out of order), and any array of scalars (a list of ids or digests).
 *   Its output is then searched for an escaped surrogate (`\udxxx`), in which case the encoder
 *   takes over, to refuse the lone surrogate with its path.
 * - Integers are written as `String(n)` (so -0 is `0`).
 * - An object or array with a `toJSON` method (a Date, say) is refused: JSON.stringify and
 *   `canonicalize` would encode what the method returns, which is a conversion, not the value.
 * - Cycles are refused: below depth {@link CYCLE_CHECK_DEPTH} nothing is tracked (no cost for
 *   ordinary values); deeper, the objects on the current path are kept in a set, so a cycle is
 *   found within one turn of it. A value nested so deeply that the stack runs out is refused too.
 *
 * This module has no imports, so it runs unchanged in a browser.
 */

/** Thrown when a value cannot be canonically encoded (a non-integer number, undefined, a cycle...). */
export class CanonicalEncodingError extends Error {
  override readonly name = "CanonicalEncodingError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot canonically encode value at ${path}: ${reason}`);
  }
}

/** Depth from which the encoder tracks the objects on its path to refuse cycles. */
export const CYCLE_CHECK_DEPTH = 100;

/** A refusal on its way up: the path is built from the segments only when something is refused. */
class Refusal {
  readonly segments: string[] = [];
  constructor(readonly reason: string) {}
}

/** Code units that JSON.stringify escapes, and surrogates (which need a closer look). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 8785 escapes exactly the control characters, so the test for them names them
const NEEDS_CARE = /[\u0000-\u001f"\\\ud800-\udfff]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const encodeString = (s: string): string => {
  if (!NEEDS_CARE.test(s)) return `"${s}"`;
  if (LONE_SURROGATE.test(s)) throw new Refusal("a string with a lone surrogate is not Unicode text (D-044)");
  return JSON.stringify(s);
};

/** Encoded keys, cached: the kit's values repeat a small set of member names. Bounded. */
const KEY_CACHE = new Map<string, string>();
const KEY_CACHE_MAX = 4096;

const encodeKey = (k: string): string => {
  let e = KEY_CACHE.get(k);
  if (e === undefined) {
    e = encodeString(k);
    if (KEY_CACHE.size < KEY_CACHE_MAX) KEY_CACHE.set(k, e);
  }
  return e;
};

const typeName = (v: unknown): string =>
  typeof v === "object" ? (v === null ? "null" : Object.prototype.toString.call(v).slice(8, -1)) : typeof v;

/** A string, boolean, null or safe integer: what JSON.stringify writes as the canonical text (strings bar lone surrogates). */
const isScalar = (x: unknown): boolean => {
  const t = typeof x;
  return t === "string" || t === "boolean" || x === null || (t === "number" && Number.isSafeInteger(x));
};

/** An escaped surrogate in JSON.stringify's output: a lone surrogate, or a literal backslash before "ud8".."udf" (rare; the encoder sorts it out). */
const ESCAPED_SURROGATE = /\\ud[89a-f]/;
/** JSON.stringify writes `\u` only for a control or a lone surrogate; indexOf is far cheaper than the regex. */
const hasEscapedSurrogate = (text: string): boolean => text.indexOf("\\u") !== -1 && ESCAPED_SURROGATE.test(text);

/**
 * An object's own enumerable keys in UTF-16 code-unit order (`<` on strings compares code units).
 * Insertion sort for the few keys objects usually have (it does not pay Array.prototype.sort's
 * call overhead); the built-in sort beyond that.
 */
const sortedKeys = (o: object): string[] => {
  const keys = Object.keys(o);
  const n = keys.length;
  if (n > 16) return keys.sort();
  for (let i = 1; i < n; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
};

const encode = (v: unknown, depth: number, seen: Set<object> | undefined): string => {
  switch (typeof v) {
    case "string":
      return encodeString(v);
    case "number":
      if (Number.isSafeInteger(v)) return String(v);
      throw new Refusal(`number ${String(v)} is not a safe integer`);
    case "boolean":
      return v ? "true" : "false";
    case "object": {
      if (v === null) return "null";
      if (typeof (v as { toJSON?: unknown }).toJSON === "function")
        throw new Refusal(`${typeName(v)} with a toJSON method is not in the JSON subset`);
      if (depth >= CYCLE_CHECK_DEPTH) {
        seen ??= new Set();
        if (seen.has(v)) throw new Refusal("the value contains a cycle");
        seen.add(v);
      }
      let out: string;
      if (Array.isArray(v)) {
        const n = v.length;
        let i = 0;
        // An array of scalars (a list of ids or digests, say): native JSON.stringify writes it.
        while (i < n && isScalar(v[i])) i++;
        if (i === n) {
          out = JSON.stringify(v);
          if (!hasEscapedSurrogate(out)) {
            if (seen !== undefined) seen.delete(v);
            return out;
          }
        }
        i = 0;
        try {
          out = "[";
          for (; i < n; i++) {
            if (i > 0) out += ",";
            out += encode(v[i], depth + 1, seen);
          }
          out += "]";
        } catch (e) {
          if (e instanceof Refusal) e.segments.push(`[${i}]`);
          throw e;
        }
      } else {
        const o = v as Record<string, unknown>;
        const keys = sortedKeys(o);
        const n = keys.length;
        let i = 0;
        try {
          out = "{";
          for (; i < n; i++) {
            const k = keys[i] as string;
            const x = o[k];
            if (x === undefined) throw new Refusal("undefined is not JSON");
            if (i > 0) out += ",";
            out += encodeKey(k);
            out += ":";
            out += encode(x, depth + 1, seen);
          }
          out += "}";
        } catch (e) {
          if (e instanceof Refusal) e.segments.push(`.${keys[i] ?? ""}`);
          throw e;
        }
      }
      if (seen !== undefined) seen.delete(v);
      return out;
    }
    default:
      throw new Refusal(`${typeof v} is not JSON`);
  }
};

/**
 * True when JSON.stringify writes the canonical text of `v`: every object is a plain object whose
 * own keys are already in code-unit order, every number a safe integer, nothing undefined, no
 * `toJSON`. Strings are not looked at (lone surrogates are found in the text afterwards). It stops
 * at the first thing that is not so (the encoder then does the work and names any refusal), and
 * leaves deep values to the encoder, which finds cycles.
 */
const stringifyIsCanonical = (v: unknown, depth: number): boolean => {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isSafeInteger(v);
    case "object": {
      if (v === null) return true;
      if (depth >= CYCLE_CHECK_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === "function") return false;
      if (Array.isArray(v)) {
        const n = v.length;
        for (let i = 0; i < n; i++) if (!stringifyIsCanonical(v[i], depth + 1)) return false;
        return true;
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      const n = keys.length;
      for (let i = 1; i < n; i++) if (!((keys[i - 1] as string) < (keys[i] as string))) return false;
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (let i = 0; i < n; i++) {
        const x = o[keys[i] as string];
        if (x === undefined || !stringifyIsCanonical(x, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
};

/**
 * RFC 8785 canonical JSON text of a value in the kit's JSON subset (ENC-1, ENC-2), in one pass.
 * When the value's objects already have their keys in canonical order (values the kit builds
 * itself often do), a check that writes nothing and native JSON.stringify do it faster.
 * @throws CanonicalEncodingError when the value is not in the subset.
 */
export const encodeCanonical = (value: unknown): string => {
  if (stringifyIsCanonical(value, 0)) {
    const text = JSON.stringify(value);
    if (!hasEscapedSurrogate(text)) return text;
  }
  try {
    return encode(value, 0, undefined);
  } catch (e) {
    if (e instanceof Refusal) throw new CanonicalEncodingError(`$${e.segments.reverse().join("")}`, e.reason);
    if (e instanceof RangeError) throw new CanonicalEncodingError("$", `the value is nested too deeply (${e.message})`);
    throw e;
  }
};
