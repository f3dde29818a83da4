import { describe, it, expect } from "vitest";
import { WorldView } from "../../spec/index.ts";
import { AGENT, K, accept, acceptAll, minted, rejection } from "../fixture.ts";
import { initialWorld } from "../world.ts";
import { view } from "../view.ts";
import type { World } from "../state.ts";

const ripa = (w: World) => view(w).agents.find((a) => a.identity.identity === AGENT)?.ripa;
const target = {
  execution: K.exec("exec-2"),
  providers: [
    { provider_id: "prov-b", kind: "service" as const, contract_version: "v2", capabilities: ["fare.search"] },
  ],
  body_revision: "rev-1",
};
const toCheckpoint = (w: World, id = "m1"): World =>
  acceptAll(w, [
    { op: "ripa.migration_fence", tick: 5, agent: AGENT, migration_id: id, token: `fence-${id}` },
    { op: "ripa.migration_checkpoint", tick: 5, agent: AGENT, migration_id: id },
  ]);
const digestOfBundle = (w: World) => ripa(w)?.migration?.bundle_digest ?? "";
const validateCmd = (w: World, over: object = {}) => ({
  op: "ripa.migration_validate" as const,
  tick: 5,
  agent: AGENT,
  migration_id: "m1",
  bundle_digest: digestOfBundle(w),
  target,
  gain_authorization: null,
  ...over,
});
const toRehydrated = (w: World): World => {
  const c = toCheckpoint(w);
  return acceptAll(c, [
    validateCmd(c),
    {
      op: "ripa.migration_bind",
      tick: 5,
      agent: AGENT,
      migration_id: "m1",
      surfaces: [{ surface_id: "s1", kind: "chat", account: "a", session: "x" }],
      labels: { region: "eu" },
    },
    { op: "ripa.migration_rehydrate", tick: 5, agent: AGENT, migration_id: "m1" },
  ]);
};

describe("AD-1 single identity", () => {
  it("AD-1 accept: identity = H(base || genesis(root)); descend mints a new identity with a new root", () => {
    const w = minted();
    const a = view(w).agents[0];
    expect(a?.identity).toEqual({
      identity: AGENT,
      base_digest: K.BASE,
      lineage_root: K.genesisFor("root-1"),
      root: "root-1",
    });
    const d = accept(w, {
      op: "ripa.descend",
      tick: 2,
      agent: AGENT,
      root: "root-2",
      designation: "child",
      execution: K.exec("c1"),
      authority_token: "ct",
    });
    expect(d.events.map((e) => e.type)).toEqual(["agent.minted", "epoch.advanced", "agent.descended"]);
    expect(view(d.world).roots_used).toEqual(["root-1", "root-2"]);
    expect(
      view(d.world)
        .agents.map((x) => x.identity.identity)
        .sort(),
    ).toEqual([AGENT, K.identityFor("root-2")].sort());
  });
  it("AD-1 reject: minting or descending with a used root", () => {
    expect(rejection(minted(), K.mintCmd(2, "root-1")).invariant).toBe("AD-1");
    expect(
      rejection(minted(), {
        op: "ripa.descend",
        tick: 2,
        agent: AGENT,
        root: "root-1",
        designation: "c",
        execution: K.exec("c"),
        authority_token: "t",
      }).invariant,
    ).toBe("AD-1");
  });
  it("OP-0 common checks: MALFORMED with path, TICK_REGRESSED, NOT_FOUND, DUPLICATE_ID providers", () => {
    const m = rejection(initialWorld(), { ...K.mintCmd(1, "r"), custodians: [] });
    expect(m).toMatchObject({ code: "MALFORMED", invariant: null, path: ["custodians"] });
    expect(rejection(minted(), { op: "samskara.replay", tick: 0, agent: AGENT }).code).toBe("TICK_REGRESSED");
    expect(rejection(minted(), { op: "samskara.replay", tick: 2, agent: K.EVIDENCE }).code).toBe("NOT_FOUND");
    const p = K.mintCmd(1, "r").providers[0];
    expect(rejection(initialWorld(), K.mintCmd(1, "r", { providers: p === undefined ? [] : [p, p] })).code).toBe(
      "DUPLICATE_ID",
    );
  });
});

