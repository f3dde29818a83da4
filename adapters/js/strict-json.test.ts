/**
 * The adapter's strict JSON (strict-json.mjs) against the rules of spec/wire/PROTOCOL.md: W-1.2
 * (UTF-8, the trailing \r, blank lines), W-1.5 (the lexical depth count), W-1.8 (duplicate member
 * names, lone surrogates, numbers by value) and W-1.9 (JSON whitespace only), each where it holds
 * and where it breaks, at its boundaries, and in the W-4 order of rows 2 to 4.
 */
import { describe, expect, it } from "vitest";
import { decodeLine, MAX_NESTING_DEPTH, nestsDeeperThan, parseStrict, StrictJsonError } from "./index.mjs";

const line = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
const decode = (...parts: (string | number[])[]) => decodeLine(line(...parts));
const codeOf = (...parts: (string | number[])[]): string => {
  const d = decode(...parts);
  return d.kind === "error" ? d.code : d.kind;
};
const value = (text: string): unknown => {
  const d = decode(text);
  if (d.kind !== "value") throw new Error(`expected a value for ${text.slice(0, 60)}, got ${JSON.stringify(d)}`);
  return d.value;
};
const nest = (n: number): string => "[".repeat(n) + "]".repeat(n);

describe("W-1.2: UTF-8 (row 2)", () => {
  it("invalid UTF-8 is BAD_ENCODING: a stray byte, an overlong form, an encoded surrogate, a cut sequence", () => {
    expect(codeOf('{"id":"', [0xff], '"}')).toBe("BAD_ENCODING");
    expect(codeOf('"', [0xc0, 0xaf], '"')).toBe("BAD_ENCODING");
    expect(codeOf('"', [0xed, 0xa0, 0x80], '"')).toBe("BAD_ENCODING");
    expect(codeOf('"x" ', [0xe2, 0x82])).toBe("BAD_ENCODING");
  });
  it("valid multi-byte UTF-8 is read as the text it encodes", () => {
    expect(value('"é☕🚀"')).toBe("é☕🚀");
    expect(value(`"${String.fromCodePoint(0x10ffff)}"`)).toBe(String.fromCodePoint(0x10ffff));
  });
  it("row 2 before row 3: invalid UTF-8 that also nests too deep is BAD_ENCODING", () => {
    expect(codeOf([0xff], nest(MAX_NESTING_DEPTH + 1))).toBe("BAD_ENCODING");
  });
  it("row 2 before blank lines (W-1.9): spaces around an invalid byte are BAD_ENCODING, not ignored", () => {
    expect(codeOf("  ", [0xa0], "  ")).toBe("BAD_ENCODING");
  });
});

describe("W-1.2 and W-1.9: the trailing \\r and blank lines", () => {
  it("empty, spaces and tabs, one \\r, and JSON whitespace with \\r inside are ignored", () => {
    for (const blank of ["", "   \t  ", "\r", " \t\r \r"])
      expect(decode(blank).kind, JSON.stringify(blank)).toBe("empty");
  });
  it("one trailing \\r is dropped before parsing; a value with \\r\\n framing parses", () => {
    expect(value('{"a":1}\r')).toEqual({ a: 1 });
  });
  it("Unicode White_Space that is not JSON whitespace is BAD_JSON: U+00A0, U+2028, U+3000, a BOM alone or before a value", () => {
    for (const s of ["\u00a0", " \u2028 ", "\u3000", "\ufeff", '\ufeff{"a":1}'])
      expect(codeOf(s), JSON.stringify(s)).toBe("BAD_JSON");
  });
});

