/**
 * The Janma predicates (J-1 completeAtBirth, J-2 scopedCapabilities, J-3 boundedLifetime with its
 * termination-language evaluator, J-4 oneDistillation) fail on EVERY violation branch, not just one.
 *
 * Why: the property run (properties/model.property.test.ts) catches a predicate that is too strict,
 * but a predicate that is too weak (accepts a violating state) is caught only by a test that shows
 * it a violating state. Each test below corrupts a real world, step or history so that exactly one
 * branch is violated, asserts the violation text names that branch, and, where the branch has a
 * boundary (>=, includes, some/every, a skipped state, a rejected step, the first match winning),
 * pins the near-miss that must still hold beside the one just past it that fails.
 *
 * Every world is built inside its `it` body: the mutation tool attributes the model code a test
 * executes to that test.
 */
import { describe, it, expect } from "vitest";
import type {
  Command,
  DistillationObligation,
  InstanceView,
  JanmaManifest,
  TerminationPredicate,
} from "../spec/index.ts";
import type { Agent, World } from "./state.ts";
import {
  boundedLifetime,
  completeAtBirth,
  oneDistillation,
  scopedCapabilities,
  type HistoryStep,
  type Verdict,
} from "./predicates.ts";
import {
  AGENT,
  K,
  PIN,
  acceptAll,
  agentOf,
  born,
  life,
  minted,
  patch,
  record,
  scenario,
  withInstance,
  withStore,
  type Life,
} from "./fixture.ts";

// --- local helpers (no model code runs at module level) -------------------------------------------

const named = (text: string) => ({ violation: expect.stringContaining(text) });

const lastOf = (h: readonly HistoryStep[]): HistoryStep => {
  const s = h[h.length - 1];
  if (s === undefined) throw new Error("empty history");
  return s;
};

const patchView = (w: World, id: string, over: Partial<InstanceView>): World =>
  withInstance(w, id, (i) => ({ ...i, view: { ...i.view, ...over } }));
const patchManifest = (w: World, id: string, over: Partial<JanmaManifest>): World =>
  withInstance(w, id, (i) => ({ ...i, manifest: { ...i.manifest, ...over } }));
const dropInstance = (w: World, id: string): World => withInstance(w, id, () => undefined);
const patchStore = (w: World, over: Partial<Agent["store"]>): World => withStore(w, () => over);
const patchObligation = (w: World, id: string, over: Partial<DistillationObligation>, held?: unknown): World =>
  patch(w, (a) => {
    const o = a.obligations.get(id);
    if (o === undefined) throw new Error(`no obligation ${id}`);
    const next = {
      view: { ...o.view, ...over } as DistillationObligation,
      held: held === undefined ? o.held : (held as typeof o.held),
    };
    return { ...a, obligations: new Map(a.obligations).set(id, next) };
  });
const dropObligation = (w: World, id: string): World =>
  patch(w, (a) => {
    const m = new Map(a.obligations);
    m.delete(id);
    return { ...a, obligations: m };
  });

const conceiveCmd = (l: Life, tick = 1): Command => ({
  op: "janma.conceive",
  tick,
  agent: AGENT,
  instance_id: l.id,
  nonce: l.nonce,
  manifest: l.manifest,
});
const birthCmd = (l: Life, tick = 1, environment = K.ENV): Command => ({
  op: "janma.birth",
  tick,
  agent: AGENT,
  instance_id: l.id,
  environment,
});

/** The accepted conceive step of `l` on a freshly minted agent. */
const conceiveStep = (l: Life = life("j1")): HistoryStep => {
  const s = lastOf(record(minted(), [conceiveCmd(l)]));
  expect(s.accepted).toBe(true);
  return s;
};
/** The accepted birth step of `l` (conceived on `w`, default a freshly minted agent). */
const birthStep = (l: Life = life("j1"), environment = K.ENV, w: World = minted()): HistoryStep => {
  const s = lastOf(record(w, [conceiveCmd(l, w.tick), birthCmd(l, w.tick, environment)]));
  expect(s.accepted).toBe(true);
  return s;
};
/** Accepted acts of a life born at tick 1 (the mint tick), at ticks 3, 5, 7, ... (every one must be accepted). */
const actRun = (l: Life, outcomes: readonly ("ok" | "failed")[]): HistoryStep[] => {
  const h = record(
    born(minted(), l, 1),
    outcomes.map((outcome, k) => K.actCmd(1 + 2 * (k + 1), AGENT, l.id, l.nonce, l.manifest, { outcome })),
  );
  expect(h.every((s) => s.accepted)).toBe(true);
  return h;
};
const withCondition = (when: TerminationPredicate): Life =>
  life("j3", PIN, { termination_conditions: [{ id: "c", when }] });
