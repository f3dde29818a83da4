import { describe, it, expect } from "vitest";
import { errorCodeOf } from "../../spec/index.ts";
import type { Command } from "../../spec/index.ts";
import { AGENT, PIN, K, accept, acceptAll, born, distilCmd, distilled, life, minted, rejection } from "../fixture.ts";
import { view } from "../view.ts";
import { holds } from "./termination.ts";

const inst = (w: Parameters<typeof view>[0], id: string) =>
  view(w).agents[0]?.instances.find((i) => i.instance_id === id);

describe("J-1 complete at birth", () => {
  it("J-1 accept: birth resolves tools and grants, then the instance is ready with sorted tools and grants", () => {
    const w = born(minted(), life("i1"), 2);
    expect(inst(w, "i1")).toMatchObject({ state: "ready", born_tick: 2, tools: ["search"], grants: ["fare.*"] });
  });
  it("J-1 reject: an unoffered tool, an ungrantable grant, a foreign base, a pin outside the chain", () => {
    const l = life("i1");
    const w = accept(minted(), {
      op: "janma.conceive",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      nonce: "n",
      manifest: l.manifest,
    }).world;
    const noTool = rejection(w, {
      op: "janma.birth",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      environment: { tools: [], grantable: ["fare.*"] },
    });
    expect(noTool).toMatchObject({ code: errorCodeOf("J-1"), invariant: "J-1" });
    const narrowTool = rejection(w, {
      op: "janma.birth",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      environment: { tools: [{ tool: "search", capabilities: ["fare.book"] }], grantable: ["fare.*"] },
    });
    expect(narrowTool.invariant).toBe("J-1");
    const noGrant = rejection(w, {
      op: "janma.birth",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      environment: { ...K.ENV, grantable: ["fare.search"] },
    });
    expect(noGrant.invariant).toBe("J-1");
    const foreign = life("i2", PIN, { substrate: { base_digest: K.EVIDENCE, store_version: PIN } });
    expect(
      rejection(w, {
        op: "janma.conceive",
        tick: 2,
        agent: AGENT,
        instance_id: "i2",
        nonce: "n2",
        manifest: foreign.manifest,
      }).invariant,
    ).toBe("J-1");
    const stray = life("i3", K.EVIDENCE);
    const w2 = accept(w, {
      op: "janma.conceive",
      tick: 2,
      agent: AGENT,
      instance_id: "i3",
      nonce: "n3",
      manifest: stray.manifest,
    }).world;
    expect(
      rejection(w2, { op: "janma.birth", tick: 2, agent: AGENT, instance_id: "i3", environment: K.ENV }).invariant,
    ).toBe("J-1");
  });
  it("J-1 reject: no act before birth, no second birth, no tool acquisition", () => {
    const l = life("i1");
    const w = accept(minted(), {
      op: "janma.conceive",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      nonce: l.nonce,
      manifest: l.manifest,
    }).world;
    expect(rejection(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest)).invariant).toBe("J-1");
    expect(
      rejection(w, { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i1", reason: "forced" }).invariant,
    ).toBe("J-1");
    const b = born(minted(), l, 2);
    expect(
      rejection(b, { op: "janma.birth", tick: 3, agent: AGENT, instance_id: "i1", environment: K.ENV }).invariant,
    ).toBe("J-1");
    const acq = rejection(b, {
      op: "janma.acquire",
      tick: 3,
      agent: AGENT,
      instance_id: "i1",
      acquisition: { kind: "tool", tool: { tool: "x", capabilities: ["a.b"] } },
    });
    expect(acq.invariant).toBe("J-1");
  });
});

describe("J-2 scoped capabilities", () => {
  const l = life("i1", PIN, {
    tool_bindings: [{ tool: "search", capabilities: ["fare.search", "mail.send"] }],
    capability_grants: ["fare.*"],
  });
  const env = { tools: [{ tool: "search", capabilities: ["fare.search", "mail.send"] }], grantable: ["fare.*"] };
  const world = () =>
    acceptAll(minted(), [
      { op: "janma.conceive", tick: 2, agent: AGENT, instance_id: "i1", nonce: l.nonce, manifest: l.manifest },
      { op: "janma.birth", tick: 2, agent: AGENT, instance_id: "i1", environment: env },
    ]);
  it("J-2 accept: a bound tool with a declared capability covered by a wildcard grant", () => {
    const w = world();
    const r = accept(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest));
    expect(r.events).toEqual([
      { type: "instance.acted", instance_id: "i1", tool: "search", capability: "fare.search", outcome: "ok" },
    ]);
    expect(inst(r.world, "i1")).toMatchObject({ state: "active", acts: 1, tools_used: ["search"] });
  });
  it("J-2 reject: unbound tool, undeclared capability, capability not granted, acquisition", () => {
    const w = world();
    expect(rejection(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { tool: "mail" })).invariant).toBe("J-2");
    expect(rejection(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { capability: "fare.book" })).invariant).toBe(
      "J-2",
    );
    expect(rejection(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { capability: "mail.send" })).code).toBe(
      errorCodeOf("J-2"),
    );
    const acq = rejection(w, {
      op: "janma.acquire",
      tick: 3,
      agent: AGENT,
      instance_id: "i1",
      acquisition: { kind: "capability", capability: "mail.send" },
    });
    expect(acq.invariant).toBe("J-2");
  });
});

