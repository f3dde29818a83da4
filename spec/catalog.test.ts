import { describe, expect, it } from "vitest";
import { INVARIANTS, INVARIANT_IDS, errorCodeOf, invariant, isInvariantId } from "./catalog.ts";
import { COMMAND_OPS } from "./schemas/commands.ts";
import { ERROR_CODES, invariantOfCode } from "./errors.ts";

describe("invariant catalog", () => {
  it("holds exactly the 19 invariants J-1..J-4, S-1..S-5, AD-1..AD-4, I1..I6, in that order", () => {
    expect(INVARIANTS.map((i) => i.id)).toEqual([
      "J-1", "J-2", "J-3", "J-4", "S-1", "S-2", "S-3", "S-4", "S-5",
      "AD-1", "AD-2", "AD-3", "AD-4", "I1", "I2", "I3", "I4", "I5", "I6",
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
});