const withdrawnBy = (id: string): Partial<InstanceView> => ({
  state: "withdrawn",
  withdrawal: { kind: "termination_condition", condition_id: id },
});
const stillActive: Partial<InstanceView> = { state: "active", withdrawal: null, withdrawn_tick: null };

const expectHolds = (v: Verdict) => expect(v).toBe(true);

// --- J-1 completeAtBirth ----------------------------------------------------------------------------

describe("J-1 completeAtBirth (transition)", () => {
  it("J-1 holds on a real conceive step and a real birth step (OP-2.1, OP-2.2)", () => {
    expectHolds(completeAtBirth(conceiveStep()));
    expectHolds(completeAtBirth(birthStep()));
  });
  it("J-1 fails when an unborn instance has acted (OP-2.3.c3), naming the agent", () => {
    const s = conceiveStep();
    const v = completeAtBirth({ ...s, next: patchView(s.next, "j1", { acts: 1 }) });
    expect(v).toMatchObject(named("j1 works or holds tools before birth"));
    expect(v).toMatchObject({ violation: expect.stringMatching(new RegExp(`^${AGENT.slice(0, 15)}: j1 `)) });
  });
  it("J-1 fails when an unborn instance holds a tool", () => {
    const s = conceiveStep();
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { tools: ["search"] }) })).toMatchObject(
      named("works or holds tools before birth"),
    );
  });
  it("J-1 fails when an unborn instance holds a grant", () => {
    const s = conceiveStep();
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { grants: ["fare.*"] }) })).toMatchObject(
      named("works or holds tools before birth"),
    );
  });
  it("J-1 holds when the agent is absent from prev (eachPair skips it), even with a working unborn instance", () => {
    const s = conceiveStep();
    const next = patchView(s.next, "j1", { acts: 1 });
    expectHolds(completeAtBirth({ ...s, prev: { ...s.prev, agents: new Map() }, next }));
  });
  it("J-1 fails when a born instance's tools change after birth (D-017)", () => {
    const h = actRun(life("j1"), ["ok"]);
    const s = lastOf(h);
    expectHolds(completeAtBirth(s));
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { tools: ["hammer", "search"] }) })).toMatchObject(
      named("j1 acquired tools or grants after birth"),
    );
  });
  it("J-1 fails when a born instance's grants change after birth (D-017)", () => {
    const s = lastOf(actRun(life("j1"), ["ok"]));
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { grants: ["fare.*", "mail.*"] }) })).toMatchObject(
      named("acquired tools or grants after birth"),
    );
  });
  it("J-1 fails when an instance becomes born by a command other than janma.birth", () => {
    const s = birthStep();
    const command: Command = { op: "janma.withdraw", tick: 1, agent: AGENT, instance_id: "j1", reason: "principal" };
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("j1 became born without janma.birth"));
  });
  it("J-1 fails when the birth command names another instance", () => {
    const s = birthStep();
    expect(completeAtBirth({ ...s, command: { ...s.command, instance_id: "other" } as Command })).toMatchObject(
      named("j1 became born without janma.birth"),
    );
  });
  it("J-1 fails when an instance appears already born without having been conceived in prev", () => {
    const s = conceiveStep();
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { born_tick: 1, state: "ready" }) })).toMatchObject(
      named("became born without janma.birth"),
    );
  });
  it("J-1 fails when the pin is not a version of the chain (OP-2.2.c4)", () => {
    const s = birthStep();
    expect(completeAtBirth({ ...s, next: patchView(s.next, "j1", { born_from: K.EVIDENCE }) })).toMatchObject(
      named("j1 born from a version not in the chain"),
    );
  });
  it("J-1 holds when the pin is an older version of a longer chain (some, not every, not the head)", () => {
    const w = scenario().stepOf("samskara.merge").next;
    expect(agentOf(w).store.chain.length).toBeGreaterThan(1);
    expect(agentOf(w).store.chain[0]?.version_id).toBe(PIN);
    expectHolds(completeAtBirth(birthStep(life("j1"), K.ENV, w)));
  });
  it("J-1 fails when the pin is quarantined (OP-2.2.c5), and holds when another version is", () => {
    const s = birthStep();
    expect(completeAtBirth({ ...s, prev: patchStore(s.prev, { quarantined: [PIN] }) })).toMatchObject(
      named("j1 born from a quarantined version"),
    );
    expectHolds(completeAtBirth({ ...s, prev: patchStore(s.prev, { quarantined: [K.EVIDENCE] }) }));
  });
  it("J-1 fails when a tool binding names no offered tool (OP-2.2.c6)", () => {
    const s = birthStep();
    const command = {
      ...s.command,
      environment: { ...K.ENV, tools: [{ tool: "other", capabilities: ["fare.search"] }] },
    } as Command;
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("j1 born with unresolved tool search"));
  });
  it("J-1 fails when the offered tool lacks one of the binding's capabilities (OP-2.2.c6: every, not some)", () => {
    const l = life("j1", PIN, { tool_bindings: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }] });
    const s = birthStep(l);
    expectHolds(completeAtBirth(s));
    const command = {
      ...s.command,
      environment: { ...K.ENV, tools: [{ tool: "search", capabilities: ["fare.search"] }] },
    } as Command;
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("unresolved tool search"));
  });
  it("J-1 holds when the binding resolves to the second offered tool, and checks every binding", () => {
    const l = life("j1", PIN, {
      tool_bindings: [
        { tool: "search", capabilities: ["fare.search"] },
        { tool: "book", capabilities: ["fare.book"] },
      ],
    });
    const env = {
      tools: [
        { tool: "book", capabilities: ["fare.book", "x.y"] },
        { tool: "search", capabilities: ["fare.search"] },
      ],
      grantable: ["fare.*"],
    };
    const s = birthStep(l, env);
    expectHolds(completeAtBirth(s));
    const command = { ...s.command, environment: { ...env, tools: env.tools.slice(1) } } as Command;
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("unresolved tool book"));
  });
  it("J-1 fails when a grant is not grantable (OP-2.2.c7)", () => {
    const s = birthStep();
    const command = { ...s.command, environment: { ...K.ENV, grantable: [] } } as Command;
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("j1 born with ungrantable fare.*"));
  });
  it("J-1 checks every grant: the second ungrantable one fails, a covered narrower one holds (D-016)", () => {
    const l = life("j1", PIN, { capability_grants: ["fare.search", "mail.send"] });
    const env = { ...K.ENV, grantable: ["fare.*", "mail.*"] };
    const s = birthStep(l, env);
    expectHolds(completeAtBirth(s));
    const command = { ...s.command, environment: { ...env, grantable: ["fare.*"] } } as Command;
    expect(completeAtBirth({ ...s, command })).toMatchObject(named("ungrantable mail.send"));
  });
});

