/**
 * Every invariant's predicate holds along a real run and fails on a deliberately corrupted state,
 * transition or history (so none of them can be vacuous).
 */
import { describe, it, expect } from "vitest";
import { Result } from "effect";
import { INVARIANT_IDS, INVARIANTS, type Command, type InvariantId } from "../spec/index.ts";
import { PREDICATES, checkAt, type HistoryStep, type TransitionStep } from "./predicates.ts";
import { initialWorld, transition } from "./world.ts";
import type { Agent, World } from "./state.ts";
import { AGENT, K, born, distilCmd, distilled, life, ROOT } from "./fixture.ts";

/** Run commands, recording every step (rejected ones included). */
const record = (w0: World, cs: readonly Command[]): HistoryStep[] => {
  const h: HistoryStep[] = [];
  let w = w0;
  for (const c of cs) {
    const r = transition(w, c);
    const step: HistoryStep = Result.isSuccess(r)
      ? { prev: w, next: r.success.world, command: c, events: r.success.events, accepted: true }
      : { prev: w, next: w, command: c, events: [], accepted: false };
    h.push(step);
    w = step.next;
  }
  return h;
};

const l1 = life("i1");
const l2 = life("i2");

function accept0(): World {
  const r = transition(initialWorld(), K.mintCmd(1, ROOT));
  if (Result.isFailure(r)) throw r.failure;
  return r.success.world;
}

/**
 * The run that touches every protocol, built inside each test that needs it (never at module
 * level: Stryker attributes the model code it executes to the test that runs it).
 */
