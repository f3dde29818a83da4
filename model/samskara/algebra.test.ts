/** Arithmetic decisions of the store algebra: D-002 rounding, D-007 contested keys and tie-breaks,
 *  D-010 leakage tokenisation, D-011 consent, D-016 wildcard grants, D-023 momentum (AD-3, S-1, J-2). */
import { describe, it, expect } from "vitest";
import { aggregate, compareContributors, roundHalfEven } from "./aggregate.ts";
import { leaks, tokens } from "./leakage.ts";
import { consentAllows } from "./consent.ts";
import { converged, momentumGuidanceAware, momentumWeightOnly } from "./momentum.ts";
import { covers, grantable } from "../janma/capability.ts";
import { K } from "../fixture.ts";

const d = (id: string, confidence: number, disps: ReturnType<typeof K.disposition>[], valence = 1_000_000) =>
  K.distillate({
    id,
    agent: K.BASE,
    nonce: "n",
    instanceId: "i",
    bornFrom: K.BASE,
    valence,
    confidence,
    dispositions: disps,
  });

describe("AD-3 D-002 round half to even", () => {
  it("AD-3 rounds ties to even, including negative ties", () => {
    expect([5n, 15n, 25n, 35n, -5n, -15n, -25n, -35n].map((n) => roundHalfEven(n, 10n))).toEqual([
      0n,
      2n,
      2n,
      4n,
      0n,
      -2n,
      -2n,
      -4n,
    ]);
    expect(roundHalfEven(7n, 3n)).toBe(2n);
    expect(roundHalfEven(-7n, 3n)).toBe(-2n);
    expect(roundHalfEven(8n, 3n)).toBe(3n);
    expect(roundHalfEven(-8n, 3n)).toBe(-3n);
  });
  it("AD-3 rejects a non-positive denominator", () => {
    expect(() => roundHalfEven(1n, 0n)).toThrow(RangeError);
    expect(() => roundHalfEven(5n, -2n)).toThrow(RangeError); // a negative denominator is refused, not silently rounded
  });
  it("AD-3 weighted mean is exact: (3*1 + 0*1)/2 = 1.5 -> 2 micro; (1*1 + 0*1)/2 = 0.5 -> 0", () => {
    const s = aggregate([d("a", 1, [K.disposition("k", 3)]), d("b", 1, [K.disposition("k", 0)], 0)]);
    expect(s.entries[0]?.weight).toBe(2);
    const t = aggregate([d("a", 1, [K.disposition("k", 1)]), d("b", 1, [K.disposition("k", 0)], 0)]);
    expect(t.entries[0]?.weight).toBe(0);
    const u = aggregate([d("a", 1, [K.disposition("k", -3)], -1_000_000), d("b", 1, [K.disposition("k", 0)], 0)]);
    expect(u.entries[0]?.weight).toBe(-2);
  });
  it("AD-3 a key whose contributors all have confidence 0 (inadmissible by S-2) gets weight 0, not a division by zero", () => {
    expect(aggregate([d("a", 0, [K.disposition("k", 5)])]).entries[0]).toMatchObject({
      key: "k",
      weight: 0,
      contributors: ["a"],
    });
  });
  it("AD-3 confidence weights the mean", () => {
    const s = aggregate([
      d("a", 900_000, [K.disposition("k", 1_000_000)]),
      d("b", 100_000, [K.disposition("k", -1_000_000)], -1_000_000),
    ]);
    expect(s.entries[0]).toMatchObject({ weight: 800_000, contested: true, contributors: ["a", "b"] });
  });
});

