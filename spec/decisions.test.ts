import { describe, expect, it } from "vitest";
import { INVARIANT_IDS } from "./catalog.ts";
import { DECISIONS, decision, decisionsRefining } from "./decisions.ts";

/** The open points the foundation issue requires the decision record to settle, and where. */
const REQUIRED_TOPICS: Readonly<Record<string, RegExp>> = {
  "weight and confidence representation": /millionths/i,
  "per-key aggregation formula": /confidence-weighted mean/i,
  "what contested means and the tie-break": /contested/i,
  "re-merging a merged distillate": /re-merg/i,
  "excision granularity and empty batches": /empty/i,
  "the leakage validator": /4 consecutive tokens|four or more/i,
  "consent grid authorisation": /consent grant/i,
  "S-2 mechanics": /sign of the signal's valence/i,
  "TTL units": /logical ticks/i,
  "termination-predicate language": /acts_at_least/i,
  "capability algebra": /wildcard/i,
  "what resolved means for J-1": /Birth succeeds iff/i,
  "corrective vs reinforcing": /corrective iff/i,
  "custody retries and deadline": /max_retries \+ 1/i,
  "quarantine fail-safe and refusal to descend": /quarantined version cannot be pinned/i,
  "projection statelessness": /project_write/i,
  "action signing scheme": /signature = H/i,
  "karmic momentum variants, threshold, window": /Guidance-aware/i,
  "I2 memory ancestry": /snapshot/i,
  "I5 capability delta": /gained, lost, unchanged/i,
  "governance tokens": /custodian/i,
  "which RIPA operations exist": /descend/i,
  "atomic writes and crash cuts": /crash cut/i,
};

describe("decision record", () => {
  it("numbers decisions D-001.. without gaps and fills every field", () => {
    DECISIONS.forEach((d, i) => {
      expect(d.id).toBe(`D-${String(i + 1).padStart(3, "0")}`);
      expect(d.title.length, d.id).toBeGreaterThan(10);
      for (const f of [d.decision, d.why, d.paper, d.alternatives]) expect(f.length, d.id).toBeGreaterThan(20);
      // A decision about the kit itself (packaging, versions) refines no invariant; every other does.
      if (d.kit === true) expect(d.refines, d.id).toEqual([]);
      else expect(d.refines.length, d.id).toBeGreaterThan(0);
      for (const r of d.refines) expect(INVARIANT_IDS, d.id).toContain(r);
    });
  });

  for (const [topic, pattern] of Object.entries(REQUIRED_TOPICS)) {
    it(`settles: ${topic}`, () => {
      expect(
        DECISIONS.some((d) => pattern.test(`${d.title}. ${d.decision}`)),
        topic,
      ).toBe(true);
    });
  }

  it("refines most invariants and lets each be looked up", () => {
    const refined = INVARIANT_IDS.filter((id) => decisionsRefining(id).length > 0);
    expect(refined.length).toBeGreaterThanOrEqual(17);
    expect(decision("D-002").refines).toContain("AD-3");
    expect(() => decision("D-999")).toThrow(/unknown decision/);
  });
});
