/**
 * The scripted session covering every operation family, run unchanged in-process and over the
 * wire. Each step asserts the exact event types (in order) or the exact rejection code.
 */
import { expect } from "vitest";
import type { Command, Event, WorldView } from "../../spec/index.ts";
import { errorCodeOf } from "../../spec/index.ts";
import * as f from "./fixtures.ts";

export type Outcome =
  | { ok: true; events: Event[] }
  | {
      ok: false;
      error: { code: string; invariant: string | null; message: string; definite: boolean; path?: (string | number)[] };
    };

export interface Driver {
  apply(command: unknown): Promise<Outcome>;
  world(): Promise<WorldView>;
}

export class Script {
  constructor(readonly d: Driver) {}

  async ok(cmd: Command, types: readonly string[]): Promise<Event[]> {
    const out = await this.d.apply(cmd);
    if (!out.ok) throw new Error(`${cmd.op} at tick ${cmd.tick} rejected: ${out.error.code} ${out.error.message}`);
    expect(
      out.events.map((e) => e.type),
      `${cmd.op} events`,
    ).toEqual(types);
    return out.events;
  }

  /** `code` is an invariant id (mapped to its catalog code) or a generic code. */
  async err(cmd: unknown, code: string): Promise<Outcome> {
    const out = await this.d.apply(cmd);
    const want = /^(J|S|AD)-\d$|^I\d$/.test(code) ? errorCodeOf(code as never) : code;
    if (out.ok) throw new Error(`${(cmd as Command).op} accepted, expected ${want}: ${JSON.stringify(out.events)}`);
    expect(out.error.code, `${(cmd as Command).op}: ${out.error.message}`).toBe(want);
    expect(out.error.definite).toBe(true);
    return out;
  }
}

const ev = <T extends Event["type"]>(events: Event[], type: T): Extract<Event, { type: T }> => {
  const e = events.find((x) => x.type === type);
  if (e === undefined) throw new Error(`no ${type} event`);
  return e as Extract<Event, { type: T }>;
};

export const ROOT = "root-a";
export const AGENT = f.identityOfRoot(ROOT);
const auth = { custodian: "alice", decision_id: "dec-1" };
const badAuth = { custodian: "mallory", decision_id: "dec-x" };