describe("W-1.5: nesting depth, a lexical count (row 3)", () => {
  it(`depth ${MAX_NESTING_DEPTH} is within the bound, ${MAX_NESTING_DEPTH + 1} is NESTING_TOO_DEEP ({} has depth 1)`, () => {
    expect(decode(nest(MAX_NESTING_DEPTH)).kind).toBe("value");
    expect(codeOf(nest(MAX_NESTING_DEPTH + 1))).toBe("NESTING_TOO_DEEP");
    expect(decode(`${'{"a":'.repeat(MAX_NESTING_DEPTH - 1)}{}${"}".repeat(MAX_NESTING_DEPTH - 1)}`).kind).toBe("value");
    expect(codeOf(`${'{"a":'.repeat(MAX_NESTING_DEPTH)}{}${"}".repeat(MAX_NESTING_DEPTH)}`)).toBe("NESTING_TOO_DEEP");
  });
  it("100 000 levels are refused without recursion", () => {
    expect(codeOf(nest(100_000))).toBe("NESTING_TOO_DEEP");
  });
  it("brackets inside strings do not count, an escaped quote does not end the string, an escaped backslash does", () => {
    expect(decode(`["${"[{".repeat(70)}"]`).kind).toBe("value");
    expect(decode(`["\\"${"[".repeat(70)}"]`).kind).toBe("value");
    expect(codeOf(`["x\\\\",${nest(MAX_NESTING_DEPTH)}]`)).toBe("NESTING_TOO_DEEP");
  });
  it("row 3 before row 4: an unclosed line nesting 65 deep is NESTING_TOO_DEEP, not BAD_JSON", () => {
    expect(codeOf(`{"deep":${"[".repeat(MAX_NESTING_DEPTH)}`)).toBe("NESTING_TOO_DEEP");
  });
  it("the count is never reset and may go below zero (review G-17)", () => {
    // An unterminated string runs to the end of the line: its brackets never count.
    expect(codeOf(`"${"[".repeat(MAX_NESTING_DEPTH + 5)}`)).toBe("BAD_JSON");
    expect(codeOf(`]${"[".repeat(MAX_NESTING_DEPTH + 1)}`)).toBe("BAD_JSON"); // reaches 64
    expect(codeOf(`]${"[".repeat(MAX_NESTING_DEPTH + 2)}`)).toBe("NESTING_TOO_DEEP"); // reaches 65
    expect(nestsDeeperThan("]]]][", 0)).toBe(false);
    expect(nestsDeeperThan("[", 0)).toBe(true);
  });
  it("the parser bounds its own recursion when called directly", () => {
    expect(() => parseStrict(nest(MAX_NESTING_DEPTH + 1))).toThrow(StrictJsonError);
    expect(parseStrict(nest(MAX_NESTING_DEPTH))).toBeInstanceOf(Array);
  });
});

