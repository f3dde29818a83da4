/**
 * D-045: the tokeniser table is what the runtime computes, and reading it (the reference reader,
 * which uses nothing but the table) gives the D-010 tokens of every code point, every vector and
 * random strings. The properties suite compares the same reader with the model's and the
 * implementation's tokenisers (properties/tokeniser-table.test.ts).
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { decision } from "../decisions.ts";
import { MAX_CODE_POINT, runtimeTokens } from "./derive.ts";
import { renderUnicodeFiles } from "./generate.ts";
import { compileTable, type TableTokeniser } from "./reader.ts";
import { parseTable, readTable, readVectors, TABLE_PATH, type TokeniserTable } from "./table.ts";
import { codePointDigest, expand, poolsOf } from "./vectors.ts";

const table = readTable();
const vectors = readVectors();
const reader = compileTable(table);
const hex = (s: string): string =>
  Array.from(s, (c) => (c.codePointAt(0) as number).toString(16).toUpperCase()).join(" ");

/** The code points (all 1,114,112, surrogates included) where a reader and the runtime differ. */
const disagreements = (tokeniser: TableTokeniser, from = 0, to = MAX_CODE_POINT): number[] => {
  const out: number[] = [];
  for (let cp = from; cp <= to; cp++) {
    const s = String.fromCodePoint(cp);
    const a = tokeniser.tokens(s);
    const b = runtimeTokens(s);
    if (a.length !== b.length || a.some((t, i) => t !== b[i])) out.push(cp);
  }
  return out;
};

const withTable = (
  change: (t: { -readonly [K in keyof TokeniserTable]: TokeniserTable[K] }) => void,
): TableTokeniser => {
  const copy = structuredClone(table) as { -readonly [K in keyof TokeniserTable]: TokeniserTable[K] };
  change(copy);
  return compileTable(copy);
};

describe("D-045: the committed table and vectors are what this runtime derives", () => {
  let files: Map<string, string>;
  beforeAll(() => {
    files = renderUnicodeFiles().files;
  }, 300_000);
  it("regenerating them from Node's Unicode data gives the committed bytes (run `npx tsx spec/unicode/generate.ts`)", () => {
    expect(files.size).toBe(2);
    for (const [path, content] of files) expect(readFileSync(path, "utf8") === content, `${path} is stale`).toBe(true);
  });
});

describe("D-045: the reference reader, which uses only the table, computes the D-010 tokens", () => {
  it("on every code point U+0000..U+10FFFF, one at a time", () => {
    expect(disagreements(reader).map((cp) => cp.toString(16))).toEqual([]);
  }, 120_000);

  it("its digest over every scalar value is the vectors' everyCodePoint digest", () => {
    expect(codePointDigest(reader.tokens)).toEqual({ codePoints: 1_112_064, sha256: vectors.everyCodePoint.sha256 });
  }, 120_000);

  it("on every vector", () => {
    let n = 0;
    for (const g of vectors.groups) {
      for (const v of g.cases) {
        expect(reader.tokens(v.input), `${g.name}: ${hex(v.input)}`).toEqual(v.tokens);
        n++;
      }
    }
    expect(n).toBe(3381);
  });

  it("on every pair of a composition's first code point or composite (or a base) with a composition's second code point", () => {
    const pools = poolsOf(table);
    const lefts = [
      ...new Set([...(pools["compositionFirsts"] ?? []), ...(pools["composites"] ?? []), 0x41, 0x3b1, 0x1100, 0xac00]),
    ];
    const rights = [...new Set([...(pools["compositionSeconds"] ?? []), 0x1161, 0x11a8])];
    let n = 0;
    const bad: string[] = [];
    for (const a of lefts) {
      for (const b of rights) {
        const s = String.fromCodePoint(a, b);
        if (JSON.stringify(reader.tokens(s)) !== JSON.stringify(runtimeTokens(s))) bad.push(hex(s));
        n++;
      }
    }
    expect(bad).toEqual([]);
    expect(n).toBe(lefts.length * rights.length);
    expect(n).toBeGreaterThan(90_000);
  }, 300_000);

  it("on random strings of marks, jamo, compositions, sigma contexts and any code point (fast-check)", () => {
    const pools = poolsOf(table);
    const pool = (xs: readonly number[]) => fc.constantFrom(...xs);
    const codePoint = fc.oneof(
      ...Object.values(pools).map(pool),
      fc.integer({ min: 0, max: MAX_CODE_POINT }).filter((cp) => cp < 0xd800 || cp > 0xdfff),
    );
    const text = fc.array(codePoint, { minLength: 1, maxLength: 24 }).map((cps) => String.fromCodePoint(...cps));
    const runs = Number(process.env["FUZZ_RUNS"] ?? 10_000);
    let generated = 0;
    fc.assert(
      fc.property(text, (s) => {
        generated++;
        expect(reader.tokens(s), hex(s)).toEqual(runtimeTokens(s));
      }),
      { numRuns: runs, seed: 45 },
    );
    expect(generated).toBe(runs);
  }, 300_000);
});

