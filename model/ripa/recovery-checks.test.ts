/**
 * The checks of OP-6.12 `ripa.task_pause` (model/ripa/recovery.ts) name their own clauses when
 * they fail: not on the wire (D-032), but the kit reads the clause as the verdict of which check
 * failed (properties/witness.ts).
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, acceptAll, minted, rejectedAt } from "../fixture.ts";

const pause = (task: string, nonce: string): Command => ({
  op: "ripa.task_pause",
  tick: 4,
  agent: AGENT,
  task_id: task,
  attempt_nonce: nonce,
});

describe("ripa.task_pause (OP-6.12)", () => {
  it("fails at OP-6.12.c1 for a task not in memory, c2 for a nonce that is not the task's live attempt (an older one, or none live)", () => {
    const w = acceptAll(minted(), [
      { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" },
      { op: "ripa.request", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a1" },
      { op: "ripa.request", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a2" },
    ]);
    expect(rejectedAt(w, pause("ghost", "a2"), "OP-6.12.c1").invariant).toBe("I2");
    expect(rejectedAt(w, pause("t1", "a1"), "OP-6.12.c2").invariant).toBe("I4");
    const idle = acceptAll(minted(), [{ op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" }]);
    expect(rejectedAt(idle, pause("t1", "a1"), "OP-6.12.c2").invariant).toBe("I4");
  });
});
