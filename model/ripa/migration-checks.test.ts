/**
 * The checks of the migration protocol (model/ripa/migration.ts: the OP-7 lookup, OP-7.1 fence ..
 * OP-7.7 cancel) name their own clauses when they fail. The clause is not on the wire (D-032), but
 * the first failing check decides the rejection (OP-0.2) and the kit reads the clause as that
 * verdict (properties/witness.ts). Each scenario breaks exactly the condition its clause states in
 * spec/checks.ts and passes every check before it. OP-7.3.c3 and OP-7.6.c3 .. c5 never fail
 * against a conforming system (spec/checks.ts says why), so they have no scenario here; the phase
 * checks OP-7.2.c1 .. OP-7.6.c1 are in model/ripa/ripa.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, accept, acceptAll, minted, rejectedAt } from "../fixture.ts";
import type { World } from "../state.ts";

const UNAUTHORISED = { custodian: "mallory", decision_id: "d" };
/** A target that passes every check of OP-7.3 against the minted agent (bound execution exec-1, required fare.search). */
const target = {
  execution: K.exec("exec-2"),
  providers: [
    { provider_id: "prov-b", kind: "service" as const, contract_version: "v2", capabilities: ["fare.search"] },
  ],
  body_revision: "rev-1",
};
const fence = (id: string, token = `fence-${id}`, tick = 5): Command => ({
  op: "ripa.migration_fence",
  tick,
  agent: AGENT,
  migration_id: id,
  token,
});
const checkpointed = (): World =>
  acceptAll(minted(), [fence("m1"), { op: "ripa.migration_checkpoint", tick: 5, agent: AGENT, migration_id: "m1" }]);
const bundleDigestOf = (w: World): string => w.agents.get(AGENT)?.ripa.migration?.bundle_digest ?? "";
const validate = (w: World, over: object = {}): Command =>
  ({
    op: "ripa.migration_validate",
    tick: 5,
    agent: AGENT,
    migration_id: "m1",
    bundle_digest: bundleDigestOf(w),
    target,
    gain_authorization: null,
    ...over,
  }) as Command;
const bind = (over: object = {}): Command =>
  ({
    op: "ripa.migration_bind",
    tick: 5,
    agent: AGENT,
    migration_id: "m1",
    surfaces: [{ surface_id: "s1", kind: "chat", account: "a", session: "x" }],
    labels: { region: "eu" },
    ...over,
  }) as Command;
const validated = (): World => {
  const c = checkpointed();
  return accept(c, validate(c)).world;
};
const rehydrated = (): World =>
  acceptAll(validated(), [bind(), { op: "ripa.migration_rehydrate", tick: 5, agent: AGENT, migration_id: "m1" }]);
const cancel = (over: object = {}): Command =>
  ({
    op: "ripa.migration_cancel",
    tick: 6,
    agent: AGENT,
    migration_id: "m1",
    no_target_active: true,
    authorization: K.AUTH,
    ...over,
  }) as Command;

describe("the migration lookup (OP-7.c1)", () => {
  it("fails at OP-7.c1 for a phase command naming a migration that is not the one in progress, or when none is", () => {
    expect(rejectedAt(checkpointed(), validate(checkpointed(), { migration_id: "m2" }), "OP-7.c1").code).toBe(
      "NOT_FOUND",
    );
    expect(
      rejectedAt(minted(), { op: "ripa.migration_checkpoint", tick: 5, agent: AGENT, migration_id: "m1" }, "OP-7.c1")
        .code,
    ).toBe("NOT_FOUND");
  });
});

