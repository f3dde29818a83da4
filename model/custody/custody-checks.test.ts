/**
 * The checks of OP-3.1 `custody.attempt` and OP-3.2 `custody.expire` (model/custody/custody.ts)
 * name their own clauses when they fail: not on the wire (D-032), but the kit reads the clause as
 * the verdict of which check failed (properties/witness.ts). OP-3.1.c4 (no attempt left) never
 * fails against a conforming system (spec/checks.ts says why), so it has no scenario here.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, accept, distilled, life, minted, rejectedAt } from "../fixture.ts";

// A corrective obligation ob-d1 distilled at tick 2 with deadline_tick 52 (deadline_ticks 50).
const pending = () =>
  distilled(minted(), life("i1"), 2, "d1", -500_000, 900_000, [K.disposition("tool.search", -300_000)]);
const attempt = (tick: number): Command => ({
  op: "custody.attempt",
  tick,
  agent: AGENT,
  obligation_id: "ob-d1",
  ack: "lost",
});
const expire = (tick: number): Command => ({ op: "custody.expire", tick, agent: AGENT, obligation_id: "ob-d1" });
const discharged = () =>
  accept(pending(), { op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "declined" }).world;

describe("custody.attempt (OP-3.1) and custody.expire (OP-3.2)", () => {
  it("attempt fails at OP-3.1.c2 on a discharged obligation, c3 at the deadline (strict, D-060)", () => {
    expect(rejectedAt(discharged(), attempt(4), "OP-3.1.c2").invariant).toBe("J-4");
    // The deadline is tick 52: one tick before it is the last delivery tick; at it, only expire acts.
    expect(accept(pending(), attempt(51)).events[0]).toMatchObject({ type: "custody.attempted" });
    expect(rejectedAt(pending(), attempt(52), "OP-3.1.c3").invariant).toBe("J-4");
    expect(rejectedAt(pending(), attempt(53), "OP-3.1.c3").invariant).toBe("J-4");
  });
  it("expire fails at OP-3.2.c2 on a discharged obligation, c3 before the deadline", () => {
    expect(rejectedAt(discharged(), expire(60), "OP-3.2.c2").invariant).toBe("J-4");
    expect(rejectedAt(pending(), expire(51), "OP-3.2.c3").invariant).toBe("J-4");
    expect(accept(pending(), expire(52)).events[0]).toMatchObject({ type: "custody.discharged" });
  });
});