describe("I1 identity and lineage", () => {
  it("I1 accept: an authorised identity update bumps the version; a migration preserves the record", () => {
    const w = accept(minted(), {
      op: "ripa.identity_update",
      tick: 2,
      agent: AGENT,
      designation: "renamed",
      authorization: K.AUTH,
    });
    expect(w.events).toEqual([{ type: "identity.updated", identity_version: 2 }]);
    const r = accept(toRehydrated(w.world), {
      op: "ripa.migration_resume",
      tick: 6,
      agent: AGENT,
      migration_id: "m1",
      token: "t-res",
    });
    expect(view(r.world).agents[0]?.substrate.identity).toEqual({
      identity: AGENT,
      designation: "renamed",
      identity_version: 2,
    });
  });
  it("I1 reject: an unauthorised identity update; an update while quiesced is I4", () => {
    expect(
      rejection(minted(), {
        op: "ripa.identity_update",
        tick: 2,
        agent: AGENT,
        designation: "x",
        authorization: { custodian: "eve", decision_id: "d" },
      }).invariant,
    ).toBe("I1");
    expect(
      rejection(toCheckpoint(minted()), {
        op: "ripa.identity_update",
        tick: 6,
        agent: AGENT,
        designation: "x",
        authorization: K.AUTH,
      }).invariant,
    ).toBe("I4");
  });
});

