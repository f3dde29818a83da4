/**
 * The two I-JSON rules (RFC 7493) that `JSON.parse` does not enforce, checked on text it has
 * already accepted (spec/wire/PROTOCOL.md W-1.8, D-044):
 *
 * - duplicate member names in one object (RFC 7493 §2.3): `JSON.parse` keeps the last value and
 *   silently drops the others, so the request the implementation would act on is not the one the
 *   runner wrote. Names are compared after unescaping (`"a"` and `"\u0061"` are the same name).
 * - lone surrogates (RFC 7493 §2.1): an escaped `\ud800` not followed by an escaped low surrogate,
 *   or a low surrogate with no high one before it. Such a string is not Unicode text: it has no
 *   UTF-8 encoding, so it could be neither stored nor hashed canonically (ENC-2).
 *
 * Either makes the line BAD_JSON. A lexical scan in one pass, with no recursion (the text is at
 * most MAX_NESTING_DEPTH deep, but the scan does not rely on that).
 */

/** What is wrong with the text, and where (a 1-based character column), or null when it is I-JSON. */
export interface JsonDefect {
  readonly rule: "duplicate-name" | "lone-surrogate";
  readonly column: number;
  readonly message: string;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** The code unit written by the `\uXXXX` escape at `i` (text[i] is the backslash), or -1 if there is none. */
const escapedUnit = (text: string, i: number): number => {
  if (text.charCodeAt(i) !== 0x5c || text.charCodeAt(i + 1) !== 0x75) return -1;
  const hex = text.slice(i + 2, i + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
};

/**
 * Scans the string token starting at the quote `start`; returns the index of its closing quote,
 * or a lone-surrogate defect. Raw surrogates are checked too, although text decoded from valid
 * UTF-8 cannot hold a lone one.
 */
const scanString = (text: string, start: number): number | JsonDefect => {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === 0x22) return i;
    let unit = c;
    let width = 1;
    if (c === 0x5c) {
      unit = escapedUnit(text, i);
      width = unit === -1 ? 2 : 6;
    }
    if (isHigh(unit)) {
      const next = c === 0x5c ? escapedUnit(text, i + 6) : text.charCodeAt(i + 1);
      if (!isLow(next)) return loneSurrogate(unit, i);
      width += c === 0x5c ? 6 : 1;
    } else if (isLow(unit)) {
      return loneSurrogate(unit, i);
    }
    i += width;
  }
};

const loneSurrogate = (unit: number, at: number): JsonDefect => ({
  rule: "lone-surrogate",
  column: at + 1,
  message: `lone surrogate \\u${unit.toString(16).padStart(4, "0")} in a string at column ${at + 1}: a JSON string must be Unicode text (I-JSON, W-1.8)`,
});

/** The member name of the string token text[start..end] (quotes included), unescaped. */
const nameOf = (text: string, start: number, end: number): string => {
  const raw = text.slice(start + 1, end);
  return raw.includes("\\") ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
};

/** One open object: the member names seen so far, and whether the next string is a name. */
interface ObjectFrame {
  readonly names: Set<string>;
  expectName: boolean;
}

/** The first I-JSON defect of `text`, which `JSON.parse` has accepted; null when there is none. */
export const ijsonDefect = (text: string): JsonDefect | null => {
  // One entry per open bracket: an object's frame, or null for an array.
  const stack: (ObjectFrame | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = scanString(text, i);
      if (typeof end !== "number") return end;
      const top = stack.at(-1);
      if (top?.expectName) {
        const name = nameOf(text, i, end);
        if (top.names.has(name)) {
          return {
            rule: "duplicate-name",
            column: i + 1,
            message: `duplicate member name ${JSON.stringify(name).slice(0, 80)} at column ${i + 1}: each name may occur once per object (I-JSON, W-1.8)`,
          };
        }
        top.names.add(name);
        top.expectName = false;
      }
      i = end;
    } else if (c === 0x7b) {
      stack.push({ names: new Set(), expectName: true });
    } else if (c === 0x5b) {
      stack.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top !== undefined && top !== null) top.expectName = true;
    }
  }
  return null;
};
