/**
 * The shape of the D-045 tokeniser table (`spec/unicode/tokeniser-17.0.json`) and a checked reader
 * of its text. The table is normative data: with it, an implementation in any language computes
 * the D-010 tokens without a Unicode library of its own (its `algorithm` member says how).
 *
 * Code points are written as in the Unicode Character Database: uppercase hexadecimal, at least
 * four digits ("00C0", "1E4D0"); a sequence is code points separated by one space ("0069 0307");
 * a range is "first..last" or a single code point.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const TABLE_PATH = fileURLToPath(new URL("./tokeniser-17.0.json", import.meta.url));
export const VECTORS_PATH = fileURLToPath(new URL("./vectors.json", import.meta.url));

/** The constants of the algorithmic Hangul decomposition and composition (Unicode §3.12). */
export interface HangulConstants {
  readonly SBase: string;
  readonly LBase: string;
  readonly VBase: string;
  readonly TBase: string;
  readonly LCount: number;
  readonly VCount: number;
  readonly TCount: number;
}

export interface FinalSigma {
  /** U+03A3 GREEK CAPITAL LETTER SIGMA: its lower-case form depends on its neighbours. */
  readonly capital: string;
  /** U+03C2, written instead of the `lowercase` entry (U+03C3) when the condition holds. */
  readonly final: string;
  readonly caseIgnorable: readonly string[];
  readonly cased: readonly string[];
}

export interface TokeniserTable {
  readonly description: string;
  readonly unicodeVersion: string;
  readonly source: string;
  /** The normative steps, in order, in prose. */
  readonly algorithm: readonly string[];
  /** Ranges of the code points with General_Category L, M or N: the token characters. */
  readonly tokenCharacters: readonly string[];
  /** Full compatibility decomposition (NFKD of the one code point), Hangul syllables excepted. */
  readonly decompositions: Readonly<Record<string, string>>;
  /** Non-starters grouped by combining class, lowest first: group i (0-based) has rank i + 1. */
  readonly combiningClassRanks: readonly (readonly string[])[];
  /** "first second" -> the primary composite they compose to, Hangul excepted. */
  readonly compositions: Readonly<Record<string, string>>;
  readonly hangul: HangulConstants;
  /** Full default lower-case mapping of every code point it changes. */
  readonly lowercase: Readonly<Record<string, string>>;
  readonly finalSigma: FinalSigma;
}

/** One vector: an input string and its tokens. */
export interface TokenVector {
  readonly input: string;
  readonly tokens: readonly string[];
  readonly note?: string;
}

export interface VectorGroup {
  readonly name: string;
  readonly about: string;
  readonly cases: readonly TokenVector[];
}

/** The digest of the tokens of every one-code-point string, so a reader can check all of them. */
export interface CodePointDigest {
  readonly about: string;
  readonly codePoints: number;
  readonly sha256: string;
}

export interface TokeniserVectors {
  readonly description: string;
  readonly unicodeVersion: string;
  readonly groups: readonly VectorGroup[];
  readonly everyCodePoint: CodePointDigest;
}

const HEX = /^(?:[0-9A-F]{4,5}|10[0-9A-F]{4})$/;

/** A code point written in hex, checked: `where` names the member, for the error. */
export const codePointOf = (hex: string, where: string): number => {
  if (!HEX.test(hex)) throw new Error(`${where}: "${hex}" is not a code point in uppercase hex of 4 to 6 digits`);
  const cp = Number.parseInt(hex, 16);
  if (cp > 0x10ffff) throw new Error(`${where}: ${hex} is beyond U+10FFFF`);
  return cp;
};

export const sequenceOf = (text: string, where: string): number[] => {
  if (text === "") throw new Error(`${where}: an empty sequence`);
  return text.split(" ").map((h, i) => codePointOf(h, `${where}[${i}]`));
};

export const rangeOf = (text: string, where: string): readonly [number, number] => {
  const [a, b, ...rest] = text.split("..");
  if (a === undefined || rest.length > 0) throw new Error(`${where}: "${text}" is not a range "first..last"`);
  const first = codePointOf(a, where);
  const last = b === undefined ? first : codePointOf(b, where);
  if (last < first) throw new Error(`${where}: range ${text} ends before it starts`);
  return [first, last];
};

/** Hex as the table writes it. */
export const hexOf = (cp: number): string => cp.toString(16).toUpperCase().padStart(4, "0");

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const stringList = (v: unknown, where: string): string[] => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new Error(`${where}: not an array of strings`);
  return v as string[];
};

const stringMap = (v: unknown, where: string): Record<string, string> => {
  if (!isRecord(v) || !Object.values(v).every((x) => typeof x === "string"))
    throw new Error(`${where}: not an object of strings`);
  return v as Record<string, string>;
};

/** Parses the table's text and checks every member's shape; errors name the member. */
export const parseTable = (text: string, where = "tokeniser table"): TokeniserTable => {
  const v: unknown = JSON.parse(text);
  if (!isRecord(v)) throw new Error(`${where}: not a JSON object`);
  for (const k of ["description", "unicodeVersion", "source"]) {
    if (typeof v[k] !== "string") throw new Error(`${where}.${k}: not a string`);
  }
  stringList(v["algorithm"], `${where}.algorithm`);
  stringList(v["tokenCharacters"], `${where}.tokenCharacters`).forEach((r, i) =>
    rangeOf(r, `${where}.tokenCharacters[${i}]`),
  );
  for (const k of ["decompositions", "compositions", "lowercase"]) stringMap(v[k], `${where}.${k}`);
  const ranks = v["combiningClassRanks"];
  if (!Array.isArray(ranks)) throw new Error(`${where}.combiningClassRanks: not an array`);
  ranks.forEach((g, i) => stringList(g, `${where}.combiningClassRanks[${i}]`));
  const h = v["hangul"];
  if (!isRecord(h)) throw new Error(`${where}.hangul: not an object`);
  for (const k of ["SBase", "LBase", "VBase", "TBase"]) codePointOf(String(h[k]), `${where}.hangul.${k}`);
  for (const k of ["LCount", "VCount", "TCount"]) {
    if (!Number.isSafeInteger(h[k]) || (h[k] as number) <= 0)
      throw new Error(`${where}.hangul.${k}: not a positive integer`);
  }
  const s = v["finalSigma"];
  if (!isRecord(s)) throw new Error(`${where}.finalSigma: not an object`);
  codePointOf(String(s["capital"]), `${where}.finalSigma.capital`);
  codePointOf(String(s["final"]), `${where}.finalSigma.final`);
  stringList(s["caseIgnorable"], `${where}.finalSigma.caseIgnorable`);
  stringList(s["cased"], `${where}.finalSigma.cased`);
  return v as unknown as TokeniserTable;
};

export const readTable = (path: string = TABLE_PATH): TokeniserTable => parseTable(readFileSync(path, "utf8"), path);

export const readVectors = (path: string = VECTORS_PATH): TokeniserVectors => {
  const v: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isRecord(v) || !Array.isArray(v["groups"]) || !isRecord(v["everyCodePoint"])) {
    throw new Error(`${path}: not a vectors file (groups and everyCodePoint expected)`);
  }
  return v as unknown as TokeniserVectors;
};
