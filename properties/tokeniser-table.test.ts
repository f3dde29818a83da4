/**
 * D-045 and D-010: the reference reader of the tokeniser table (spec/unicode/reader.ts, which uses
 * nothing but spec/unicode/tokeniser-17.0.json) agrees with the model's tokeniser and with the
 * implementation's, which are written with the runtime's NFKC, toLowerCase and \p{} classes: on
 * every code point, on every vector and on random strings. So the table is what the kit's own
 * leakage verdicts are computed from, and an implementation that reads it matches them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokensOf as implTokens } from "../impl/core/leakage.ts";
import { tokens as modelTokens } from "../model/samskara/leakage.ts";
import { compileTable } from "../spec/unicode/reader.ts";
import { readTable, readVectors } from "../spec/unicode/table.ts";
import { poolsOf } from "../spec/unicode/vectors.ts";

const table = readTable();
const reader = compileTable(table);
const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((t, i) => t === b[i]);
const hex = (s: string): string => Array.from(s, (c) => (c.codePointAt(0) as number).toString(16)).join(" ");
const TOKENISERS = { model: modelTokens, impl: implTokens } as const;

describe("the table's reader agrees with the model's and the implementation's tokenisers", () => {
  it("on every code point U+0000..U+10FFFF (1,114,112 one-code-point strings, surrogates included)", () => {
    const wrong: string[] = [];
    let n = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const s = String.fromCodePoint(cp);
      const r = reader.tokens(s);
      for (const [name, tokens] of Object.entries(TOKENISERS))
        if (!same(r, tokens(s))) wrong.push(`${name} U+${cp.toString(16)}`);
      n++;
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(n).toBe(0x110000);
  }, 300_000);

  it("on every vector of spec/unicode/vectors.json (3,381 strings)", () => {
    const cases = readVectors().groups.flatMap((g) => g.cases);
    expect(cases).toHaveLength(3381);
    for (const c of cases) {
      for (const [name, tokens] of Object.entries(TOKENISERS))
        expect(tokens(c.input), `${name}: ${hex(c.input)}`).toEqual(reader.tokens(c.input));
    }
  });

  it("on random strings of marks, jamo, compositions, sigma contexts and any code point (fast-check)", () => {
    const pools = poolsOf(table);
    const codePoint = fc.oneof(
      ...Object.values(pools).map((xs) => fc.constantFrom(...xs)),
      fc.integer({ min: 0, max: 0x10ffff }),
    );
    const text = fc.array(codePoint, { minLength: 1, maxLength: 24 }).map((cps) => String.fromCodePoint(...cps));
    const runs = Number(process.env["FUZZ_RUNS"] ?? 5_000);
    let generated = 0;
    fc.assert(
      fc.property(text, (s) => {
        generated++;
        const r = reader.tokens(s);
        expect(modelTokens(s), hex(s)).toEqual(r);
        expect(implTokens(s), hex(s)).toEqual(r);
      }),
      { numRuns: runs, seed: 10 },
    );
    expect(generated).toBe(runs);
  }, 300_000);

  it("and a disagreement shows: a reader whose table lacks U+0130's two-code-point mapping differs from both", () => {
    const { "0130": _dotted, ...lowercase } = table.lowercase;
    const wrong = compileTable({ ...table, lowercase });
    expect(modelTokens("\u0130stanbul")).toEqual(["i\u0307stanbul"]);
    expect(implTokens("\u0130stanbul")).toEqual(["i\u0307stanbul"]);
    expect(wrong.tokens("\u0130stanbul")).toEqual(["\u0130stanbul"]);
  });
});
