/**
 * D-045 (spec review G-10): the D-010 tokeniser is defined over Unicode 17.0 data, and the kit's
 * runtime must supply exactly that version, else the model's (and the implementation's) leakage
 * verdicts silently change on recently assigned characters.
 */
import { describe, expect, it } from "vitest";
import { UNICODE_VERSION } from "../../spec/unicode.ts";
import { leaks, tokens } from "./leakage.ts";

// U+1E4D0 NAG MUNDARI LETTER O: assigned in Unicode 15.0, so a letter in 17.0 and Cn in 14.0.
const NAG_MUNDARI_O = String.fromCodePoint(0x1e4d0);
// U+1FFFD: unassigned (General_Category Cn) in Unicode 17.0, and not a noncharacter.
const UNASSIGNED = String.fromCodePoint(0x1fffd);

describe("D-045: the tokeniser's Unicode version", () => {
  it(`the runtime's Unicode data is the pinned version ${UNICODE_VERSION}`, () => {
    expect(
      process.versions.unicode,
      "Node's ICU implements another Unicode version: leakage verdicts (D-010) would differ from the spec's",
    ).toBe(UNICODE_VERSION);
  });

  it("a character assigned after Unicode 14.0 is a token under 17.0, so the verdict depends on the version", () => {
    const guidance = `alpha ${NAG_MUNDARI_O} beta gamma delta`;
    const trace = ["alpha beta gamma delta"];
    expect(tokens(guidance)).toEqual(["alpha", NAG_MUNDARI_O, "beta", "gamma", "delta"]);
    // Under 17.0 the letter breaks the run: no leak.
    expect(leaks(guidance, trace)).toBe(false);
    // Read with Unicode 14.0 data the character is unassigned, i.e. a separator: the same guidance leaks.
    expect(leaks(guidance.replace(NAG_MUNDARI_O, " "), trace)).toBe(true);
  });

  it("a code point unassigned in 17.0 separates tokens and survives NFKC and lower-casing unchanged", () => {
    expect(/\p{Cn}/u.test(UNASSIGNED)).toBe(true);
    expect(UNASSIGNED.normalize("NFKC").toLowerCase()).toBe(UNASSIGNED);
    expect(tokens(`alpha${UNASSIGNED}beta`)).toEqual(["alpha", "beta"]);
    expect(leaks(`alpha${UNASSIGNED}beta gamma delta`, ["alpha beta gamma delta"])).toBe(true);
  });
});
