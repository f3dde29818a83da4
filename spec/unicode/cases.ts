/**
 * The hand-written tokeniser vectors: each input with the tokens the D-010 rules give it, worked
 * out from the rules and the Unicode Character Database, not read off the runtime. The generator
 * checks every one against the runtime and refuses to write vectors where they differ.
 */
import type { TokenVector } from "./table.ts";

export const HAND_WRITTEN: readonly TokenVector[] = [
  { input: "", tokens: [], note: "no text, no tokens" },
  { input: "Hello, World!", tokens: ["hello", "world"], note: "case folds to lower; punctuation and spaces separate" },
  {
    input: "traveler_profile: PII_x7k2m9q4",
    tokens: ["traveler", "profile", "pii", "x7k2m9q4"],
    note: "the underscore separates (spec review G-50); letters and digits join",
  },
  {
    input: "one\ttwo\u00a0three\u2029four\u3000five",
    tokens: ["one", "two", "three", "four", "five"],
    note: "tab, no-break space, paragraph separator and ideographic space separate",
  },
  { input: "e\u0301", tokens: ["\u00e9"], note: "a combining sequence composes: e + COMBINING ACUTE is U+00E9" },
  { input: "E\u0301", tokens: ["\u00e9"], note: "composed to U+00C9 first, then lower-cased to U+00E9" },
  {
    input: "a\u0302\u0323",
    tokens: ["\u1ead"],
    note: "marks reorder by combining class (dot below 220 before circumflex 230), then compose to U+1EAD",
  },
  { input: "\u0301", tokens: ["\u0301"], note: "a lone combining mark is a token (General_Category M)" },
  {
    input: "a=\u0338b",
    tokens: ["a", "b"],
    note: "= and COMBINING LONG SOLIDUS OVERLAY compose to U+2260 NOT EQUAL TO, a symbol: the mark, a token character alone, vanishes into a separator",
  },
  {
    input: "\u0915\u093c \u0958",
    tokens: ["\u0915\u093c", "\u0915\u093c"],
    note: "U+0958 is excluded from composition: NFKC decomposes it and never composes KA + NUKTA",
  },
  { input: "\ufb01re", tokens: ["fire"], note: "compatibility ligature U+FB01 fi" },
  { input: "\uff21\uff22\uff23", tokens: ["abc"], note: "fullwidth letters" },
  { input: "\u2460\u2461", tokens: ["12"], note: "circled digits become one token of digits" },
  { input: "\u00bd", tokens: ["1", "2"], note: "VULGAR FRACTION ONE HALF is 1 U+2044 2, and FRACTION SLASH separates" },
  { input: "\u2474", tokens: ["1"], note: "PARENTHESIZED DIGIT ONE is (1)" },
  { input: "\u216b", tokens: ["xii"], note: "ROMAN NUMERAL TWELVE is XII, then lower-cased" },
  { input: "x\u00b2", tokens: ["x2"], note: "superscript two is 2" },
  {
    input: "\u212a \u2126 \u212b",
    tokens: ["k", "\u03c9", "\u00e5"],
    note: "KELVIN, OHM and ANGSTROM SIGN are canonical singletons for K, Omega and A with ring",
  },
  {
    input: "\ufdfa",
    tokens: ["\u0635\u0644\u0649", "\u0627\u0644\u0644\u0647", "\u0639\u0644\u064a\u0647", "\u0648\u0633\u0644\u0645"],
    note: "one character, four tokens: U+FDFA decomposes to four words with spaces",
  },
  {
    input: "\u1100\u1161\u11a8",
    tokens: ["\uac01"],
    note: "conjoining jamo L V T compose algorithmically to the syllable U+AC01",
  },
  {
    input: "\uac00\u11a8",
    tokens: ["\uac01"],
    note: "an LV syllable and a trailing consonant compose to the LVT syllable",
  },
  {
    input: "\u314e\u314f",
    tokens: ["\ud558"],
    note: "compatibility jamo decompose to conjoining jamo, which then compose to U+D558",
  },
  { input: "\ud55c\uad6d\uc5b4", tokens: ["\ud55c\uad6d\uc5b4"], note: "Hangul syllables stay composed" },
  { input: "\u03a3", tokens: ["\u03c3"], note: "a sigma with nothing cased before it is not final" },
  { input: "\u039f\u0394\u039f\u03a3", tokens: ["\u03bf\u03b4\u03bf\u03c2"], note: "final sigma at the end of a word" },
  {
    input: "\u03a3\u0391\u03a3.",
    tokens: ["\u03c3\u03b1\u03c2"],
    note: "initial sigma is medial form; the full stop after the final one is case-ignorable and skipped",
  },
  {
    input: "\u0391\u03a3.\u0392",
    tokens: ["\u03b1\u03c3", "\u03b2"],
    note: "the condition looks across a separator: skipping the case-ignorable full stop it finds a cased letter, so the sigma is not final",
  },
  {
    input: "\u0391\u03a3_\u0392\u0391\u03a3",
    tokens: ["\u03b1\u03c2", "\u03b2\u03b1\u03c2"],
    note: "the underscore is neither cased nor case-ignorable: it ends the search",
  },
  { input: "\u0391\u03a3\u0301", tokens: ["\u03b1\u03c2\u0301"], note: "a combining mark after the sigma is skipped" },
  {
    input: " \u0345\u03a3",
    tokens: ["\u0345\u03c3"],
    note: "U+0345 is both Cased and Case_Ignorable: it is skipped, so nothing cased precedes the sigma",
  },
  {
    input: "a\u03a3\u0345",
    tokens: ["a\u03c2\u0345"],
    note: "U+0345 after the sigma is skipped too, reaching the end: final",
  },
  {
    input: "\u0130stanbul",
    tokens: ["i\u0307stanbul"],
    note: "U+0130 lower-cases to two code points, i and COMBINING DOT ABOVE (no Turkish tailoring)",
  },
  { input: "\u1e9e", tokens: ["\u00df"], note: "LATIN CAPITAL LETTER SHARP S" },
  { input: "\u0663\u0664", tokens: ["\u0663\u0664"], note: "Arabic-Indic digits are numbers" },
  { input: "abc123", tokens: ["abc123"], note: "letters and digits in one run" },
  {
    input: "alpha \u{1e4d0} beta",
    tokens: ["alpha", "\u{1e4d0}", "beta"],
    note: "U+1E4D0 NAG MUNDARI LETTER O, assigned in Unicode 15.0: a letter in 17.0, unassigned in 14.0",
  },
  {
    input: "\u{16ea0}",
    tokens: ["\u{16ebb}"],
    note: "U+16EA0 BERIA ERFE CAPITAL LETTER ARKAB, assigned in Unicode 17.0, lower-cases to U+16EBB",
  },
  { input: "\u{10d50}", tokens: ["\u{10d70}"], note: "U+10D50 GARAY CAPITAL LETTER A, assigned in Unicode 16.0" },
  {
    input: "\u{16d69}\u{16d67}",
    tokens: ["\u{16d6a}"],
    note: "a canonical composition of Kirat Rai, assigned in Unicode 16.0",
  },
  { input: "\u{1ccf0}", tokens: ["0"], note: "U+1CCF0 OUTLINED DIGIT ZERO, assigned in Unicode 16.0, is 0 under NFKC" },
  {
    input: "alpha\u{1fffd}beta\u0378gamma\u{10ffff}delta",
    tokens: ["alpha", "beta", "gamma", "delta"],
    note: "code points unassigned in Unicode 17.0 (and a noncharacter) separate",
  },
  { input: "a\ue000b\u{f0000}c", tokens: ["a", "b", "c"], note: "private use characters separate" },
  {
    input: "a\u200db\u00adc\u200bd",
    tokens: ["a", "b", "c", "d"],
    note: "format characters (ZWJ, soft hyphen) and ZERO WIDTH SPACE separate",
  },
  { input: "a\u{1f600}b", tokens: ["a", "b"], note: "emoji are symbols" },
];
