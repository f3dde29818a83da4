/**
 * The tokeniser vectors of D-045 (`spec/unicode/vectors.json`): input strings and their D-010
 * tokens, for an implementation of the table in any language to check itself. The hand-written
 * group states its expectations from the rules (cases.ts) and is checked against the runtime; the
 * generated groups take their tokens from the runtime, over inputs chosen from the table so that
 * every composition pair, every code point the final-sigma condition skips, and random mixtures of
 * marks, jamo and decomposable characters are exercised. `everyCodePoint` is a digest of the tokens
 * of each of the 1,112,064 one-code-point strings.
 */
import { createHash } from "node:crypto";
import { HAND_WRITTEN } from "./cases.ts";
import { runtimeTokens, scalarValues } from "./derive.ts";
import {
  rangeOf,
  sequenceOf,
  type TokeniserTable,
  type TokeniserVectors,
  type TokenVector,
  type VectorGroup,
} from "./table.ts";

const chr = (cp: number): string => String.fromCodePoint(cp);
const vector = (input: string): TokenVector => ({ input, tokens: runtimeTokens(input) });
const sameTokens = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((t, i) => t === b[i]);

/** The code points of a list of ranges. */
export const expand = (ranges: readonly string[], where: string): number[] =>
  ranges.flatMap((r, i) => {
    const [a, b] = rangeOf(r, `${where}[${i}]`);
    return Array.from({ length: b - a + 1 }, (_, k) => a + k);
  });

/** mulberry32: a seeded generator, so the random groups are the same on every regeneration. */
export const seeded = (seed: number): (() => number) => {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Pools of code points that stress each step of the algorithm, taken from the table. */
export const poolsOf = (table: TokeniserTable): Readonly<Record<string, readonly number[]>> => {
  const nonStarters = table.combiningClassRanks.flatMap((g, i) => expand(g, `combiningClassRanks[${i}]`));
  const pairs = Object.keys(table.compositions).map((k) => sequenceOf(k, "compositions"));
  const ignorable = new Set(expand(table.finalSigma.caseIgnorable, "caseIgnorable"));
  const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, k) => a + k);
  return {
    ascii: range(0x20, 0x7e),
    nonStarters,
    compositionFirsts: [...new Set(pairs.map((p) => p[0] as number))],
    compositionSeconds: [...new Set(pairs.map((p) => p[1] as number))],
    composites: Object.values(table.compositions).map((c) => sequenceOf(c, "compositions")[0] as number),
    decomposable: Object.keys(table.decompositions).map((k) => sequenceOf(k, "decompositions")[0] as number),
    jamo: [
      ...range(0x1100, 0x1112),
      ...range(0x1161, 0x1175),
      ...range(0x11a8, 0x11c2),
      ...range(0x3131, 0x318e),
      0xac00,
      0xac01,
      0xd7a3,
    ],
    sigmaContext: [
      0x03a3,
      0x03a3,
      0x0391,
      0x03c3,
      0x002e,
      0x0027,
      0x00ad,
      ...expand(table.finalSigma.cased, "cased").filter((c) => ignorable.has(c)),
    ],
    lowercased: Object.keys(table.lowercase).map((k) => sequenceOf(k, "lowercase")[0] as number),
    recent: [
      0x1e4d0, 0x1e4d1, 0x1e4eb, 0x16ea0, 0x16ebb, 0x10d50, 0x10d70, 0x16d67, 0x16d69, 0x1ccf0, 0x11db0, 0x10940,
      0x1e6c0,
    ],
    unassigned: [0x0378, 0x1fffd, 0xe0080, 0x10ffff, 0xfffe, 0x2fffe],
  };
};

/** A random string: 1 to 12 code points, each from a random pool or, 1 in 8, any scalar value. */
export const randomString = (random: () => number, pools: Readonly<Record<string, readonly number[]>>): string => {
  const names = Object.keys(pools);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const n = 1 + Math.floor(random() * 12);
  let s = "";
  for (let i = 0; i < n; i++) {
    if (random() < 0.125) {
      let cp = Math.floor(random() * 0x110000);
      if (cp >= 0xd800 && cp <= 0xdfff) cp += 0x800;
      s += chr(cp);
    } else s += chr(pick(pools[pick(names)] as readonly number[]));
  }
  return s;
};

