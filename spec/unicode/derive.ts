/**
 * Derives the D-045 tokeniser table from the runtime's own Unicode data: String.prototype.normalize
 * ("NFKC", "NFKD", "NFC", "NFD"), String.prototype.toLowerCase and RegExp property escapes. These are
 * exactly what D-010's tokeniser calls, so the table says what the kit computes; every derivation
 * checks the runtime's behaviour against the rule it writes down and throws where they differ, so a
 * table that would read differently from the runtime is never written.
 *
 * JavaScript exposes no Canonical_Combining_Class and no one-level decomposition mapping, so both
 * are observed: classes through canonical reordering (NFD swaps two adjacent non-starters iff the
 * first has the higher class), pairs through NFC of candidate splits.
 */
import { UNICODE_VERSION } from "../unicode.ts";
import { hexOf, type HangulConstants, type TokeniserTable } from "./table.ts";

export const MAX_CODE_POINT = 0x10ffff;
export const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

/** The D-010 tokens as the runtime computes them: NFKC, default lower-casing, runs of L|M|N. */
export const runtimeTokens = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

const chr = (cp: number): string => String.fromCodePoint(cp);
const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0) as number);
const sequence = (s: string): string => codePoints(s).map(hexOf).join(" ");

/** Every scalar value (surrogates are never characters of well-formed text). */
export function* scalarValues(): Generator<number> {
  for (let cp = 0; cp <= MAX_CODE_POINT; cp++) if (!isSurrogate(cp)) yield cp;
}

/** The ranges of the code points a predicate holds for, as "first..last" or "cp". */
export const rangesWhere = (holds: (cp: number) => boolean): string[] => {
  const out: string[] = [];
  let start = -1;
  for (let cp = 0; cp <= MAX_CODE_POINT + 1; cp++) {
    const inSet = cp <= MAX_CODE_POINT && !isSurrogate(cp) && holds(cp);
    if (inSet && start < 0) start = cp;
    if (!inSet && start >= 0) {
      out.push(start === cp - 1 ? hexOf(start) : `${hexOf(start)}..${hexOf(cp - 1)}`);
      start = -1;
    }
  }
  return out;
};

export const HANGUL: HangulConstants = {
  SBase: "AC00",
  LBase: "1100",
  VBase: "1161",
  TBase: "11A7",
  LCount: 19,
  VCount: 21,
  TCount: 28,
};
const S_BASE = 0xac00;
const S_COUNT = HANGUL.LCount * HANGUL.VCount * HANGUL.TCount;
const N_COUNT = HANGUL.VCount * HANGUL.TCount;
export const isHangulSyllable = (cp: number): boolean => cp >= S_BASE && cp < S_BASE + S_COUNT;

/** The algorithmic decomposition of a Hangul syllable (Unicode §3.12). */
export const hangulDecomposition = (s: number): number[] => {
  const i = s - S_BASE;
  const l = 0x1100 + Math.floor(i / N_COUNT);
  const v = 0x1161 + Math.floor((i % N_COUNT) / HANGUL.TCount);
  const t = i % HANGUL.TCount;
  return t === 0 ? [l, v] : [l, v, 0x11a7 + t];
};

const fail = (what: string): never => {
  throw new Error(`the runtime's Unicode data does not follow the table's rule: ${what}`);
};

/** NFKD of each code point that it changes; Hangul syllables are left to the algorithm (checked). */
export const deriveDecompositions = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const cp of scalarValues()) {
    const s = chr(cp);
    const d = s.normalize("NFKD");
    if (isHangulSyllable(cp)) {
      if (d !== String.fromCodePoint(...hangulDecomposition(cp)))
        fail(`U+${hexOf(cp)} NFKD is ${sequence(d)}, not the Hangul algorithm's`);
      continue;
    }
    if (d !== s) out[hexOf(cp)] = sequence(d);
  }
  return out;
};

/** Does NFD reorder the adjacent pair (a, b)? Iff a is a non-starter of higher class than b. */
const swaps = (a: number, b: number): boolean => (chr(a) + chr(b)).normalize("NFD") !== chr(a) + chr(b);
const compareClass = (a: number, b: number): number => (swaps(a, b) ? 1 : swaps(b, a) ? -1 : 0);

/**
 * The non-starters (code points of nonzero Canonical_Combining_Class that NFKD leaves alone; a code
 * point NFKD replaces never reaches reordering), grouped by class, lowest first. A non-starter
 * swaps with U+0301 (class 230) or U+0316 (class 220) in one order or the other; a starter never.
 */