describe("J-3 bounded lifetime", () => {
  const l = life("i1", PIN, {
    ttl_ticks: 10,
    termination_conditions: [
      { id: "two-failures", when: { op: "consecutive_failures_at_least", n: 2 } },
      { id: "five-acts", when: { op: "acts_at_least", n: 5 } },
    ],
  });
  const world = () => born(minted(), l, 2);
  it("J-3 accept: acts before the deadline; expire before the deadline changes nothing", () => {
    const w = world();
    const r = accept(w, K.actCmd(11, AGENT, "i1", l.nonce, l.manifest));
    expect(inst(r.world, "i1")?.state).toBe("active");
    const e = accept(r.world, { op: "janma.expire", tick: 11, agent: AGENT, instance_id: "i1" });
    expect(e.events).toEqual([]);
  });
  it("J-3 reject: an act at born + ttl; expire then withdraws with reason ttl", () => {
    const w = world();
    expect(rejection(w, K.actCmd(12, AGENT, "i1", l.nonce, l.manifest)).invariant).toBe("J-3");
    const e = accept(w, { op: "janma.expire", tick: 12, agent: AGENT, instance_id: "i1" });
    expect(e.events).toEqual([{ type: "instance.withdrawn", instance_id: "i1", reason: { kind: "ttl" } }]);
    expect(rejection(e.world, K.actCmd(12, AGENT, "i1", l.nonce, l.manifest)).invariant).toBe("J-3");
  });
  it("J-3 reject: the first termination condition that holds withdraws the instance after the act (D-015)", () => {
    const w = world();
    const w1 = accept(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { outcome: "failed" })).world;
    const r = accept(w1, K.actCmd(4, AGENT, "i1", l.nonce, l.manifest, { outcome: "failed" }));
    expect(r.events[1]).toEqual({
      type: "instance.withdrawn",
      instance_id: "i1",
      reason: { kind: "termination_condition", condition_id: "two-failures" },
    });
    expect(inst(r.world, "i1")).toMatchObject({
      state: "withdrawn",
      withdrawn_tick: 4,
      failures: 2,
      consecutive_failures: 2,
    });
    expect(rejection(r.world, K.actCmd(5, AGENT, "i1", l.nonce, l.manifest)).invariant).toBe("J-3");
  });
  it("J-3 accept: an ok act resets consecutive failures, so the condition does not fire", () => {
    const w = world();
    const w1 = acceptAll(w, [
      K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { outcome: "failed" }),
      K.actCmd(4, AGENT, "i1", l.nonce, l.manifest, { outcome: "ok" }),
      K.actCmd(5, AGENT, "i1", l.nonce, l.manifest, { outcome: "failed" }),
    ]);
    expect(inst(w1, "i1")).toMatchObject({ state: "active", failures: 2, consecutive_failures: 1 });
  });
});