// --- J-2 scopedCapabilities -------------------------------------------------------------------------

describe("J-2 scopedCapabilities (state)", () => {
  it("J-2 holds for a conceived instance with no tools or grants (the unborn are skipped)", () => {
    expectHolds(scopedCapabilities(conceiveStep().next));
  });
  it("J-2 fails when an unborn instance holds a tool, naming the agent", () => {
    const v = scopedCapabilities(patchView(conceiveStep().next, "j1", { tools: ["search"] }));
    expect(v).toMatchObject(named("j1 holds capabilities before birth"));
    expect(v).toMatchObject({ violation: expect.stringMatching(new RegExp(`^${AGENT.slice(0, 15)}: j1 `)) });
  });
  it("J-2 fails when an unborn instance holds a grant", () => {
    expect(scopedCapabilities(patchView(conceiveStep().next, "j1", { grants: ["fare.*"] }))).toMatchObject(
      named("holds capabilities before birth"),
    );
  });
  it("J-2 fails when a born instance's tools differ from its manifest", () => {
    const w = birthStep().next;
    expectHolds(scopedCapabilities(w));
    expect(scopedCapabilities(patchView(w, "j1", { tools: [] }))).toMatchObject(
      named("j1 tools differ from its manifest"),
    );
  });
  it("J-2 holds with unsorted manifest bindings (tools are sorted, OP-0.6) and fails on the unsorted list", () => {
    const l = life("j1", PIN, {
      tool_bindings: [
        { tool: "search", capabilities: ["fare.search"] },
        { tool: "book", capabilities: ["fare.book"] },
        { tool: "cancel", capabilities: ["fare.cancel"] },
      ],
    });
    const env = {
      ...K.ENV,
      tools: [
        ...K.ENV.tools,
        { tool: "book", capabilities: ["fare.book"] },
        { tool: "cancel", capabilities: ["fare.cancel"] },
      ],
    };
    const w = birthStep(l, env).next;
    expect(agentOf(w).instances.get("j1")?.view.tools).toEqual(["book", "cancel", "search"]);
    expectHolds(scopedCapabilities(w));
    expect(scopedCapabilities(patchView(w, "j1", { tools: ["search", "book", "cancel"] }))).toMatchObject(
      named("tools differ from its manifest"),
    );
  });
  it("J-2 fails when a born instance's grants differ from its manifest", () => {
    expect(scopedCapabilities(patchView(birthStep().next, "j1", { grants: [] }))).toMatchObject(
      named("j1 grants differ from its manifest"),
    );
  });
  it("J-2 holds with duplicated, unsorted manifest grants (held once, sorted) and fails on the duplicated list", () => {
    const l = life("j1", PIN, { capability_grants: ["mail.*", "fare.*", "mail.*"] });
    const w = birthStep(l, { ...K.ENV, grantable: ["fare.*", "mail.*"] }).next;
    expect(agentOf(w).instances.get("j1")?.view.grants).toEqual(["fare.*", "mail.*"]);
    expectHolds(scopedCapabilities(w));
    expect(scopedCapabilities(patchView(w, "j1", { grants: ["fare.*", "mail.*", "mail.*"] }))).toMatchObject(
      named("grants differ from its manifest"),
    );
  });
  it("J-2 holds when every used tool is bound, and fails naming the first unbound one (OP-2.3.c7)", () => {
    const w = lastOf(actRun(life("j1"), ["ok"])).next;
    expect(agentOf(w).instances.get("j1")?.view.tools_used).toEqual(["search"]);
    expectHolds(scopedCapabilities(w));
    expect(scopedCapabilities(patchView(w, "j1", { tools_used: ["search", "zz"] }))).toMatchObject(
      named("j1 used unbound tool zz"),
    );
  });
});