/** Janma + Samskara + Advaita: lives, distillation, custody, merge, excision, replay, descend. */
export const samsaraSession = async (s: Script): Promise<{ excised: string; distilledTrace: string }> => {
  const A = AGENT;
  const genesis = f.genesisOf(ROOT);
  await s.ok(f.mint(1, ROOT), ["agent.minted", "epoch.advanced"]);
  await s.err(f.mint(1, ROOT), "AD-1");

  // Life 1: ends by a termination predicate after two consecutive failures.
  const trace = "the customer prefers window seats on long haul flights";
  const l1: f.Life = {
    agent: A,
    instance_id: "i1",
    nonce: "n1",
    manifest: f.manifest(genesis, {
      conditions: [{ id: "two-fails", when: { op: "consecutive_failures_at_least", n: 2 } }],
    }),
  };
  await s.ok(f.conceive(1, l1), ["instance.conceived"]);
  await s.err(f.conceive(1, l1), "DUPLICATE_ID");
  await s.err(f.conceive(1, { ...l1, instance_id: "i9" }), "AD-2");
  await s.err(
    f.conceive(1, { ...l1, instance_id: "i9", nonce: "n9", manifest: f.manifest(genesis, { base: f.OTHER_BASE }) }),
    "J-1",
  );
  await s.err(f.act(1, l1), "J-1");
  await s.ok(f.birth(2, l1), ["instance.born"]);
  await s.err(f.birth(2, l1), "J-1");
  await s.ok(f.act(3, l1, { trace: [trace] }), ["instance.acted"]);
  await s.err(f.act(3, l1, { tamper: true }), "AD-4");
  await s.err(f.act(3, l1, { tool: "mail", capability: "mail.send" }), "J-2");
  await s.err(
    {
      op: "janma.acquire",
      tick: 3,
      agent: A,
      instance_id: "i1",
      acquisition: { kind: "capability", capability: "mail.send" },
    },
    "J-2",
  );
  await s.err(
    {
      op: "janma.acquire",
      tick: 3,
      agent: A,
      instance_id: "i1",
      acquisition: { kind: "tool", tool: { tool: "mail", capabilities: ["mail.send"] } },
    },
    "J-1",
  );
  await s.ok(f.act(4, l1, { outcome: "failed" }), ["instance.acted"]);
  const fired = await s.ok(f.act(4, l1, { outcome: "failed" }), ["instance.acted", "instance.withdrawn"]);
  expect(ev(fired, "instance.withdrawn").reason).toEqual({ kind: "termination_condition", condition_id: "two-fails" });
  await s.err(f.act(4, l1), "J-3");
  await s.err(f.distil(4, l1, "ob1", { ...f.distillate(l1, "d1", 800_000, []), episode: trace }), "S-1");
  await s.err(
    f.distil(4, l1, "ob1", f.distillate(l1, "d1", 800_000, [f.disposition("seat.window", 500_000)], 0)),
    "S-2",
  );
  await s.err(f.distil(4, l1, "ob1", f.distillate(l1, "d1", 800_000, [f.disposition("seat.window", -500_000)])), "S-2");
  await s.err(f.distil(4, l1, "ob1", f.distillate(l1, "d1", 800_000, [f.disposition("seat.window", 900_000)])), "S-2");
  await s.err(
    f.distil(
      4,
      l1,
      "ob1",
      f.distillate(l1, "d1", 800_000, [
        f.disposition("seat.window", 500_000, "Customer PREFERS window-seats on long routes"),
      ]),
    ),
    "S-1",
  );
  await s.err(
    f.distil(
      4,
      l1,
      "ob1",
      f.distillate(l1, "d1", 800_000, [f.disposition("health.note", 500_000, "ask about health", "health")]),
    ),
    "S-1",
  );
  await s.err(
    f.distil(4, { ...l1, nonce: "n-other" }, "ob1", f.distillate({ ...l1, nonce: "n-other" }, "d1", 800_000, [])),
    "AD-4",
  );
  const excised = "EXCISED-GUIDANCE-offer an aisle seat when the flight is short";
  const d1 = await s.ok(
    f.distil(
      5,
      l1,
      "ob1",
      f.distillate(l1, "d1", 800_000, [
        f.disposition("seat.window", 600_000, "offer a window seat"),
        f.disposition("seat.aisle", 300_000, excised, "financial"),
      ]),
    ),
    ["trace.destroyed", "obligation.emitted"],
  );
  expect(ev(d1, "trace.destroyed").entries).toBe(1);
  expect(ev(d1, "obligation.emitted").kind).toBe("reinforcing");
  await s.err(f.distil(5, l1, "ob1b", f.distillate(l1, "d1b", 800_000, [])), "J-4");

  // Life 2: withdrawn by TTL, corrective, then merged together with life 1.
  const l2: f.Life = { agent: A, instance_id: "i2", nonce: "n2", manifest: f.manifest(genesis, { ttl: 3 }) };
  await s.ok(f.conceive(5, l2), ["instance.conceived"]);
  await s.ok(f.birth(5, l2), ["instance.born"]);
  await s.err(f.distil(5, l2, "ob2", f.distillate(l2, "d2", -500_000, [])), "J-4");
  await s.ok({ op: "janma.expire", tick: 7, agent: A, instance_id: "i2" }, []);
  await s.err(f.act(8, l2), "J-3");
  await s.ok({ op: "janma.expire", tick: 8, agent: A, instance_id: "i2" }, ["instance.withdrawn"]);
  await s.err(
    f.distil(8, l2, "ob2", f.distillate(l2, "d1", -500_000, [f.disposition("seat.window", -400_000)])),
    "AD-3",
  );
  const d2 = await s.ok(
    f.distil(
      8,
      l2,
      "ob2",
      f.distillate(l2, "d2", -500_000, [f.disposition("seat.window", -400_000, "ask before choosing a seat")], 500_000),
    ),
    ["trace.destroyed", "obligation.emitted"],
  );
  expect(ev(d2, "obligation.emitted").kind).toBe("corrective");
  await s.err({ op: "samskara.merge", tick: 9, agent: A, obligation_ids: ["ob1", "ob-missing"] }, "NOT_FOUND");
  const merged = await s.ok({ op: "samskara.merge", tick: 9, agent: A, obligation_ids: ["ob2", "ob1", "ob1"] }, [
    "store.merged",
    "custody.discharged",
    "custody.discharged",
    "memory.extended",
  ]);
  expect(ev(merged, "store.merged").added).toEqual(["d1", "d2"]);
  await s.ok({ op: "samskara.merge", tick: 9, agent: A, obligation_ids: ["ob1"] }, ["store.merge_noop"]);
  const head1 = ev(merged, "store.merged").version_id;

  // Descend from an unquarantined head (D-030), then reuse of the root is refused (AD-1).
  const desc = {
    op: "ripa.descend",
    tick: 10,
    agent: A,
    root: "root-child",
    designation: "child",
    execution: f.exec("exec-c"),
    authority_token: "tok-c",
  } as const;
  await s.ok(desc, ["agent.minted", "epoch.advanced", "agent.descended"]);
  await s.err({ ...desc, authority_token: "tok-c2" }, "AD-1");

  // Life 3: corrective, custody escalates after max_retries + 1 attempts: quarantine its pin.
  const l3: f.Life = { agent: A, instance_id: "i3", nonce: "n3", manifest: f.manifest(head1) };
  await s.ok(f.conceive(10, l3), ["instance.conceived"]);
  await s.ok(f.birth(10, l3), ["instance.born"]);
  await s.err({ op: "janma.dissolve", tick: 10, agent: A, instance_id: "i3" }, "J-4");
  await s.ok({ op: "janma.withdraw", tick: 11, agent: A, instance_id: "i3", reason: "principal" }, [
    "instance.withdrawn",
  ]);
  await s.err({ op: "janma.withdraw", tick: 11, agent: A, instance_id: "i3", reason: "forced" }, "J-4");
  await s.ok(f.distil(11, l3, "ob3", f.distillate(l3, "d3", -300_000, [f.disposition("tone.formal", -200_000)])), [
    "trace.destroyed",
    "obligation.emitted",
  ]);
  await s.err({ op: "janma.dissolve", tick: 11, agent: A, instance_id: "i3" }, "J-4");
  const att1 = await s.ok({ op: "custody.attempt", tick: 12, agent: A, obligation_id: "ob3", ack: "deferred" }, [
    "custody.attempted",
  ]);
  expect(ev(att1, "custody.attempted").attempts).toBe(1);
  const att2 = await s.ok({ op: "custody.attempt", tick: 13, agent: A, obligation_id: "ob3", ack: "lost" }, [
    "custody.attempted",
    "custody.discharged",
    "version.quarantined",
  ]);
  expect(ev(att2, "custody.discharged").outcome).toBe("escalated");
  expect(ev(att2, "version.quarantined").store_version).toBe(head1);
  await s.err({ op: "custody.attempt", tick: 13, agent: A, obligation_id: "ob3", ack: "lost" }, "J-4");
  await s.err({ op: "samskara.merge", tick: 13, agent: A, obligation_ids: ["ob3"] }, "J-4");
  await s.err(f.conceive(13, { agent: A, instance_id: "i4", nonce: "n4", manifest: f.manifest(head1) }), "J-4");
  await s.err({ ...desc, tick: 13, root: "root-other" }, "J-4");
  await s.ok({ op: "janma.dissolve", tick: 13, agent: A, instance_id: "i3" }, ["instance.dissolved"]);
  await s.ok({ op: "janma.dissolve", tick: 13, agent: A, instance_id: "i1" }, ["instance.dissolved"]);

  // Life 4 (reinforcing, declined) and life 5 (corrective, expired at its deadline).
  const l4: f.Life = { agent: A, instance_id: "i4", nonce: "n4", manifest: f.manifest(genesis) };
  await s.ok(f.conceive(14, l4), ["instance.conceived"]);
  await s.ok(f.birth(14, l4), ["instance.born"]);
  await s.ok({ op: "janma.withdraw", tick: 14, agent: A, instance_id: "i4", reason: "forced" }, ["instance.withdrawn"]);
  await s.ok(f.distil(14, l4, "ob4", f.distillate(l4, "d4", 0, [f.disposition("tone.neutral", 0)])), [
    "trace.destroyed",
    "obligation.emitted",
  ]);
  const dec = await s.ok({ op: "custody.attempt", tick: 14, agent: A, obligation_id: "ob4", ack: "declined" }, [
    "custody.attempted",
    "custody.discharged",
  ]);
  expect(ev(dec, "custody.discharged").outcome).toBe("declined");
  const l5: f.Life = { agent: A, instance_id: "i5", nonce: "n5", manifest: f.manifest(genesis) };
  await s.ok(f.conceive(14, l5), ["instance.conceived"]);
  await s.ok(f.birth(14, l5), ["instance.born"]);
  await s.ok({ op: "janma.withdraw", tick: 14, agent: A, instance_id: "i5", reason: "principal" }, [
    "instance.withdrawn",
  ]);
  await s.ok(f.distil(14, l5, "ob5", f.distillate(l5, "d5", -100_000, [f.disposition("tone.brief", -100_000)])), [
    "trace.destroyed",
    "obligation.emitted",
  ]);
  await s.err({ op: "custody.expire", tick: 15, agent: A, obligation_id: "ob5" }, "J-4");
  await s.ok({ op: "custody.expire", tick: 34, agent: A, obligation_id: "ob5" }, [
    "custody.discharged",
    "version.quarantined",
  ]);

  // Excision (S-5) and replay (S-4); projections never write the store (AD-2).
  const ex: Command = {
    op: "samskara.excise",
    tick: 35,
    agent: A,
    excision_id: "ex1",
    distillate_ids: ["d1"],
    authorization: auth,
  };
  await s.err({ ...ex, authorization: badAuth }, "I2");
  await s.err({ ...ex, distillate_ids: ["d3", "d1"] }, "NOT_FOUND");
  const exc = await s.ok(ex, ["store.excised", "memory.extended"]);
  expect(ev(exc, "store.excised").new_head).not.toBe(head1);
  await s.err(ex, "DUPLICATE_ID");
  const rep = await s.ok({ op: "samskara.replay", tick: 35, agent: A }, ["lineage.replayed"]);
  expect(ev(rep, "lineage.replayed").claim).toMatchObject({ versions: 2, excisions: 1, identity: A });
  await s.err(
    { op: "advaita.project_write", tick: 35, agent: A, instance_id: "i1", disposition: f.disposition("x.y", 1) },
    "AD-2",
  );
  await s.err({ op: "samskara.replay", tick: 34, agent: A }, "TICK_REGRESSED");
  await s.err({ op: "samskara.replay", tick: 35, agent: f.identityOfRoot("nowhere") }, "NOT_FOUND");
  await s.err({ op: "samskara.replay", tick: 35 }, "MALFORMED");
  return { excised, distilledTrace: trace };
};