describe("J-4 one distillation at death", () => {
  const disp = [K.disposition("tool.search", -300_000)];
  const world = () => distilled(minted(), life("i1"), 2, "d1", -500_000, 900_000, disp);
  it("J-4 accept: withdrawal leads to exactly one corrective obligation with the quarantine fail-safe", () => {
    const w = world();
    const o = view(w).agents[0]?.obligations[0];
    expect(o).toMatchObject({
      obligation_id: "ob-d1",
      kind: "corrective",
      status: "pending",
      deadline_tick: 52,
      fail_safe: { action: "quarantine", store_version: PIN },
    });
    expect(inst(w, "i1")).toMatchObject({ trace_entries: 0, obligation_id: "ob-d1" });
  });
  it("J-4 reject: a second distillation, a second withdrawal, dissolving before discharge", () => {
    const w = world();
    expect(rejection(w, distilCmd(life("i1"), 3, "d2", -500_000, 900_000, disp)).invariant).toBe("J-4");
    expect(
      rejection(w, { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i1", reason: "forced" }).invariant,
    ).toBe("J-4");
    expect(rejection(w, { op: "janma.dissolve", tick: 3, agent: AGENT, instance_id: "i1" }).invariant).toBe("J-4");
  });
  it("J-4 reject: a declined corrective obligation quarantines the pin; conception and birth from it are refused", () => {
    const w = world();
    const r = accept(w, { op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "declined" });
    expect(r.events.map((e) => e.type)).toEqual(["custody.attempted", "custody.discharged", "version.quarantined"]);
    const l2 = life("i2");
    expect(
      rejection(r.world, {
        op: "janma.conceive",
        tick: 4,
        agent: AGENT,
        instance_id: "i2",
        nonce: "n2",
        manifest: l2.manifest,
      }).invariant,
    ).toBe("J-4");
    expect(
      rejection(r.world, { op: "samskara.merge", tick: 4, agent: AGENT, obligation_ids: ["ob-d1"] }).invariant,
    ).toBe("J-4");
    expect(
      rejection(r.world, {
        op: "ripa.descend",
        tick: 4,
        agent: AGENT,
        root: "child",
        designation: "c",
        execution: K.exec("e9"),
        authority_token: "ct",
      }).invariant,
    ).toBe("J-4");
    const d = accept(r.world, { op: "janma.dissolve", tick: 4, agent: AGENT, instance_id: "i1" });
    expect(d.events).toEqual([{ type: "instance.dissolved", instance_id: "i1" }]);
  });
  it("J-4 accept: corrective custody allows max_retries + 1 attempts then escalates; reinforcing is best effort", () => {
    const w = world();
    const a1 = accept(w, { op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "lost" });
    expect(a1.events.map((e) => e.type)).toEqual(["custody.attempted"]);
    const a2 = accept(a1.world, {
      op: "custody.attempt",
      tick: 4,
      agent: AGENT,
      obligation_id: "ob-d1",
      ack: "deferred",
    });
    expect(a2.events[1]).toEqual({ type: "custody.discharged", obligation_id: "ob-d1", outcome: "escalated" });
    expect(
      rejection(a2.world, { op: "custody.attempt", tick: 5, agent: AGENT, obligation_id: "ob-d1", ack: "lost" })
        .invariant,
    ).toBe("J-4");
    const pos = distilled(minted(), life("i1"), 2, "d1", 500_000, 900_000, [K.disposition("a", 100_000)]);
    const b = accept(pos, { op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "lost" });
    expect(b.events.map((e) => e.type)).toEqual(["custody.attempted", "custody.discharged"]);
    expect(view(b.world).agents[0]?.store.quarantined).toEqual([]);
  });
  it("J-4 reject: custody.expire before the deadline; at the deadline it escalates a corrective obligation", () => {
    const w = world();
    expect(rejection(w, { op: "custody.expire", tick: 51, agent: AGENT, obligation_id: "ob-d1" }).invariant).toBe(
      "J-4",
    );
    const e = accept(w, { op: "custody.expire", tick: 52, agent: AGENT, obligation_id: "ob-d1" });
    expect(e.events).toEqual([
      { type: "custody.discharged", obligation_id: "ob-d1", outcome: "escalated" },
      { type: "version.quarantined", store_version: PIN },
    ]);
    expect(
      rejection(w, { op: "custody.attempt", tick: 53, agent: AGENT, obligation_id: "ob-d1", ack: "lost" }).invariant,
    ).toBe("J-4");
    expect(rejection(w, { op: "samskara.merge", tick: 53, agent: AGENT, obligation_ids: ["ob-d1"] }).invariant).toBe(
      "J-4",
    );
  });
});

describe("AD-2 projection statelessness (Janma side)", () => {
  it("AD-2 accept: distinct nonces are accepted", () => {
    const w = acceptAll(minted(), [
      { op: "janma.conceive", tick: 2, agent: AGENT, instance_id: "i1", nonce: "n1", manifest: life("i1").manifest },
      { op: "janma.conceive", tick: 2, agent: AGENT, instance_id: "i2", nonce: "n2", manifest: life("i2").manifest },
    ]);
    expect(view(w).agents[0]?.instances.map((i) => i.nonce)).toEqual(["n1", "n2"]);
  });
  it("AD-2 reject: a reused nonce; a projection writing the store; DUPLICATE_ID for a reused instance id", () => {
    const w = accept(minted(), {
      op: "janma.conceive",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      nonce: "n1",
      manifest: life("i1").manifest,
    }).world;
    expect(
      rejection(w, {
        op: "janma.conceive",
        tick: 2,
        agent: AGENT,
        instance_id: "i2",
        nonce: "n1",
        manifest: life("i2").manifest,
      }).invariant,
    ).toBe("AD-2");
    expect(
      rejection(w, {
        op: "janma.conceive",
        tick: 2,
        agent: AGENT,
        instance_id: "i1",
        nonce: "n1",
        manifest: life("i2").manifest,
      }).code,
    ).toBe("DUPLICATE_ID");
    expect(
      rejection(w, {
        op: "advaita.project_write",
        tick: 2,
        agent: AGENT,
        instance_id: "i1",
        disposition: K.disposition("k", 1),
      }).invariant,
    ).toBe("AD-2");
    expect(
      rejection(w, {
        op: "advaita.project_write",
        tick: 2,
        agent: AGENT,
        instance_id: "nope",
        disposition: K.disposition("k", 1),
      }).code,
    ).toBe("NOT_FOUND");
  });
});

describe("AD-4 attribution preservation (signed actions)", () => {
  const l = life("i1");
  const world = () => born(minted(), l, 2);
  it("AD-4 accept: a correctly signed action", () => {
    const w = world();
    expect(accept(w, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest)).events).toHaveLength(1);
  });
  it("AD-4 reject: wrong nonce, tampered action, action tick differing from the command tick", () => {
    const w = world();
    expect(rejection(w, K.actCmd(3, AGENT, "i1", "other", l.manifest)).invariant).toBe("AD-4");
    const c = K.actCmd(3, AGENT, "i1", l.nonce, l.manifest);
    const tampered = { ...c, signed: { ...c.signed, action: { ...c.signed.action, outcome: "failed" as const } } };
    expect(rejection(w, tampered).invariant).toBe("AD-4");
    expect(rejection(w, { ...c, tick: 4 }).invariant).toBe("AD-4");
  });
});

describe("S-1 the paper's example disposition, copied verbatim (spec review G-49)", () => {
  const l = life("i1");
  const world = () =>
    acceptAll(born(minted(), l, 2), [
      K.actCmd(3, AGENT, l.id, l.nonce, l.manifest, { trace: ["searched fares"] }),
      { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: l.id, reason: "principal" },
    ]);
  const withDisposition = (over: Record<string, unknown>) => {
    const c = distilCmd(l, 4, "d1", 900_000, 1_000_000, [
      K.disposition("k.a", 900_000, { guidance: "check refund terms" }),
    ]) as Extract<Command, { op: "janma.distil" }>;
    const d = c.distillate as { dispositions: Record<string, unknown>[] };
    return { ...c, distillate: { ...d, dispositions: [{ ...d.dispositions[0], ...over }] } };
  };
  it("S-1 reject: a decimal weight names the weight and asks for integer millionths (D-001)", () => {
    const w = world();
    const r = rejection(w, withDisposition({ weight: 0.9 }));
    expect(r).toMatchObject({ invariant: "S-1", path: ["distillate", "dispositions", 0, "weight"] });
    expect(r.message).toContain("900000");
  });
  it("S-1 reject: an abbreviated evidence digest names the field and asks for a full digest (D-004)", () => {
    const w = world();
    const r = rejection(w, withDisposition({ evidence_digest: "dfde43976886" }));
    expect(r).toMatchObject({ invariant: "S-1", path: ["distillate", "dispositions", 0, "evidence_digest"] });
    expect(r.message).toContain("64 lowercase hex");
  });
  it("S-1 accept: the same disposition in the kit's formats, and no hint on a failure elsewhere", () => {
    const w = world();
    expect(accept(w, withDisposition({ weight: 900_000 })).events.map((e) => e.type)).toEqual([
      "trace.destroyed",
      "obligation.emitted",
    ]);
    const r = rejection(w, withDisposition({ key: 5 }));
    expect(r.invariant).toBe("S-1");
    expect(r.message).not.toContain("D-001");
    expect(r.message).not.toContain("D-004");
  });
});

describe("J-1, J-2 the capability algebra (D-016): an exact grant or offer stands for itself only", () => {
  const conceived = (grants: string[], bound: string[]) => {
    const l = life("i1", PIN, { capability_grants: grants, tool_bindings: [{ tool: "search", capabilities: bound }] });
    const w = accept(minted(), {
      op: "janma.conceive",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      nonce: l.nonce,
      manifest: l.manifest,
    }).world;
    return { l, w, env: (grantable: string[]) => ({ tools: [{ tool: "search", capabilities: bound }], grantable }) };
  };
  it("J-1 reject at OP-2.2.c7: an exact offer grants neither a capability below a look-alike prefix nor a wildcard; it grants itself", () => {
    const { w, env } = conceived(["fare.search"], ["fare.search"]);
    const birth = (grantable: string[]) =>
      ({ op: "janma.birth", tick: 2, agent: AGENT, instance_id: "i1", environment: env(grantable) }) as const;
    // "farexy" is no wildcard: it does not stand for "fare.*" (its last two characters are not ".*").
    expect(rejection(w, birth(["farexy"]))).toMatchObject({ invariant: "J-1", check: "OP-2.2.c7" });
    expect(accept(w, birth(["fare.search"])).events).toEqual([{ type: "instance.born", instance_id: "i1" }]);
    const wild = conceived(["null.a.*"], ["null.a.b"]);
    // An exact offer never grants a wildcard, whatever the wildcard's prefix.
    expect(
      rejection(wild.w, {
        op: "janma.birth",
        tick: 2,
        agent: AGENT,
        instance_id: "i1",
        environment: wild.env(["fare.search"]),
      }),
    ).toMatchObject({ invariant: "J-1", check: "OP-2.2.c7" });
    expect(
      accept(wild.w, { op: "janma.birth", tick: 2, agent: AGENT, instance_id: "i1", environment: wild.env(["null.*"]) })
        .events,
    ).toHaveLength(1);
  });
  it("J-2 reject at OP-2.3.c7: an exact held grant covers its own capability and no other, even one whose first segment is null", () => {
    const { l, w, env } = conceived(["fare.search"], ["fare.search", "null.x"]);
    const b = accept(w, {
      op: "janma.birth",
      tick: 2,
      agent: AGENT,
      instance_id: "i1",
      environment: env(["fare.*"]),
    }).world;
    expect(rejection(b, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { capability: "null.x" }))).toMatchObject({
      invariant: "J-2",
      check: "OP-2.3.c7",
    });
    expect(accept(b, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { capability: "fare.search" })).events).toHaveLength(
      1,
    );
  });
});