describe("I2 memory ancestry", () => {
  it("I2 accept: task start extends memory; task resume of a recorded task", () => {
    const r = accept(minted(), { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" });
    expect(r.events.map((e) => e.type)).toEqual(["task.started", "memory.extended"]);
    expect(view(r.world).agents[0]?.substrate.memory.ancestry).toHaveLength(2);
    expect(accept(r.world, { op: "ripa.task_resume", tick: 3, agent: AGENT, task_id: "t1" }).events).toEqual([
      { type: "task.resumed", task_id: "t1" },
    ]);
  });
  it("I2 reject: resuming an unknown task; a corrupt bundle digest at validation", () => {
    expect(rejection(minted(), { op: "ripa.task_resume", tick: 2, agent: AGENT, task_id: "ghost" }).invariant).toBe(
      "I2",
    );
    const c = toCheckpoint(minted());
    expect(rejection(c, validateCmd(c, { bundle_digest: K.EVIDENCE })).invariant).toBe("I2");
  });
});

describe("I3 body revision", () => {
  it("I3 accept: an authorised evolution appends to the body lineage", () => {
    const r = accept(minted(), { op: "ripa.evolve", tick: 2, agent: AGENT, revision: "rev-2", authorization: K.AUTH });
    expect(view(r.world).agents[0]?.substrate.body).toEqual({ revision: "rev-2", lineage: ["rev-1", "rev-2"] });
  });
  it("I3 reject: unauthorised, a revision already used, a mismatched import", () => {
    expect(
      rejection(minted(), {
        op: "ripa.evolve",
        tick: 2,
        agent: AGENT,
        revision: "rev-2",
        authorization: { custodian: "x", decision_id: "d" },
      }).invariant,
    ).toBe("I3");
    expect(
      rejection(minted(), { op: "ripa.evolve", tick: 2, agent: AGENT, revision: "rev-1", authorization: K.AUTH })
        .invariant,
    ).toBe("I3");
    const c = toCheckpoint(minted());
    expect(rejection(c, validateCmd(c, { target: { ...target, body_revision: "rev-9" } })).invariant).toBe("I3");
  });
});

describe("I4 continuation authority", () => {
  it("I4 accept: the full six-phase migration advances the epoch at fence and activation", () => {
    const w = toRehydrated(minted());
    const r = accept(w, { op: "ripa.migration_resume", tick: 6, agent: AGENT, migration_id: "m1", token: "t-res" });
    expect(r.events.map((e) => e.type)).toEqual([
      "migration.marker",
      "epoch.advanced",
      "migration.marker",
      "migration.resumed",
    ]);
    const v = ripa(r.world);
    expect(v?.authority).toEqual({ token: "t-res", generation: 3, holder: "exec-2" });
    expect(v?.execution.execution_id).toBe("exec-2");
    expect(v?.marker?.status).toBe("verified");
    expect(v?.fences[0]?.status).toBe("exported");
    expect(v?.surfaces.map((s) => s.surface.surface_id)).toEqual(["s1"]);
    expect(WorldView.safeParse(view(r.world)).success).toBe(true);
  });
  it("I4 reject: quiesced work, stale effect token, stale reply, reused token, out-of-order phase, unsafe cancel", () => {
    const f = accept(minted(), {
      op: "ripa.migration_fence",
      tick: 2,
      agent: AGENT,
      migration_id: "m1",
      token: "f1",
    }).world;
    expect(rejection(f, { op: "ripa.task_start", tick: 3, agent: AGENT, task_id: "t" }).invariant).toBe("I4");
    expect(
      rejection(f, { op: "ripa.restart", tick: 3, agent: AGENT, execution_id: "exec-1", token: "z" }).invariant,
    ).toBe("I4");
    expect(
      rejection(f, {
        op: "ripa.effect",
        tick: 3,
        agent: AGENT,
        execution_id: "exec-1",
        token: "tok-root-1",
        provider_id: "prov-a",
        capability: "fare.search",
        effect_id: "e",
      }).invariant,
    ).toBe("I4");
    expect(
      rejection(f, {
        op: "ripa.migration_validate",
        tick: 3,
        agent: AGENT,
        migration_id: "m1",
        bundle_digest: K.EVIDENCE,
        target,
        gain_authorization: null,
      }).invariant,
    ).toBe("I4");
    expect(rejection(f, { op: "ripa.migration_checkpoint", tick: 3, agent: AGENT, migration_id: "m2" }).code).toBe(
      "NOT_FOUND",
    );
    expect(
      rejection(f, {
        op: "ripa.migration_cancel",
        tick: 3,
        agent: AGENT,
        migration_id: "m1",
        no_target_active: false,
        authorization: K.AUTH,
      }).invariant,
    ).toBe("I4");
    const c = accept(f, {
      op: "ripa.migration_cancel",
      tick: 3,
      agent: AGENT,
      migration_id: "m1",
      no_target_active: true,
      authorization: K.AUTH,
    });
    expect(ripa(c.world)?.authority).toEqual({ token: "f1", generation: 2, holder: null });
    expect(
      rejection(c.world, { op: "ripa.restart", tick: 4, agent: AGENT, execution_id: "exec-1", token: "f1" }).invariant,
    ).toBe("I4");
    expect(
      rejection(c.world, { op: "ripa.migration_fence", tick: 4, agent: AGENT, migration_id: "m1", token: "f9" }).code,
    ).toBe("DUPLICATE_ID");
    const t = acceptAll(minted(), [
      { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" },
      { op: "ripa.request", tick: 2, agent: AGENT, task_id: "t1", attempt_nonce: "a1" },
      { op: "ripa.request", tick: 2, agent: AGENT, task_id: "t1", attempt_nonce: "a2" },
    ]);
    expect(
      rejection(t, { op: "ripa.reply", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a1" }).invariant,
    ).toBe("I4");
    expect(
      rejection(t, { op: "ripa.request", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a1" }).invariant,
    ).toBe("I4");
    expect(
      rejection(t, { op: "ripa.migration_fence", tick: 3, agent: AGENT, migration_id: "m", token: "x" }).invariant,
    ).toBe("I4");
    const rep = accept(t, { op: "ripa.reply", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a2" });
    expect(
      rejection(rep.world, { op: "ripa.reply", tick: 3, agent: AGENT, task_id: "t1", attempt_nonce: "a2" }).invariant,
    ).toBe("I4");
  });
  it("I4 accept: restart with a fresh token; effects are idempotent by effect id", () => {
    const r = accept(minted(), { op: "ripa.restart", tick: 2, agent: AGENT, execution_id: "exec-1", token: "t2" });
    expect(r.events).toEqual([{ type: "epoch.advanced", generation: 2, holder: "exec-1" }]);
    const e = {
      op: "ripa.effect" as const,
      tick: 3,
      agent: AGENT,
      execution_id: "exec-1",
      token: "t2",
      provider_id: "prov-a",
      capability: "fare.search",
      effect_id: "e1",
    };
    const e1 = accept(r.world, e);
    expect(accept(e1.world, e).events).toEqual([{ type: "effect.duplicate", effect_id: "e1" }]);
    const rep = accept(r.world, { op: "ripa.replicate", tick: 3, agent: AGENT, execution: K.exec("rep-1") });
    expect(ripa(rep.world)?.authority.holder).toBe("exec-1");
    expect(rejection(rep.world, { op: "ripa.replicate", tick: 3, agent: AGENT, execution: K.exec("rep-1") }).code).toBe(
      "DUPLICATE_ID",
    );
  });
  it("OP-6.6.c1 reject: an effect needs both the current token and its holder: a stale token by the holder, the current token by a replica, are I4", () => {
    const r = acceptAll(minted(), [
      { op: "ripa.restart", tick: 2, agent: AGENT, execution_id: "exec-1", token: "t2" },
      { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-1") },
    ]);
    const e = {
      op: "ripa.effect" as const,
      tick: 3,
      agent: AGENT,
      provider_id: "prov-a",
      capability: "fare.search",
      effect_id: "e1",
    };
    // The holder, with the token its restart superseded (the holder is right, the token is not).
    expect(rejection(r, { ...e, execution_id: "exec-1", token: "tok-root-1" })).toMatchObject({
      invariant: "I4",
      check: "OP-6.6.c1",
    });
    // A replica, with the current token (the token is right, the execution does not hold it).
    expect(rejection(r, { ...e, execution_id: "rep-1", token: "t2" })).toMatchObject({
      invariant: "I4",
      check: "OP-6.6.c1",
    });
    expect(accept(r, { ...e, execution_id: "exec-1", token: "t2" }).events.map((x) => x.type)).toEqual([
      "effect.performed",
    ]);
  });
  it("OP-7.7.c1 reject: cancelling a migration other than the one in progress is NOT_FOUND and leaves it in progress", () => {
    const f = accept(minted(), {
      op: "ripa.migration_fence",
      tick: 2,
      agent: AGENT,
      migration_id: "m1",
      token: "f1",
    }).world;
    const cancel = {
      op: "ripa.migration_cancel" as const,
      tick: 3,
      agent: AGENT,
      no_target_active: true,
      authorization: K.AUTH,
    };
    expect(rejection(f, { ...cancel, migration_id: "m2" })).toMatchObject({ code: "NOT_FOUND", check: "OP-7.7.c1" });
    expect(accept(f, { ...cancel, migration_id: "m1" }).events).toEqual([
      { type: "migration.cancelled", migration_id: "m1" },
    ]);
  });
  it("OP-7.2.c1 .. OP-7.6.c1 reject: a phase command out of order is I4, failed at its own phase check (the clause the witness table counts)", () => {
    const f = accept(minted(), {
      op: "ripa.migration_fence",
      tick: 2,
      agent: AGENT,
      migration_id: "m1",
      token: "f1",
    }).world;
    const c = toCheckpoint(minted());
    const m = { tick: 5, agent: AGENT, migration_id: "m1" };
    expect(rejection(c, { op: "ripa.migration_checkpoint", ...m })).toMatchObject({
      invariant: "I4",
      check: "OP-7.2.c1",
    });
    expect(rejection(f, validateCmd(f, { bundle_digest: K.EVIDENCE }))).toMatchObject({
      invariant: "I4",
      check: "OP-7.3.c1",
    });
    expect(rejection(f, { op: "ripa.migration_bind", ...m, surfaces: [], labels: {} })).toMatchObject({
      invariant: "I4",
      check: "OP-7.4.c1",
    });
    expect(rejection(f, { op: "ripa.migration_rehydrate", ...m })).toMatchObject({
      invariant: "I4",
      check: "OP-7.5.c1",
    });
    expect(rejection(f, { op: "ripa.migration_resume", ...m, token: "t-res" })).toMatchObject({
      invariant: "I4",
      check: "OP-7.6.c1",
    });
  });
});

describe("I5 visible capability delta", () => {
  it("I5 accept: the delta is reported; a gain with authorisation is accepted", () => {
    const c = toCheckpoint(minted());
    const gaining = { ...target, providers: [{ ...target.providers[0], capabilities: ["fare.search", "vcs.push"] }] };
    expect(rejection(c, validateCmd(c, { target: gaining })).invariant).toBe("I5");
    const r = accept(c, validateCmd(c, { target: gaining, gain_authorization: K.AUTH }));
    expect(r.events[0]).toEqual({
      type: "migration.validated",
      migration_id: "m1",
      delta: { gained: ["vcs.push"], lost: ["mail.send"], unchanged: ["fare.search"] },
    });
  });
  it("I5 reject: a target lacking a required capability fails closed; an effect through the wrong provider", () => {
    const c = toCheckpoint(minted());
    const lacking = { ...target, providers: [{ ...target.providers[0], capabilities: ["mail.send"] }] };
    expect(rejection(c, validateCmd(c, { target: lacking })).invariant).toBe("I5");
    const e = {
      op: "ripa.effect" as const,
      tick: 3,
      agent: AGENT,
      execution_id: "exec-1",
      token: "tok-root-1",
      effect_id: "e1",
    };
    expect(rejection(minted(), { ...e, provider_id: "prov-z", capability: "fare.search" }).invariant).toBe("I5");
    expect(rejection(minted(), { ...e, provider_id: "prov-a", capability: "vcs.push" }).invariant).toBe("I5");
  });
});

describe("I6 self-description", () => {
  it("I6 accept: free labels on a surface are metadata", () => {
    const r = accept(minted(), {
      op: "ripa.bind_surface",
      tick: 2,
      agent: AGENT,
      surface: { surface_id: "s", kind: "chat", account: "a", session: "x" },
      labels: { team: "blue" },
    });
    expect(ripa(r.world)?.surfaces).toEqual([
      { surface: { surface_id: "s", kind: "chat", account: "a", session: "x" }, labels: { team: "blue" } },
    ]);
  });
  it("I6 reject: a label claiming the identity, on a surface or at migration bind", () => {
    expect(
      rejection(minted(), {
        op: "ripa.bind_surface",
        tick: 2,
        agent: AGENT,
        surface: { surface_id: "s", kind: "c", account: "a", session: "x" },
        labels: { designation: "me" },
      }).invariant,
    ).toBe("I6");
    const c = toCheckpoint(minted());
    const v = accept(c, validateCmd(c)).world;
    expect(
      rejection(v, {
        op: "ripa.migration_bind",
        tick: 5,
        agent: AGENT,
        migration_id: "m1",
        surfaces: [],
        labels: { self: "x" },
      }).invariant,
    ).toBe("I6");
  });
});
