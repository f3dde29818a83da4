/**
 * The RIPA items of spec review 1 as the reference model decides them (spec/review/ripa.ts):
 * for each rule, a case where it holds and a case at its edge where the other reading would differ.
 */
import { describe, it, expect } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, accept, acceptAll, minted, rejection } from "../fixture.ts";
import { view } from "../view.ts";
import type { World } from "../state.ts";
import { initialWorld } from "../world.ts";

const agentView = (w: World, id: string = AGENT) => view(w).agents.find((a) => a.identity.identity === id);
const surface = (id: string, session = "x") => ({ surface_id: id, kind: "chat", account: "a", session });
const grant = (provider_id: string, capabilities: string[]) => ({
  provider_id,
  kind: "service" as const,
  contract_version: "v1",
  capabilities,
});

/** Fence and checkpoint migration `id`; returns the world and the bundle digest. */
const checkpointed = (w: World, id: string, token: string): { world: World; digest: string } => {
  const f = acceptAll(w, [
    { op: "ripa.migration_fence", tick: 5, agent: AGENT, migration_id: id, token },
    { op: "ripa.migration_checkpoint", tick: 5, agent: AGENT, migration_id: id },
  ]);
  return { world: f, digest: agentView(f)?.ripa.migration?.bundle_digest ?? "" };
};
const validate = (
  digest: string,
  id: string,
  execution: string,
  providers = [grant("prov-t", ["fare.search"])],
): Command => ({
  op: "ripa.migration_validate",
  tick: 5,
  agent: AGENT,
  migration_id: id,
  bundle_digest: digest,
  target: { execution: K.exec(execution), providers, body_revision: "rev-1" },
  gain_authorization: K.AUTH,
});
/** A whole migration `id` to `execution`, binding `surfaces`. */
const migrated = (
  w: World,
  id: string,
  execution: string,
  surfaces: ReturnType<typeof surface>[],
  token: string,
): World => {
  const c = checkpointed(w, id, `${token}-f`);
  return acceptAll(c.world, [
    validate(c.digest, id, execution),
    { op: "ripa.migration_bind", tick: 5, agent: AGENT, migration_id: id, surfaces, labels: { region: "eu" } },
    { op: "ripa.migration_rehydrate", tick: 5, agent: AGENT, migration_id: id },
    { op: "ripa.migration_resume", tick: 5, agent: AGENT, migration_id: id, token },
  ]);
};

describe("G-33 provider grants are sets, providers sorted (OP-5.2)", () => {
  it("holds: a mint's unsorted, repeated capabilities and unsorted providers are shown sorted and de-duplicated", () => {
    const w = accept(
      initialWorld(),
      K.mintCmd(1, "root-1", {
        providers: [grant("prov-z", ["vcs.push", "fare.search", "vcs.push"]), grant("prov-a", ["mail.send"])],
      }),
    ).world;
    expect(agentView(w)?.ripa.providers.map((p) => [p.provider_id, p.capabilities])).toEqual([
      ["prov-a", ["mail.send"]],
      ["prov-z", ["fare.search", "vcs.push"]],
    ]);
  });
  it("holds at the edge: an empty capability list stays empty; a sorted one is unchanged", () => {
    const w = accept(
      initialWorld(),
      K.mintCmd(1, "root-1", { providers: [grant("prov-a", []), grant("prov-b", ["a.x", "b.y"])] }),
    ).world;
    expect(agentView(w)?.ripa.providers.map((p) => p.capabilities)).toEqual([[], ["a.x", "b.y"]]);
  });
  it("holds for target providers: validate records them as sets, and resume installs them so", () => {
    const c = checkpointed(minted(), "m1", "f1");
    const v = accept(
      c.world,
      validate(c.digest, "m1", "exec-2", [
        grant("prov-t", ["vcs.push", "fare.search", "fare.search"]),
        grant("prov-c", ["mail.send"]),
      ]),
    ).world;
    expect(agentView(v)?.ripa.migration?.target?.providers.map((p) => [p.provider_id, p.capabilities])).toEqual([
      ["prov-c", ["mail.send"]],
      ["prov-t", ["fare.search", "vcs.push"]],
    ]);
  });
  it("breaks: one provider id twice is DUPLICATE_ID at mint and at validate (never last-wins), after AD-1", () => {
    const twice = [grant("prov-a", ["fare.search"]), grant("prov-a", ["mail.send"])];
    expect(rejection(initialWorld(), K.mintCmd(1, "root-1", { providers: twice })).code).toBe("DUPLICATE_ID");
    expect(rejection(minted(), K.mintCmd(2, "root-1", { providers: twice })).invariant).toBe("AD-1");
    const c = checkpointed(minted(), "m1", "f1");
    expect(rejection(c.world, validate(c.digest, "m1", "exec-2", twice)).code).toBe("DUPLICATE_ID");
  });
});

