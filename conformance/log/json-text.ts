/**
 * Whether bytes are one JSON text, decided on the bytes, without building the value: what srk
 * record needs to know of every protocol line (one JSON value is logged as `msg`, anything else as
 * `raw`, L-1.2), and all it needs, since it logs the line's own text. JSON.parse would build every
 * object of the line only to drop it, on the proxy's one thread, at about a microsecond a line
 * (bench "Log record").
 *
 * The grammar is JSON.parse's (ECMA-404, RFC 8259): whitespace is space, tab, CR and LF; strings
 * hold no control character below U+0020 and only the escapes \" \\ \/ \b \f \n \r \t \uXXXX;
 * numbers are -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; nesting has no bound (a stack array,
 * not recursion). Bytes of 0x80 and above are accepted inside strings only: whether they are
 * UTF-8 is the caller's check (isUtf8), as JSON.parse reads decoded text. json-text.test.ts
 * checks the verdict against JSON.parse.
 */

const OBJECT = 1;
const ARRAY = 2;

// The scanner's state: module variables and plain functions rather than closures over locals,
// which V8 runs several times slower here. isJsonText is synchronous, so it is never re-entered.
const EMPTY = new Uint8Array(0);
let b: Uint8Array = EMPTY;
let n = 0;
let i = 0;
/** Whether a string held a byte of 0x80 or above (only strings may: the grammar refuses them elsewhere). */
let high = false;

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** The byte at j, or -1 past the end (so comparisons never meet undefined). */
const at = (j: number): number => (j < n ? (b[j] as number) : -1);

const ws = (): void => {
  while (i < n) {
    const c = b[i] as number;
    if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) i++;
    else return;
  }
};

/** A string starting at b[i] === '"'. */
const string = (): boolean => {
  i++;
  while (i < n) {
    const c = b[i] as number;
    if (c === 0x22) {
      i++;
      return true;
    }
    if (c < 0x20) return false;
    if (c === 0x5c) {
      const e = at(i + 1);
      if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)
        i += 2;
      else if (e === 0x75) {
        if (!isHex(at(i + 2)) || !isHex(at(i + 3)) || !isHex(at(i + 4)) || !isHex(at(i + 5))) return false;
        i += 6;
      } else return false;
    } else {
      if (c >= 0x80) high = true;
      i++;
    }
  }
  return false;
};

const digits = (): boolean => {
  const from = i;
  while (i < n && isDigit(b[i] as number)) i++;
  return i > from;
};

const number = (): boolean => {
  if (at(i) === 0x2d) i++;
  if (at(i) === 0x30) i++;
  else if (!digits()) return false;
  if (at(i) === 0x2e) {
    i++;
    if (!digits()) return false;
  }
  const e = at(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = at(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!digits()) return false;
  }
  return true;
};

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
const literal = (word: readonly number[]): boolean => {
  for (let k = 0; k < word.length; k++) if (at(i + k) !== word[k]) return false;
  i += word.length;
  return true;
};

/** An object's key and its colon, with the whitespace after them. */
const key = (): boolean => {
  if (at(i) !== 0x22 || !string()) return false;
  ws();
  if (at(i) !== 0x3a) return false;
  i++;
  ws();
  return true;
};

/** What jsonTextOf found: not one JSON text; one, of ASCII bytes only; one, with bytes of 0x80 and above in its strings. */
export const NOT_JSON = 0;
export const JSON_ASCII = 1;
export const JSON_HIGH = 2;
export type JsonTextKind = typeof NOT_JSON | typeof JSON_ASCII | typeof JSON_HIGH;

/**
 * Whether bytes[start, end) are one JSON text, and whether they are ASCII. An ASCII text is UTF-8
 * whatever it holds, so the recorder asks isUtf8 only of the rare line with JSON_HIGH, and reads
 * a line inside the chunk it came in without cutting a Buffer of it first.
 */
export const jsonTextOf = (bytes: Uint8Array, start = 0, end = bytes.length): JsonTextKind => {
  b = bytes;
  n = end;
  i = start;
  high = false;
  try {
    return scan() ? (high ? JSON_HIGH : JSON_ASCII) : NOT_JSON;
  } finally {
    b = EMPTY; // the line is not kept alive by the scanner
  }
};

export const isJsonText = (bytes: Uint8Array): boolean => jsonTextOf(bytes) !== NOT_JSON;

const scan = (): boolean => {
  const stack: number[] = [];
  ws();
  for (;;) {
    // A value starts at b[i].
    const c = at(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      ws();
      if (at(i) === (c === 0x7b ? 0x7d : 0x5d))
        i++; // empty
      else {
        stack.push(c === 0x7b ? OBJECT : ARRAY);
        if (c === 0x7b && !key()) return false;
        continue;
      }
    } else if (c === 0x22) {
      if (!string()) return false;
    } else if (c === 0x2d || isDigit(c)) {
      if (!number()) return false;
    } else if (!(c === 0x74 ? literal(TRUE) : c === 0x66 ? literal(FALSE) : c === 0x6e ? literal(NULL) : false))
      return false;
    // After a value: close what it ends, or go on to the next member.
    for (;;) {
      ws();
      if (stack.length === 0) return i === n;
      const top = stack[stack.length - 1];
      const d = at(i);
      if (d === 0x2c) {
        i++;
        ws();
        if (top === OBJECT && !key()) return false;
        break;
      }
      if (d !== (top === OBJECT ? 0x7d : 0x5d)) return false;
      i++;
      stack.pop();
    }
  }
};