describe("W-1.8: no duplicate member names (RFC 7493 §2.3), compared after unescaping", () => {
  it("JSON.parse keeps the last of two members, which is why the adapter has its own parser", () => {
    expect(JSON.parse('{"id":"a","id":"b"}')).toEqual({ id: "b" });
    expect(codeOf('{"id":"a","id":"b"}')).toBe("BAD_JSON");
  });
  it("a name spelled with an escape is the same name", () => {
    expect(codeOf('{"id":1,"\\u0069d":2}')).toBe("BAD_JSON");
    expect(codeOf('{"q\\"":1,"q\\u0022":2}')).toBe("BAD_JSON");
  });
  it("in a nested object too, however deep", () => {
    expect(codeOf('{"a":[{"x":1,"y":{"k":1,"k":1}}]}')).toBe("BAD_JSON");
  });
  it("holds: the same name in different objects, and names that differ only in case", () => {
    expect(value('{"a":{"a":1},"b":[{"a":2},{"a":3}]}')).toEqual({ a: { a: 1 }, b: [{ a: 2 }, { a: 3 }] });
    expect(value('{"id":1,"ID":2,"Id":3}')).toEqual({ id: 1, ID: 2, Id: 3 });
  });
  it("a member named __proto__ is an own member, not the prototype, and counts for duplicates", () => {
    const v = value('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(codeOf('{"__proto__":1,"__proto__":2}')).toBe("BAD_JSON");
  });
  it("the message names the member and its column", () => {
    const d = decode('{"id":"a","id":"b"}');
    expect(d.kind === "error" && d.message).toMatch(/duplicate member name "id".*column 11/);
  });
});

describe("W-1.8: no lone surrogate (RFC 7493 §2.1), in values and in member names", () => {
  it("JSON.parse accepts a lone surrogate escape; the adapter refuses it", () => {
    expect(JSON.parse('"\\ud800"')).toHaveLength(1);
    expect(codeOf('"\\ud800"')).toBe("BAD_JSON");
  });
  it("a lone high, a lone low, a high before a non-surrogate, a high at the end, a reversed pair", () => {
    for (const s of [
      '"\\ud800"',
      '"\\udc00"',
      '"\\ud800\\u0041"',
      '"x\\udbff"',
      '"\\ude80\\ud83d"',
      '"\\ud800\\ud800"',
    ]) {
      expect(codeOf(`{"v":${s}}`), s).toBe("BAD_JSON");
    }
  });
  it("in a member name", () => {
    expect(codeOf('{"\\udc00":1}')).toBe("BAD_JSON");
  });
  it("holds: an escaped pair is the one character it encodes, noncharacters are scalar values", () => {
    expect(value('"\\ud83d\\ude80"')).toBe("🚀");
    expect(value('"\\uD83D\\uDE80"')).toBe("🚀");
    expect(value('"\\ufffe\\ufdd0\\uffff"')).toBe("\ufffe\ufdd0\uffff");
    expect(value('{"\\ud83d\\ude80":1}')).toEqual({ "🚀": 1 });
  });
  it("the boundaries of the surrogate ranges: U+D7FF and U+E000 are ordinary characters", () => {
    expect(value('"\\ud7ff\\ue000"')).toBe("\ud7ff\ue000");
    expect(value('"\\udbff\\udfff"')).toBe(String.fromCodePoint(0x10ffff));
  });
});

describe("W-1.8 (D-043): a number is the binary64 value nearest to its decimal", () => {
  it("integral spellings are the integer: 1.0, 1e0, 10E-1, 1.00000000000000001; -0 is 0", () => {
    for (const s of ["1.0", "1e0", "10E-1", "1.00000000000000001", "0.1e1", "100e-2"]) expect(value(s), s).toBe(1);
    expect(Object.is(value("-0"), 0)).toBe(true);
    expect(Object.is(value("-0.0e5"), 0)).toBe(true);
    expect(value("1e2")).toBe(100);
  });
  it("integers beyond 2^53 are read to the nearest binary64 (so 2^53 + 1 is 2^53), never cut or wrapped", () => {
    expect(value("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(value("9007199254740993")).toBe(2 ** 53);
    expect(value("18446744073709551616")).toBe(2 ** 64);
    // Halfway between 2^53 - 2 and 2^53 - 1: ties to even.
    expect(value("9007199254740990.5")).toBe(9007199254740990);
  });
  it("literals of thousands of digits: 1 then 5000 zeros is not finite; 10^-5001 is nearest to 0, so it is the integer 0", () => {
    expect(value(`1${"0".repeat(5000)}`)).toBe(Number.POSITIVE_INFINITY);
    expect(Object.is(value(`0.${"0".repeat(5000)}1`), 0)).toBe(true);
    expect(Object.is(value(`-0.${"0".repeat(5000)}1`), 0)).toBe(true);
    expect(value(`1.${"0".repeat(5000)}1`)).toBe(1);
    expect(value(`${"9".repeat(400)}`)).toBe(Number.POSITIVE_INFINITY);
    expect(value(`${"1".repeat(300)}`)).toBe(Number(`${"1".repeat(300)}`));
    expect(value("1e400")).toBe(Number.POSITIVE_INFINITY);
    expect(value("1.5")).toBe(1.5);
  });
  it("the number grammar of RFC 8259: leading zeros, a bare point or exponent, a plus sign, hex, NaN are BAD_JSON", () => {
    for (const s of [
      "01",
      "-01",
      "1.",
      ".5",
      "+1",
      "-",
      "1e",
      "1e+",
      "0x10",
      "NaN",
      "Infinity",
      "-Infinity",
      "1.2.3",
      "1_000",
    ]) {
      expect(codeOf(`[${s}]`), s).toBe("BAD_JSON");
    }
    for (const s of ["0", "-0", "0.5", "-1.25e-3", "1E+2", "123456789"]) expect(decode(`[${s}]`).kind, s).toBe("value");
  });
});

describe("RFC 8259 grammar (row 4)", () => {
  it("strings: raw controls are refused, every escape is decoded, \\u needs four hex digits", () => {
    expect(codeOf('"a\tb"')).toBe("BAD_JSON");
    expect(codeOf('"a\u0000b"')).toBe("BAD_JSON");
    expect(codeOf('"\u001f"')).toBe("BAD_JSON");
    expect(value('"\u007f"')).toBe("\u007f"); // DEL is not a control of JSON's grammar
    expect(value('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041"')).toBe('"\\/\b\f\n\r\tA');
    for (const s of ['"\\x41"', '"\\u12"', '"\\u12G4"', '"\\', '"abc', "'single'"])
      expect(codeOf(s), s).toBe("BAD_JSON");
  });
  it("structure: trailing commas, missing colons, two values on a line, bare words are refused", () => {
    for (const s of [
      '{"a":1,}',
      "[1,]",
      '{"a" 1}',
      '{"a":1} {"b":2}',
      "[1] 2",
      "nope",
      "tru",
      "nulll",
      "{a:1}",
      "[1 2]",
      ",",
      "{",
      "}",
    ]) {
      expect(codeOf(s), s).toBe("BAD_JSON");
    }
  });
  it("holds: literals, JSON whitespace between tokens, and every value JSON.parse reads the same way", () => {
    const texts = [
      "true",
      "false",
      "null",
      ' \t[ 1 , "x" , { "a" : null } ]\t ',
      '{"a":[],"b":{},"c":"","d":-1.5e-7}',
      '"\\u00e9"',
      "[[[[[]]]]]",
    ];
    for (const t of texts) expect(value(t), t).toEqual(JSON.parse(t));
  });
  it("a JSON error names what and where", () => {
    const d = decode('{"type":"query",}');
    expect(d.kind === "error" && d.message).toMatch(/expected a member name.*column 17/);
    expect(() => parseStrict("[1,]")).toThrow(/column 4/);
  });
});