describe("G-34 the install token is a used token", () => {
  it("breaks: restart, fence and resume with the mint's token are I4", () => {
    expect(
      rejection(minted(), { op: "ripa.restart", tick: 2, agent: AGENT, execution_id: "exec-1", token: "tok-root-1" })
        .invariant,
    ).toBe("I4");
    expect(
      rejection(minted(), {
        op: "ripa.migration_fence",
        tick: 2,
        agent: AGENT,
        migration_id: "m1",
        token: "tok-root-1",
      }).invariant,
    ).toBe("I4");
  });
  it("holds: a token never used by the agent takes an epoch", () => {
    expect(
      accept(minted(), { op: "ripa.restart", tick: 2, agent: AGENT, execution_id: "exec-1", token: "tok-2" }).events,
    ).toEqual([{ type: "epoch.advanced", generation: 2, holder: "exec-1" }]);
  });
});

describe("G-35 what a descendant takes from its parent (OP-6.11)", () => {
  const CHILD = K.identityFor("root-c");
  const parent = (): World =>
    acceptAll(minted(), [
      { op: "ripa.evolve", tick: 2, agent: AGENT, revision: "rev-2", authorization: K.AUTH },
      { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface: surface("s-p"), labels: { team: "t" } },
      { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-p") },
      { op: "ripa.restart", tick: 2, agent: AGENT, execution_id: "exec-1", token: "tok-p2" },
    ]);
  const descend = (w: World, token: string): World =>
    accept(w, {
      op: "ripa.descend",
      tick: 3,
      agent: AGENT,
      root: "root-c",
      designation: "child",
      execution: K.exec("exec-c"),
      authority_token: token,
    }).world;

  it("holds: the child's lineage is the parent's current revision alone; no surfaces, no replicas", () => {
    const c = agentView(descend(parent(), "tok-c"), CHILD);
    expect(c?.substrate.body).toEqual({ revision: "rev-2", lineage: ["rev-2"] });
    expect(c?.ripa.surfaces).toEqual([]);
    expect(c?.ripa.replicas).toEqual([]);
    expect(c?.ripa.providers).toEqual(agentView(parent())?.ripa.providers);
  });
  it("holds at the edge: the child may evolve to a revision its parent held before, but not to its own", () => {
    const w = descend(parent(), "tok-c");
    expect(
      accept(w, { op: "ripa.evolve", tick: 4, agent: CHILD, revision: "rev-1", authorization: K.AUTH }).events,
    ).toEqual([{ type: "body.evolved", revision: "rev-1" }]);
    expect(
      rejection(w, { op: "ripa.evolve", tick: 4, agent: CHILD, revision: "rev-2", authorization: K.AUTH }).invariant,
    ).toBe("I3");
  });
  it("holds: tokens are per agent; the parent's current and past tokens are fresh for the child, its own install token is not", () => {
    const w = descend(parent(), "tok-p2");
    expect(agentView(w, CHILD)?.ripa.authority).toEqual({ token: "tok-p2", generation: 1, holder: "exec-c" });
    expect(
      accept(w, { op: "ripa.restart", tick: 4, agent: CHILD, execution_id: "exec-c", token: "tok-root-1" }).events,
    ).toHaveLength(1);
    expect(
      rejection(w, { op: "ripa.restart", tick: 4, agent: CHILD, execution_id: "exec-c", token: "tok-p2" }).invariant,
    ).toBe("I4");
    // The child's token does not become used by the parent, nor does the parent's token set change.
    expect(
      rejection(w, { op: "ripa.restart", tick: 4, agent: AGENT, execution_id: "exec-1", token: "tok-p2" }).invariant,
    ).toBe("I4");
    const again = acceptAll(parent(), [
      {
        op: "ripa.descend",
        tick: 3,
        agent: AGENT,
        root: "root-c",
        designation: "c",
        execution: K.exec("exec-c"),
        authority_token: "tok-x",
      },
    ]);
    expect(
      accept(again, { op: "ripa.restart", tick: 4, agent: AGENT, execution_id: "exec-1", token: "tok-x" }).events,
    ).toHaveLength(1);
  });
});

describe("G-36 a replica may be the migration target, and leaves the replicas when promoted", () => {
  const withReplicas = (): World =>
    acceptAll(minted(), [
      { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-1") },
      { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-2") },
    ]);
  it("holds: validate accepts a replica's execution id; resume makes it the holder and drops it from the replicas", () => {
    const w = migrated(withReplicas(), "m1", "rep-1", [], "r1");
    const r = agentView(w)?.ripa;
    expect(r?.execution.execution_id).toBe("rep-1");
    expect(r?.authority.holder).toBe("rep-1");
    expect(r?.replicas.map((x) => x.execution_id)).toEqual(["rep-2"]);
  });
  it("breaks: the source execution itself is DUPLICATE_ID", () => {
    const c = checkpointed(withReplicas(), "m1", "f1");
    expect(rejection(c.world, validate(c.digest, "m1", "exec-1")).code).toBe("DUPLICATE_ID");
  });
  it("holds at the edge: a cancelled promotion leaves the replica where it was", () => {
    const c = checkpointed(withReplicas(), "m1", "f1");
    const v = accept(c.world, validate(c.digest, "m1", "rep-1")).world;
    const x = accept(v, {
      op: "ripa.migration_cancel",
      tick: 6,
      agent: AGENT,
      migration_id: "m1",
      no_target_active: true,
      authorization: K.AUTH,
    }).world;
    expect(agentView(x)?.ripa.replicas.map((r) => r.execution_id)).toEqual(["rep-1", "rep-2"]);
  });
});

describe("G-37 resume replaces the surfaces wholesale; replicas survive", () => {
  const before = (): World =>
    acceptAll(minted(), [
      { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface: surface("s-old"), labels: { team: "a" } },
      { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface: surface("s-keep"), labels: { team: "b" } },
      { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-1") },
    ]);
  it("holds: a surface the bind did not name is gone; a named one takes the bind's labels; replicas stay", () => {
    const r = agentView(
      migrated(before(), "m1", "exec-2", [surface("s-keep", "y"), surface("s-new", "y")], "r1"),
    )?.ripa;
    expect(r?.surfaces).toEqual([
      { surface: surface("s-keep", "y"), labels: { region: "eu" } },
      { surface: surface("s-new", "y"), labels: { region: "eu" } },
    ]);
    expect(r?.replicas.map((x) => x.execution_id)).toEqual(["rep-1"]);
  });
  it("holds at the edge: a bind with no surfaces leaves the agent without any (unreachable, still the same agent)", () => {
    const r = agentView(migrated(before(), "m1", "exec-2", [], "r1"));
    expect(r?.ripa.surfaces).toEqual([]);
    expect(r?.identity.identity).toBe(AGENT);
  });
});

describe("G-38 naming a migration that is not in progress is NOT_FOUND", () => {
  it("breaks: with no migration ever, after completion and after cancel, phase commands and cancel are NOT_FOUND", () => {
    const cancel = (id: string): Command => ({
      op: "ripa.migration_cancel",
      tick: 7,
      agent: AGENT,
      migration_id: id,
      no_target_active: true,
      authorization: K.AUTH,
    });
    expect(
      rejection(minted(), { op: "ripa.migration_checkpoint", tick: 2, agent: AGENT, migration_id: "m1" }).code,
    ).toBe("NOT_FOUND");
    expect(rejection(minted(), cancel("m1")).code).toBe("NOT_FOUND");
    const done = migrated(minted(), "m1", "exec-2", [], "r1");
    expect(rejection(done, { op: "ripa.migration_rehydrate", tick: 7, agent: AGENT, migration_id: "m1" }).code).toBe(
      "NOT_FOUND",
    );
    expect(rejection(done, cancel("m1")).code).toBe("NOT_FOUND");
    const cancelled = accept(checkpointed(minted(), "m2", "f2").world, cancel("m2")).world;
    expect(
      rejection(cancelled, { op: "ripa.migration_checkpoint", tick: 7, agent: AGENT, migration_id: "m2" }).code,
    ).toBe("NOT_FOUND");
  });
  it("holds: the migration in progress, out of order, is I4", () => {
    expect(
      rejection(checkpointed(minted(), "m1", "f1").world, {
        op: "ripa.migration_rehydrate",
        tick: 6,
        agent: AGENT,
        migration_id: "m1",
      }).invariant,
    ).toBe("I4");
  });
});

describe("G-40 rebinding a surface replaces its labels", () => {
  it("holds: the old labels are gone, the new ones stand alone", () => {
    const w = acceptAll(minted(), [
      { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface: surface("s1"), labels: { team: "a", zone: "z" } },
      { op: "ripa.bind_surface", tick: 3, agent: AGENT, surface: surface("s1", "y"), labels: { region: "eu" } },
    ]);
    expect(agentView(w)?.ripa.surfaces).toEqual([{ surface: surface("s1", "y"), labels: { region: "eu" } }]);
  });
  it("holds at the edge: rebinding with no labels leaves none; another surface id is added beside", () => {
    const w = acceptAll(minted(), [
      { op: "ripa.bind_surface", tick: 2, agent: AGENT, surface: surface("s1"), labels: { team: "a" } },
      { op: "ripa.bind_surface", tick: 3, agent: AGENT, surface: surface("s1"), labels: {} },
      { op: "ripa.bind_surface", tick: 3, agent: AGENT, surface: surface("s0"), labels: { team: "b" } },
    ]);
    expect(agentView(w)?.ripa.surfaces.map((s) => [s.surface.surface_id, s.labels])).toEqual([
      ["s0", { team: "b" }],
      ["s1", {}],
    ]);
  });
});

describe("G-42 cancel drops only its own marker", () => {
  const cancel = (id: string): Command => ({
    op: "ripa.migration_cancel",
    tick: 7,
    agent: AGENT,
    migration_id: id,
    no_target_active: true,
    authorization: K.AUTH,
  });
  it("holds: a cancel before validate keeps the completed migration's verified marker", () => {
    const done = migrated(minted(), "m1", "exec-2", [], "r1");
    const w = accept(checkpointed(done, "m2", "f2").world, cancel("m2")).world;
    expect(agentView(w)?.ripa.marker).toEqual({
      migration_id: "m1",
      status: "verified",
      target_execution_id: "exec-2",
    });
  });
  it("breaks: a cancel after its own validate drops its own marker, even over an earlier one", () => {
    const done = migrated(minted(), "m1", "exec-2", [], "r1");
    const c = checkpointed(done, "m2", "f2");
    const v = accept(c.world, validate(c.digest, "m2", "exec-3")).world;
    expect(agentView(v)?.ripa.marker?.migration_id).toBe("m2");
    expect(agentView(accept(v, cancel("m2")).world)?.ripa.marker).toBeNull();
  });
});
