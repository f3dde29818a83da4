/**
 * The common checks of OP-0.2 (model/world.ts) name their own clauses when they fail: c1 the
 * schema, c2 the tick, c3 the agent lookup. The clause is not on the wire (D-032), but the first
 * failing check decides the rejection and the kit reads the clause as that verdict
 * (properties/witness.ts), so each scenario breaks exactly one of them.
 */
import { describe, expect, it } from "vitest";
import { AGENT, K, minted, rejectedAt } from "./fixture.ts";
import { initialWorld } from "./world.ts";

describe("the common checks (OP-0.2)", () => {
  it("fail at OP-0.2.c1 for a command its schema refuses, c2 for a tick below the world's, c3 for an unknown agent", () => {
    expect(rejectedAt(initialWorld(), { ...K.mintCmd(1, "r"), custodians: [] }, "OP-0.2.c1")).toMatchObject({
      code: "MALFORMED",
      path: ["custodians"],
    });
    expect(rejectedAt(initialWorld(), { op: "no.such-op", tick: 1 }, "OP-0.2.c1").code).toBe("MALFORMED");
    expect(rejectedAt(minted(), { op: "samskara.replay", tick: 0, agent: AGENT }, "OP-0.2.c2").code).toBe(
      "TICK_REGRESSED",
    );
    expect(rejectedAt(minted(), { op: "samskara.replay", tick: 2, agent: K.EVIDENCE }, "OP-0.2.c3").code).toBe(
      "NOT_FOUND",
    );
  });
});
