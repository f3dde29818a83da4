/**
 * The reference reader of the D-045 tokeniser table: the D-010 tokens computed from the table
 * alone, following its `algorithm` step by step. It calls no String.prototype.normalize, no
 * toLowerCase and no \p{} property escape, so agreeing with the runtime's tokeniser on every code
 * point and on random strings (spec/unicode/tokeniser.test.ts) shows the table is complete: an
 * implementation in any language that reads it the same way computes the same tokens.
 */
import { codePointOf, rangeOf, sequenceOf, type TokeniserTable } from "./table.ts";

export interface TableTokeniser {
  /** NFKC of a code point sequence (steps 1 to 3). */
  readonly nfkc: (cps: readonly number[]) => number[];
  /** Default lower-casing with the final-sigma condition (step 4). */
  readonly lower: (cps: readonly number[]) => number[];
  /** The D-010 tokens of a string (steps 1 to 5). */
  readonly tokens: (text: string) => string[];
}

const SIZE = 0x110000;

/** A string of code points, in chunks: a spread of a long token would overflow the call stack. */
export const stringOf = (cps: readonly number[]): string => {
  let s = "";
  for (let i = 0; i < cps.length; i += 4096) s += String.fromCodePoint(...cps.slice(i, i + 4096));
  return s;
};
const TOKEN = 1;
const CASED = 2;
const IGNORABLE = 4;

export const compileTable = (table: TokeniserTable): TableTokeniser => {
  const flags = new Uint8Array(SIZE);
  const mark = (ranges: readonly string[], flag: number, where: string): void =>
    ranges.forEach((r, i) => {
      const [a, b] = rangeOf(r, `${where}[${i}]`);
      for (let cp = a; cp <= b; cp++) flags[cp] = (flags[cp] as number) | flag;
    });
  mark(table.tokenCharacters, TOKEN, "tokenCharacters");
  mark(table.finalSigma.cased, CASED, "finalSigma.cased");
  mark(table.finalSigma.caseIgnorable, IGNORABLE, "finalSigma.caseIgnorable");

  const rank = new Uint8Array(SIZE);
  table.combiningClassRanks.forEach((group, i) =>
    group.forEach((r, j) => {
      const [a, b] = rangeOf(r, `combiningClassRanks[${i}][${j}]`);
      for (let cp = a; cp <= b; cp++) rank[cp] = i + 1;
    }),
  );

  const mapOf = (entries: Readonly<Record<string, string>>, where: string): Map<number, number[]> =>
    new Map(Object.entries(entries).map(([k, v]) => [codePointOf(k, `${where} key`), sequenceOf(v, `${where}.${k}`)]));
  const decompositions = mapOf(table.decompositions, "decompositions");
  const lowercase = mapOf(table.lowercase, "lowercase");
  const compositions = new Map<number, number>();
  for (const [pair, c] of Object.entries(table.compositions)) {
    const [a, b, ...rest] = sequenceOf(pair, `compositions key ${pair}`);
    if (a === undefined || b === undefined || rest.length > 0)
      throw new Error(`compositions: key "${pair}" is not two code points`);
    compositions.set(a * SIZE + b, codePointOf(c, `compositions.${pair}`));
  }

  const h = table.hangul;
  const sBase = codePointOf(h.SBase, "hangul.SBase");
  const lBase = codePointOf(h.LBase, "hangul.LBase");
  const vBase = codePointOf(h.VBase, "hangul.VBase");
  const tBase = codePointOf(h.TBase, "hangul.TBase");
  const nCount = h.VCount * h.TCount;
  const sCount = h.LCount * nCount;

  const decompose = (cps: readonly number[]): number[] => {
    const out: number[] = [];
    for (const cp of cps) {
      if (cp >= sBase && cp < sBase + sCount) {
        const i = cp - sBase;
        out.push(lBase + Math.floor(i / nCount), vBase + Math.floor((i % nCount) / h.TCount));
        if (i % h.TCount !== 0) out.push(tBase + (i % h.TCount));
      } else {
        const d = decompositions.get(cp);
        if (d === undefined) out.push(cp);
        else out.push(...d);
      }
    }
    return out;
  };

  /** Stable insertion sort of each run of non-starters: runs are short. */
  const reorder = (cps: number[]): number[] => {
    for (let i = 1; i < cps.length; i++) {
      const c = cps[i] as number;
      const k = rank[c] as number;
      if (k === 0) continue;
      let j = i;
      while (j > 0 && (rank[cps[j - 1] as number] as number) > k) {
        cps[j] = cps[j - 1] as number;
        j--;
      }
      cps[j] = c;
    }
    return cps;
  };

  const compose = (a: number, b: number): number | undefined => {
    const c = compositions.get(a * SIZE + b);
    if (c !== undefined) return c;
    if (a >= lBase && a < lBase + h.LCount && b >= vBase && b < vBase + h.VCount) {
      return sBase + ((a - lBase) * h.VCount + (b - vBase)) * h.TCount;
    }
    if (a >= sBase && a < sBase + sCount && (a - sBase) % h.TCount === 0 && b > tBase && b < tBase + h.TCount)
      return a + (b - tBase);
    return undefined;
  };

  const composeAll = (cps: readonly number[]): number[] => {
    const out: number[] = [];
    let starter = -1;
    let lastRank = -1;
    for (const c of cps) {
      const k = rank[c] as number;
      const composite =
        starter >= 0 && (lastRank === 0 || lastRank < k) ? compose(out[starter] as number, c) : undefined;
      if (composite !== undefined) {
        out[starter] = composite;
        continue;
      }
      if (k === 0) starter = out.length;
      lastRank = k;
      out.push(c);
    }
    return out;
  };

  const nfkc = (cps: readonly number[]): number[] => composeAll(reorder(decompose(cps)));

  const capital = codePointOf(table.finalSigma.capital, "finalSigma.capital");
  const finalForm = codePointOf(table.finalSigma.final, "finalSigma.final");
  const isIgnorable = (cp: number): boolean => ((flags[cp] as number) & IGNORABLE) !== 0;
  const isCased = (cp: number): boolean => ((flags[cp] as number) & CASED) !== 0;
  const finalSigmaAt = (cps: readonly number[], i: number): boolean => {
    let j = i - 1;
    while (j >= 0 && isIgnorable(cps[j] as number)) j--;
    if (j < 0 || !isCased(cps[j] as number)) return false;
    let k = i + 1;
    while (k < cps.length && isIgnorable(cps[k] as number)) k++;
    return k === cps.length || !isCased(cps[k] as number);
  };

  const lower = (cps: readonly number[]): number[] => {
    const out: number[] = [];
    cps.forEach((cp, i) => {
      if (cp === capital && finalSigmaAt(cps, i)) out.push(finalForm);
      else {
        const l = lowercase.get(cp);
        if (l === undefined) out.push(cp);
        else out.push(...l);
      }
    });
    return out;
  };

  const tokens = (text: string): string[] => {
    const cps = lower(nfkc(Array.from(text, (c) => c.codePointAt(0) as number)));
    const out: string[] = [];
    let run: number[] = [];
    for (const cp of cps) {
      if (((flags[cp] as number) & TOKEN) !== 0) run.push(cp);
      else if (run.length > 0) {
        out.push(stringOf(run));
        run = [];
      }
    }
    if (run.length > 0) out.push(stringOf(run));
    return out;
  };

  return { nfkc, lower, tokens };
};
