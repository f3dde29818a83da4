/** The verdict rules (D-036) and the exit code, case by case, including their boundaries. */
import { describe, expect, it } from "vitest";
import type { InvariantId } from "../../spec/catalog.ts";
import type { CounterexampleRef, StageName, Verdict } from "../../spec/certificate.ts";
import type { Finding } from "../stages/types.ts";
import { EMPTY_BASELINE, parseBaseline } from "./baseline.ts";
import { decide, judge, resultText, type StageSummary } from "./decide.ts";
import { WitnessBook } from "./witnesses.ts";
import { UsageError } from "../driver/command-line.ts";

const ALL = ["janma", "samskara", "advaita", "ripa"] as const;
const ref = (f: Finding): CounterexampleRef => ({
  invariant: f.invariant,
  stage: f.stage,
  check: f.check,
  summary: f.summary,
  steps: 0,
  trace_file: null,
  replay: null,
});
const witnessed = (): WitnessBook => {
  const w = new WitnessBook();
  for (const id of [
    "J-1",
    "J-2",
    "J-3",
    "J-4",
    "S-1",
    "S-2",
    "S-3",
    "S-4",
    "S-5",
    "AD-1",
    "AD-2",
    "AD-3",
    "AD-4",
    "I1",
    "I2",
    "I3",
    "I4",
    "I5",
    "I6",
  ] as const)
    w.add(id, "accepted");
  return w;
};
const stage = (name: StageName, verdict: Verdict, findings: Finding[] = []): StageSummary => ({
  stage: name,
  verdict,
  reason: `${name} ${verdict}`,
  findings,
});
const finding = (invariant: InvariantId | null, st: StageName = "differential"): Finding => ({
  invariant,
  stage: st,
  check: `${st}/x`,
  summary: `broke ${invariant ?? "wire"}`,
  trace: null,
});
const verdictOf = (d: ReturnType<typeof decide>, id: InvariantId): Verdict | undefined =>
  d.invariants.find((i) => i.invariant === id)?.verdict;

const base = {
  families: ALL,
  only: [],
  witnesses: witnessed(),
  baseline: EMPTY_BASELINE,
  harnessFaults: [],
  ref,
} as const;

