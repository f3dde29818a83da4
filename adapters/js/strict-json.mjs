/**
 * One framed line to one JSON value, strictly (spec/wire/PROTOCOL.md W-1.2, W-1.5, W-1.8, W-1.9 and
 * rows 2 to 4 of the W-4 table, in that order).
 *
 * `JSON.parse` is not enough: it keeps the last of two members with the same name, accepts lone
 * surrogate escapes (`"\ud800"`), and recurses on `[[[[…`. So this file has its own parser for
 * RFC 8259 with the two I-JSON rules W-1.8 adds (no duplicate member name after unescaping, no lone
 * surrogate in a name or a value), and a lexical depth count that runs before any parsing.
 *
 * Numbers (W-1.8, D-043): a number is the binary64 value nearest to the decimal it spells, so
 * `1.0`, `1e0` and `10E-1` are all 1, `-0` is 0, `9007199254740993` is 2^53 (an integer beyond the
 * safe range, which every schema bound then refuses), and a literal of thousands of digits is read
 * like any other (`1` followed by 400 zeros is not finite, hence not an integer). JavaScript's
 * `Number(text)` rounds exactly that way (ECMA-262 StringToNumber: round to nearest, ties to even),
 * so the grammar is checked here and the value is left to it.
 */

/** W-1.5: the deepest nesting a line may have (`{}` has depth 1). */
export const MAX_NESTING_DEPTH = 64;

/** A line that is not one strict JSON value; `column` is 1-based, in UTF-16 code units of the decoded line. */
export class StrictJsonError extends Error {
  /** @param {string} message @param {number} column */
  constructor(message, column) {
    super(message);
    this.name = "StrictJsonError";
    this.column = column;
  }
}

// fatal: invalid UTF-8 (overlong forms, encoded surrogates, cut sequences) throws instead of
// becoming U+FFFD. ignoreBOM: a leading U+FEFF stays in the text, so that it is BAD_JSON (W-1.9)
// instead of being dropped silently, which is TextDecoder's default.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** W-1.9: only space, tab and CR make a line blank (LF cannot occur inside one); not U+00A0, U+2028 or a BOM. */
const BLANK = /^[ \t\r]*$/;

/**
 * Rows 2 to 4 of W-4 for one line (the bytes before its `\n`; row 1, the length, is the framer's):
 * `{ kind: "empty" }` for a line W-1.2 ignores, `{ kind: "error", code, message }` for
 * BAD_ENCODING, NESTING_TOO_DEEP or BAD_JSON, else `{ kind: "value", value }`.
 * @param {Uint8Array} bytes
 */
export const decodeLine = (bytes) => {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: "error", code: "BAD_ENCODING", message: "the line is not valid UTF-8" };
  }
  if (text.endsWith("\r")) text = text.slice(0, -1); // W-1.2: one trailing \r before the \n is ignored
  if (BLANK.test(text)) return { kind: "empty" };
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) {
    return {
      kind: "error",
      code: "NESTING_TOO_DEEP",
      message: `the line nests arrays and objects deeper than ${MAX_NESTING_DEPTH}`,
    };
  }
  try {
    return { kind: "value", value: parseStrict(text) };
  } catch (e) {
    if (e instanceof StrictJsonError) return { kind: "error", code: "BAD_JSON", message: e.message };
    throw e;
  }
};

/**
 * W-1.5 (review G-17): a lexical count over any text, valid JSON or not. Outside strings `[` and `{`
 * add one, `]` and `}` subtract one, matched or not (so the count may go below zero and is never
 * reset); a `"` opens a string, inside which `\` skips the next character and `"` closes it, and an
 * unterminated string runs to the end. True iff the count ever exceeds `max`.
 * @param {string} text @param {number} max
 */
export const nestsDeeperThan = (text, max) => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
};

/**
 * Parses one JSON text (RFC 8259) under the rules of W-1.8; throws StrictJsonError naming what is
 * wrong and where. Objects are plain objects whose members are own data properties (a member named
 * `__proto__` is a member, not the prototype), `-0` is read as 0, and the text must hold exactly one
 * value, with JSON whitespace (space, tab, LF, CR) around it and nothing else. Nesting beyond
 * MAX_NESTING_DEPTH is refused, so the recursion is bounded whatever the caller checked before.
 * @param {string} text
 * @returns {unknown}
 */
export const parseStrict = (text) => {
  const p = new Parser(text);
  p.space();
  const value = p.value(0);
  p.space();
  if (p.i < text.length) p.fail(`${p.found()} after the JSON value: a line holds exactly one value`);
  return value;
};

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
/** @type {Record<number, string>} */
const SHORT_ESCAPES = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };

const codePointName = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

class Parser {
  /** @param {string} text */
  constructor(text) {
    this.t = text;
    this.i = 0;
  }

  /** @param {string} what @param {number} [at] @returns {never} */
  fail(what, at = this.i) {
    throw new StrictJsonError(`${what} at column ${at + 1}`, at + 1);
  }

