/**
 * The checks of the RIPA substrate operations (model/ripa/substrate.ts: OP-6.1 restart .. OP-6.11
 * descend) name their own clauses when they fail. The clause is not on the wire (D-032), but the
 * first failing check decides the rejection (OP-0.2) and the kit reads the clause as that verdict
 * (properties/witness.ts; properties/liveness.property.test.ts reads it too). Each scenario breaks
 * exactly the condition its clause states in spec/checks.ts and passes every check before it.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, accept, acceptAll, distilled, life, minted, rejectedAt } from "../fixture.ts";

const UNAUTHORISED = { custodian: "mallory", decision_id: "d" };
/** The minted agent's bound execution is exec-1, its first token tok-root-1 (model/testkit.ts mintCmd). */
const restart = (execution_id: string, token: string): Command => ({
  op: "ripa.restart",
  tick: 2,
  agent: AGENT,
  execution_id,
  token,
});
const effect = (over: object): Command =>
  ({
    op: "ripa.effect",
    tick: 3,
    agent: AGENT,
    execution_id: "exec-1",
    token: "tok-root-1",
    provider_id: "prov-a",
    capability: "fare.search",
    effect_id: "e1",
    ...over,
  }) as Command;

describe("ripa.restart (OP-6.1), ripa.effect (OP-6.6), ripa.replicate (OP-6.10)", () => {
  it("restart fails at OP-6.1.c2 for an execution that is not the bound one, c3 for a token used before", () => {
    expect(rejectedAt(minted(), restart("exec-9", "t2"), "OP-6.1.c2").invariant).toBe("I4");
    expect(rejectedAt(minted(), restart("exec-1", "tok-root-1"), "OP-6.1.c3").invariant).toBe("I4");
  });
  it("effect fails at OP-6.6.c1 for a stale token, c2 for an unbound provider, c3 for a capability the provider does not grant", () => {
    const r = accept(minted(), restart("exec-1", "t2")).world;
    expect(rejectedAt(r, effect({}), "OP-6.6.c1").invariant).toBe("I4");
    expect(rejectedAt(minted(), effect({ provider_id: "prov-z" }), "OP-6.6.c2").invariant).toBe("I5");
    expect(rejectedAt(minted(), effect({ capability: "vcs.push" }), "OP-6.6.c3").invariant).toBe("I5");
  });
  it("replicate fails at OP-6.10.c2 for the bound execution's id, or a replica's", () => {
    expect(
      rejectedAt(minted(), { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("exec-1") }, "OP-6.10.c2")
        .code,
    ).toBe("DUPLICATE_ID");
    const rep = accept(minted(), { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-1") }).world;
    expect(
      rejectedAt(rep, { op: "ripa.replicate", tick: 3, agent: AGENT, execution: K.exec("rep-1") }, "OP-6.10.c2").code,
    ).toBe("DUPLICATE_ID");
  });
});

describe("ripa tasks: task_start (OP-6.2), task_resume (OP-6.3), request (OP-6.4), reply (OP-6.5)", () => {
  const started = () => accept(minted(), { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" }).world;
  const requested = () =>
    accept(started(), { op: "ripa.request", tick: 2, agent: AGENT, task_id: "t1", attempt_nonce: "a1" }).world;
  it("task_start fails at OP-6.2.c2 for a task id in memory; task_resume at OP-6.3.c2 for one not in memory", () => {
    expect(
      rejectedAt(started(), { op: "ripa.task_start", tick: 3, agent: AGENT, task_id: "t1" }, "OP-6.2.c2").code,
    ).toBe("DUPLICATE_ID");
    expect(
      rejectedAt(started(), { op: "ripa.task_resume", tick: 3, agent: AGENT, task_id: "ghost" }, "OP-6.3.c2").invariant,
    ).toBe("I2");
  });
  it("request fails at OP-6.4.c2 for a task not in memory, c3 for an attempt nonce used before", () => {
    expect(
      rejectedAt(
        started(),
        { op: "ripa.request", tick: 3, agent: AGENT, task_id: "ghost", attempt_nonce: "a9" },
        "OP-6.4.c2",
      ).invariant,
    ).toBe("I2");
    expect(
      rejectedAt(
        requested(),
        { op: "ripa.request", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a1" },
        "OP-6.4.c3",
      ).invariant,
    ).toBe("I4");
  });
  it("reply fails at OP-6.5.c1 for a task not in memory, c2 for a nonce that is not the live attempt", () => {
    expect(
      rejectedAt(
        requested(),
        { op: "ripa.reply", tick: 3, agent: AGENT, task_id: "ghost", attempt_nonce: "a1" },
        "OP-6.5.c1",
      ).invariant,
    ).toBe("I2");
    expect(
      rejectedAt(
        requested(),
        { op: "ripa.reply", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a0" },
        "OP-6.5.c2",
      ).invariant,
    ).toBe("I4");
  });
});

describe("ripa governance: evolve (OP-6.7), identity_update (OP-6.8), bind_surface (OP-6.9), descend (OP-6.11)", () => {
  it("evolve fails at OP-6.7.c2 without a custodian's authorisation, c3 for a revision in the body lineage", () => {
    expect(
      rejectedAt(
        minted(),
        { op: "ripa.evolve", tick: 2, agent: AGENT, revision: "rev-2", authorization: UNAUTHORISED },
        "OP-6.7.c2",
      ).invariant,
    ).toBe("I3");
    expect(
      rejectedAt(
        minted(),
        { op: "ripa.evolve", tick: 2, agent: AGENT, revision: "rev-1", authorization: K.AUTH },
        "OP-6.7.c3",
      ).invariant,
    ).toBe("I3");
  });
  it("identity_update fails at OP-6.8.c2 without a custodian's authorisation; bind_surface at OP-6.9.c1 for a reserved label key", () => {
    expect(
      rejectedAt(
        minted(),
        { op: "ripa.identity_update", tick: 2, agent: AGENT, designation: "x", authorization: UNAUTHORISED },
        "OP-6.8.c2",
      ).invariant,
    ).toBe("I1");
    const surface = { surface_id: "s", kind: "chat", account: "a", session: "x" };
    expect(
      rejectedAt(
        minted(),
        { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface, labels: { identity: "me" } },
        "OP-6.9.c1",
      ).invariant,
    ).toBe("I6");
  });
  it("descend fails at OP-6.11.c2 from a quarantined store head, c3 for a root used before", () => {
    const descend = (root: string): Command => ({
      op: "ripa.descend",
      tick: 4,
      agent: AGENT,
      root,
      designation: "child",
      execution: K.exec("c1"),
      authority_token: "ct",
    });
    // The head is the genesis version PIN; a declined corrective obligation born from it quarantines it.
    const w = distilled(minted(), life("i1"), 2, "d1", -500_000, 900_000, [K.disposition("tool.search", -300_000)]);
    const q = acceptAll(w, [{ op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "declined" }]);
    expect(rejectedAt(q, descend("root-2"), "OP-6.11.c2").invariant).toBe("J-4");
    expect(rejectedAt(minted(), descend("root-1"), "OP-6.11.c3").invariant).toBe("AD-1");
  });
});
