/**
 * isJsonText, srk record's test of whether a line is one JSON value, decides as JSON.parse does on
 * the line's decoded text, for every UTF-8 line: valid JSON texts, each edited one way, strings of
 * the grammar's own characters, and arbitrary bytes (differential, fast-check).
 */
import { isUtf8 } from "node:buffer";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isJsonText } from "./json-text.ts";

const parses = (bytes: Buffer): boolean => {
  try {
    JSON.parse(bytes.toString("utf8"));
    return true;
  } catch {
    return false;
  }
};

/** Characters that matter to the grammar, and a few that do not belong to it. */
const ALPHABET = [
  ...'{}[]":,.-+eE0123456789tfnrulsab\\/ \t\r',
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "\u2028",
  "\uFEFF",
  "\u00a0",
];
const grammar = fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 24 });

/** A JSON text with one edit: a character deleted, inserted or replaced. */
const edited = fc
  .tuple(fc.json(), fc.nat(), fc.constantFrom(...ALPHABET), fc.constantFrom("delete", "insert", "replace"))
  .map(([text, at, c, how]) => {
    const k = at % (text.length + 1);
    return how === "delete"
      ? text.slice(0, k) + text.slice(k + 1)
      : how === "insert"
        ? text.slice(0, k) + c + text.slice(k)
        : text.slice(0, k) + c + text.slice(k + 1);
  });

describe("isJsonText decides as JSON.parse", () => {
  it("on JSON texts, with and without whitespace around them", () => {
    fc.assert(
      fc.property(fc.json(), fc.constantFrom("", " ", "\t\r", "\r"), (text, ws) => {
        expect(isJsonText(Buffer.from(`${ws}${text}${ws}`))).toBe(true);
      }),
      { numRuns: 2000, seed: 23 },
    );
  });
  it("on edited JSON texts, grammar soup and arbitrary UTF-8 bytes (both verdicts reached)", () => {
    const seen = { valid: 0, invalid: 0 };
    const bytes = fc
      .uint8Array({ maxLength: 16 })
      .map((a) => Buffer.from(a))
      .filter((b) => isUtf8(b));
    fc.assert(
      fc.property(
        fc.oneof(
          edited.map((s) => Buffer.from(s)),
          grammar.map((s) => Buffer.from(s)),
          bytes,
        ),
        (b) => {
          const expected = parses(b);
          expect(isJsonText(b), JSON.stringify(b.toString("utf8"))).toBe(expected);
          seen[expected ? "valid" : "invalid"]++;
        },
      ),
      { numRuns: 20000, seed: 23 },
    );
    expect(seen.valid).toBeGreaterThan(1000);
    expect(seen.invalid).toBeGreaterThan(1000);
  });
  it("on the cases at the edges of the grammar", () => {
    const cases = [
      "",
      " ",
      "0",
      "-0",
      "-",
      "01",
      "1.",
      ".5",
      "1e",
      "1e+",
      "1E-2",
      "-1.5e10",
      "1e400",
      "tru",
      "true",
      "truex",
      "nul",
      "null ",
      "[",
      "]",
      "[]",
      "[1,]",
      "[,1]",
      "{}",
      '{"a"}',
      '{"a":}',
      '{"a":1,}',
      '{"a":1 "b":2}',
      "{1:2}",
      '"\\u12"',
      '"\\u12g4"',
      '"\\u1234"',
      '"\\x"',
      '"\\/"',
      '"a\u0001"',
      '"\u007f"',
      "\uFEFF{}",
      "{} {}",
      '"abc',
      "[[[[]]]]",
      "[[[[]]]",
      '{"a":[{"b":[]}]}',
      "\u00a0{}",
    ];
    for (const text of cases)
      expect(isJsonText(Buffer.from(text)), JSON.stringify(text)).toBe(parses(Buffer.from(text)));
  });
  it("on nesting deeper than any call stack: no recursion", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(isJsonText(Buffer.from(deep))).toBe(true);
    expect(isJsonText(Buffer.from(deep.slice(1)))).toBe(false);
  });
});