describe("ripa.migration_fence (OP-7.1)", () => {
  it("fails at OP-7.1.c1 with a migration in progress, c2 for a migration id used before, c3 with a live request attempt, c4 for a token used before", () => {
    const f = accept(minted(), fence("m1")).world;
    expect(rejectedAt(f, fence("m2"), "OP-7.1.c1").invariant).toBe("I4");
    const cancelled = accept(f, cancel()).world;
    expect(rejectedAt(cancelled, fence("m1", "fresh", 6), "OP-7.1.c2").code).toBe("DUPLICATE_ID");
    const live = acceptAll(minted(), [
      { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" },
      { op: "ripa.request", tick: 2, agent: AGENT, task_id: "t1", attempt_nonce: "a1" },
    ]);
    expect(rejectedAt(live, fence("m1"), "OP-7.1.c3").invariant).toBe("I4");
    expect(rejectedAt(minted(), fence("m1", "tok-root-1"), "OP-7.1.c4").invariant).toBe("I4");
  });
});

describe("ripa.migration_validate (OP-7.3)", () => {
  const c = checkpointed();
  const provider = target.providers[0]!;
  it("fails at OP-7.3.c2 for another bundle digest, c4 for another body revision, c5 for the source's own execution", () => {
    expect(rejectedAt(c, validate(c, { bundle_digest: K.EVIDENCE }), "OP-7.3.c2").invariant).toBe("I2");
    expect(rejectedAt(c, validate(c, { target: { ...target, body_revision: "rev-9" } }), "OP-7.3.c4").invariant).toBe(
      "I3",
    );
    expect(rejectedAt(c, validate(c, { target: { ...target, execution: K.exec("exec-1") } }), "OP-7.3.c5").code).toBe(
      "DUPLICATE_ID",
    );
  });
  it("fails at OP-7.3.c6 for repeated target provider ids, c7 for a required capability no target provider grants, c8 for a gain without a valid authorisation", () => {
    expect(
      rejectedAt(c, validate(c, { target: { ...target, providers: [provider, provider] } }), "OP-7.3.c6").code,
    ).toBe("DUPLICATE_ID");
    expect(
      rejectedAt(
        c,
        validate(c, { target: { ...target, providers: [{ ...provider, capabilities: ["mail.send"] }] } }),
        "OP-7.3.c7",
      ).invariant,
    ).toBe("I5");
    const gaining = { ...target, providers: [{ ...provider, capabilities: ["fare.search", "vcs.push"] }] };
    expect(rejectedAt(c, validate(c, { target: gaining }), "OP-7.3.c8").invariant).toBe("I5");
    expect(
      rejectedAt(c, validate(c, { target: gaining, gain_authorization: UNAUTHORISED }), "OP-7.3.c8").invariant,
    ).toBe("I5");
  });
});

describe("ripa.migration_bind (OP-7.4) and ripa.migration_resume (OP-7.6)", () => {
  it("bind fails at OP-7.4.c2 for a reserved label key, c3 for repeated surface ids", () => {
    expect(rejectedAt(validated(), bind({ labels: { self: "x" } }), "OP-7.4.c2").invariant).toBe("I6");
    const s = { surface_id: "s1", kind: "chat", account: "a", session: "x" };
    expect(rejectedAt(validated(), bind({ surfaces: [s, { ...s, session: "y" }] }), "OP-7.4.c3").code).toBe(
      "DUPLICATE_ID",
    );
  });
  it("resume fails at OP-7.6.c2 for a token used before (the fence's)", () => {
    expect(
      rejectedAt(
        rehydrated(),
        { op: "ripa.migration_resume", tick: 6, agent: AGENT, migration_id: "m1", token: "fence-m1" },
        "OP-7.6.c2",
      ).invariant,
    ).toBe("I4");
    expect(
      accept(rehydrated(), {
        op: "ripa.migration_resume",
        tick: 6,
        agent: AGENT,
        migration_id: "m1",
        token: "t-res",
      }).events.at(-1),
    ).toMatchObject({ type: "migration.resumed" });
  });
});

describe("ripa.migration_cancel (OP-7.7)", () => {
  it("fails at OP-7.7.c1 for a migration not in progress, c2 without the decision that no target is active, c3 without a custodian's authorisation", () => {
    const f = accept(minted(), fence("m1")).world;
    expect(rejectedAt(f, cancel({ migration_id: "m2" }), "OP-7.7.c1").code).toBe("NOT_FOUND");
    expect(rejectedAt(f, cancel({ no_target_active: false }), "OP-7.7.c2").invariant).toBe("I4");
    expect(rejectedAt(f, cancel({ authorization: UNAUTHORISED }), "OP-7.7.c3").invariant).toBe("I4");
  });
});