// --- J-3 boundedLifetime ----------------------------------------------------------------------------

/** Each op of the termination language, at the boundary where it fires and just short of it (D-015); each name is its test's full name. */
const LANGUAGE: readonly { name: string; when: TerminationPredicate; acts: ("ok" | "failed")[]; fires: boolean }[] = [
  {
    name: "J-3 fires: acts_at_least 2 after 2 acts",
    when: { op: "acts_at_least", n: 2 },
    acts: ["ok", "ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: acts_at_least 3 after 2 acts",
    when: { op: "acts_at_least", n: 3 },
    acts: ["ok", "ok"],
    fires: false,
  },
  {
    name: "J-3 fires: failures_at_least 2 after failed, ok, failed",
    when: { op: "failures_at_least", n: 2 },
    acts: ["failed", "ok", "failed"],
    fires: true,
  },
  {
    name: "J-3 holds back: failures_at_least 3 after failed, ok, failed",
    when: { op: "failures_at_least", n: 3 },
    acts: ["failed", "ok", "failed"],
    fires: false,
  },
  {
    name: "J-3 fires: consecutive_failures_at_least 2 after ok, failed, failed",
    when: { op: "consecutive_failures_at_least", n: 2 },
    acts: ["ok", "failed", "failed"],
    fires: true,
  },
  {
    name: "J-3 holds back: consecutive_failures_at_least 2 after failed, ok, failed (2 failures, 1 in a row)",
    when: { op: "consecutive_failures_at_least", n: 2 },
    acts: ["failed", "ok", "failed"],
    fires: false,
  },
  {
    name: "J-3 fires: ticks_since_birth_at_least 4 at tick 5 (born 1)",
    when: { op: "ticks_since_birth_at_least", n: 4 },
    acts: ["ok", "ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: ticks_since_birth_at_least 5 at tick 5 (born 1)",
    when: { op: "ticks_since_birth_at_least", n: 5 },
    acts: ["ok", "ok"],
    fires: false,
  },
  {
    name: "J-3 fires: tool_used search after using search",
    when: { op: "tool_used", tool: "search" },
    acts: ["ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: tool_used book after using search",
    when: { op: "tool_used", tool: "book" },
    acts: ["ok"],
    fires: false,
  },
  {
    name: "J-3 fires: all of two that hold",
    when: {
      op: "all",
      of: [
        { op: "acts_at_least", n: 1 },
        { op: "tool_used", tool: "search" },
      ],
    },
    acts: ["ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: all of one that holds and one that does not",
    when: {
      op: "all",
      of: [
        { op: "acts_at_least", n: 1 },
        { op: "tool_used", tool: "book" },
      ],
    },
    acts: ["ok"],
    fires: false,
  },
  {
    name: "J-3 fires: any of one that does not hold and one that holds",
    when: {
      op: "any",
      of: [
        { op: "tool_used", tool: "book" },
        { op: "acts_at_least", n: 1 },
      ],
    },
    acts: ["ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: any of two that do not hold",
    when: {
      op: "any",
      of: [
        { op: "tool_used", tool: "book" },
        { op: "acts_at_least", n: 2 },
      ],
    },
    acts: ["ok"],
    fires: false,
  },
  {
    name: "J-3 fires: not of one that does not hold",
    when: { op: "not", of: { op: "acts_at_least", n: 2 } },
    acts: ["ok"],
    fires: true,
  },
  {
    name: "J-3 holds back: not of one that holds",
    when: { op: "not", of: { op: "acts_at_least", n: 1 } },
    acts: ["ok"],
    fires: false,
  },
];

describe("J-3 boundedLifetime (history)", () => {
  it("J-3 holds on an empty history and along the scenario", () => {
    expectHolds(boundedLifetime([]));
    expectHolds(boundedLifetime(scenario().full));
  });
  it("J-3 holds for an act from ready and an act from active within the TTL", () => {
    const h = actRun(life("j3"), ["ok", "ok"]);
    expect(h.map((s) => agentOf(s.prev).instances.get("j3")?.view.state)).toEqual(["ready", "active"]);
    expectHolds(boundedLifetime(h));
  });
  it("J-3 fails when an instance acted while withdrawn (OP-2.3.c4)", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expect(boundedLifetime([{ ...s, prev: patchView(s.prev, "j3", { state: "withdrawn" }) }])).toMatchObject(
      named("step 0: j3 acted while withdrawn"),
    );
  });
  it("J-3 fails when an instance acted while conceived or dissolved", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expect(boundedLifetime([{ ...s, prev: patchView(s.prev, "j3", { state: "conceived" }) }])).toMatchObject(
      named("acted while conceived"),
    );
    expect(boundedLifetime([{ ...s, prev: patchView(s.prev, "j3", { state: "dissolved" }) }])).toMatchObject(
      named("acted while dissolved"),
    );
  });
  it("J-3 holds for an act at born + ttl - 1 and fails at born + ttl (OP-2.3.c6)", () => {
    const h = actRun(life("j3", PIN, { ttl_ticks: 3 }), ["ok"]);
    expect(lastOf(h).command.tick).toBe(3);
    expectHolds(boundedLifetime(h));
    const s = lastOf(h);
    expect(boundedLifetime([{ ...s, prev: patchManifest(s.prev, "j3", { ttl_ticks: 2 }) }])).toMatchObject(
      named("step 0: j3 acted at 3, TTL deadline 3"),
    );
  });
  it("J-3 fails when an act's instance has no birth tick (deadline -1)", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expect(boundedLifetime([{ ...s, prev: patchView(s.prev, "j3", { born_tick: null }) }])).toMatchObject(
      named("acted at 3, TTL deadline -1"),
    );
  });
  it("J-3 names the step of the first violation", () => {
    const h = actRun(life("j3"), ["ok", "ok"]);
    const [a, b] = [h[0] as HistoryStep, h[1] as HistoryStep];
    const bad = { ...b, prev: patchView(b.prev, "j3", { state: "withdrawn" }) };
    expect(boundedLifetime([a, bad])).toMatchObject(named("step 1: j3 acted while withdrawn"));
    expect(boundedLifetime([a, bad, { ...a, prev: patchView(a.prev, "j3", { state: "dissolved" }) }])).toMatchObject(
      named("step 1:"),
    );
  });
  it("J-3 ignores a rejected step that would violate", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expectHolds(boundedLifetime([{ ...s, prev: patchView(s.prev, "j3", { state: "withdrawn" }), accepted: false }]));
  });
  it("J-3 ignores ops other than act and expire (a withdraw on a missing instance holds)", () => {
    const h = record(born(minted(), life("j3"), 1), [
      { op: "janma.withdraw", tick: 1, agent: AGENT, instance_id: "j3", reason: "principal" },
    ]);
    const s = lastOf(h);
    expectHolds(boundedLifetime([{ ...s, prev: dropInstance(s.prev, "j3"), next: dropInstance(s.next, "j3") }]));
  });
  it("J-3 fails when an act's instance is missing from prev, from next, or its agent is unknown", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expect(boundedLifetime([{ ...s, prev: dropInstance(s.prev, "j3") }])).toMatchObject(
      named("step 0: janma.act on a missing instance"),
    );
    expect(boundedLifetime([{ ...s, next: dropInstance(s.next, "j3") }])).toMatchObject(
      named("janma.act on a missing instance"),
    );
    expect(boundedLifetime([{ ...s, command: { ...s.command, agent: "nobody" } as Command }])).toMatchObject(
      named("janma.act on a missing instance"),
    );
  });
  it("J-3 fails when an expire's instance is missing", () => {
    const s = lastOf(
      record(born(minted(), life("j3"), 1), [{ op: "janma.expire", tick: 101, agent: AGENT, instance_id: "j3" }]),
    );
    expect(boundedLifetime([{ ...s, next: dropInstance(s.next, "j3") }])).toMatchObject(
      named("janma.expire on a missing instance"),
    );
  });
  it("J-3 fails when an act left the instance withdrawn with no condition holding", () => {
    const s = lastOf(actRun(life("j3"), ["ok"]));
    expect(
      boundedLifetime([
        { ...s, next: patchView(s.next, "j3", { state: "withdrawn", withdrawal: { kind: "principal" } }) },
      ]),
    ).toMatchObject(named("step 0: j3 withdrawn with no condition holding"));
  });
  it("J-3 fails when a holding condition left the instance active (D-015: evaluated after every act)", () => {
    const s = lastOf(actRun(withCondition({ op: "acts_at_least", n: 1 }), ["ok"]));
    expect(boundedLifetime([s])).toBe(true);
    expect(boundedLifetime([{ ...s, next: patchView(s.next, "j3", stillActive) }])).toMatchObject(
      named("step 0: condition c held but j3 was not withdrawn by it"),
    );
  });
  it("J-3 fails when a holding condition's instance was withdrawn for another reason", () => {
    const s = lastOf(actRun(withCondition({ op: "acts_at_least", n: 1 }), ["ok"]));
    expect(
      boundedLifetime([{ ...s, next: patchView(s.next, "j3", { withdrawal: { kind: "principal" } }) }]),
    ).toMatchObject(named("condition c held"));
  });
  it("J-3 fails when a holding condition's withdrawal is recorded but the instance stayed active (the state is checked, not only the record)", () => {
    const s = lastOf(actRun(withCondition({ op: "acts_at_least", n: 1 }), ["ok"]));
    expect(agentOf(s.next).instances.get("j3")?.view.withdrawal).toEqual({
      kind: "termination_condition",
      condition_id: "c",
    });
    expect(boundedLifetime([{ ...s, next: patchView(s.next, "j3", { state: "active" }) }])).toMatchObject(
      named("step 0: condition c held but j3 was not withdrawn by it"),
    );
  });
  it("J-3 fails when the withdrawal names a later condition than the first that holds (D-015 declaration order)", () => {
    const l = life("j3", PIN, {
      termination_conditions: [
        { id: "c1", when: { op: "acts_at_least", n: 1 } },
        { id: "c2", when: { op: "tool_used", tool: "search" } },
      ],
    });
    const s = lastOf(actRun(l, ["ok"]));
    expectHolds(boundedLifetime([s]));
    expect(boundedLifetime([{ ...s, next: patchView(s.next, "j3", withdrawnBy("c2")) }])).toMatchObject(
      named("condition c1 held but j3 was not withdrawn by it"),
    );
  });
  it("J-3 holds when the second condition fires after the first held back", () => {
    const l = life("j3", PIN, {
      termination_conditions: [
        { id: "c1", when: { op: "acts_at_least", n: 5 } },
        { id: "c2", when: { op: "tool_used", tool: "search" } },
      ],
    });
    const s = lastOf(actRun(l, ["ok"]));
    expect(agentOf(s.next).instances.get("j3")?.view.withdrawal).toEqual({
      kind: "termination_condition",
      condition_id: "c2",
    });
    expectHolds(boundedLifetime([s]));
    expect(boundedLifetime([{ ...s, next: patchView(s.next, "j3", withdrawnBy("c1")) }])).toMatchObject(
      named("condition c2 held"),
    );
  });
  for (const c of LANGUAGE) {
    it(c.name, () => {
      const h = actRun(withCondition(c.when), c.acts);
      const s = lastOf(h);
      expect(agentOf(s.next).instances.get("j3")?.view.state).toBe(c.fires ? "withdrawn" : "active");
      expectHolds(boundedLifetime(h));
      const next = patchView(s.next, "j3", c.fires ? stillActive : withdrawnBy("c"));
      expect(boundedLifetime([{ ...s, next }])).toMatchObject(
        named(c.fires ? "condition c held but j3 was not withdrawn" : "j3 withdrawn with no condition holding"),
      );
    });
  }
  it("J-3 ticks_since_birth_at_least never holds for an instance with no birth tick", () => {
    const s = lastOf(actRun(withCondition({ op: "ticks_since_birth_at_least", n: 1 }), ["ok"]));
    expect(boundedLifetime([s])).toBe(true);
    expectHolds(boundedLifetime([{ ...s, next: patchView(s.next, "j3", { ...stillActive, born_tick: null }) }]));
  });
  it("J-3 holds for a real expire at the TTL and fails when the instance outlived it (OP-2.5)", () => {
    const s = lastOf(
      record(born(minted(), life("j3", PIN, { ttl_ticks: 5 }), 1), [
        { op: "janma.expire", tick: 6, agent: AGENT, instance_id: "j3" },
      ]),
    );
    expect(agentOf(s.next).instances.get("j3")?.view.state).toBe("withdrawn");
    expectHolds(boundedLifetime([s]));
    expect(boundedLifetime([{ ...s, next: s.prev }])).toMatchObject(named("step 0: j3 outlived its TTL"));
  });
  it("J-3 holds for an expire one tick before the TTL, and fails for the same step once the deadline is that tick", () => {
    const s = lastOf(
      record(born(minted(), life("j3", PIN, { ttl_ticks: 5 }), 1), [
        { op: "janma.expire", tick: 5, agent: AGENT, instance_id: "j3" },
      ]),
    );
    expect(agentOf(s.next).instances.get("j3")?.view.state).toBe("ready");
    expectHolds(boundedLifetime([s]));
    expect(boundedLifetime([{ ...s, prev: patchManifest(s.prev, "j3", { ttl_ticks: 4 }) }])).toMatchObject(
      named("outlived its TTL"),
    );
  });
  it("J-3 fails when an active instance outlived its TTL", () => {
    const l = life("j3", PIN, { ttl_ticks: 5 });
    const w = acceptAll(born(minted(), l, 1), [K.actCmd(2, AGENT, l.id, l.nonce, l.manifest)]);
    const s = lastOf(record(w, [{ op: "janma.expire", tick: 6, agent: AGENT, instance_id: "j3" }]));
    expect(agentOf(s.prev).instances.get("j3")?.view.state).toBe("active");
    expectHolds(boundedLifetime([s]));
    expect(boundedLifetime([{ ...s, next: s.prev }])).toMatchObject(named("outlived its TTL"));
  });
  it("J-3 holds for an expire of a conceived instance long past any deadline (not living)", () => {
    const l = life("j3", PIN, { ttl_ticks: 5 });
    const s = lastOf(
      record(minted(), [conceiveCmd(l), { op: "janma.expire", tick: 500, agent: AGENT, instance_id: "j3" }]),
    );
    expect(s.accepted).toBe(true);
    expectHolds(boundedLifetime([s]));
  });
});