export const deriveCombiningClassRanks = (): string[][] => {
  const nonStarters: number[] = [];
  for (const cp of scalarValues()) {
    const s = chr(cp);
    if (s.normalize("NFKD") !== s) continue;
    if ([0x0301, 0x0316].some((m) => swaps(cp, m) || swaps(m, cp))) nonStarters.push(cp);
  }
  const sorted = [...nonStarters].sort((a, b) => compareClass(a, b) || a - b);
  const groups: number[][] = [];
  for (const cp of sorted) {
    const last = groups[groups.length - 1];
    if (last !== undefined && compareClass(last[0] as number, cp) === 0) last.push(cp);
    else groups.push([cp]);
  }
  // A total preorder: every member of group i is below every member of group j > i, equal within.
  groups.forEach((g, i) => {
    for (const cp of g) {
      groups.forEach((h, j) => {
        if (compareClass(cp, h[0] as number) !== Math.sign(i - j))
          fail(`the class of U+${hexOf(cp)} is not ordered consistently`);
      });
    }
  });
  return groups.map((g) => rangesWithin(g));
};

/** Sorted code points as compact ranges. */
const rangesWithin = (cps: readonly number[]): string[] => {
  const sorted = [...cps].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    const a = sorted[i] as number;
    const b = sorted[j] as number;
    out.push(a === b ? hexOf(a) : `${hexOf(a)}..${hexOf(b)}`);
    i = j + 1;
  }
  return out;
};

/**
 * The canonical composition pairs: for each primary composite c (NFC keeps it, NFD splits it; not
 * a Hangul syllable), the pair (a, b) with NFD(c) = NFD(a) followed by b and NFC(a b) = c. That is
 * its one-level canonical decomposition mapping; exactly one split qualifies (checked). Splits that
 * NFC also maps to c only through reordering (U+014C U+0328 for U+01EC) are not pairs.
 */
export const deriveCompositions = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const cp of scalarValues()) {
    if (isHangulSyllable(cp)) continue;
    const s = chr(cp);
    if (s.normalize("NFC") !== s) continue;
    const d = codePoints(s.normalize("NFD"));
    if (d.length < 2) continue;
    const b = d[d.length - 1] as number;
    const a = codePoints(String.fromCodePoint(...d.slice(0, -1)).normalize("NFC"));
    const first = a[0];
    if (a.length !== 1 || first === undefined)
      fail(`U+${hexOf(cp)} has no one-level canonical pair ending in U+${hexOf(b)}`);
    const head = first as number;
    if (chr(head).normalize("NFD") !== String.fromCodePoint(...d.slice(0, -1)))
      fail(`U+${hexOf(cp)}: NFD(U+${hexOf(head)}) is not its decomposition's head`);
    if ((chr(head) + chr(b)).normalize("NFC") !== s)
      fail(`U+${hexOf(head)} U+${hexOf(b)} does not compose to U+${hexOf(cp)}`);
    out[`${hexOf(head)} ${hexOf(b)}`] = hexOf(cp);
  }
  return out;
};

/**
 * Lower-cases many pieces at once: the pieces joined, lower-cased in one call, and cut where the
 * pieces' own lower-case forms end. `sigmaAt` is each piece's offset of a U+03A3 whose form is
 * returned; every other unit must be what lower-casing `pre` and `post` alone gives, so a mapping
 * that depended on its neighbours would show here. Pieces end in a space, which is neither cased
 * nor case-ignorable, so no piece's final-sigma condition reads into the next.
 */
/** Each code point lower-cased alone, once: the expectation every context is compared with. */
let alone: string[] | undefined;
const lowerAlone = (cp: number): string => {
  if (alone === undefined) {
    alone = new Array<string>(MAX_CODE_POINT + 1);
    for (let c = 0; c <= MAX_CODE_POINT; c++) alone[c] = isSurrogate(c) ? "" : chr(c).toLowerCase();
  }
  return alone[cp] as string;
};
const lowerOf = (s: string): string => {
  let out = "";
  for (const c of s) out += lowerAlone(c.codePointAt(0) as number);
  return out;
};