const scenario = () => {
  let base = accept0();
  base = distilled(base, l1, 2, "d1", 600_000, 800_000, [K.disposition("k.a", 500_000), K.disposition("k.b", 100_000)]);
  base = born(base, l2, 3);
  const history = record(base, [
    K.actCmd(3, AGENT, "i2", l2.nonce, l2.manifest, { trace: ["looked at fares"], outcome: "failed" }),
    { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i2", reason: "forced" },
    distilCmd(l2, 4, "d2", -700_000, 500_000, [K.disposition("k.a", -700_000, { guidance: "avoid k.a" })]),
    { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
    { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
    { op: "custody.attempt", tick: 6, agent: AGENT, obligation_id: "ob-d2", ack: "declined" },
    { op: "janma.dissolve", tick: 6, agent: AGENT, instance_id: "i2" },
    { op: "ripa.task_start", tick: 7, agent: AGENT, task_id: "t1" },
    { op: "ripa.bind_surface", tick: 7, agent: AGENT, surface: { surface_id: "s1", kind: "chat", account: "a", session: "x" }, labels: { team: "blue" } },
    { op: "ripa.replicate", tick: 7, agent: AGENT, execution: K.exec("rep-1") },
    { op: "ripa.identity_update", tick: 7, agent: AGENT, designation: "renamed", authorization: K.AUTH },
    { op: "ripa.evolve", tick: 7, agent: AGENT, revision: "rev-2", authorization: K.AUTH },
    { op: "samskara.excise", tick: 8, agent: AGENT, excision_id: "x1", distillate_ids: ["d1"], authorization: K.AUTH },
    { op: "ripa.evolve", tick: 8, agent: AGENT, revision: "rev-2", authorization: K.AUTH },
    { op: "ripa.migration_fence", tick: 9, agent: AGENT, migration_id: "m1", token: "f1" },
    { op: "ripa.migration_checkpoint", tick: 9, agent: AGENT, migration_id: "m1" },
  ]);
  const last = history[history.length - 1] as HistoryStep;
  const bundleDigest = last.next.agents.get(AGENT)?.ripa.migration?.bundle_digest ?? "";
  const validated = record(last.next, [
    {
      op: "ripa.migration_validate", tick: 9, agent: AGENT, migration_id: "m1", bundle_digest: bundleDigest,
      target: { execution: K.exec("exec-2"), providers: [{ provider_id: "p2", kind: "runtime", contract_version: "v", capabilities: ["fare.search"] }], body_revision: "rev-2" },
      gain_authorization: null,
    },
  ]);
  const full = [...history, ...validated];
  const final = (full[full.length - 1] as HistoryStep).next;
  const stepOf = (op: Command["op"]): HistoryStep => {
    const s = full.find((x) => x.command.op === op && x.accepted);
    if (s === undefined) throw new Error(`no accepted ${op} step`);
    return s;
  };
  return { base, full, final, stepOf };
};

const agentOf = (w: World): Agent => {
  const a = w.agents.get(AGENT);
  if (a === undefined) throw new Error("no agent");
  return a;
};
const patch = (w: World, f: (a: Agent) => Agent): World => ({ ...w, agents: new Map(w.agents).set(AGENT, f(agentOf(w))) });

const violated = (id: InvariantId, subject: World | TransitionStep | readonly HistoryStep[]): boolean => {
  const p = PREDICATES[id];
  const v =
    p.kind === "state" ? p.check(subject as World) : p.kind === "transition" ? p.check(subject as TransitionStep) : p.check(subject as readonly HistoryStep[]);
  return v !== true;
};

describe("predicates hold along a run that touches every protocol", () => {
  it("the run reached deep states (merge, excision, quarantine, migration validated)", () => {
    const { full, final } = scenario();
    expect(full.filter((s) => !s.accepted).map((s) => s.command.op)).toEqual(["ripa.evolve"]);
    expect(agentOf(final).store.quarantined).toHaveLength(1);
    expect(agentOf(final).ripa.migration?.phase).toBe("validated");
  });
  for (const id of INVARIANT_IDS) {
    it(`${id} predicate holds after every step`, () => {
      const { base, full } = scenario();
      for (let k = 1; k <= full.length; k++) expect(checkAt(id, full.slice(0, k), base)).toBe(true);
    });
  }
  it("predicate kinds match the catalog", () => {
    for (const inv of INVARIANTS) expect(PREDICATES[inv.id].kind).toBe(inv.kind);
  });
});

describe("predicates fail on corrupted states, transitions and histories", () => {
  it("J-1 fails when grants grow after birth", () => {
    const { stepOf } = scenario();
    const s = stepOf("janma.act");
    const next = patch(s.next, (a) => {
      const i = a.instances.get("i2");
      if (i === undefined) throw new Error("i2");
      return { ...a, instances: new Map(a.instances).set("i2", { ...i, view: { ...i.view, grants: ["fare.*", "mail.*"] } }) };
    });
    expect(violated("J-1", { ...s, next })).toBe(true);
  });
  it("J-2 fails when an instance used a tool it never had", () => {
    const { final } = scenario();
    expect(violated("J-2", patch(final, (a) => {
      const i = a.instances.get("i1");
      if (i === undefined) throw new Error("i1");
      return { ...a, instances: new Map(a.instances).set("i1", { ...i, view: { ...i.view, tools_used: ["hammer"] } }) };
    }))).toBe(true);
  });
  it("J-3 fails when an act happened past the TTL deadline", () => {
    const { stepOf } = scenario();
    const s = stepOf("janma.act");
    const prev = patch(s.prev, (a) => {
      const i = a.instances.get("i2");
      if (i === undefined) throw new Error("i2");
      return { ...a, instances: new Map(a.instances).set("i2", { ...i, manifest: { ...i.manifest, ttl_ticks: 1 }, view: { ...i.view, born_tick: 0 } }) };
    });
    expect(violated("J-3", [{ ...s, prev }])).toBe(true);
  });
  it("J-4 fails when a declined corrective obligation left its pin unquarantined", () => {
    const { full } = scenario();
    const s = full[full.length - 1] as HistoryStep;
    const next = patch(s.next, (a) => ({ ...a, store: { ...a.store, quarantined: [] } }));
    expect(violated("J-4", [...full.slice(0, -1), { ...s, next }])).toBe(true);
  });
  it("S-1 fails when a distilled instance kept its trace", () => {
    const { final } = scenario();
    expect(violated("S-1", patch(final, (a) => {
      const i = a.instances.get("i2");
      if (i === undefined) throw new Error("i2");
      return { ...a, instances: new Map(a.instances).set("i2", { ...i, trace: ["secret"], view: { ...i.view, trace_entries: 1 } }) };
    }))).toBe(true);
  });
  it("S-2 fails when a held weight contradicts the valence", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(violated("S-2", patch(s.next, (a) => {
      const [id, r] = [...a.store.retained.entries()][0] ?? [];
      if (id === undefined || r === undefined) throw new Error("retained");
      const bad = { ...r.distillate, dispositions: r.distillate.dispositions.map((d) => ({ ...d, weight: -d.weight })) };
      return { ...a, store: { ...a.store, retained: new Map(a.store.retained).set(id, { ...r, distillate: bad }) } };
    }))).toBe(true);
  });
  it("S-3 fails when a step drops a version without an excision", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(violated("S-3", { ...s, prev: s.next, next: s.prev })).toBe(true);
  });
  it("S-4 fails when a recorded version was rewritten", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(violated("S-4", patch(s.next, (a) => ({ ...a, store: { ...a.store, chain: a.store.chain.map((v, i) => (i === 1 ? { ...v, version_id: K.EVIDENCE } : v)) } })))).toBe(true);
  });
  it("S-5 fails when the excised content survives", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.excise");
    const next = patch(s.next, (a) => ({ ...a, store: { ...a.store, retained: agentOf(s.prev).store.retained } }));
    expect(violated("S-5", { ...s, next })).toBe(true);
  });
  it("AD-1 fails when an identity is not H(base || root)", () => {
    const { final } = scenario();
    expect(violated("AD-1", patch(final, (a) => ({ ...a, identity: { ...a.identity, root: "other-root" } })))).toBe(true);
  });
  it("AD-2 fails when two projections share a nonce", () => {
    const { final } = scenario();
    expect(violated("AD-2", patch(final, (a) => {
      const i = a.instances.get("i2");
      if (i === undefined) throw new Error("i2");
      return { ...a, instances: new Map(a.instances).set("i2", { ...i, view: { ...i.view, nonce: l1.nonce } }) };
    }))).toBe(true);
  });
  it("AD-3 fails when the state is not the aggregate of the retained set", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    const next = patch(s.next, (a) => ({
      ...a,
      store: { ...a.store, states: a.store.states.map((st) => ({ entries: st.entries.map((e) => ({ ...e, weight: e.weight + 1 })) })) },
    }));
    expect(violated("AD-3", [{ ...s, next }])).toBe(true);
  });
  it("AD-4 fails when an entry loses its contributors", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(violated("AD-4", patch(s.next, (a) => ({
      ...a,
      store: { ...a.store, states: a.store.states.map((st) => ({ entries: st.entries.map((e) => ({ ...e, contributors: [] })) })) },
    })))).toBe(true);
  });
  it("I1 fails when the designation changes without an identity update", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(violated("I1", { ...s, next: patch(s.next, (a) => ({ ...a, record: { ...a.record, designation: "label-says-so" } })) })).toBe(true);
  });
  it("I2 fails when memory ancestry is reset", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(violated("I2", { ...s, next: patch(s.next, (a) => ({ ...a, memory: { ...a.memory, ancestry: a.memory.ancestry.slice(0, 1) } })) })).toBe(true);
  });
  it("I3 fails when the body changes without an evolution", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(violated("I3", { ...s, next: patch(s.next, (a) => ({ ...a, body: { revision: "rogue", lineage: [...a.body.lineage, "rogue"] } })) })).toBe(true);
  });
  it("I4 fails when a replica holds authority", () => {
    const { final } = scenario();
    expect(violated("I4", patch(final, (a) => ({ ...a, ripa: { ...a.ripa, migration: null, authority: { ...a.ripa.authority, holder: "rep-1" } } })))).toBe(true);
  });
  it("I5 fails when the reported delta hides a lost capability", () => {
    const { final } = scenario();
    expect(violated("I5", patch(final, (a) => {
      const m = a.ripa.migration;
      if (m === null || m.delta === null) throw new Error("migration");
      return { ...a, ripa: { ...a.ripa, migration: { ...m, delta: { ...m.delta, lost: [] } } } };
    }))).toBe(true);
  });
  it("I6 fails when a label stands in for the identity", () => {
    const { final } = scenario();
    expect(violated("I6", patch(final, (a) => {
      const s = a.ripa.surfaces.get("s1");
      if (s === undefined) throw new Error("s1");
      return { ...a, ripa: { ...a.ripa, surfaces: new Map(a.ripa.surfaces).set("s1", { ...s, labels: { identity: "me" } }) } };
    }))).toBe(true);
  });
});