/** RIPA: tasks, requests and replies, effects, evolve, identity, surfaces, replicas, migration, cancel. */
export const ripaSession = async (s: Script, t0: number): Promise<void> => {
  const A = AGENT;
  const t = t0;
  await s.ok({ op: "ripa.restart", tick: t, agent: A, execution_id: "exec-1", token: "tok-2" }, ["epoch.advanced"]);
  await s.err({ op: "ripa.restart", tick: t, agent: A, execution_id: "exec-1", token: "tok-2" }, "I4");
  await s.err({ op: "ripa.restart", tick: t, agent: A, execution_id: "exec-x", token: "tok-2b" }, "I4");
  await s.ok({ op: "ripa.task_start", tick: t, agent: A, task_id: "task-1" }, ["task.started", "memory.extended"]);
  await s.err({ op: "ripa.task_start", tick: t, agent: A, task_id: "task-1" }, "DUPLICATE_ID");
  await s.ok({ op: "ripa.task_resume", tick: t, agent: A, task_id: "task-1" }, ["task.resumed"]);
  await s.err({ op: "ripa.task_resume", tick: t, agent: A, task_id: "task-x" }, "I2");
  await s.ok({ op: "ripa.request", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-1" }, [
    "attempt.published",
  ]);
  await s.err({ op: "ripa.request", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-1" }, "I4");
  await s.err({ op: "ripa.reply", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-0" }, "I4");
  await s.ok({ op: "ripa.reply", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-1" }, ["reply.accepted"]);
  await s.err({ op: "ripa.reply", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-1" }, "I4");
  const eff = {
    op: "ripa.effect",
    tick: t,
    agent: A,
    execution_id: "exec-1",
    token: "tok-2",
    provider_id: "prov-1",
    capability: "fare.search",
    effect_id: "eff-1",
  } as const;
  await s.ok(eff, ["effect.performed"]);
  await s.ok(eff, ["effect.duplicate"]);
  await s.err({ ...eff, token: "tok-1" }, "I4");
  await s.err({ ...eff, provider_id: "prov-x" }, "I5");
  await s.err({ ...eff, capability: "fare.book" }, "I5");
  await s.err({ op: "ripa.evolve", tick: t, agent: A, revision: "body-2", authorization: badAuth }, "I3");
  await s.ok({ op: "ripa.evolve", tick: t, agent: A, revision: "body-2", authorization: auth }, ["body.evolved"]);
  await s.err({ op: "ripa.evolve", tick: t, agent: A, revision: "body-1", authorization: auth }, "I3");
  await s.err({ op: "ripa.identity_update", tick: t, agent: A, designation: "renamed", authorization: badAuth }, "I1");
  const upd = await s.ok(
    { op: "ripa.identity_update", tick: t, agent: A, designation: "renamed", authorization: auth },
    ["identity.updated"],
  );
  expect(ev(upd, "identity.updated").identity_version).toBe(2);
  const surface = { surface_id: "s1", kind: "chat", account: "acct", session: "sess" };
  await s.ok({ op: "ripa.bind_surface", tick: t, agent: A, surface, labels: { channel: "chat" } }, ["surface.bound"]);
  await s.err({ op: "ripa.bind_surface", tick: t, agent: A, surface, labels: { identity: "someone else" } }, "I6");
  await s.ok({ op: "ripa.replicate", tick: t, agent: A, execution: f.exec("exec-2") }, ["replica.created"]);
  await s.err({ op: "ripa.replicate", tick: t, agent: A, execution: f.exec("exec-1") }, "DUPLICATE_ID");

  // Full six-phase migration.
  await s.ok({ op: "ripa.request", tick: t, agent: A, task_id: "task-1", attempt_nonce: "att-2" }, [
    "attempt.published",
  ]);
  const fence = { op: "ripa.migration_fence", tick: t + 1, agent: A, migration_id: "m1", token: "tok-3" } as const;
  await s.err(fence, "I4"); // a live request attempt: export refuses while a task is running
  await s.ok({ op: "ripa.reply", tick: t + 1, agent: A, task_id: "task-1", attempt_nonce: "att-2" }, [
    "reply.accepted",
  ]);
  await s.err({ ...fence, token: "tok-2" }, "I4");
  await s.ok(fence, ["migration.fenced", "epoch.advanced"]);
  await s.err(fence, "I4");
  await s.err({ op: "ripa.task_start", tick: t + 1, agent: A, task_id: "task-2" }, "I4");
  await s.err({ ...eff, tick: t + 1, effect_id: "eff-2" }, "I4");
  await s.err({ op: "ripa.migration_checkpoint", tick: t + 1, agent: A, migration_id: "m-other" }, "NOT_FOUND");
  const target = {
    execution: f.exec("exec-t"),
    providers: [{ ...f.PROVIDERS[0]!, provider_id: "prov-t", capabilities: ["fare.search", "fare.book"] }],
    body_revision: "body-2",
  };
  const val = {
    op: "ripa.migration_validate",
    tick: t + 1,
    agent: A,
    migration_id: "m1",
    bundle_digest: f.EVIDENCE,
    target,
    gain_authorization: auth,
  } as const;
  await s.err(val, "I4");
  const cp = await s.ok({ op: "ripa.migration_checkpoint", tick: t + 1, agent: A, migration_id: "m1" }, [
    "migration.checkpointed",
  ]);
  const bundle_digest = ev(cp, "migration.checkpointed").bundle_digest;
  await s.err(val, "I2");
  await s.err({ ...val, bundle_digest, target: { ...target, body_revision: "body-1" } }, "I3");
  await s.err({ ...val, bundle_digest, target: { ...target, execution: f.exec("exec-1") } }, "DUPLICATE_ID");
  await s.err(
    {
      ...val,
      bundle_digest,
      target: { ...target, providers: [{ ...target.providers[0]!, capabilities: ["mail.send"] }] },
    },
    "I5",
  );
  await s.err({ ...val, bundle_digest, gain_authorization: null }, "I5");
  const v = await s.ok({ ...val, bundle_digest }, ["migration.validated", "migration.marker"]);
  expect(ev(v, "migration.validated").delta).toEqual({
    gained: ["fare.book"],
    lost: ["mail.send"],
    unchanged: ["fare.search"],
  });
  const s2 = { surface_id: "s2", kind: "api", account: "acct2", session: "sess2" };
  await s.err(
    { op: "ripa.migration_bind", tick: t + 1, agent: A, migration_id: "m1", surfaces: [s2], labels: { self: "x" } },
    "I6",
  );
  await s.err(
    { op: "ripa.migration_bind", tick: t + 1, agent: A, migration_id: "m1", surfaces: [s2, s2], labels: {} },
    "DUPLICATE_ID",
  );
  await s.ok(
    { op: "ripa.migration_bind", tick: t + 1, agent: A, migration_id: "m1", surfaces: [s2], labels: { region: "eu" } },
    ["migration.bound"],
  );
  await s.ok({ op: "ripa.migration_rehydrate", tick: t + 1, agent: A, migration_id: "m1" }, ["migration.marker"]);
  await s.ok({ op: "samskara.replay", tick: t + 1, agent: A }, ["lineage.replayed"]); // allowed while quiesced
  await s.err({ op: "ripa.migration_resume", tick: t + 1, agent: A, migration_id: "m1", token: "tok-3" }, "I4");
  const res = await s.ok({ op: "ripa.migration_resume", tick: t + 2, agent: A, migration_id: "m1", token: "tok-4" }, [
    "migration.marker",
    "epoch.advanced",
    "migration.marker",
    "migration.resumed",
  ]);
  expect(ev(res, "migration.resumed").report).toMatchObject({
    source_execution_id: "exec-1",
    target_execution_id: "exec-t",
    source_generation: 3,
    target_generation: 4,
  });
  await s.err({ op: "ripa.migration_rehydrate", tick: t + 2, agent: A, migration_id: "m1" }, "NOT_FOUND");
  await s.ok(
    {
      ...eff,
      tick: t + 2,
      execution_id: "exec-t",
      token: "tok-4",
      provider_id: "prov-t",
      capability: "fare.book",
      effect_id: "eff-3",
    },
    ["effect.performed"],
  );

  // A second migration, rolled back (cancel); the source must restart with a fresh token.
  await s.ok({ op: "ripa.migration_fence", tick: t + 3, agent: A, migration_id: "m2", token: "tok-5" }, [
    "migration.fenced",
    "epoch.advanced",
  ]);
  const cancel = {
    op: "ripa.migration_cancel",
    tick: t + 3,
    agent: A,
    migration_id: "m2",
    no_target_active: true,
    authorization: auth,
  } as const;
  await s.err({ ...cancel, no_target_active: false }, "I4");
  await s.err({ ...cancel, authorization: badAuth }, "I4");
  await s.ok(cancel, ["migration.cancelled"]);
  await s.err(
    { op: "ripa.migration_fence", tick: t + 3, agent: A, migration_id: "m2", token: "tok-6" },
    "DUPLICATE_ID",
  );
  await s.ok({ op: "ripa.restart", tick: t + 3, agent: A, execution_id: "exec-t", token: "tok-6" }, ["epoch.advanced"]);
};

export const RIPA_T0 = 40;

/** Spot checks of the final world both faces must produce. */
export const checkFinalWorld = (w: WorldView): void => {
  expect(w.tick).toBe(RIPA_T0 + 3);
  expect(w.roots_used).toEqual(["root-a", "root-child"]);
  expect(w.agents).toHaveLength(2);
  const a = w.agents.find((x) => x.identity.identity === AGENT);
  if (a === undefined) throw new Error("agent missing");
  expect(a.store.distillates.map((d) => d.distillate_id)).toEqual(["d2"]);
  expect(a.store.chain).toHaveLength(2);
  expect(a.store.excisions).toHaveLength(1);
  expect(a.store.quarantined).toHaveLength(2);
  expect(a.instances.map((i) => [i.instance_id, i.state, i.trace_entries])).toEqual([
    ["i1", "dissolved", 0],
    ["i2", "withdrawn", 0],
    ["i3", "dissolved", 0],
    ["i4", "withdrawn", 0],
    ["i5", "withdrawn", 0],
  ]);
  expect(a.obligations.map((o) => o.outcome)).toEqual(["applied", "applied", "escalated", "declined", "escalated"]);
  expect(a.substrate.identity.identity_version).toBe(2);
  expect(a.substrate.body).toEqual({ revision: "body-2", lineage: ["body-1", "body-2"] });
  expect(a.substrate.memory.ancestry).toHaveLength(4); // install, merge, excise, task_start
  expect(a.ripa.authority).toEqual({ token: "tok-6", generation: 6, holder: "exec-t" });
  expect(a.ripa.execution.execution_id).toBe("exec-t");
  expect(a.ripa.surfaces.map((x) => x.surface.surface_id)).toEqual(["s2"]);
  expect(a.ripa.fences.map((x) => [x.migration_id, x.status])).toEqual([["m1", "exported"]]);
  expect(a.ripa.marker).toEqual({ migration_id: "m1", status: "verified", target_execution_id: "exec-t" });
  expect(a.ripa.reports).toHaveLength(1);
  expect(a.ripa.effects).toEqual(["eff-1", "eff-3"]);
  expect(a.ripa.migration).toBeNull();
};

export const fullSession = async (d: Driver): Promise<{ excised: string; distilledTrace: string }> => {
  const s = new Script(d);
  const secrets = await samsaraSession(s);
  await ripaSession(s, RIPA_T0);
  checkFinalWorld(await d.world());
  return secrets;
};