/** One line per scalar value: its hex, then a tab before each token; UTF-8; SHA-256. */
export const EVERY_CODE_POINT_ABOUT =
  "For every code point from 0000 to 10FFFF except the surrogates D800..DFFF, in order, the line: the code point in the table's hex, then for each token of the one-code-point string a tab and the token, then a line feed (0A). sha256 is the SHA-256 of the UTF-8 bytes of all lines, in lowercase hex.";

export const codePointDigest = (
  tokensOf: (text: string) => readonly string[],
): { codePoints: number; sha256: string } => {
  const hash = createHash("sha256");
  let codePoints = 0;
  let chunk = "";
  for (const cp of scalarValues()) {
    chunk += `${cp.toString(16).toUpperCase().padStart(4, "0")}${tokensOf(chr(cp))
      .map((t) => `\t${t}`)
      .join("")}\n`;
    codePoints++;
    if (chunk.length > 1 << 16) {
      hash.update(chunk, "utf8");
      chunk = "";
    }
  }
  hash.update(chunk, "utf8");
  return { codePoints, sha256: hash.digest("hex") };
};

export const deriveVectors = (table: TokeniserTable): TokeniserVectors => {
  for (const v of HAND_WRITTEN) {
    const got = runtimeTokens(v.input);
    if (!sameTokens(got, v.tokens)) {
      throw new Error(
        `hand-written vector ${JSON.stringify(v.input)} (${v.note ?? ""}): the runtime gives ${JSON.stringify(got)}, the vector says ${JSON.stringify(v.tokens)}`,
      );
    }
  }
  const pools = poolsOf(table);
  const pairs = Object.keys(table.compositions).map((k) => sequenceOf(k, "compositions"));
  const bothSets = (pools["sigmaContext"] as readonly number[]).slice(7);
  const random = seeded(17);
  const marks = pools["nonStarters"] as readonly number[];
  const reordering = Array.from({ length: 300 }, () => {
    const base = (pools["compositionFirsts"] as readonly number[])[
      Math.floor(random() * (pools["compositionFirsts"] as readonly number[]).length)
    ] as number;
    const n = 2 + Math.floor(random() * 3);
    return (
      chr(base) + Array.from({ length: n }, () => chr(marks[Math.floor(random() * marks.length)] as number)).join("")
    );
  });
  const groups: VectorGroup[] = [
    { name: "hand-written", about: "Each case with a note saying which rule gives its tokens.", cases: HAND_WRITTEN },
    {
      name: "compositions",
      about: "Every pair of `compositions`, first then second code point, and Hangul L V, L V T and LV T samples.",
      cases: [
        ...pairs.map((p) => vector(String.fromCodePoint(...p))),
        ...[
          [0x1100, 0x1161],
          [0x1112, 0x1175, 0x11c2],
          [0xac00, 0x11a7 + 1],
          [0xac01, 0x11a8],
        ].map((p) => vector(String.fromCodePoint(...p))),
      ],
    },
    {
      name: "final sigma beside code points both cased and case-ignorable",
      about: "For each code point x in both finalSigma sets: a x Σ, space x Σ, a Σ x and a Σ x b.",
      cases: bothSets.flatMap((x) =>
        [`a${chr(x)}\u03a3`, ` ${chr(x)}\u03a3`, `a\u03a3${chr(x)}`, `a\u03a3${chr(x)}b`].map(vector),
      ),
    },
    {
      name: "reordering",
      about: "A composition's first code point followed by 2 to 4 non-starters in random order (seeded).",
      cases: reordering.map(vector),
    },
    {
      name: "random",
      about:
        "Random strings of 1 to 12 code points drawn from pools of non-starters, composition pairs, decomposable and lower-cased code points, jamo, sigma contexts, recently assigned and unassigned code points (seeded).",
      cases: Array.from({ length: 1000 }, () => vector(randomString(random, pools))),
    },
  ];
  return {
    description:
      "Vectors of the D-010 tokeniser over the Unicode 17.0 table tokeniser-17.0.json (D-045): each input string with its tokens.",
    unicodeVersion: table.unicodeVersion,
    groups,
    everyCodePoint: { about: EVERY_CODE_POINT_ABOUT, ...codePointDigest(runtimeTokens) },
  };
};
