/**
 * OP-6.12 `ripa.task_pause` (review G-53, D-046): native recovery revokes a dead worker's live
 * attempt; its late reply is then stale (I4) and the fence (OP-7.1) is no longer refused.
 */
import { describe, it, expect } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, accept, acceptAll, minted, rejection } from "../fixture.ts";
import { view } from "../view.ts";
import { QUIESCED_OPS } from "../world.ts";
import { continuationAuthority } from "../predicates.ts";
import type { World } from "../state.ts";

const liveOf = (w: World) => view(w).agents.find((a) => a.identity.identity === AGENT)?.ripa.live_attempts;
const start = (task: string, tick = 2): Command => ({ op: "ripa.task_start", tick, agent: AGENT, task_id: task });
const request = (task: string, nonce: string, tick = 3): Command => ({
  op: "ripa.request",
  tick,
  agent: AGENT,
  task_id: task,
  attempt_nonce: nonce,
});
const pause = (task: string, nonce: string, tick = 4): Command => ({
  op: "ripa.task_pause",
  tick,
  agent: AGENT,
  task_id: task,
  attempt_nonce: nonce,
});
const reply = (task: string, nonce: string, tick = 5): Command => ({
  op: "ripa.reply",
  tick,
  agent: AGENT,
  task_id: task,
  attempt_nonce: nonce,
});
const fence = (id: string, tick = 6): Command => ({
  op: "ripa.migration_fence",
  tick,
  agent: AGENT,
  migration_id: id,
  token: `fence-${id}`,
});
/** A worker published attempt `a` for task t1 and then died (no reply). */
const workerDied = (): World => acceptAll(minted(), [start("t1"), request("t1", "a")]);

describe("OP-6.12 ripa.task_pause (G-53)", () => {
  it("accept: revokes the named live attempt and emits task.paused; the task stays recorded", () => {
    const r = accept(workerDied(), pause("t1", "a"));
    expect(r.events).toEqual([{ type: "task.paused", task_id: "t1", attempt_nonce: "a" }]);
    expect(liveOf(r.world)).toEqual([]);
    expect(view(r.world).agents[0]?.substrate.memory.task_ids).toEqual(["t1"]);
  });

  it("the situation of the review: the fence is refused while the dead attempt is live, and accepted once it is paused", () => {
    const died = workerDied();
    expect(rejection(died, fence("m1")).invariant).toBe("I4");
    const paused = accept(died, pause("t1", "a")).world;
    expect(accept(paused, fence("m1")).events.map((e) => e.type)).toEqual(["migration.fenced", "epoch.advanced"]);
  });

  it("a late reply from the revoked attempt is stale (I4), before and after the next attempt is published", () => {
    const paused = accept(workerDied(), pause("t1", "a")).world;
    expect(rejection(paused, reply("t1", "a"))).toMatchObject({ code: "RIPA_AUTHORITY_CONFLICT", invariant: "I4" });
    const next = accept(paused, request("t1", "b", 5)).world;
    expect(rejection(next, reply("t1", "a", 6)).invariant).toBe("I4");
    expect(accept(next, reply("t1", "b", 6)).events).toEqual([
      { type: "reply.accepted", task_id: "t1", attempt_nonce: "b" },
    ]);
  });

  it("the revoked nonce can never be published again (I4)", () => {
    const paused = accept(workerDied(), pause("t1", "a")).world;
    expect(rejection(paused, request("t1", "a", 5)).invariant).toBe("I4");
  });

  it("boundary: without a pause the dead attempt's reply is still accepted (only a reply or a pause ends an attempt)", () => {
    const resumed = accept(workerDied(), { op: "ripa.task_resume", tick: 4, agent: AGENT, task_id: "t1" }).world;
    expect(liveOf(resumed)).toEqual([{ task_id: "t1", attempt_nonce: "a" }]);
    expect(accept(resumed, reply("t1", "a")).events.map((e) => e.type)).toEqual(["reply.accepted"]);
  });

  it("reject I4: a stale recovery naming an older attempt does not revoke the newer live one", () => {
    const replied = acceptAll(workerDied(), [reply("t1", "a", 4), request("t1", "b", 4)]);
    expect(rejection(replied, pause("t1", "a", 5))).toMatchObject({ invariant: "I4", path: ["attempt_nonce"] });
    expect(liveOf(replied)).toEqual([{ task_id: "t1", attempt_nonce: "b" }]);
  });

  it("reject I4: pausing a task with no live attempt, or a nonce of another task", () => {
    const w = acceptAll(minted(), [start("t1"), start("t2"), request("t2", "x")]);
    expect(rejection(w, pause("t1", "x")).invariant).toBe("I4");
    expect(rejection(w, pause("t1", "never")).invariant).toBe("I4");
    // A second pause of the same attempt: it is no longer live.
    expect(rejection(accept(w, pause("t2", "x")).world, pause("t2", "x", 5)).invariant).toBe("I4");
  });

  it("reject I2 before I4: an unknown task (check order of OP-6.12)", () => {
    expect(rejection(workerDied(), pause("ghost", "a"))).toMatchObject({
      code: "RIPA_MEMORY_ANCESTRY_BROKEN",
      invariant: "I2",
    });
    expect(rejection(workerDied(), pause("ghost", "zzz")).invariant).toBe("I2");
  });

  it("is not refused while quiesced (OP-0.4): under a migration its own checks decide", () => {
    const fenced = accept(acceptAll(minted(), [start("t1")]), fence("m1", 3)).world;
    // No attempt can be live while quiesced (the fence refuses one, requests are refused), so the
    // pause is rejected by its attempt check (I4 naming attempt_nonce), not by quiescence.
    expect(rejection(fenced, pause("t1", "a"))).toMatchObject({ invariant: "I4", path: ["attempt_nonce"] });
    // A request, which OP-0.4 lists, is refused by quiescence itself (no field named).
    const refused = rejection(fenced, request("t1", "a", 4));
    expect(refused.invariant).toBe("I4");
    expect(refused.path).toBeUndefined();
    expect(QUIESCED_OPS.has("ripa.task_pause")).toBe(false);
    expect(QUIESCED_OPS.has("ripa.request")).toBe(true);
  });

  it("a rejected pause leaves the world unchanged, including the tick (OP-0.3)", () => {
    const w = workerDied();
    expect(rejection(w, pause("t1", "b", 9)).invariant).toBe("I4");
    expect(view(w).tick).toBe(3);
  });

  it("predicate I4: no attempt is live while fenced; it holds after pause then fence and breaks if the attempt were carried in", () => {
    const fenced = acceptAll(workerDied(), [pause("t1", "a"), fence("m1")]);
    expect(continuationAuthority(fenced)).toBe(true);
    const carried: World = {
      ...fenced,
      agents: new Map(
        [...fenced.agents].map(([k, a]) => [k, { ...a, ripa: { ...a.ripa, live_attempts: new Map([["t1", "a"]]) } }]),
      ),
    };
    expect(continuationAuthority(carried)).toEqual({ violation: expect.stringMatching(/live while fenced/) });
    // Boundary: the same live attempt without a migration in progress is no violation.
    expect(continuationAuthority(workerDied())).toBe(true);
  });
});