describe("decide (D-036)", () => {
  it("all stages pass and every invariant witnessed: certified, exit 0", () => {
    const d = decide({ ...base, stages: [stage("golden", "pass"), stage("differential", "pass")] });
    expect(d.invariants.every((i) => i.verdict === "pass")).toBe(true);
    expect([d.result, d.exit_code]).toEqual(["certified", 0]);
  });

  it("a finding fails its invariant only: exit 1", () => {
    const d = decide({ ...base, stages: [stage("differential", "fail", [finding("S-2")])] });
    expect(verdictOf(d, "S-2")).toBe("fail");
    expect(verdictOf(d, "S-1")).toBe("pass");
    expect(d.invariants.find((i) => i.invariant === "S-2")?.counterexamples).toHaveLength(1);
    expect([d.result, d.exit_code]).toEqual(["violations", 1]);
  });

  it("vacuity guard: one witness passes, zero witnesses is inconclusive (exit 2)", () => {
    const w = witnessed();
    const none = new WitnessBook();
    none.add("J-1", "rejected");
    expect(verdictOf(decide({ ...base, witnesses: w, stages: [stage("golden", "pass")] }), "I6")).toBe("pass");
    const d = decide({ ...base, witnesses: none, stages: [stage("golden", "pass")] });
    expect(verdictOf(d, "J-1")).toBe("pass");
    expect(verdictOf(d, "I6")).toBe("inconclusive");
    expect(d.invariants.find((i) => i.invariant === "I6")?.reason).toMatch(/no witness/);
    expect(d.exit_code).toBe(2);
  });

  it("a family outside the profile is not applicable, never pass, even with witnesses", () => {
    const d = decide({ ...base, families: ["janma", "advaita"], stages: [stage("golden", "pass")] });
    expect(verdictOf(d, "S-5")).toBe("not-applicable");
    expect(verdictOf(d, "I1")).toBe("not-applicable");
    expect(verdictOf(d, "J-1")).toBe("pass");
    expect(d.exit_code).toBe(0);
  });

  it("D-049: what the profile cannot witness is not applicable with what it needs, so advaita alone is certified on AD-1 without witnesses for the rest", () => {
    const w = new WitnessBook();
    w.add("AD-1", "accepted");
    const d = decide({
      ...base,
      families: ["advaita"],
      witnesses: w,
      stages: [stage("golden", "pass"), stage("differential", "pass")],
    });
    expect(verdictOf(d, "AD-1")).toBe("pass");
    for (const id of ["AD-2", "AD-4"] as const) {
      expect(verdictOf(d, id), id).toBe("not-applicable");
      expect(d.invariants.find((i) => i.invariant === id)?.reason, id).toMatch(/^needs janma: /);
    }
    expect(d.invariants.find((i) => i.invariant === "AD-3")?.reason).toMatch(/^needs samskara: /);
    expect([d.result, d.exit_code]).toEqual(["certified", 0]);
    // The boundary: with janma declared AD-2 can be witnessed, and without a witness it is inconclusive again.
    const d2 = decide({ ...base, families: ["janma", "advaita"], witnesses: w, stages: [stage("golden", "pass")] });
    expect(verdictOf(d2, "AD-2")).toBe("inconclusive");
    expect(d2.exit_code).toBe(2);
  });

  it("a finding fails its invariant even outside the profile: janma.distil checks S-1, so a janma+advaita implementation that skips it is no certified one", () => {
    const d = decide({
      ...base,
      families: ["janma", "advaita"],
      stages: [stage("differential", "fail", [finding("S-1")])],
    });
    expect(verdictOf(d, "S-1")).toBe("fail");
    expect(verdictOf(d, "S-2")).toBe("not-applicable");
    expect([d.result, d.exit_code]).toEqual(["violations", 1]);
    // --only still decides first: a finding on an invariant left out changes nothing.
    const only = decide({
      ...base,
      families: ["janma", "advaita"],
      only: ["J-1"],
      stages: [stage("differential", "fail", [finding("S-1")])],
    });
    expect(verdictOf(only, "S-1")).toBe("not-selected");
    expect(only.exit_code).toBe(0);
  });

  it("an inconclusive stage leaves exactly the invariants it concerns undecided", () => {
    const d = decide({ ...base, stages: [stage("golden", "pass"), stage("algebra", "inconclusive")] });
    expect(verdictOf(d, "AD-3")).toBe("inconclusive");
    expect(verdictOf(d, "S-4")).toBe("inconclusive");
    expect(verdictOf(d, "J-1")).toBe("pass");
    // The wire stage concerns no invariant, but an inconclusive stage still keeps the run from "certified".
    const w = decide({ ...base, stages: [stage("wire", "inconclusive")] });
    expect(w.invariants.every((i) => i.verdict === "pass")).toBe(true);
    expect(w.exit_code).toBe(2);
  });

  it("no handshake: everything inconclusive; harness faults never certify", () => {
    expect(decide({ ...base, families: null, stages: [] }).invariants.every((i) => i.verdict === "inconclusive")).toBe(
      true,
    );
    expect(decide({ ...base, stages: [stage("golden", "pass")], harnessFaults: ["boom"] }).exit_code).toBe(2);
  });

  it("nothing applicable certifies nothing: an empty profile is inconclusive (exit 2), not certified", () => {
    const d = decide({ ...base, families: [], stages: [stage("handshake", "pass"), stage("wire", "pass")] });
    expect(d.invariants.every((i) => i.verdict === "not-applicable")).toBe(true);
    expect([d.result, d.exit_code]).toEqual(["inconclusive", 2]);
    // One passing invariant is enough for the rest to be honestly not applicable.
    expect(decide({ ...base, families: ["advaita"], stages: [stage("golden", "pass")] }).exit_code).toBe(0);
  });

  it("--only: the others are not-selected, never not-applicable, and nothing about them fails or stalls the run", () => {
    // Rule (D-036): not-selected is decided first; a finding, an inconclusive stage concerning only them, or no witness changes nothing.
    const d = decide({ ...base, only: ["AD-3"], stages: [stage("differential", "fail", [finding("S-2")])] });
    expect(verdictOf(d, "AD-3")).toBe("pass");
    expect(verdictOf(d, "S-2")).toBe("not-selected");
    expect(d.invariants.filter((i) => i.verdict === "not-selected")).toHaveLength(18);
    expect(d.invariants.some((i) => i.verdict === "not-applicable")).toBe(false);
    expect(d.invariants.find((i) => i.invariant === "S-2")?.reason).toMatch(/--only AD-3/);
    expect([d.result, d.exit_code]).toEqual(["certified", 0]);
    const unwitnessed = new WitnessBook();
    unwitnessed.add("AD-3", "algebra");
    expect(
      decide({ ...base, only: ["AD-3"], witnesses: unwitnessed, stages: [stage("algebra", "pass")] }).exit_code,
    ).toBe(0);
    // It breaks without --only: the same finding fails S-2 and the run.
    const all = decide({ ...base, stages: [stage("differential", "fail", [finding("S-2")])] });
    expect(verdictOf(all, "S-2")).toBe("fail");
    expect(all.exit_code).toBe(1);
    // A selected invariant outside the profile is not applicable (a fact of the profile); the rest stay not-selected.
    const outside = decide({ ...base, families: ["janma"], only: ["AD-3", "J-1"], stages: [stage("golden", "pass")] });
    expect(verdictOf(outside, "AD-3")).toBe("not-applicable");
    expect(verdictOf(outside, "J-1")).toBe("pass");
    expect(outside.invariants.filter((i) => i.verdict === "not-selected")).toHaveLength(17);
  });

  it("a wire-protocol failure (no invariant) fails the run and is keyed by stage in the baseline", () => {
    const s = [stage("wire", "fail", [finding(null, "wire")])];
    expect(decide({ ...base, stages: s }).exit_code).toBe(1);
    expect(decide({ ...base, stages: s, baseline: parseBaseline('["wire"]', "b.json") }).exit_code).toBe(0);
  });

  it("baseline: an expected failure does not fail the run; a listed invariant that passes does (stale)", () => {
    const failing = [stage("differential", "fail", [finding("S-2")])];
    const expected = decide({ ...base, stages: failing, baseline: parseBaseline("S-2\n", "b.txt") });
    expect(expected.invariants.find((i) => i.invariant === "S-2")?.expected_failure).toBe(true);
    expect([expected.result, expected.exit_code]).toEqual(["certified", 0]);
    const stale = decide({
      ...base,
      stages: [stage("differential", "pass")],
      baseline: parseBaseline("# known\nS-2\n", "b.txt"),
    });
    expect(stale.baseline.stale).toEqual(["S-2"]);
    expect(stale.exit_code).toBe(1);
    const other = decide({
      ...base,
      stages: failing,
      baseline: parseBaseline('{"expected_failures":["S-1"]}', "b.json"),
    });
    expect(other.baseline.unexpected_failures).toEqual(["S-2"]);
    expect(other.exit_code).toBe(1);
  });

  it("the baseline parser refuses unknown entries and bad JSON by name", () => {
    expect(() => parseBaseline("S-9\n", "b.txt")).toThrow(UsageError);
    expect(() => parseBaseline("S-9\n", "b.txt")).toThrow(/entry 1 "S-9"/);
    expect(() => parseBaseline("[1]", "b.json")).toThrow(/list of invariant ids/);
    expect(() => parseBaseline("[oops", "b.json")).toThrow(/not valid JSON/);
  });

  describe("the result in words (issue 20): from judge's facts, the counts of what made the result", () => {
    const failing = [
      stage("handshake", "pass"),
      { ...stage("wire", "fail", [{ ...finding(null, "wire"), summary: "W-3: an unknown type got no error" }]) },
    ];
    it("a failed stage and no failed invariant: violations, 0 invariants fail, 1 stage fails, named", () => {
      const d = decide({ ...base, stages: failing });
      expect(d.invariants.some((i) => i.verdict === "fail")).toBe(false);
      const j = judge({ invariants: d.invariants, stages: failing, baseline: EMPTY_BASELINE, harnessFaults: [] });
      expect([j.result, j.exit_code]).toEqual([d.result, d.exit_code]);
      expect(resultText(j)).toBe(
        "violations (exit 1): 0 invariants fail, 1 stage fails (wire: W-3: an unknown type got no error)",
      );
      // It breaks when the stage failure is expected: certified, and the line still counts the failed stage.
      const expected = judge({
        invariants: d.invariants,
        stages: failing,
        baseline: parseBaseline("wire\n", "b.txt"),
        harnessFaults: [],
      });
      expect(resultText(expected)).toBe(
        "certified (exit 0): 19 invariants pass, 1 stage fails (wire: W-3: an unknown type got no error) on expected or not-selected invariants only",
      );
    });

    it("an inconclusive stage and no inconclusive invariant: inconclusive, 0 invariants inconclusive, 1 stage inconclusive", () => {
      const stages = [stage("handshake", "pass"), stage("wire", "inconclusive")];
      const d = decide({ ...base, stages });
      expect(d.invariants.some((i) => i.verdict === "inconclusive")).toBe(false);
      expect(resultText(judge({ invariants: d.invariants, stages, baseline: EMPTY_BASELINE, harnessFaults: [] }))).toBe(
        "inconclusive (exit 2): 0 invariants inconclusive, 1 stage inconclusive (wire: wire inconclusive)",
      );
      // It breaks with an inconclusive stage that concerns invariants: they are counted too.
      const algebra = [stage("handshake", "pass"), stage("algebra", "inconclusive")];
      const a = decide({ ...base, stages: algebra });
      expect(
        resultText(judge({ invariants: a.invariants, stages: algebra, baseline: EMPTY_BASELINE, harnessFaults: [] })),
      ).toBe(
        "inconclusive (exit 2): 3 invariants inconclusive (S-4, S-5, AD-3), 1 stage inconclusive (algebra: algebra inconclusive)",
      );
    });

    it("a clean run: certified, every invariant passes, no stage fails; an empty profile says nothing was certified", () => {
      const stages = [stage("handshake", "pass"), stage("golden", "pass")];
      const d = decide({ ...base, stages });
      expect(resultText(judge({ invariants: d.invariants, stages, baseline: EMPTY_BASELINE, harnessFaults: [] }))).toBe(
        "certified (exit 0): 19 invariants pass, no stage fails or is inconclusive",
      );
      const empty = decide({ ...base, families: [], stages });
      expect(
        resultText(judge({ invariants: empty.invariants, stages, baseline: EMPTY_BASELINE, harnessFaults: [] })),
      ).toBe(
        "inconclusive (exit 2): 0 invariants inconclusive, 0 stages inconclusive; no invariant passed, so nothing is certified",
      );
    });
  });
});