describe("D-045: the comparisons fail when the table is wrong", () => {
  it("a missing lower-case mapping, decomposition or token range shows on the code points it covers", () => {
    expect(
      disagreements(
        withTable((t) => void (t.lowercase = { ...t.lowercase, "0041": "0041" })),
        0x40,
        0x42,
      ),
    ).toEqual([0x41]);
    const noFi = withTable((t) => {
      const { FB01: _fi, ...rest } = t.decompositions;
      t.decompositions = rest;
    });
    expect(disagreements(noFi, 0xfb00, 0xfb02)).toEqual([0xfb01]);
    expect(
      disagreements(
        withTable((t) => void (t.tokenCharacters = t.tokenCharacters.filter((r) => r !== "1E4D0..1E4F9"))),
        0x1e4cf,
        0x1e4d1,
      ),
    ).toEqual([0x1e4d0, 0x1e4d1]);
  });

  it("the final-sigma condition read as Unicode's regular expression (a cased case-ignorable counts as cased) differs", () => {
    const regexReading = withTable((t) => {
      const cased = new Set(expand(t.finalSigma.cased, "cased"));
      t.finalSigma = {
        ...t.finalSigma,
        caseIgnorable: expand(t.finalSigma.caseIgnorable, "caseIgnorable")
          .filter((cp) => !cased.has(cp))
          .map((cp) => cp.toString(16).toUpperCase().padStart(4, "0")),
      };
    });
    expect(runtimeTokens(" \u0345\u03a3")).toEqual(["\u0345\u03c3"]);
    expect(regexReading.tokens(" \u0345\u03a3")).toEqual(["\u0345\u03c2"]);
  });

  it("swapped combining classes or a dropped composition pair give other tokens", () => {
    const swapped = withTable((t) => {
      const r = [...t.combiningClassRanks];
      const i220 = r.findIndex((g) => g.some((x) => x.startsWith("0316")));
      const i230 = r.findIndex((g) => g.some((x) => x.startsWith("0300")));
      [r[i220], r[i230]] = [r[i230] as readonly string[], r[i220] as readonly string[]];
      t.combiningClassRanks = r;
    });
    expect(reader.tokens("a\u0302\u0323")).toEqual(["\u1ead"]);
    expect(swapped.tokens("a\u0302\u0323")).not.toEqual(["\u1ead"]);
    const noAcute = withTable((t) => {
      const { "0065 0301": _e, ...rest } = t.compositions;
      t.compositions = rest;
    });
    expect(noAcute.tokens("e\u0301")).toEqual(["e\u0301"]);
  });

  it("a malformed table is refused with the member named", () => {
    const text = readFileSync(TABLE_PATH, "utf8");
    const bad = (edit: (v: Record<string, unknown>) => void): string => {
      const v = JSON.parse(text) as Record<string, unknown>;
      edit(v);
      return JSON.stringify(v);
    };
    expect(() => parseTable(bad((v) => void (v["tokenCharacters"] = ["0041..zz"])))).toThrow(
      /tokenCharacters\[0\].*"zz" is not a code point/,
    );
    expect(() => parseTable(bad((v) => void (v["tokenCharacters"] = ["005A..0041"])))).toThrow(
      /tokenCharacters\[0\]: range 005A..0041 ends before it starts/,
    );
    expect(() => parseTable(bad((v) => void delete v["lowercase"]))).toThrow(/lowercase: not an object of strings/);
    expect(() => parseTable(bad((v) => void ((v["hangul"] as Record<string, unknown>)["TCount"] = 0)))).toThrow(
      /hangul.TCount: not a positive integer/,
    );
    expect(() => compileTable(parseTable(bad((v) => void (v["decompositions"] = { "00C0": "0041  0300" }))))).toThrow(
      /decompositions.00C0\[1\]: "" is not a code point/,
    );
    expect(() => parseTable("[]")).toThrow(/not a JSON object/);
  });
});

describe("D-045 states the table's contents as they are", () => {
  it("its counts are the table's and the vectors'", () => {
    const text = decision("D-045").decision;
    const casedSet = new Set(expand(table.finalSigma.cased, "cased"));
    const count = (n: number): string => n.toLocaleString("en-GB");
    expect(text).toContain(`each of the ${count(Object.keys(table.decompositions).length)} code points that have one`);
    expect(text).toContain(`non-starters in ${table.combiningClassRanks.length} groups`);
    expect(text).toContain(`the ${count(Object.keys(table.compositions).length)} canonical composition pairs`);
    expect(text).toContain(`mapping of the ${count(Object.keys(table.lowercase).length)} code points it changes`);
    expect(text).toContain(`gives ${count(vectors.groups.reduce((n, g) => n + g.cases.length, 0))} strings`);
    expect(text).toContain(`all ${count(vectors.everyCodePoint.codePoints)} one-code-point strings`);
    const cased = expand(table.finalSigma.caseIgnorable, "caseIgnorable").filter((cp) => casedSet.has(cp)).length;
    expect(decision("D-045").why).toContain(`the ${cased} code points that are both Cased and Case_Ignorable`);
  });
});