describe("AD-3 D-007 contested keys and the highest-weighted contributor", () => {
  it("AD-3 contested iff signs disagree; zero weights do not contest", () => {
    expect(
      aggregate([d("a", 1, [K.disposition("k", 5)]), d("b", 1, [K.disposition("k", 0)], 0)]).entries[0]?.contested,
    ).toBe(false);
    expect(
      aggregate([d("a", 1, [K.disposition("k", 5)]), d("b", 1, [K.disposition("k", -1)], -1)]).entries[0]?.contested,
    ).toBe(true);
  });
  it("AD-3 tie-breaks: |w|*c, then |w|, then c, then smallest id", () => {
    const g = (id: string, c: number, w: number) =>
      d(id, c, [K.disposition("k", w, { guidance: `from ${id}` })], w < 0 ? -1_000_000 : 1_000_000);
    expect(aggregate([g("a", 10, 10), g("b", 20, 10)]).entries[0]?.guidance).toBe("from b"); // |w|c
    expect(aggregate([g("a", 20, 10), g("b", 10, -20)]).entries[0]?.guidance).toBe("from b"); // equal product, larger |w|
    expect(aggregate([g("b", 10, 10), g("a", 10, -10)]).entries[0]?.guidance).toBe("from a"); // full tie -> smallest id
  });
  it("AD-3 D-007 third tie-break: zero weights tie on |w|*c and |w|, so the higher confidence leads, in either order of arrival", () => {
    const z = (id: string, c: number) => d(id, c, [K.disposition("k", 0, { guidance: `from ${id}` })], 0);
    expect(aggregate([z("a", 5), z("b", 7)]).entries[0]?.guidance).toBe("from b");
    expect(aggregate([z("b", 7), z("a", 5)]).entries[0]?.guidance).toBe("from b");
    expect(aggregate([z("b", 5), z("a", 7)]).entries[0]?.guidance).toBe("from a");
    expect(aggregate([z("a", 7), z("b", 5)]).entries[0]?.guidance).toBe("from a");
  });
  it("AD-3 D-007 compareContributors is a strict total order: antisymmetric, and 0 only for the same distillate", () => {
    const c = (distillateId: string, weight: number, confidence: number) => ({
      distillateId,
      weight,
      confidence,
      guidance: distillateId,
      category: "operational" as const,
    });
    const pairs: [ReturnType<typeof c>, ReturnType<typeof c>][] = [
      [c("a", 10, 20), c("b", 10, 10)], // |w|*c
      [c("a", -20, 10), c("b", 10, 20)], // then |w|
      [c("a", 0, 7), c("b", 0, 5)], // then c
      [c("a", 10, 10), c("b", -10, 10)], // then the smallest id
    ];
    for (const [hi, lo] of pairs) {
      expect(Math.sign(compareContributors(hi, lo))).toBe(-1);
      expect(Math.sign(compareContributors(lo, hi))).toBe(1);
      expect(compareContributors(hi, hi)).toBe(0);
      expect(compareContributors(lo, lo)).toBe(0);
    }
  });
  it("AD-3 duplicates and order do not matter", () => {
    const xs = [
      d("a", 3, [K.disposition("k", 7)]),
      d("b", 5, [K.disposition("k", -2)], -2),
      d("c", 1, [K.disposition("j", 1)]),
    ];
    const base = JSON.stringify(aggregate(xs));
    expect(JSON.stringify(aggregate([...xs].reverse()))).toBe(base);
    expect(JSON.stringify(aggregate([...xs, ...xs]))).toBe(base);
  });
});

describe("S-1 D-010 leakage tokenisation", () => {
  const trace = ["User said: book the CHEAPEST fare, to Lisbon!"];
  it("S-1 NFKC, case and punctuation are normalised away", () => {
    expect(tokens("Ｂｏｏｋ the–cheapest,FARE")).toEqual(["book", "the", "cheapest", "fare"]);
    expect(leaks("BOOK... the cheapest   fare please", trace)).toBe(true);
    expect(leaks("ｂｏｏｋ the cheapest fare", trace)).toBe(true);
  });
  it("S-1 three tokens never leak; a run may span two entries (spec review G-51)", () => {
    expect(leaks("book the cheapest", trace)).toBe(false);
    expect(leaks("alpha beta gamma delta", ["alpha beta", "gamma delta"])).toBe(true);
    expect(leaks("alpha beta gamma delta", ["alpha", "beta", "", "gamma delta"])).toBe(true); // an empty entry adds no token
    expect(leaks("beta gamma delta", ["alpha beta", "gamma delta"])).toBe(false); // three tokens across the boundary
    expect(leaks("alpha beta gamma delta", ["gamma delta", "alpha beta"])).toBe(false); // the entries' order counts
    expect(leaks("prefer earlier departures when possible", trace)).toBe(false);
  });
  it("S-1 runs are compared token by token: tokens never run together across their boundaries", () => {
    expect(leaks("ab c d e", ["a bc d e"])).toBe(false); // same letters, different tokens
    expect(leaks("a bc d e", ["x a bc d e"])).toBe(true);
  });
  it("S-1 `_` separates tokens, so a snake_case identifier cannot carry trace text as one token (spec review G-50)", () => {
    expect(tokens("traveler_profile: PII_x7k2m9q4")).toEqual(["traveler", "profile", "pii", "x7k2m9q4"]);
    expect(leaks("remember traveler_profile PII_x7k2m9q4", ["traveler_profile: PII_x7k2m9q4"])).toBe(true);
    expect(leaks("prefer_early_departures_from_lisbon", ["prefer early departures from lisbon"])).toBe(true);
    expect(leaks("greet PII_x7k2m9q4 politely", ["traveler_profile: PII_x7k2m9q4"])).toBe(false); // one short identifier passes
  });
});