describe("S-2 principal-signed weights (OP-2.7.c7, D-012)", () => {
  const l = life("i1");
  const world = () =>
    acceptAll(born(minted(), l, 2), [
      K.actCmd(3, AGENT, l.id, l.nonce, l.manifest, { trace: ["searched fares"] }),
      { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: l.id, reason: "principal" },
    ]);
  it("S-2 reject: one disposition against the valence is enough, even when another follows it; an empty distillate is admissible", () => {
    const w = world();
    const mixed = distilCmd(l, 4, "d1", 500_000, 900_000, [
      K.disposition("k.a", 100_000),
      K.disposition("k.b", -100_000),
    ]);
    expect(rejection(w, mixed)).toMatchObject({ invariant: "S-2", check: "OP-2.7.c7" });
    const over = distilCmd(l, 4, "d1", 500_000, 900_000, [
      K.disposition("k.a", 100_000),
      K.disposition("k.b", 600_000),
    ]);
    expect(rejection(w, over)).toMatchObject({ invariant: "S-2", check: "OP-2.7.c7" });
    expect(accept(w, distilCmd(l, 4, "d1", 500_000, 900_000, [])).events.map((e) => e.type)).toEqual([
      "trace.destroyed",
      "obligation.emitted",
    ]);
  });
});