const lowerPieces = (pieces: readonly (readonly [string, string])[], what: (i: number) => string): boolean[] => {
  const got = pieces
    .map(([pre, post]) => `${pre}\u03a3${post} `)
    .join("")
    .toLowerCase();
  const sigmaAt: number[] = [];
  let expected = "";
  for (const [pre, post] of pieces) {
    expected += lowerOf(pre);
    sigmaAt.push(expected.length);
    expected += `\u03c3${lowerOf(post)} `;
  }
  // Apart from the sigmas' forms, the whole must be what each code point gives alone.
  if (got.replaceAll("\u03c2", "\u03c3") !== expected.replaceAll("\u03c2", "\u03c3")) {
    const i = pieces.findIndex(
      ([pre, post]) =>
        `${pre}\u03a3${post} `.toLowerCase().replaceAll("\u03c2", "\u03c3") !==
        `${lowerOf(pre)}\u03c3${lowerOf(post)} `.replaceAll("\u03c2", "\u03c3"),
    );
    fail(`lower-casing ${what(Math.max(i, 0))} depends on its context`);
  }
  return sigmaAt.map((o) => got[o] === "\u03c2");
};

const CHUNK = 4096;
const chunksOf = <T>(xs: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));
const ALL = [...scalarValues()];

/**
 * Full lower-case mapping of every code point toLowerCase changes, U+03A3 read alone. Every other
 * code point lower-cases the same beside cased letters, a dotted capital I and marks: only the
 * sigma depends on its context (checked).
 */
export const deriveLowercase = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const cp of ALL) {
    const l = lowerAlone(cp);
    if (l !== chr(cp)) out[hexOf(cp)] = sequence(l);
  }
  for (const chunk of chunksOf(ALL.filter((cp) => cp !== 0x03a3))) {
    for (const [before, after] of [
      ["A", "A"],
      ["I", "."],
      ["\u0130", "\u0307"],
    ] as const) {
      const text = chunk.map((cp) => `${before}${chr(cp)}${after}`).join("");
      if (text.toLowerCase() !== lowerOf(text)) {
        const cp = chunk.find(
          (c) => `${before}${chr(c)}${after}`.toLowerCase() !== lowerOf(`${before}${chr(c)}${after}`),
        );
        fail(`lower-casing U+${hexOf(cp ?? chunk[0] ?? 0)} depends on its context`);
      }
    }
  }
  return out;
};

const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;

/**
 * The sets of the final-sigma condition, with the runtime's reading of it checked on every code
 * point x: before the sigma ("a x Σ", "␠ x Σ") and after it ("a Σ x", "a Σ x b"), x is skipped iff
 * Case_Ignorable (whether or not also Cased), counts as a cased letter iff Cased and not
 * Case_Ignorable, and ends the search otherwise.
 */
export const deriveFinalSigmaSets = (): { caseIgnorable: string[]; cased: string[] } => {
  for (const chunk of chunksOf(ALL.filter((cp) => cp !== 0x03a3))) {
    const xs = chunk.map(chr);
    const ignorable = xs.map((x) => CASE_IGNORABLE.test(x));
    const cased = xs.map((x, i) => CASED.test(x) && !(ignorable[i] as boolean));
    const contexts = {
      beforeA: {
        pieces: xs.map((x) => [` a${x}`, ""] as const),
        expected: (i: number) => (ignorable[i] as boolean) || (cased[i] as boolean),
      },
      beforeSpace: { pieces: xs.map((x) => [`  ${x}`, ""] as const), expected: (i: number) => cased[i] as boolean },
      afterEnd: { pieces: xs.map((x) => [" a", x] as const), expected: (i: number) => !(cased[i] as boolean) },
      afterB: {
        pieces: xs.map((x) => [" a", `${x}b`] as const),
        expected: (i: number) => !(ignorable[i] as boolean) && !(cased[i] as boolean),
      },
    };
    for (const [name, c] of Object.entries(contexts)) {
      lowerPieces(c.pieces, (i) => `U+${hexOf(chunk[i] as number)} beside U+03A3`).forEach((isFinal, i) => {
        if (isFinal !== c.expected(i)) fail(`final sigma beside U+${hexOf(chunk[i] as number)} (${name})`);
      });
    }
  }
  return {
    caseIgnorable: rangesWhere((cp) => CASE_IGNORABLE.test(chr(cp))),
    cased: rangesWhere((cp) => CASED.test(chr(cp))),
  };
};

/** The Hangul composition the table leaves to the algorithm: checked on every L V and LV T pair. */
export const checkHangulComposition = (): void => {
  for (let l = 0; l < HANGUL.LCount; l++) {
    for (let v = 0; v < HANGUL.VCount; v++) {
      const lv = S_BASE + (l * HANGUL.VCount + v) * HANGUL.TCount;
      if ((chr(0x1100 + l) + chr(0x1161 + v)).normalize("NFC") !== chr(lv)) fail(`L+V ${l},${v}`);
      for (let t = 1; t < HANGUL.TCount; t++) {
        if ((chr(lv) + chr(0x11a7 + t)).normalize("NFC") !== chr(lv + t)) fail(`LV+T U+${hexOf(lv)},${t}`);
      }
    }
  }
};