// --- J-4 oneDistillation ----------------------------------------------------------------------------

describe("J-4 oneDistillation (history)", () => {
  it("J-4 holds on an empty history and along the scenario", () => {
    expectHolds(oneDistillation([]));
    expectHolds(oneDistillation(scenario().full));
  });
  it("J-4 fails when one distil step emits two obligations", () => {
    const s = scenario().stepOf("janma.distil");
    const events = [...s.events, ...s.events.filter((e) => e.type === "obligation.emitted")];
    expect(oneDistillation([s])).toBe(true);
    expect(oneDistillation([{ ...s, events }])).toMatchObject(named("step 0: i2 has 2 obligations"));
  });
  it("J-4 fails when two accepted distil steps emit for the same instance", () => {
    const s = scenario().stepOf("janma.distil");
    expect(oneDistillation([s, s])).toMatchObject(named("step 1: i2 has 2 obligations"));
  });
  it("J-4 ignores a rejected distil step's events", () => {
    const s = scenario().stepOf("janma.distil");
    expectHolds(oneDistillation([s, { ...s, accepted: false }]));
  });
  it("J-4 counts per agent and instance: distils of another instance or another agent hold", () => {
    const s = scenario().stepOf("janma.distil");
    expectHolds(oneDistillation([s, { ...s, command: { ...s.command, instance_id: "i9" } as Command }]));
    expectHolds(oneDistillation([s, { ...s, command: { ...s.command, agent: "other-agent" } as Command }]));
  });
  it("J-4 fails when a conceive from a quarantined pin was accepted (OP-2.1.c5), and ignores the real rejection", () => {
    const { final } = scenario();
    const h = record(final, [conceiveCmd(life("j4"), 10)]);
    const s = lastOf(h);
    expect(s.accepted).toBe(false);
    expectHolds(oneDistillation(h));
    expect(oneDistillation([{ ...s, accepted: true }])).toMatchObject(
      named("step 0: conceived from a quarantined pin"),
    );
  });
  it("J-4 holds for a conceive when only another version is quarantined, or the agent is unknown", () => {
    const s = conceiveStep(life("j4"));
    expectHolds(oneDistillation([{ ...s, prev: patchStore(s.prev, { quarantined: [K.EVIDENCE] }) }]));
    expect(oneDistillation([{ ...s, prev: patchStore(s.prev, { quarantined: [PIN] }) }])).toMatchObject(
      named("quarantined pin"),
    );
    expectHolds(oneDistillation([{ ...s, command: { ...s.command, agent: "nobody" } as Command }]));
  });
  it("J-4 holds at attempts = max_retries + 1 and fails at max_retries + 2 (D-018, OP-3.1.c4)", () => {
    const { full, final } = scenario();
    const last = lastOf(full);
    const at = (attempts: number) =>
      oneDistillation([{ ...last, next: patchObligation(final, "ob-d2", { attempts }) }]);
    expectHolds(at(2));
    expect(at(3)).toMatchObject(named("ob-d2 exceeded its retries"));
    expect(at(3)).toMatchObject({ violation: expect.stringMatching(new RegExp(`^${AGENT.slice(0, 15)}: ob-d2 `)) });
  });
  it("J-4 fails when a discharged obligation still holds its distillate, and holds for a pending one that does", () => {
    const { full, final } = scenario();
    const pending = full[0] as HistoryStep;
    const o = agentOf(pending.next).obligations.get("ob-d1");
    expect(o?.view.status).toBe("pending");
    expect(o?.held).not.toBeNull();
    expectHolds(oneDistillation([pending]));
    expect(oneDistillation([{ ...lastOf(full), next: patchObligation(final, "ob-d2", {}, o?.held) }])).toMatchObject(
      named("ob-d2 discharged but still holds its distillate"),
    );
  });
  it("J-4 fails when an escalated corrective obligation left its pin unquarantined (D-019)", () => {
    const { full, final } = scenario();
    const next = patchStore(patchObligation(final, "ob-d2", { outcome: "escalated" }), { quarantined: [] });
    expect(oneDistillation([{ ...lastOf(full), next }])).toMatchObject(
      named("ob-d2 escalated without the quarantine fail-safe"),
    );
  });
  it("J-4 fails when a declined corrective obligation's pin is not the quarantined version", () => {
    const { full, final } = scenario();
    expect(
      oneDistillation([{ ...lastOf(full), next: patchStore(final, { quarantined: [K.EVIDENCE] }) }]),
    ).toMatchObject(named("ob-d2 declined without the quarantine fail-safe"));
  });
  it("J-4 holds without quarantine for an applied corrective or a declined reinforcing obligation", () => {
    const { full, final } = scenario();
    const unq = patchStore(final, { quarantined: [] });
    expectHolds(oneDistillation([{ ...lastOf(full), next: patchObligation(unq, "ob-d2", { outcome: "applied" }) }]));
    expectHolds(
      oneDistillation([
        { ...lastOf(full), next: patchObligation(unq, "ob-d2", { kind: "reinforcing", fail_safe: null }) },
      ]),
    );
  });
  it("J-4 fails when the fail-safe does not follow the kind: a reinforcing one declaring it, a corrective one without it (D-063)", () => {
    const { full, final } = scenario();
    const unq = patchStore(final, { quarantined: [] });
    expect(
      oneDistillation([{ ...lastOf(full), next: patchObligation(unq, "ob-d2", { kind: "reinforcing" }) }]),
    ).toMatchObject(named("ob-d2 (reinforcing) declares the wrong fail-safe"));
    expect(
      oneDistillation([{ ...lastOf(full), next: patchObligation(final, "ob-d2", { fail_safe: null }) }]),
    ).toMatchObject(named("ob-d2 (corrective) declares the wrong fail-safe"));
    expect(
      oneDistillation([
        {
          ...lastOf(full),
          next: patchObligation(final, "ob-d2", { fail_safe: { action: "quarantine", store_version: K.EVIDENCE } }),
        },
      ]),
    ).toMatchObject(named("ob-d2 (corrective) declares the wrong fail-safe"));
  });
  it("J-4 fails when an obligation is not its instance's obligation, or its instance is gone", () => {
    const { full, final } = scenario();
    expect(
      oneDistillation([{ ...lastOf(full), next: patchView(final, "i1", { obligation_id: "ob-x" }) }]),
    ).toMatchObject(named("ob-d1 is not its instance's obligation"));
    expect(oneDistillation([{ ...lastOf(full), next: dropInstance(final, "i1") }])).toMatchObject(
      named("ob-d1 is not its instance's obligation"),
    );
  });
  it("J-4 fails when a dissolved instance's obligation is pending (OP-2.8.c3)", () => {
    const { full, final } = scenario();
    expect(agentOf(final).instances.get("i2")?.view.state).toBe("dissolved");
    expect(
      oneDistillation([
        { ...lastOf(full), next: patchObligation(final, "ob-d2", { status: "pending", outcome: null }) },
      ]),
    ).toMatchObject(named("i2 dissolved before its obligation was discharged"));
  });
  it("J-4 fails when a dissolved instance has no obligation, or names a missing one", () => {
    const { full, final } = scenario();
    const gone = dropObligation(final, "ob-d2");
    expect(oneDistillation([{ ...lastOf(full), next: gone }])).toMatchObject(
      named("i2 dissolved before its obligation was discharged"),
    );
    expect(oneDistillation([{ ...lastOf(full), next: patchView(gone, "i2", { obligation_id: null }) }])).toMatchObject(
      named("i2 dissolved before"),
    );
  });
  it("J-4 holds for a withdrawn (not dissolved) instance whose obligation is pending", () => {
    const { full } = scenario();
    const s = full[0] as HistoryStep;
    expect(agentOf(s.next).instances.get("i1")?.view.state).toBe("withdrawn");
    expectHolds(oneDistillation([s]));
  });
  it("J-4 reads the obligations of the last state only, and the first broken obligation wins", () => {
    const { full, final } = scenario();
    const broken = { ...lastOf(full), next: patchObligation(final, "ob-d2", { attempts: 9 }) };
    expectHolds(oneDistillation([broken, lastOf(full)]));
    const both = patchObligation(patchObligation(final, "ob-d1", { attempts: 9 }), "ob-d2", { attempts: 9 });
    expect(oneDistillation([{ ...lastOf(full), next: both }])).toMatchObject(named("ob-d1 exceeded"));
  });
});