describe("J-3 every termination predicate at its boundary (D-015)", () => {
  const l = life("i1");
  const at = (failures: number, consecutive: number) => {
    const base = inst(born(minted(), l, 2), "i1");
    if (base === undefined) throw new Error("no instance");
    return { ...base, failures, consecutive_failures: consecutive };
  };
  const T = { op: "failures_at_least", n: 2 } as const;
  const F = { op: "acts_at_least", n: 1 } as const;
  it("J-3: failures_at_least counts every failure, not only consecutive ones, and holds from n on", () => {
    expect(holds(T, at(2, 0), 3)).toBe(true);
    expect(holds(T, at(3, 0), 3)).toBe(true);
    expect(holds(T, at(1, 1), 3)).toBe(false);
  });
  it("J-3: all needs every operand, any one of them, not negates", () => {
    const v = at(2, 0);
    expect(holds({ op: "all", of: [T, T] }, v, 3)).toBe(true);
    expect(holds({ op: "all", of: [T, F] }, v, 3)).toBe(false);
    expect(holds({ op: "any", of: [F, T] }, v, 3)).toBe(true);
    expect(holds({ op: "any", of: [T] }, v, 3)).toBe(true);
    expect(holds({ op: "any", of: [F, F] }, v, 3)).toBe(false);
    expect(holds({ op: "not", of: T }, v, 3)).toBe(false);
    expect(holds({ op: "not", of: F }, v, 3)).toBe(true);
  });
  it("J-3 reject: a life withdraws on a non-consecutive failures_at_least condition after the act that reaches it", () => {
    const m = life("i2", PIN, {
      termination_conditions: [
        { id: "two-failures-in-all", when: { op: "all", of: [T, { op: "not", of: { op: "acts_at_least", n: 4 } }] } },
      ],
    });
    const w = acceptAll(born(minted(), m, 2), [
      K.actCmd(3, AGENT, "i2", m.nonce, m.manifest, { outcome: "failed" }),
      K.actCmd(4, AGENT, "i2", m.nonce, m.manifest, { outcome: "ok" }),
    ]);
    const r = accept(w, K.actCmd(5, AGENT, "i2", m.nonce, m.manifest, { outcome: "failed" }));
    expect(r.events[1]).toEqual({
      type: "instance.withdrawn",
      instance_id: "i2",
      reason: { kind: "termination_condition", condition_id: "two-failures-in-all" },
    });
  });
});

