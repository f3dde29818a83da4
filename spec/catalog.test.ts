import { describe, expect, it } from "vitest";
import { INVARIANTS, INVARIANT_IDS, errorCodeOf, invariant, isInvariantId } from "./catalog.ts";
import { CHECKS, QUIESCED_OPS } from "./checks.ts";
import { COMMAND_OPS } from "./schemas/commands.ts";
import { ERROR_CODES, invariantOfCode } from "./errors.ts";

describe("invariant catalog", () => {
  it("holds exactly the 19 invariants J-1..J-4, S-1..S-5, AD-1..AD-4, I1..I6, in that order", () => {
    expect(INVARIANTS.map((i) => i.id)).toEqual([
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
    ]);
    expect(new Set(INVARIANT_IDS).size).toBe(19);
  });

  it("assigns each invariant to its protocol by id prefix", () => {
    const expected = { J: "janma", S: "samskara", AD: "advaita", I: "ripa" } as const;
    for (const inv of INVARIANTS) {
      const prefix = inv.id.replace(/-?\d+$/, "") as keyof typeof expected;
      expect(inv.protocol, inv.id).toBe(expected[prefix]);
      expect(inv.source.paper, inv.id).toBe(inv.protocol === "ripa" ? "RIPA" : "Samsara");
    }
  });

  it("states every invariant normatively (RFC 2119) and cites a section", () => {
    for (const inv of INVARIANTS) {
      expect(inv.statement, inv.id).toMatch(/\bMUST\b/);
      expect(inv.source.section.length, inv.id).toBeGreaterThan(3);
      expect(inv.name.length, inv.id).toBeGreaterThan(3);
    }
  });

  it("guards only operations that exist", () => {
    for (const inv of INVARIANTS) {
      expect(inv.guards.length, inv.id).toBeGreaterThan(0);
      for (const op of inv.guards) expect(COMMAND_OPS, `${inv.id} guards ${op}`).toContain(op);
    }
  });

  it("gives every invariant its own stable error code, and the code maps back", () => {
    const codes = INVARIANTS.map((i) => i.errorCode);
    expect(new Set(codes).size).toBe(19);
    for (const inv of INVARIANTS) {
      expect(errorCodeOf(inv.id)).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(invariantOfCode(inv.errorCode)).toBe(inv.id);
    }
    expect(ERROR_CODES.filter((r) => r.invariant !== null)).toHaveLength(19);
  });

  it("rejects ids that are not invariants", () => {
    expect(isInvariantId("J-5")).toBe(false);
    expect(isInvariantId("M-1")).toBe(false);
    expect(isInvariantId("I4")).toBe(true);
    expect(() => invariant("X" as never)).toThrow(/missing invariant/);
    expect(invariantOfCode("NOT_FOUND")).toBeNull();
  });

  // G-3: the guarded operations are derived from the check clauses, so they say what
  // OPERATIONS.md says; these are the disagreements the first spec review found.
  it("derives the guarded operations from spec/checks.ts (G-3)", () => {
    expect(invariant("AD-3").rejectedBy).toEqual(["janma.distil"]);
    expect(invariant("AD-3").checks).toEqual(["OP-2.7.c10"]);
    expect(invariant("AD-4").rejectedBy).toEqual(["janma.act", "janma.distil"]);
    expect(invariant("AD-4").rejectedBy).not.toContain("samskara.merge");
    expect(invariant("S-3").rejectedBy).toEqual([]);
    expect(invariant("S-5").rejectedBy).toEqual([]);
    expect(invariant("S-4").rejectedBy).toEqual(["samskara.replay"]);
    for (const op of QUIESCED_OPS) expect(invariant("I4").rejectedBy, op).toContain(op);
    expect(invariant("I2").rejectedBy).toEqual(expect.arrayContaining(["ripa.request", "ripa.reply"]));
  });

  it("every invariant is rejected by its checks or guaranteed by construction, and says which", () => {
    for (const inv of INVARIANTS) {
      const own = CHECKS.filter((c) => c.op !== null && c.targets.includes(inv.id));
      expect(inv.checks, inv.id).toEqual(own.map((c) => c.id));
      expect(inv.rejectedBy, inv.id).toEqual([...new Set(own.map((c) => c.op))]);
      expect(inv.guards.slice(0, inv.rejectedBy.length), inv.id).toEqual(inv.rejectedBy);
      if (inv.rejectedBy.length === 0) {
        expect(inv.byConstruction?.note, `${inv.id} has no rejecting check, so it must say how it holds`).toMatch(
          /no command is rejected with this code/,
        );
      }
      for (const op of inv.byConstruction?.ops ?? []) expect(inv.guards, inv.id).toContain(op);
    }
  });
});