  /** The character at the cursor, for a message. */
  found() {
    if (this.i >= this.t.length) return "the end of the line";
    const cp = /** @type {number} */ (this.t.codePointAt(this.i));
    return cp > 0x20 && cp < 0x7f ? `'${String.fromCodePoint(cp)}'` : `the character ${codePointName(cp)}`;
  }

  space() {
    const t = this.t;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.i++;
    }
  }

  /** @param {number} c */
  expect(c, what) {
    if (this.t.charCodeAt(this.i) !== c) this.fail(`expected ${what}, found ${this.found()}`);
    this.i++;
  }

  /** @param {number} depth the nesting around this value */
  value(depth) {
    const c = this.t.charCodeAt(this.i);
    if (c === 0x7b || c === 0x5b) {
      if (depth + 1 > MAX_NESTING_DEPTH) this.fail(`nesting deeper than ${MAX_NESTING_DEPTH}`);
      return c === 0x7b ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    for (const [word, v] of /** @type {const} */ ([
      ["true", true],
      ["false", false],
      ["null", null],
    ])) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.fail(`expected a JSON value, found ${this.found()}`);
  }

  /** @param {number} depth */
  object(depth) {
    this.i++; // {
    /** @type {Record<string, unknown>} */
    const obj = {};
    this.space();
    if (this.t.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return obj;
    }
    for (;;) {
      const at = this.i;
      if (this.t.charCodeAt(this.i) !== 0x22) this.fail(`expected a member name (a string), found ${this.found()}`);
      const name = this.string();
      // Names compare after unescaping: "id" and "\u0069d" are one name (W-1.8, RFC 7493 §2.3).
      if (Object.hasOwn(obj, name))
        this.fail(
          `duplicate member name ${JSON.stringify(name).slice(0, 80)}: a name may occur once per object (W-1.8)`,
          at,
        );
      this.space();
      this.expect(0x3a, "':' after a member name");
      this.space();
      const v = this.value(depth);
      // Assignment to "__proto__" would set the prototype; every member is an own data property.
      if (name === "__proto__")
        Object.defineProperty(obj, name, { value: v, writable: true, enumerable: true, configurable: true });
      else obj[name] = v;
      this.space();
      const c = this.t.charCodeAt(this.i);
      if (c === 0x7d) {
        this.i++;
        return obj;
      }
      this.expect(0x2c, "',' or '}' in an object");
      this.space();
    }
  }

  /** @param {number} depth */
  array(depth) {
    this.i++; // [
    const out = [];
    this.space();
    if (this.t.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.space();
      if (this.t.charCodeAt(this.i) === 0x5d) {
        this.i++;
        return out;
      }
      this.expect(0x2c, "',' or ']' in an array");
      this.space();
    }
  }

  string() {
    const t = this.t;
    const open = this.i;
    let i = open + 1;
    let start = i;
    let out = "";
    for (;;) {
      if (i >= t.length) this.fail("unterminated string", open);
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        out += t.slice(start, i);
        const e = t.charCodeAt(i + 1);
        if (e === 0x75) {
          const hex = t.slice(i + 2, i + 6);
          if (!HEX4.test(hex)) this.fail("a \\u escape needs four hexadecimal digits", i);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 6;
        } else {
          const s = SHORT_ESCAPES[e];
          if (s === undefined) this.fail(`invalid escape \\${Number.isNaN(e) ? "" : String.fromCharCode(e)}`, i);
          out += s;
          i += 2;
        }
        start = i;
        continue;
      }
      if (c < 0x20) this.fail(`raw control character ${codePointName(c)} in a string (JSON requires it escaped)`, i);
      i++;
    }
    out += t.slice(start, i);
    this.i = i + 1;
    // W-1.8 (RFC 7493 §2.1): an escaped high surrogate must be followed by an escaped low one, and a
    // low one preceded by a high one; a decoded pair is the one character it encodes.
    if (!out.isWellFormed())
      this.fail(
        `lone surrogate ${loneSurrogate(out)} in a string: JSON text on the wire is Unicode text (W-1.8)`,
        open,
      );
    return out;
  }

  number() {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.t);
    if (m === null) this.fail(`invalid number, found ${this.found()}`);
    this.i += m[0].length;
    const c = this.t.charCodeAt(this.i);
    // "01", "1.", "1e": the grammar stops early; say so rather than "expected ','".
    if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45)
      this.fail(`invalid number ${JSON.stringify(this.t.slice(this.i - m[0].length, this.i + 1).slice(0, 40))}`);
    const v = Number(m[0]);
    return v === 0 ? 0 : v; // -0 is the number 0 (W-1.8)
  }
}

/** The first lone surrogate of a string that is not well formed, as an escape. */
const loneSurrogate = (s) => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) return `\\u${c.toString(16).padStart(4, "0")}`;
  }
  return "";
};
