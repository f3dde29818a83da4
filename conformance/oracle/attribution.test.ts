/**
 * D-035's attribution rules, each where it holds and where it would have gone wrong: the expected
 * invariant of every case is the one the rule names (spec/DECISIONS.md D-035, or the owner a
 * field-owners.ts row cites from the spec for a field D-035's list leaves out), never the one the
 * code happened to return.
 */
import { describe, expect, it } from "vitest";
import type { Command, WorldView } from "../../spec/index.ts";
import { Event } from "../../spec/schemas/events.ts";
import { WorldView as WorldViewSchema } from "../../spec/schemas/views.ts";
import { initialWorld, view } from "../../model/index.ts";
import { attribute, differingEvent, fallback, type Place, placeText } from "./attribution.ts";
import { compareReply, compareWorld } from "./compare.ts";
import { differingPaths } from "../../properties/json-diff.ts";
import { agentRelative, EVENT_OWNERS, WORLD_FIELDS } from "./field-owners.ts";
import { expect1 } from "./model.ts";

const MINT: Command = {
  op: "advaita.mint",
  tick: 1,
  base_digest: `sha256:${"ab".repeat(32)}`,
  root: "r-1",
  designation: "agent-1",
  body_revision: "rev-0",
  custodians: ["custodian-2", "custodian-1"],
  execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host" },
  providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["mail.send"] }],
  required_capabilities: ["mail.send"],
  authority_token: "tok-1",
} as Command;

const minted = (): WorldView => view(expect1(initialWorld(), MINT).world);
const clone = (w: WorldView): WorldView => JSON.parse(JSON.stringify(w)) as WorldView;
const agentOf = (w: WorldView): Record<string, Record<string, unknown>> => w.agents[0] as never;

/** A place written as the runner writes it (`$world.agents.0.store`), as data. */
const place = (text: string): Place => {
  const [root, ...rest] = text.split(".");
  return { in: root === "$reply" ? "reply" : "world", path: rest.map((k) => (/^\d+$/.test(k) ? Number(k) : k)) };
};

const worldCase = (op: string, ...paths: string[]) =>
  attribute({
    op,
    modelRejected: null,
    implRejected: null,
    path: paths[0] === undefined ? null : place(paths[0]),
    paths: paths.map(place),
  });

describe("D-035 rule (1): outcomes differ", () => {
  it("the model's invariant when it rejected and the implementation accepted", () => {
    expect(
      attribute({
        op: "janma.act",
        modelRejected: { code: "ADVAITA_ATTRIBUTION_LOST", invariant: "AD-4" },
        implRejected: null,
        path: null,
      }),
    ).toBe("AD-4");
  });
  it("the implementation's invariant when it rejected what the model accepted", () => {
    expect(
      attribute({
        op: "ripa.descend",
        modelRejected: null,
        implRejected: { code: "RIPA_AUTHORITY_CONFLICT", invariant: "I4" },
        path: null,
      }),
    ).toBe("I4");
  });
  it("both rejected: the model's invariant, else the implementation's", () => {
    expect(
      attribute({
        op: "janma.act",
        modelRejected: { code: "ADVAITA_ATTRIBUTION_LOST", invariant: "AD-4" },
        implRejected: { code: "JANMA_LIFETIME_EXCEEDED", invariant: "J-3" },
        path: null,
      }),
    ).toBe("AD-4");
    expect(
      attribute({
        op: "ripa.migration_cancel",
        modelRejected: { code: "NOT_FOUND", invariant: null },
        implRejected: { code: "RIPA_AUTHORITY_CONFLICT", invariant: "I4" },
        path: null,
      }),
    ).toBe("I4");
  });
  it("a generic code whose check protects no invariant, or whose check is unknown, falls to rule (3): the operation's first guard", () => {
    expect(
      attribute({
        op: "advaita.mint",
        modelRejected: { code: "DUPLICATE_ID", invariant: null },
        implRejected: null,
        path: null,
      }),
    ).toBe("AD-1");
    expect(
      attribute({
        op: "janma.act",
        modelRejected: { code: "NOT_FOUND", invariant: null, check: "OP-2.3.c2" },
        implRejected: null,
        path: null,
      }),
    ).toBe("J-1");
    expect(
      attribute({
        op: "janma.conceive",
        modelRejected: { code: "MALFORMED", invariant: null, check: "OP-0.2.c1" },
        implRejected: null,
        path: null,
      }),
    ).toBe(fallback("janma.conceive"));
    expect(fallback("advaita.mint")).toBe("AD-1");
  });
});