describe('NOT_FOUND at each Janma operation\'s own "instance exists" clause (spec/CHECKS.md)', () => {
  it("an unknown instance is NOT_FOUND at OP-2.2.c2, OP-2.3.c2, OP-2.4.c1, OP-2.5.c1, OP-2.6.c1, OP-2.7.c1, OP-2.8.c1", () => {
    const w = minted();
    const l = life("ghost");
    const cases: [Command, string][] = [
      [{ op: "janma.birth", tick: 2, agent: AGENT, instance_id: "ghost", environment: K.ENV }, "OP-2.2.c2"],
      [K.actCmd(2, AGENT, "ghost", l.nonce, l.manifest), "OP-2.3.c2"],
      [
        {
          op: "janma.acquire",
          tick: 2,
          agent: AGENT,
          instance_id: "ghost",
          acquisition: { kind: "capability", capability: "fare.book" },
        },
        "OP-2.4.c1",
      ],
      [{ op: "janma.expire", tick: 2, agent: AGENT, instance_id: "ghost" }, "OP-2.5.c1"],
      [{ op: "janma.withdraw", tick: 2, agent: AGENT, instance_id: "ghost", reason: "forced" }, "OP-2.6.c1"],
      [distilCmd(l, 2, "d1", 500_000, 900_000, []), "OP-2.7.c1"],
      [{ op: "janma.dissolve", tick: 2, agent: AGENT, instance_id: "ghost" }, "OP-2.8.c1"],
    ];
    for (const [c, check] of cases)
      expect(rejection(w, c), c.op).toMatchObject({ code: "NOT_FOUND", invariant: null, check });
  });
});