const TOKEN_CHARACTER = /^[\p{L}\p{M}\p{N}]$/u;

export const ALGORITHM: readonly string[] = [
  "Input: a string, read as its sequence of Unicode code points. Every step below maps a code point sequence to a code point sequence. A code point the table does not name (every code point unassigned in Unicode 17.0 among them) is a starter with no decomposition, composition or lower-case mapping, and is not a token character.",
  "1 (NFKC, decompose). Replace every code point by its `decompositions` entry, applied once (entries are full, recursive decompositions). A Hangul syllable s with SBase <= s < SBase + LCount * VCount * TCount is replaced by L = LBase + (s - SBase) div (VCount * TCount), V = VBase + ((s - SBase) mod (VCount * TCount)) div TCount and, if T = (s - SBase) mod TCount is not 0, by a third code point TBase + T. Other code points stay.",
  "2 (NFKC, reorder). The rank of a code point is i + 1 when it is in group i (counted from 0) of `combiningClassRanks`, else 0: a starter. Sort every maximal run of code points of nonzero rank by rank, keeping the order of equal ranks (a stable sort). Ranks order non-starters as their Canonical_Combining_Class values do; the algorithm only compares them.",
  '3 (NFKC, compose). Start with an empty output, no last starter and no last rank. For each code point c of the sequence, with rank k: if there is a last starter s and (the last rank is 0 or the last rank is less than k) and compose(s, c) exists, replace s in the output by compose(s, c) and keep the last rank; otherwise append c, make it the last starter if k is 0, and set the last rank to k. compose(a, b) is the `compositions` entry for "a b"; else, for Hangul, LBase <= a < LBase + LCount and VBase <= b < VBase + VCount give SBase + ((a - LBase) * VCount + (b - VBase)) * TCount, and a Hangul syllable a with (a - SBase) mod TCount = 0 and TBase < b < TBase + TCount gives a + (b - TBase); else it does not exist.',
  "4 (lower-case). Replace every code point by its `lowercase` entry; code points without one stay. The one exception is finalSigma.capital when the final-sigma condition holds at it, which becomes finalSigma.final instead. The condition is read in the sequence of step 3: going backwards from the sigma and skipping code points in finalSigma.caseIgnorable, a code point is reached and it is in finalSigma.cased; and going forwards and skipping code points in finalSigma.caseIgnorable, the end is reached or the code point reached is not in finalSigma.cased. A code point in both sets is skipped, never counted as cased (as ICU's and CPython's lower-casing read Unicode's Final_Sigma condition).",
  "5 (tokens). The tokens are the maximal runs of consecutive code points of the sequence of step 4 that lie in `tokenCharacters`, in order of occurrence; all other code points separate tokens and belong to none.",
];

/** The whole table, derived and checked. Throws on a runtime with other Unicode data. */
export const deriveTable = (): TokeniserTable => {
  if (process.versions.unicode !== UNICODE_VERSION) {
    throw new Error(
      `the runtime implements Unicode ${process.versions.unicode ?? "(unknown)"}, D-045 pins ${UNICODE_VERSION}: the table would describe other data`,
    );
  }
  checkHangulComposition();
  return {
    description:
      "The character data of the D-010 leakage tokeniser (S-1) at Unicode 17.0, normative by D-045: an implementation that follows `algorithm` with these members computes the tokens of every string exactly as the kit does, with no Unicode library of its own. Vectors: vectors.json beside this file.",
    unicodeVersion: UNICODE_VERSION,
    source:
      "Derived from an ECMAScript runtime's String.prototype.normalize, String.prototype.toLowerCase and RegExp property escapes (ICU implementing Unicode 17.0), which are what the kit's tokeniser calls; the derivation checks each rule against the runtime.",
    algorithm: ALGORITHM,
    tokenCharacters: rangesWhere((cp) => TOKEN_CHARACTER.test(chr(cp))),
    decompositions: deriveDecompositions(),
    combiningClassRanks: deriveCombiningClassRanks(),
    compositions: deriveCompositions(),
    hangul: HANGUL,
    lowercase: deriveLowercase(),
    finalSigma: { capital: "03A3", final: "03C2", ...deriveFinalSigmaSets() },
  };
};