describe("S-1 D-011 consent resolution", () => {
  const grant = K.CONSENT;
  it("S-1 exact cell beats the default row; default row beats low; ceiling compares", () => {
    expect(consentAllows(grant, "health")).toBe(false); // cell: high
    expect(consentAllows(grant, "financial")).toBe(false); // default medium > ceiling low
    expect(consentAllows({ ...grant, persist_ceiling: "medium" }, "financial")).toBe(true);
    expect(consentAllows(grant, "operational")).toBe(true); // resolves to low
    // A training cell alone does not decide: storage still resolves to the default row (D-058).
    expect(
      consentAllows(
        { ...grant, cells: [{ category: "financial", dimension: "training", sensitivity: "low" }] },
        "financial",
      ),
    ).toBe(false);
    expect(
      consentAllows(
        {
          ...grant,
          cells: [
            { category: "financial", dimension: "training", sensitivity: "low" },
            { category: "financial", dimension: "storage", sensitivity: "low" },
          ],
        },
        "financial",
      ),
    ).toBe(true);
    // A cell of another dimension is not read at all.
    expect(
      consentAllows(
        { ...grant, cells: [{ category: "operational", dimension: "access", sensitivity: "high" }] },
        "operational",
      ),
    ).toBe(true);
  });
  it("S-1 persisting uses storage and training: either above the ceiling refuses (D-058)", () => {
    expect(
      consentAllows(
        { ...grant, cells: [{ category: "operational", dimension: "storage", sensitivity: "high" }] },
        "operational",
      ),
    ).toBe(false);
    expect(
      consentAllows(
        { ...grant, cells: [{ category: "operational", dimension: "storage", sensitivity: "medium" }] },
        "operational",
      ),
    ).toBe(false);
    expect(
      consentAllows(
        {
          ...grant,
          persist_ceiling: "medium",
          cells: [{ category: "operational", dimension: "storage", sensitivity: "medium" }],
        },
        "operational",
      ),
    ).toBe(true);
    expect(
      consentAllows(
        {
          ...grant,
          persist_ceiling: "medium",
          cells: [{ category: "operational", dimension: "training", sensitivity: "high" }],
        },
        "operational",
      ),
    ).toBe(false);
  });
});

describe("J-2 D-016 wildcard grants", () => {
  it("J-2 covers: exact, and p.* strictly below p", () => {
    expect(covers("fare.search", "fare.search")).toBe(true);
    expect(covers("fare.*", "fare.search")).toBe(true);
    expect(covers("fare.*", "fare.search.deep")).toBe(true);
    expect(covers("fare.*", "fare")).toBe(false);
    expect(covers("fare.*", "fares.search")).toBe(false);
  });
  it("J-1 grantable: narrower wildcards and exact capabilities from a wider wildcard", () => {
    expect(grantable("fare.search", ["fare.*"])).toBe(true);
    expect(grantable("fare.intl.*", ["fare.*"])).toBe(true);
    expect(grantable("fare.*", ["fare.*"])).toBe(true);
    expect(grantable("fare.*", ["fare.search"])).toBe(false);
    expect(grantable("fares.*", ["fare.*"])).toBe(false);
    expect(grantable("mail.send", ["fare.*"])).toBe(false);
  });
});

describe("S-4 D-023 karmic momentum", () => {
  const s1 = {
    entries: [
      { key: "a", guidance: "x", weight: 100, category: "operational" as const, contested: false, contributors: ["d"] },
    ],
  };
  const s2 = {
    entries: [
      { key: "a", guidance: "y", weight: 90, category: "operational" as const, contested: false, contributors: ["d"] },
      { key: "b", guidance: "z", weight: -5, category: "operational" as const, contested: false, contributors: ["e"] },
    ],
  };
  it("S-4 weight-only and guidance-aware distances", () => {
    expect(momentumWeightOnly(s1, s2)).toBe(15);
    expect(momentumGuidanceAware(s1, s2)).toBe(195);
  });
  it("S-4 guidance-aware distance counts full turnover only where the guidance was rewritten", () => {
    const s3 = {
      entries: [
        {
          key: "a",
          guidance: "x",
          weight: 90,
          category: "operational" as const,
          contested: false,
          contributors: ["d"],
        },
      ],
    };
    expect(momentumGuidanceAware(s1, s3)).toBe(10); // same guidance: |90 - 100|, as weight-only
    expect(momentumWeightOnly(s1, s3)).toBe(10);
    expect(momentumGuidanceAware(s3, s1)).toBe(10);
  });
  it("S-4 converged needs W batches all below the threshold", () => {
    expect(converged([50_000, 10, 9_999, 0])).toBe(true);
    expect(converged([10, 10_000, 0])).toBe(false);
    expect(converged([1, 1])).toBe(false);
    expect(converged([1, 1], 2, 2)).toBe(true);
  });
  it("S-4 converged: a window of one batch is the last κ alone; a window below one never converges", () => {
    expect(converged([50_000, 1], 1)).toBe(true);
    expect(converged([1, 50_000], 1)).toBe(false);
    expect(converged([1], 0)).toBe(false);
    expect(converged([], 0)).toBe(false);
    expect(converged([1, 1], -1)).toBe(false);
  });
});
