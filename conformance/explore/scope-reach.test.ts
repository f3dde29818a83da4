import { describe, expect, it } from "vitest";
import { CHECKS, check } from "../../spec/checks.ts";
import type { CheckCount, ExploreResult, OpCount } from "./explore.ts";
import { ALL_OPS, scopeReach } from "./scope-reach.ts";

/** A result with the given counts (everything else empty): scopeReach reads only perOp and perCheck. */
const resultWith = (perOp: Record<string, OpCount>, perCheck: Record<string, CheckCount>): ExploreResult => ({
  scope: "synthetic",
  states: 0,
  distinct: 1,
  depth: 0,
  maxDepth: 0,
  truncated: false,
  exhausted: true,
  perDepth: [1],
  perOp,
  perMaker: {},
  perCheck,
  predicateChecks: {},
  stepClauseChecks: {},
  violations: [],
  elapsedMs: 0,
  statesPerSecond: 0,
  parts: [],
  symmetry: false,
  memory: { visitedBytes: 0, visitedBytesPerMillion: 0, heapDeltaBytes: 0, heapBytesPerMillion: 0 },
});

describe("scope reach", () => {
  it("every operation of the protocol is one of CHECKS' operations, once", () => {
    expect(new Set(ALL_OPS).size).toBe(ALL_OPS.length);
    expect(ALL_OPS).toContain("advaita.mint");
    expect(ALL_OPS).toContain("ripa.migration_cancel");
    expect(ALL_OPS.length).toBe(new Set(CHECKS.flatMap((c) => c.ops)).size);
  });
  it("a clause that fired and held is reached; one that did neither is listed both ways", () => {
    const all = Object.fromEntries(CHECKS.map((c) => [c.id, { fired: 1, held: 1 }]));
    const r = scopeReach(resultWith({}, all));
    expect(r.firedAndHeld).toBe(CHECKS.length);
    expect(r.unreachedClauses).toEqual([]);
    const none = scopeReach(resultWith({}, {}));
    expect(none.firedAndHeld).toBe(0);
    expect(none.unreachedClauses.length).toBe(CHECKS.length);
    expect(none.unreachedClauses.every((u) => u.missing.length === 2)).toBe(true);
  });
  it("joins the reasons spec/checks.ts gives for what no conforming run reaches", () => {
    const counts = Object.fromEntries(CHECKS.map((c) => [c.id, { fired: 1, held: 1 }]));
    counts["OP-3.1.c4"] = { fired: 0, held: 5 }; // unreachable: never fails
    counts["OP-2.4.c2"] = { fired: 5, held: 0 }; // alwaysRejects: never holds
    counts["OP-6.6.c4"] = { fired: 0, held: 5 }; // no rejection target: never fires
    counts["OP-2.1.c2"] = { fired: 0, held: 5 }; // nothing stops it firing: the scope's limit
    const r = scopeReach(resultWith({ "janma.conceive": { accepted: 3, rejected: 0 } }, counts));
    const by = Object.fromEntries(r.unreachedClauses.map((u) => [u.id, u]));
    expect(Object.keys(by).sort()).toEqual(["OP-2.1.c2", "OP-2.4.c2", "OP-3.1.c4", "OP-6.6.c4"]);
    expect(by["OP-3.1.c4"]).toMatchObject({ missing: ["fired"], byConstruction: true });
    expect(by["OP-3.1.c4"]?.reason).toContain(check("OP-3.1.c4").unreachable ?? "(none)");
    expect(by["OP-2.4.c2"]).toMatchObject({ missing: ["held"], byConstruction: true });
    expect(by["OP-2.4.c2"]?.reason).toMatch(/always rejects/);
    expect(by["OP-6.6.c4"]).toMatchObject({ missing: ["fired"], byConstruction: true });
    expect(by["OP-6.6.c4"]?.reason).toMatch(/accepted, as a no-op/);
    expect(by["OP-2.1.c2"]).toMatchObject({ missing: ["fired"], byConstruction: false });
    expect(by["OP-2.1.c2"]?.reason).toMatch(/not reached in scope synthetic: .*janma\.conceive that fails it/);
    expect(r.firedAndHeld).toBe(CHECKS.length - 4);
  });
  it("says which operations were never tried and which never accepted, and why", () => {
    const perOp = Object.fromEntries(ALL_OPS.map((op) => [op, { accepted: 1, rejected: 1 }]));
    perOp["janma.acquire"] = { accepted: 0, rejected: 4 }; // always rejected (OP-2.4.c2)
    perOp["ripa.reply"] = { accepted: 0, rejected: 2 }; // could be accepted: the scope's limit
    delete perOp["ripa.evolve"]; // no maker
    const r = scopeReach(resultWith(perOp, {}));
    expect(r.operations).toBe(ALL_OPS.length);
    expect(r.operationsTried).toBe(ALL_OPS.length - 1);
    expect(r.operationsAccepted).toBe(ALL_OPS.length - 3);
    expect(r.unreachedOperations).toEqual(
      [
        {
          op: "janma.acquire",
          missing: "accepted",
          byConstruction: true,
          reason: "always rejected at OP-2.4.c2 (D-017)",
        },
        {
          op: "ripa.reply",
          missing: "accepted",
          byConstruction: false,
          reason: "tried 2 times in scope synthetic, never accepted",
        },
        {
          op: "ripa.evolve",
          missing: "tried",
          byConstruction: false,
          reason: "no maker of scope synthetic makes ripa.evolve",
        },
      ].sort((a, b) => ALL_OPS.indexOf(a.op as never) - ALL_OPS.indexOf(b.op as never)),
    );
  });
});