describe("D-035 rule (1) for generic codes: the invariant the failing check or uniqueness rule protects", () => {
  it("the model's check: a duplicate provider id (OP-5.1.c2) is I5's, not the mint's guard AD-1", () => {
    expect(
      attribute({
        op: "advaita.mint",
        modelRejected: { code: "DUPLICATE_ID", invariant: null, check: "OP-5.1.c2" },
        implRejected: null,
        path: null,
      }),
    ).toBe("I5");
  });
  it("the model's uniqueness rule: two default rows for one category (a MALFORMED) are S-1's (D-042), not the conceive's guard", () => {
    expect(
      attribute({
        op: "janma.conceive",
        modelRejected: {
          code: "MALFORMED",
          invariant: null,
          check: "OP-0.2.c1",
          rule: "ConsentGrant.unique-category-defaults",
        },
        implRejected: null,
        path: null,
      }),
    ).toBe("S-1");
    expect(
      attribute({
        op: "janma.conceive",
        modelRejected: {
          code: "MALFORMED",
          invariant: null,
          check: "OP-0.2.c1",
          rule: "JanmaManifest.unique-termination-condition-ids",
        },
        implRejected: null,
        path: null,
      }),
    ).toBe("J-3");
  });
  it("both generic: the model's check first (an excision's targets not retained, OP-4.2.c4: S-5), not samskara.excise's first guard S-3", () => {
    expect(
      attribute({
        op: "samskara.excise",
        modelRejected: { code: "NOT_FOUND", invariant: null, check: "OP-4.2.c4" },
        implRejected: { code: "DUPLICATE_ID", invariant: null },
        path: null,
      }),
    ).toBe("S-5");
    expect(fallback("samskara.excise")).toBe("S-3");
  });
  it("both rejected, the model with a generic code and the implementation under an invariant: the invariant named on the wire (an excision refused for its authorisation, I2, before its id was checked)", () => {
    expect(
      attribute({
        op: "samskara.excise",
        modelRejected: { code: "DUPLICATE_ID", invariant: null, check: "OP-4.2.c2" },
        implRejected: { code: "RIPA_MEMORY_ANCESTRY_BROKEN", invariant: "I2" },
        path: null,
      }),
    ).toBe("I2");
    // Against an acceptance the same model rejection is what its check protects.
    expect(
      attribute({
        op: "samskara.excise",
        modelRejected: { code: "DUPLICATE_ID", invariant: null, check: "OP-4.2.c2" },
        implRejected: null,
        path: null,
      }),
    ).toBe("S-5");
  });
  it("the implementation's generic code: only when every check of the operation rejecting with it protects one invariant", () => {
    // advaita.mint has one DUPLICATE_ID check (OP-5.1.c2, I5).
    expect(
      attribute({
        op: "advaita.mint",
        modelRejected: null,
        implRejected: { code: "DUPLICATE_ID", invariant: null },
        path: null,
      }),
    ).toBe("I5");
    // ripa.migration_validate has two (OP-7.3.c5, I4; OP-7.3.c6, I5): the code does not say which, so rule (3).
    expect(
      attribute({
        op: "ripa.migration_validate",
        modelRejected: null,
        implRejected: { code: "DUPLICATE_ID", invariant: null },
        path: null,
      }),
    ).toBe(fallback("ripa.migration_validate"));
    // A NOT_FOUND can always be the agent lookup (OP-0.2.c3), which protects none.
    expect(
      attribute({
        op: "samskara.excise",
        modelRejected: null,
        implRejected: { code: "NOT_FOUND", invariant: null },
        path: null,
      }),
    ).toBe("S-3");
  });
  it("the model's own rejections carry the check and rule, and the comparison uses them", () => {
    const dup = {
      ...MINT,
      root: "r-2",
      providers: [...(MINT as { providers: unknown[] }).providers, ...(MINT as { providers: unknown[] }).providers],
    } as Command;
    const e = expect1(initialWorld(), dup);
    expect(e.rejectedAt).toEqual({ check: "OP-5.1.c2" });
    const m = compareReply("advaita.mint", e.reply, { ok: true, events: [] } as never, e.rejectedAt);
    expect(m?.invariant).toBe("I5");
    // Without the note the same disagreement is the mint's first guard: the note is what moves it.
    expect(compareReply("advaita.mint", e.reply, { ok: true, events: [] } as never)?.invariant).toBe("AD-1");
  });
});

