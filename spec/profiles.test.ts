/**
 * D-049's applicability rule, case by case from its text (not from the function's output), and
 * its structural properties over every profile.
 */
import { describe, expect, it } from "vitest";
import { INVARIANTS, PROTOCOLS } from "./catalog.ts";
import {
  ALL_PROFILES,
  applicability,
  certifiedBy,
  isCertifiable,
  opAllowed,
  opReaches,
  type Family,
} from "./profiles.ts";

const needs = (id: Parameters<typeof applicability>[0], p: readonly Family[]): readonly Family[] | "applicable" => {
  const a = applicability(id, p);
  return a.applicable ? "applicable" : a.needs;
};

describe("D-049: which invariants a profile can witness", () => {
  it("an invariant of an undeclared family is not applicable under W-5.2, naming its family", () => {
    const a = applicability("J-1", ["ripa"]);
    expect(a.applicable).toBe(false);
    expect(a.applicable ? "" : a.reason).toContain("family janma is not in the declared profile (W-5.2)");
  });

  it("the store's invariants need janma: no distillate reaches a store without janma.distil", () => {
    for (const id of ["S-1", "S-2", "S-3", "S-4", "S-5"] as const)
      expect(needs(id, ["samskara"]), id).toEqual(["janma"]);
    for (const id of ["S-1", "S-2", "S-3", "S-4", "S-5"] as const)
      expect(needs(id, ["janma", "samskara"]), id).toBe("applicable");
    expect(
      applicability("S-3", ["samskara", "ripa"]).applicable
        ? ""
        : (applicability("S-3", ["samskara", "ripa"]) as { reason: string }).reason,
    ).toMatch(/^needs janma: /);
  });

  it("advaita alone certifies AD-1 only (the bootstrap mint reaches it); AD-2 and AD-4 need janma, AD-3 needs samskara", () => {
    expect(needs("AD-1", ["advaita"])).toBe("applicable");
    expect(needs("AD-2", ["advaita"])).toEqual(["janma"]);
    expect(needs("AD-4", ["advaita"])).toEqual(["janma"]);
    expect(needs("AD-3", ["advaita"])).toEqual(["samskara"]);
    expect(needs("AD-3", ["janma", "advaita"])).toEqual(["samskara"]);
    expect(needs("AD-3", ["samskara", "advaita"])).toEqual(["janma"]);
    expect(needs("AD-3", ["janma", "samskara", "advaita"])).toBe("applicable");
    expect(needs("AD-2", ["janma", "advaita"])).toBe("applicable");
  });

  it("janma and ripa stand alone", () => {
    for (const i of INVARIANTS.filter((x) => x.protocol === "janma"))
      expect(needs(i.id, ["janma"]), i.id).toBe("applicable");
    for (const i of INVARIANTS.filter((x) => x.protocol === "ripa"))
      expect(needs(i.id, ["ripa"]), i.id).toBe("applicable");
  });

  it("the bootstrap advaita.mint is allowed in every non-empty profile and in no empty one; other ops only in their family", () => {
    expect(opAllowed("advaita.mint", [])).toBe(false);
    for (const p of ALL_PROFILES) expect(opAllowed("advaita.mint", p)).toBe(true);
    expect(opAllowed("custody.attempt", ["janma"])).toBe(true);
    expect(opAllowed("custody.attempt", ["samskara"])).toBe(false);
    expect(opAllowed("samskara.merge", ["samskara"])).toBe(true);
    expect(opReaches("samskara.merge", ["samskara"])).toBe(false);
    expect(opReaches("samskara.merge", ["samskara", "janma"])).toBe(true);
    expect(opReaches("advaita.project_write", ["advaita"])).toBe(false);
  });

  it("every non-empty profile but {samskara} is certifiable; the empty one and {samskara} certify nothing", () => {
    expect(ALL_PROFILES).toHaveLength(2 ** PROTOCOLS.length - 1);
    expect(isCertifiable([])).toBe(false);
    expect(ALL_PROFILES.filter((p) => !isCertifiable(p))).toEqual([["samskara"]]);
    expect(certifiedBy(PROTOCOLS)).toEqual(INVARIANTS.map((i) => i.id));
  });

  it("monotone: declaring one more family never makes an applicable invariant inapplicable", () => {
    for (const p of ALL_PROFILES) {
      for (const f of PROTOCOLS.filter((x) => !p.includes(x))) {
        const bigger = PROTOCOLS.filter((x) => p.includes(x) || x === f);
        for (const id of certifiedBy(p)) expect(certifiedBy(bigger), `${p.join("+")} → +${f}: ${id}`).toContain(id);
      }
    }
  });

  it("applicable implies its family is declared and one of its guards is allowed", () => {
    for (const p of ALL_PROFILES) {
      for (const id of certifiedBy(p)) {
        const inv = INVARIANTS.find((i) => i.id === id);
        expect(p).toContain(inv?.protocol);
        expect(
          inv?.guards.some((op) => opAllowed(op, p)),
          `${id} in ${p.join("+")}`,
        ).toBe(true);
      }
    }
  });
});