describe("D-035 rule (2): the field that differs names its owner, whatever operation came before", () => {
  it("custodians differing after a mint are I1's (the governance of the identity, D-022), not the mint's guard AD-1", () => {
    const w = minted();
    const bad = clone(w);
    agentOf(bad)["ripa"] = { ...(agentOf(bad)["ripa"] as object), custodians: ["custodian-2", "custodian-1"] };
    const m = compareWorld("advaita.mint", w, bad);
    expect(m?.path && placeText(m.path)).toBe("$world.agents.0.ripa.custodians.0");
    expect(m?.invariant).toBe("I1");
  });
  it("store state: AD-3 after a merge, S-5 after an excision, S-4 after a replay", () => {
    const p = "$world.agents.0.store.state.entries.0.weight";
    expect(worldCase("samskara.merge", p)).toBe("AD-3");
    expect(worldCase("samskara.excise", p)).toBe("S-5");
    expect(worldCase("samskara.replay", p)).toBe("S-4");
  });
  it("momentum: S-4, or S-5 after an excision (OP-1.9 recomputes it over the re-derived chain)", () => {
    const p = "$world.agents.0.store.momentum.0.kappa";
    expect(worldCase("samskara.merge", p)).toBe("S-4");
    expect(worldCase("samskara.excise", p)).toBe("S-5");
    expect(worldCase("samskara.replay", p)).toBe("S-4");
  });
  it("lineage links: S-3 after a merge, S-5 after an excision, S-4 after a replay", () => {
    const p = "$world.agents.0.store.chain.2.parent";
    expect(worldCase("samskara.merge", p)).toBe("S-3");
    expect(worldCase("samskara.excise", p)).toBe("S-5");
    expect(worldCase("samskara.replay", p)).toBe("S-4");
  });
  it("when the aggregate and the head that digests it both differ, the aggregate wins (AD-3, not S-3)", () => {
    expect(
      worldCase(
        "samskara.merge",
        "$world.agents.0.store.head",
        "$world.agents.0.store.chain.1.version_id",
        "$world.agents.0.store.state.entries.0.weight",
      ),
    ).toBe("AD-3");
  });
  it("each owner of D-035's list", () => {
    const cases: readonly [string, string][] = [
      ["$world.agents.1.store.momentum.0", "S-4"],
      ["$world.agents.0.instances.2.trace_entries", "S-1"],
      ["$world.agents.0.obligations.0.status", "J-4"],
      ["$world.agents.0.substrate.identity.designation", "I1"],
      ["$world.agents.0.substrate.memory.ancestry.1", "I2"],
      ["$world.agents.0.substrate.body.lineage.0", "I3"],
      ["$world.agents.0.ripa.authority.generation", "I4"],
      ["$world.agents.0.ripa.effects.0", "I4"],
      ["$world.agents.0.ripa.live_attempts.0.attempt_nonce", "I4"],
      ["$world.agents.0.ripa.fences.0.status", "I4"],
      ["$world.agents.0.ripa.marker", "I4"],
      ["$world.agents.0.ripa.providers.0.capabilities.0", "I5"],
      ["$world.agents.0.ripa.required_capabilities.0", "I5"],
      ["$world.agents.0.ripa.surfaces.0.labels.region", "I6"],
    ];
    // ripa.task_start guards I4 only and janma.act J-1 first: neither is any of these owners' operation.
    for (const [path, owner] of cases) {
      expect(worldCase("ripa.task_start", path), path).toBe(owner);
      expect(worldCase("janma.act", path), path).toBe(owner);
    }
  });
  it("instance fields D-035 leaves out follow the clause that writes them (tools_used: J-3, not janma.act's first guard J-1)", () => {
    expect(worldCase("janma.act", "$world.agents.0.instances.3.tools_used.0")).toBe("J-3");
    expect(worldCase("janma.act", "$world.agents.0.instances.3.withdrawal")).toBe("J-3");
    expect(worldCase("janma.birth", "$world.agents.0.instances.0.grants.0")).toBe("J-2");
    expect(worldCase("janma.birth", "$world.agents.0.instances.0.tools.0")).toBe("J-1");
  });
  it("the bundle of a migration is I2's (validate's bundle check), ahead of the fence that records its digest (I4)", () => {
    expect(
      worldCase(
        "ripa.migration_checkpoint",
        "$world.agents.0.ripa.fences.0.bundle_digest",
        "$world.agents.0.ripa.migration.bundle.task_ids.0",
      ),
    ).toBe("I2");
    expect(worldCase("ripa.migration_checkpoint", "$world.agents.0.ripa.fences.0.bundle_digest")).toBe("I4");
  });
  it("a field no row owns falls to rule (3)", () => {
    expect(worldCase("janma.act", "$world.tick")).toBe("J-1");
    expect(worldCase("janma.act", "$world.agents.0.instances.0.state")).toBe("J-1");
  });
});

describe("D-035 rule (2) for events: the event names the owner of what it reports", () => {
  const ok = (events: unknown[]) => ({ ok: true as const, events: events as never[] });
  it("trace.destroyed counting the wrong thing is S-1 (held trace entries), not janma.distil's first guard J-4", () => {
    const m = compareReply(
      "janma.distil",
      ok([{ type: "trace.destroyed", instance_id: "i", entries: 3 }]),
      ok([{ type: "trace.destroyed", instance_id: "i", entries: 1 }]) as never,
    );
    expect(m?.path && placeText(m.path)).toBe("$reply.events.0.entries");
    expect(m?.invariant).toBe("S-1");
  });
  it("a missing instance.withdrawn is J-3 (a predicate that held did not withdraw)", () => {
    const acted = { type: "instance.acted", instance_id: "i", tool: "t", capability: "c.x", outcome: "ok" };
    const m = compareReply(
      "janma.act",
      ok([acted, { type: "instance.withdrawn", instance_id: "i", reason: { kind: "ttl" } }]),
      ok([acted]) as never,
    );
    expect(m?.invariant).toBe("J-3");
  });
  it("an extra custody.discharged is J-4 although the first differing index holds memory.extended (I2)", () => {
    const merged = {
      type: "store.merged",
      version_id: `sha256:${"0".repeat(64)}`,
      batch_digest: `sha256:${"1".repeat(64)}`,
      added: ["d1"],
    };
    const discharged = (id: string) => ({ type: "custody.discharged", obligation_id: id, outcome: "applied" });
    const memory = { type: "memory.extended", snapshot: `sha256:${"2".repeat(64)}` };
    const m = compareReply(
      "samskara.merge",
      ok([merged, discharged("o1"), memory]),
      ok([merged, discharged("o1"), discharged("o0"), memory]) as never,
    );
    expect(m?.path && placeText(m.path)).toBe("$reply.events.2.type");
    expect(
      differingEvent(["events", 2, "type"], {
        expected: [merged, discharged("o1"), memory],
        actual: [merged, discharged("o1"), discharged("o0"), memory],
      })?.type,
    ).toBe("custody.discharged");
    expect(m?.invariant).toBe("J-4");
  });
  it("a migration report's flag names its own invariant", () => {
    expect(
      attribute({
        op: "ripa.migration_resume",
        modelRejected: null,
        implRejected: null,
        path: place("$reply.events.3.report.memory_ancestry_preserved"),
        events: {
          expected: [{}, {}, {}, { type: "migration.resumed" }],
          actual: [{}, {}, {}, { type: "migration.resumed" }],
        },
      }),
    ).toBe("I2");
  });
  it("a rejection's fields are not events: both rejected with one code but another definiteness is the model's invariant (rule 1)", () => {
    const m = compareReply(
      "janma.act",
      { ok: false, error: { code: "JANMA_LIFETIME_EXCEEDED", invariant: "J-3", definite: true } },
      { ok: false, error: { code: "JANMA_LIFETIME_EXCEEDED", invariant: "J-3", definite: false } } as never,
    );
    expect(m?.path && placeText(m.path)).toBe("$reply.error.definite");
    expect(m?.invariant).toBe("J-3");
  });
});

describe("every observable field has an owner or is left to rule (3) on purpose", () => {
  it("every event type of the Event schema has an owner", () => {
    const types = Event.options.map((o) => o.shape.type.value);
    // instance.conceived and instance.acted report only ids the reply already names; migration.resumed is owned field by field.
    const byRule3 = ["instance.conceived", "instance.acted", "migration.resumed"];
    expect(types.filter((t) => EVENT_OWNERS[t] === undefined && !byRule3.includes(t))).toEqual([]);
    expect(Object.keys(EVENT_OWNERS).filter((t) => !types.includes(t as never))).toEqual([]);
  });
  it("every top-level field of a world view and an agent view is owned, or is one of the fields left to rule (3)", () => {
    const w = minted();
    const agent = agentOf(w);
    const leftToRule3 = new Set(["$world.tick", ".instances"]);
    const paths = [
      ...Object.keys(WorldViewSchema.shape)
        .filter((k) => k !== "agents")
        .map((k) => `$world.${k}`),
      ...Object.entries(agent).flatMap(([k, v]) =>
        v !== null && typeof v === "object" && !Array.isArray(v) ? Object.keys(v).map((s) => `.${k}.${s}`) : [`.${k}`],
      ),
    ];
    const unowned = paths.filter((p) => !leftToRule3.has(p) && !WORLD_FIELDS.some((r) => r.test.test(p)));
    expect(unowned).toEqual([]);
    expect(agentRelative(["agents", 12, "ripa", "custodians", 0])).toBe(".ripa.custodians.0");
    expect(agentRelative(["roots_used", 1])).toBe("$world.roots_used.1");
  });
  it("differingPaths lists every differing leaf, which the priority rule needs", () => {
    const w = minted();
    const bad = clone(w);
    agentOf(bad)["identity"] = { ...(agentOf(bad)["identity"] as object), root: "r-2" };
    expect(differingPaths(w, bad)).toEqual([["agents", 0, "identity", "root"]]);
    expect(compareWorld("ripa.task_start", w, bad)?.invariant).toBe("AD-1");
  });
});
