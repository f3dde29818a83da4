/**
 * The Advaita (AD-1..AD-4) and RIPA (I1..I6) predicates of model/predicates.ts, branch by branch,
 * and the table PREDICATES and checkAt that run them.
 *
 * Why: the property run (properties/model.property.test.ts) catches a predicate that is too
 * strict, but a predicate that is too weak (accepts a violating state) is caught only by a test
 * that shows it one. So every violation branch of these predicates gets a state, transition step
 * or history that violates exactly that branch, and the test asserts the violation text names it
 * (which check fired, not only that one did). Where a branch has a boundary (a comparison, an
 * `every`/`some`, a skipped agent or step, an empty list) the near-miss that must still hold sits
 * beside the case just past it that fails.
 *
 * Every world is built inside its `it` (never at module level): the mutation tool attributes the
 * code a test executes to that test.
 */
import { describe, it, expect } from "vitest";
import {
  INVARIANT_IDS,
  RESERVED_LABEL_KEYS,
  genesisVersionOf,
  identityOf,
  type Command,
  type Digest,
} from "../spec/index.ts";
import {
  PREDICATES,
  checkAt,
  singleIdentity,
  statelessProjections,
  convergentReconciliation,
  attributionPreserved,
  identityContinuity,
  memoryAncestry,
  bodyRevision,
  continuationAuthority,
  visibleDelta,
  selfDescription,
  completeAtBirth,
  scopedCapabilities,
  boundedLifetime,
  oneDistillation,
  onlyDispositions,
  principalSigned,
  appendOnly,
  deterministicReplay,
  exactExcision,
  type HistoryStep,
  type TransitionStep,
  type Verdict,
} from "./predicates.ts";
import type { Agent, World } from "./state.ts";
import { initialWorld } from "./world.ts";
import {
  AGENT,
  K,
  acceptAll,
  agentOf,
  born,
  distilCmd,
  distilled,
  l1,
  l2,
  life,
  minted,
  patch,
  record,
  scenario,
  withInstance,
  withStore,
} from "./fixture.ts";

// --- local helpers (pure; they build nothing at module level) ----------------------------------

/** The verdict is a violation whose text names the branch. */
const fails = (v: Verdict, text: string): void => {
  expect(v).toEqual({ violation: expect.stringContaining(text) });
};
/** eachAgent / eachPair prefix the violation with the first 15 characters of the agent key. */
const inAgent = (text: string): string => `${AGENT.slice(0, 15)}: ${text}`;

const ROGUE = { custodian: "mallory", decision_id: "dec-9" } as const;
const OTHER_BASE: Digest = `sha256:${"ef".repeat(32)}`;

const withRipa = (w: World, f: (r: Agent["ripa"]) => Partial<Agent["ripa"]>): World =>
  patch(w, (a) => ({ ...a, ripa: { ...a.ripa, ...f(a.ripa) } }));
/** A step whose next state is corrupted by `f`. */
const nextPatched = (s: TransitionStep, f: (a: Agent) => Agent): TransitionStep => ({ ...s, next: patch(s.next, f) });
const withCommand = (s: TransitionStep, c: Record<string, unknown>): TransitionStep => ({
  ...s,
  command: { ...s.command, ...c } as Command,
});

/** A second agent, minted with root-2 (a genuine run). */
const AGENT2 = K.identityFor("root-2");
const twoAgents = (): World => acceptAll(minted(), [K.mintCmd(1, "root-2", { authority_token: "tok-root-2" })]);

/** Agent `a` re-keyed consistently for another base digest and the same root (AD-1 holds for it alone). */
const rebased = (a: Agent, base: Digest): Agent => {
  const genesis = genesisVersionOf(base, a.identity.root);
  const identity = identityOf(base, genesis);
  return {
    ...a,
    identity: { ...a.identity, identity, base_digest: base, lineage_root: genesis },
    record: { ...a.record, identity },
    store: { ...a.store, chain: a.store.chain.map((v, i) => (i === 0 ? { ...v, version_id: genesis } : v)) },
  };
};

/** A run where two distillates (d1, d2) both contribute key k.a; merged together unless `batches` says otherwise. */
const twoContributors = (batches: readonly (readonly string[])[] = [["ob-d1", "ob-d2"]]): World => {
  let w = distilled(minted(), l1, 2, "d1", 600_000, 800_000, [K.disposition("k.a", 500_000)]);
  w = born(w, l2, 3);
  return acceptAll(w, [
    K.actCmd(3, AGENT, "i2", l2.nonce, l2.manifest, { trace: ["looked at fares"] }),
    { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i2", reason: "principal" },
    distilCmd(l2, 4, "d2", 400_000, 500_000, [K.disposition("k.a", 300_000), K.disposition("k.b", 200_000)]),
    ...batches.map(
      (obligation_ids): Command => ({
        op: "samskara.merge",
        tick: 5,
        agent: AGENT,
        obligation_ids: [...obligation_ids],
      }),
    ),
  ]);
};

// --- AD-1 --------------------------------------------------------------------------------------

describe("AD-1 singleIdentity", () => {
  it("AD-1 holds on the initial world (no agents) and on two genuinely minted agents", () => {
    expect(singleIdentity(initialWorld())).toBe(true);
    const w = twoAgents();
    expect(w.agents.size).toBe(2);
    expect(singleIdentity(w)).toBe(true);
  });
  it("AD-1 fails when the identity's lineage root is not the genesis of (base, root)", () => {
    const { final } = scenario();
    const v = singleIdentity(patch(final, (a) => ({ ...a, identity: { ...a.identity, lineage_root: K.EVIDENCE } })));
    expect(v).toEqual({ violation: `${AGENT}: lineage root is not the genesis` });
  });
  it("AD-1 fails when the store chain does not start at the genesis (OP-1.4)", () => {
    const { final } = scenario();
    fails(
      singleIdentity(withStore(final, (st) => ({ chain: st.chain.map((v) => ({ ...v, version_id: K.EVIDENCE })) }))),
      "lineage root is not the genesis",
    );
  });
  it("AD-1 fails when the store chain is empty (no genesis at all)", () => {
    const { final } = scenario();
    fails(singleIdentity(withStore(final, () => ({ chain: [] }))), "lineage root is not the genesis");
  });
  it("AD-1 fails when the identity is not H(base || root)", () => {
    const { final } = scenario();
    const v = singleIdentity(patch(final, (a) => ({ ...a, identity: { ...a.identity, identity: K.EVIDENCE } })));
    expect(v).toEqual({ violation: `${AGENT}: identity is not H(base || root)` });
  });
  it("AD-1 fails when the identity is not H(base || root) though the agent is filed under it and its record names it", () => {
    const { final } = scenario();
    const a = agentOf(final);
    const forged: Agent = {
      ...a,
      identity: { ...a.identity, identity: K.EVIDENCE },
      record: { ...a.record, identity: K.EVIDENCE },
    };
    expect(singleIdentity({ ...final, agents: new Map([[K.EVIDENCE, forged]]) })).toEqual({
      violation: `${K.EVIDENCE}: identity is not H(base || root)`,
    });
  });
  it("AD-1 fails when an agent is filed under a key other than its identity", () => {
    const { final } = scenario();
    const w: World = { ...final, agents: new Map([[K.EVIDENCE, agentOf(final)]]) };
    fails(singleIdentity(w), "identity is not H(base || root)");
  });
  it("AD-1 fails when the identity record names another identity", () => {
    const { final } = scenario();
    fails(
      singleIdentity(patch(final, (a) => ({ ...a, record: { ...a.record, identity: K.EVIDENCE } }))),
      "identity record names another identity",
    );
  });
  it("AD-1 fails when two agents share one root (minted twice under different bases)", () => {
    const w0 = minted();
    const twin = rebased(agentOf(w0), OTHER_BASE);
    expect(singleIdentity({ ...w0, agents: new Map([[twin.identity.identity, twin]]) })).toBe(true);
    const w: World = { ...w0, agents: new Map(w0.agents).set(twin.identity.identity, twin) };
    expect(singleIdentity(w)).toEqual({ violation: "root root-1 minted twice" });
  });
  it("AD-1 fails when a root is not recorded in roots_used; extra recorded roots are fine", () => {
    const { final } = scenario();
    expect(singleIdentity({ ...final, roots_used: ["root-0", "root-1", "root-9"] })).toBe(true);
    expect(singleIdentity({ ...final, roots_used: [] })).toEqual({ violation: "root root-1 not recorded" });
    expect(singleIdentity({ ...final, roots_used: ["root-2"] })).toEqual({ violation: "root root-1 not recorded" });
  });
});

// --- AD-2 --------------------------------------------------------------------------------------

describe("AD-2 statelessProjections", () => {
  it("AD-2 fails when two projections of one identity share a nonce", () => {
    const { final } = scenario();
    const v = statelessProjections(withInstance(final, "i2", (i) => ({ ...i, view: { ...i.view, nonce: l1.nonce } })));
    expect(v).toEqual({ violation: inAgent(`nonce ${l1.nonce} reused`) });
  });
  it("AD-2 holds when the same nonce is used by projections of two different identities (per identity)", () => {
    const pin2 = K.genesisFor("root-2");
    const l1b = { ...life("i1", pin2), nonce: l1.nonce };
    const w = born(born(twoAgents(), l1, 2), l1b, 2, AGENT2);
    expect(agentOf(w).instances.get("i1")?.view.nonce).toBe(w.agents.get(AGENT2)?.instances.get("i1")?.view.nonce);
    expect(statelessProjections(w)).toBe(true);
  });
  it("AD-2 fails when an instance's manifest digest does not match its manifest", () => {
    const { final } = scenario();
    const v = statelessProjections(
      withInstance(final, "i1", (i) => ({ ...i, manifest: { ...i.manifest, mission: "something else" } })),
    );
    expect(v).toEqual({ violation: inAgent("i1 manifest digest mismatch") });
  });
  it("AD-2 fails when the store retains a distillate no obligation delivered", () => {
    const { stepOf } = scenario();
    const w = stepOf("samskara.merge").next;
    expect(statelessProjections(w)).toBe(true);
    const v = statelessProjections(patch(w, (a) => ({ ...a, obligations: new Map() })));
    expect(v).toEqual({ violation: inAgent("store holds d1 that no applied obligation delivered") });
  });
  it("AD-2 fails when the delivering obligation's outcome is not applied", () => {
    const { stepOf } = scenario();
    const w = patch(stepOf("samskara.merge").next, (a) => {
      const o = a.obligations.get("ob-d1");
      if (o === undefined) throw new Error("ob-d1");
      return {
        ...a,
        obligations: new Map(a.obligations).set("ob-d1", { ...o, view: { ...o.view, outcome: "declined" } }),
      };
    });
    fails(statelessProjections(w), "store holds d1 that no applied obligation delivered");
  });
  it("AD-2 fails when the applied obligation delivered other content (digest differs)", () => {
    const { stepOf } = scenario();
    const w = withStore(stepOf("samskara.merge").next, (st) => ({
      retained: new Map([...st.retained].map(([id, r]) => [id, { ...r, digest: K.EVIDENCE }])),
    }));
    fails(statelessProjections(w), "store holds d1 that no applied obligation delivered");
  });
});

// --- AD-3 --------------------------------------------------------------------------------------

describe("AD-3 convergentReconciliation", () => {
  const noopStep = (full: readonly HistoryStep[]): [number, HistoryStep] => {
    const k = full.findIndex((s) => s.events.some((e) => e.type === "store.merge_noop"));
    const s = full[k];
    if (s === undefined) throw new Error("no merge_noop step");
    return [k, s];
  };
  it("AD-3 holds on an empty history and along the whole scenario", () => {
    expect(convergentReconciliation([])).toBe(true);
    const { full } = scenario();
    expect(convergentReconciliation(full)).toBe(true);
  });
  it("AD-3 fails when a no-op merge changed the chain (D-008)", () => {
    const { full } = scenario();
    const [k, s] = noopStep(full);
    const bad = nextPatched(s, (a) => ({
      ...a,
      store: { ...a.store, chain: [...a.store.chain, ...a.store.chain.slice(-1)] },
    }));
    expect(convergentReconciliation([...full.slice(0, k), bad])).toEqual({
      violation: `step ${k}: a no-op merge changed the store`,
    });
  });
  it("AD-3 fails when a no-op merge changed the states", () => {
    const { full } = scenario();
    const [k, s] = noopStep(full);
    const bad = nextPatched(s, (a) => ({
      ...a,
      store: { ...a.store, states: [...a.store.states, ...a.store.states.slice(-1)] },
    }));
    fails(convergentReconciliation([...full.slice(0, k), bad]), "a no-op merge changed the store");
  });
  it("AD-3 fails when the merging agent is missing after (or before) a no-op merge", () => {
    const { full } = scenario();
    const [k, s] = noopStep(full);
    fails(
      convergentReconciliation([...full.slice(0, k), { ...s, next: { ...s.next, agents: new Map() } }]),
      "a no-op merge changed the store",
    );
    fails(
      convergentReconciliation([{ ...s, prev: { ...s.prev, agents: new Map() } }]),
      "a no-op merge changed the store",
    );
  });
  it("AD-3 fails when a merge reports a no-op among other events and changed the store (any merge_noop event counts)", () => {
    const { full } = scenario();
    const [k, s] = noopStep(full);
    const merged = full[k - 1] as HistoryStep;
    expect(merged.events.some((e) => e.type === "store.merge_noop")).toBe(false);
    const bad = nextPatched({ ...s, events: [...merged.events, ...s.events] }, (a) => ({
      ...a,
      store: { ...a.store, chain: [...a.store.chain, ...a.store.chain.slice(-1)] },
    }));
    expect(convergentReconciliation([...full.slice(0, k), bad])).toEqual({
      violation: `step ${k}: a no-op merge changed the store`,
    });
  });
  it("AD-3 holds when the changed-store step is rejected, not a merge, or merged for real", () => {
    const { full } = scenario();
    const [k, s] = noopStep(full);
    const grow = (a: Agent): Agent => ({
      ...a,
      store: { ...a.store, chain: [...a.store.chain, ...a.store.chain.slice(-1)] },
    });
    // rejected: skipped
    expect(convergentReconciliation([...full.slice(0, k), { ...nextPatched(s, grow), accepted: false }])).toBe(true);
    // a no-op event on another op: skipped
    expect(
      convergentReconciliation([
        ...full.slice(0, k),
        withCommand(nextPatched(s, grow), { op: "ripa.task_start", task_id: "t9" }),
      ]),
    ).toBe(true);
    // a real merge (no merge_noop event) changes the store: fine
    const merge = full[k - 1] as HistoryStep;
    expect(merge.command.op).toBe("samskara.merge");
    expect(convergentReconciliation(full.slice(0, k))).toBe(true);
  });
  it("AD-3 fails when one distillate id names two contents across steps", () => {
    const { full } = scenario();
    const k = full.length - 1;
    const s = full[k] as HistoryStep;
    const bad = nextPatched(s, (a) => {
      const o = a.obligations.get("ob-d1");
      if (o === undefined) throw new Error("ob-d1");
      return {
        ...a,
        obligations: new Map(a.obligations).set("ob-d1", { ...o, view: { ...o.view, distillate_digest: K.EVIDENCE } }),
      };
    });
    expect(convergentReconciliation([...full.slice(0, k), bad])).toEqual({
      violation: `step ${k}: distillate id d1 names two contents`,
    });
  });
  it("AD-3 fails when one distillate id names two contents within one state; holds across two agents", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    const o = agentOf(s.next).obligations.get("ob-d1");
    if (o === undefined) throw new Error("ob-d1");
    const clash = { ...o, view: { ...o.view, obligation_id: "ob-x", distillate_digest: K.EVIDENCE } };
    fails(
      convergentReconciliation([
        nextPatched(s, (a) => ({ ...a, obligations: new Map(a.obligations).set("ob-x", clash) })),
      ]),
      "distillate id d1 names two contents",
    );
    // the same id with another content in another agent is another key
    const other = {
      ...agentOf(s.next),
      obligations: new Map([["ob-d1", { ...o, view: { ...o.view, distillate_digest: K.EVIDENCE } }]]),
    };
    expect(
      convergentReconciliation([{ ...s, next: { ...s.next, agents: new Map(s.next.agents).set("other", other) } }]),
    ).toBe(true);
  });
  it("AD-3 fails when the head state is not the aggregate of the retained set", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    const bad = nextPatched(s, (a) => ({ ...a, store: { ...a.store, retained: new Map() } }));
    expect(convergentReconciliation([bad])).toEqual({
      violation: inAgent("store state is not the aggregate of the retained set"),
    });
  });
});

// --- AD-4 --------------------------------------------------------------------------------------

describe("AD-4 attributionPreserved", () => {
  it("AD-4 holds on a state where two distillates contribute one key (contributors sorted)", () => {
    const w = twoContributors();
    const e = agentOf(w)
      .store.states.at(-1)
      ?.entries.find((x) => x.key === "k.a");
    expect(e?.contributors).toEqual(["d1", "d2"]);
    expect(attributionPreserved(w)).toBe(true);
  });
  it("AD-4 holds when the later-sorting distillate was merged first (contributors sorted, not by arrival)", () => {
    const w = twoContributors([["ob-d2"], ["ob-d1"]]);
    expect([...agentOf(w).store.retained.keys()]).toEqual(["d2", "d1"]);
    expect(attributionPreserved(w)).toBe(true);
  });
  it("AD-4 fails when the store has no state", () => {
    const { final } = scenario();
    expect(attributionPreserved(withStore(final, () => ({ states: [] })))).toEqual({ violation: inAgent("no state") });
  });
  it("AD-4 fails when an entry lists its contributors out of order or incompletely", () => {
    const w = twoContributors();
    const mapEntries = (f: (c: readonly string[]) => string[]) =>
      withStore(w, (st) => ({
        states: st.states.map((x) => ({
          entries: x.entries.map((e) => (e.key === "k.a" ? { ...e, contributors: f(e.contributors) } : e)),
        })),
      }));
    expect(attributionPreserved(mapEntries((c) => [...c].reverse()))).toEqual({
      violation: inAgent("entry k.a lost its contributors"),
    });
    fails(attributionPreserved(mapEntries((c) => c.slice(1))), "entry k.a lost its contributors");
    fails(attributionPreserved(mapEntries((c) => [...c, "d9"])), "entry k.a lost its contributors");
  });
  it("AD-4 fails when an entry has no contributing distillate at all (extra entry)", () => {
    const w = twoContributors();
    const v = attributionPreserved(
      withStore(w, (st) => ({
        states: st.states.map((x) => {
          const e = x.entries[0];
          return e === undefined ? x : { entries: [...x.entries, { ...e, key: "k.z", contributors: [] }] };
        }),
      })),
    );
    expect(v).toEqual({ violation: inAgent("an entry has no contributor") });
  });
  it("AD-4 fails when a contributed key has no entry (entry dropped)", () => {
    const w = twoContributors();
    const v = attributionPreserved(
      withStore(w, (st) => ({ states: st.states.map((x) => ({ entries: x.entries.filter((e) => e.key !== "k.b") })) })),
    );
    fails(v, "an entry has no contributor");
  });
  it("AD-4 fails when a retained distillate is attributed to another identity", () => {
    const { stepOf } = scenario();
    const w = withStore(stepOf("samskara.merge").next, (st) => ({
      retained: new Map(
        [...st.retained].map(([id, r]) => [
          id,
          { ...r, distillate: { ...r.distillate, source: { ...r.distillate.source, identity: K.EVIDENCE } } },
        ]),
      ),
    }));
    expect(attributionPreserved(w)).toEqual({ violation: inAgent("d1 attributed to another identity") });
  });
  it("AD-4 fails when a held (pending) distillate is attributed to another identity or nonce", () => {
    const { stepOf } = scenario();
    const w = stepOf("janma.distil").next;
    const heldSource = (f: (src: { identity: string; nonce: string; instance_id: string }) => object) =>
      patch(w, (a) => {
        const o = a.obligations.get("ob-d2");
        if (o === undefined || o.held === null) throw new Error("ob-d2 held");
        return {
          ...a,
          obligations: new Map(a.obligations).set("ob-d2", {
            ...o,
            held: { ...o.held, source: { ...o.held.source, ...f(o.held.source) } },
          }),
        };
      });
    expect(attributionPreserved(w)).toBe(true);
    fails(attributionPreserved(heldSource(() => ({ identity: K.EVIDENCE }))), "d2 attributed to another identity");
    fails(attributionPreserved(heldSource(() => ({ nonce: "nonce-x" }))), "d2 not traceable to its projection");
  });
  it("AD-4 fails when a distillate names a projection that does not exist", () => {
    const { stepOf } = scenario();
    const w = withStore(stepOf("samskara.merge").next, (st) => ({
      retained: new Map(
        [...st.retained].map(([id, r]) => [
          id,
          { ...r, distillate: { ...r.distillate, source: { ...r.distillate.source, instance_id: "ghost" } } },
        ]),
      ),
    }));
    expect(attributionPreserved(w)).toEqual({ violation: inAgent("d1 not traceable to its projection") });
  });
  it("AD-4 fails when a distillate's nonce is not its projection's nonce", () => {
    const { stepOf } = scenario();
    const w = withInstance(stepOf("samskara.merge").next, "i1", (i) => ({
      ...i,
      view: { ...i.view, nonce: "nonce-other" },
    }));
    fails(attributionPreserved(w), "d1 not traceable to its projection");
  });
});

// --- I1 ----------------------------------------------------------------------------------------

describe("I1 identityContinuity", () => {
  it("I1 fails when the identity digest in the record changed", () => {
    const { stepOf } = scenario();
    const s = nextPatched(stepOf("ripa.identity_update"), (a) => ({
      ...a,
      record: { ...a.record, identity: K.EVIDENCE },
    }));
    expect(identityContinuity(s)).toEqual({ violation: inAgent("identity digest changed") });
  });
  it("I1 holds on an authorised update advancing the version by one; fails at +2 and at +0", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.identity_update");
    expect(agentOf(s.next).record.identity_version).toBe(agentOf(s.prev).record.identity_version + 1);
    expect(identityContinuity(s)).toBe(true);
    const bump = (d: number) =>
      nextPatched(s, (a) => ({
        ...a,
        record: { ...a.record, identity_version: agentOf(s.prev).record.identity_version + d },
      }));
    expect(identityContinuity(bump(2))).toEqual({ violation: inAgent("identity version did not advance by one") });
    fails(identityContinuity(bump(0)), "identity version did not advance by one");
  });
  it("I1 fails when the record changed under an update authorised by a non-custodian", () => {
    const { stepOf } = scenario();
    const s = withCommand(stepOf("ripa.identity_update"), { authorization: ROGUE });
    expect(identityContinuity(s)).toEqual({
      violation: inAgent("identity record changed without an authorised update"),
    });
  });
  it("I1 fails when the record changed under an update with no authorisation", () => {
    const { stepOf } = scenario();
    fails(
      identityContinuity(withCommand(stepOf("ripa.identity_update"), { authorization: null })),
      "identity record changed without an authorised update",
    );
  });
  it("I1 fails when the record changed under another op", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.identity_update");
    fails(
      identityContinuity(withCommand(s, { op: "ripa.evolve", revision: "rev-9" })),
      "identity record changed without an authorised update",
    );
  });
  it("I1 holds when nothing changed, whatever the command or its authorisation", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(identityContinuity(s)).toBe(true);
    expect(identityContinuity({ ...s, next: s.prev })).toBe(true);
  });
  it("I1 skips an agent absent from the previous state (a mint)", () => {
    const [s] = record(initialWorld(), [K.mintCmd(1, "root-1")]);
    if (s === undefined) throw new Error("mint");
    const odd = nextPatched(s, (a) => ({ ...a, record: { ...a.record, identity: K.EVIDENCE, identity_version: 7 } }));
    expect(identityContinuity(odd)).toBe(true);
    // the same corruption against a prev that has the agent fires
    fails(identityContinuity({ ...odd, prev: s.next }), "identity digest changed");
  });
});

// --- I2 ----------------------------------------------------------------------------------------

describe("I2 memoryAncestry", () => {
  it("I2 fails when memory ancestry forks (same length, other entry)", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    const v = memoryAncestry(
      nextPatched(s, (a) => ({
        ...a,
        memory: { ...a.memory, ancestry: a.memory.ancestry.map((x, i) => (i === 0 ? K.EVIDENCE : x)) },
      })),
    );
    expect(v).toEqual({ violation: inAgent("memory ancestry was reset or forked") });
  });
  it("I2 fails when memory ancestry shrinks by one; an unchanged ancestry holds", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.bind_surface");
    expect(memoryAncestry(s)).toBe(true);
    fails(
      memoryAncestry(
        nextPatched(s, (a) => ({ ...a, memory: { ...a.memory, ancestry: a.memory.ancestry.slice(0, -1) } })),
      ),
      "memory ancestry was reset or forked",
    );
  });
  it("I2 fails when task ids are reset or replaced", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(memoryAncestry(s)).toBe(true);
    expect(memoryAncestry(nextPatched(s, (a) => ({ ...a, memory: { ...a.memory, task_ids: [] } })))).toBe(true); // prev had none: [] extends []
    const later = stepOf("ripa.bind_surface");
    expect(memoryAncestry(nextPatched(later, (a) => ({ ...a, memory: { ...a.memory, task_ids: [] } })))).toEqual({
      violation: inAgent("task ids were reset"),
    });
    fails(
      memoryAncestry(nextPatched(later, (a) => ({ ...a, memory: { ...a.memory, task_ids: ["t2"] } }))),
      "task ids were reset",
    );
  });
  it("I2 fails when memory does not record the store head", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.bind_surface");
    expect(memoryAncestry(nextPatched(s, (a) => ({ ...a, memory: { ...a.memory, store_head: K.EVIDENCE } })))).toEqual({
      violation: inAgent("memory does not record the store head"),
    });
  });
  it("I2 fails when the store head moved but memory ancestry did not grow; a merge that extends it holds", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(memoryAncestry(s)).toBe(true);
    const v = memoryAncestry(
      nextPatched(s, (a) => ({ ...a, memory: { ...a.memory, ancestry: agentOf(s.prev).memory.ancestry } })),
    );
    expect(v).toEqual({ violation: inAgent("store head moved without extending memory") });
  });
  it("I2 holds on an authorised excision (chain rewritten); fails when unauthorised or under another op", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.excise");
    expect(memoryAncestry(s)).toBe(true);
    expect(memoryAncestry(withCommand(s, { authorization: ROGUE }))).toEqual({
      violation: inAgent("store chain rewritten without an authorised repair"),
    });
    fails(
      memoryAncestry(withCommand(s, { authorization: null })),
      "store chain rewritten without an authorised repair",
    );
    fails(
      memoryAncestry(withCommand(s, { op: "ripa.evolve", revision: "rev-9" })),
      "store chain rewritten without an authorised repair",
    );
  });
  it("I2 skips an agent absent from the previous state", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    const bad = nextPatched(s, (a) => ({ ...a, memory: { ...a.memory, ancestry: [] } }));
    expect(memoryAncestry({ ...bad, prev: { ...bad.prev, agents: new Map() } })).toBe(true);
  });
});

// --- I3 ----------------------------------------------------------------------------------------

describe("I3 bodyRevision", () => {
  it("I3 fails when the body lineage is rewritten", () => {
    const { stepOf } = scenario();
    const v = bodyRevision(
      nextPatched(stepOf("ripa.task_start"), (a) => ({ ...a, body: { revision: "rev-x", lineage: ["rev-x"] } })),
    );
    expect(v).toEqual({ violation: inAgent("body lineage rewritten") });
  });
  it("I3 fails when the body revision is not the lineage head", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.evolve");
    const v = bodyRevision(nextPatched(s, (a) => ({ ...a, body: { ...a.body, revision: "rev-1" } })));
    expect(v).toEqual({ violation: inAgent("body revision is not the lineage head") });
  });
  it("I3 holds on an authorised evolution; fails when unauthorised or without one", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.evolve");
    expect(bodyRevision(s)).toBe(true);
    expect(bodyRevision(withCommand(s, { authorization: ROGUE }))).toEqual({
      violation: inAgent("body changed without an authorised evolution"),
    });
    fails(bodyRevision(withCommand(s, { authorization: null })), "body changed without an authorised evolution");
    fails(
      bodyRevision(withCommand(s, { op: "ripa.identity_update", designation: "x" })),
      "body changed without an authorised evolution",
    );
  });
  it("I3 fails when an authorised evolution returns to a revision already used", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.evolve");
    const back: TransitionStep = {
      ...s,
      prev: s.next,
      next: patch(s.next, (a) => ({ ...a, body: { revision: "rev-1", lineage: [...a.body.lineage, "rev-1"] } })),
    };
    expect(bodyRevision(back)).toEqual({ violation: inAgent("evolved to a revision already used") });
  });
  it("I3 skips an agent absent from the previous state", () => {
    const { stepOf } = scenario();
    const bad = nextPatched(stepOf("ripa.task_start"), (a) => ({ ...a, body: { revision: "x", lineage: ["y"] } }));
    expect(bodyRevision({ ...bad, prev: { ...bad.prev, agents: new Map() } })).toBe(true);
  });
});

// --- I4 ----------------------------------------------------------------------------------------

describe("I4 continuationAuthority", () => {
  /** The world just before the fence: the bound execution holds authority, no migration. */
  const unfenced = () => scenario().stepOf("ripa.migration_fence").prev;
  it("I4 holds unfenced with the bound execution holding and fenced with no holder", () => {
    const w = unfenced();
    expect(agentOf(w).ripa.authority.holder).toBe("exec-1");
    expect(continuationAuthority(w)).toBe(true);
    expect(continuationAuthority(scenario().final)).toBe(true);
  });
  it("I4 fails when the holder is not the bound execution", () => {
    const w = withRipa(unfenced(), (r) => ({ authority: { ...r.authority, holder: "exec-9" } }));
    expect(continuationAuthority(w)).toEqual({ violation: inAgent("holder exec-9 is not the bound execution") });
  });
  it("I4 fails when a replica shares the holder's execution id (a replica holds authority)", () => {
    const w = withRipa(unfenced(), (r) => ({ replicas: [...r.replicas, K.exec("exec-1")] }));
    expect(continuationAuthority(w)).toEqual({ violation: inAgent("a replica holds authority") });
  });
  it("I4 fails when authority is held while fenced", () => {
    const { final } = scenario();
    const w = withRipa(final, (r) => ({ authority: { ...r.authority, holder: "exec-1" } }));
    expect(continuationAuthority(w)).toEqual({ violation: inAgent("authority held while fenced") });
  });
  it("I4 fails when a migration has no fence, or only another migration's fence", () => {
    const { final } = scenario();
    expect(continuationAuthority(withRipa(final, () => ({ fences: [] })))).toEqual({
      violation: inAgent("migration without a fence"),
    });
    fails(
      continuationAuthority(withRipa(final, (r) => ({ fences: r.fences.map((f) => ({ ...f, migration_id: "m0" })) }))),
      "migration without a fence",
    );
  });
  it("I4 fails when the current token is not accounted as used (D-026)", () => {
    const w = withRipa(unfenced(), () => ({ tokens_used: new Set(["tok-other"]) }));
    expect(continuationAuthority(w)).toEqual({ violation: inAgent("current token not accounted as used") });
  });
  it("I4 fails when a live attempt's nonce is not accounted; holds when it is", () => {
    const w = unfenced();
    expect(
      continuationAuthority(
        withRipa(w, () => ({ live_attempts: new Map([["t1", "n1"]]), attempt_nonces_used: new Set(["n1"]) })),
      ),
    ).toBe(true);
    const v = continuationAuthority(
      withRipa(w, () => ({ live_attempts: new Map([["t1", "n1"]]), attempt_nonces_used: new Set(["n0"]) })),
    );
    expect(v).toEqual({ violation: inAgent("live attempt n1 not accounted") });
  });
  it("I4 holds on a live attempt reached by a real ripa.request (unfenced)", () => {
    const w = acceptAll(unfenced(), [
      { op: "ripa.request", tick: 9, agent: AGENT, task_id: "t1", attempt_nonce: "n1" },
    ]);
    expect(agentOf(w).ripa.live_attempts.size).toBe(1);
    expect(continuationAuthority(w)).toBe(true);
  });
  it("I4 fails when an accounted attempt is live while fenced (OP-7.1 quiescence)", () => {
    const { final } = scenario();
    const w = withRipa(final, () => ({ live_attempts: new Map([["t1", "n1"]]), attempt_nonces_used: new Set(["n1"]) }));
    expect(continuationAuthority(w)).toEqual({ violation: inAgent("an attempt is live while fenced") });
  });
  it("I4 fails when two fences name one migration; distinct fences hold", () => {
    const { final } = scenario();
    const f = agentOf(final).ripa.fences[0];
    if (f === undefined) throw new Error("fence");
    expect(continuationAuthority(withRipa(final, () => ({ fences: [f, { ...f, migration_id: "m0" }] })))).toBe(true);
    expect(continuationAuthority(withRipa(final, () => ({ fences: [f, f] })))).toEqual({
      violation: inAgent("two fences for one migration"),
    });
    fails(continuationAuthority(withRipa(unfenced(), () => ({ fences: [f, f] }))), "two fences for one migration");
  });
});

// --- I5 ----------------------------------------------------------------------------------------

describe("I5 visibleDelta", () => {
  const withMigration = (w: World, f: (m: NonNullable<Agent["ripa"]["migration"]>) => object): World =>
    withRipa(w, (r) => {
      if (r.migration === null) throw new Error("migration");
      return { migration: { ...r.migration, ...f(r.migration) } as never };
    });
  it("I5 holds on the validated migration (lost mail.send, unchanged fare.search)", () => {
    const { final } = scenario();
    expect(agentOf(final).ripa.migration?.delta).toEqual({
      gained: [],
      lost: ["mail.send"],
      unchanged: ["fare.search"],
    });
    expect(visibleDelta(final)).toBe(true);
  });
  it("I5 fails when the reported delta misstates gained, lost or unchanged, or is missing", () => {
    const { final } = scenario();
    const delta = (d: object | null) =>
      visibleDelta(withMigration(final, (m) => ({ delta: d === null ? null : { ...m.delta, ...d } })));
    expect(delta({ lost: [] })).toEqual({
      violation: inAgent("reported capability delta differs from the providers'"),
    });
    fails(delta({ gained: ["mail.send"] }), "reported capability delta differs");
    fails(delta({ unchanged: [] }), "reported capability delta differs");
    fails(delta(null), "reported capability delta differs");
  });
  it("I5 fails when the target gains a capability the delta does not report", () => {
    const { final } = scenario();
    const w = withMigration(final, (m) => ({
      target: {
        ...m.target,
        providers: [
          ...(m.target?.providers ?? []),
          { provider_id: "p3", kind: "runtime", contract_version: "v", capabilities: ["hotel.book"] },
        ],
      },
    }));
    fails(visibleDelta(w), "reported capability delta differs");
    expect(visibleDelta(withMigration(w, (m) => ({ delta: { ...m.delta, gained: ["hotel.book"] } })))).toBe(true);
  });
  it("I5 skips the delta and requirement checks while no target is named (checkpointed)", () => {
    const { stepOf } = scenario();
    const w = stepOf("ripa.migration_checkpoint").next;
    expect(agentOf(w).ripa.migration?.target).toBeNull();
    expect(
      visibleDelta(withMigration(w, () => ({ delta: { gained: ["x"], lost: [], unchanged: [] }, bundle: null }))),
    ).toBe(true);
  });
  it("I5 fails when the validated target lacks a required capability (fail closed)", () => {
    const { final } = scenario();
    const req = (caps: string[]) =>
      withMigration(final, (m) => ({
        bundle: m.bundle === null ? null : { ...m.bundle, required_capabilities: caps },
      }));
    expect(visibleDelta(req(["fare.search"]))).toBe(true);
    expect(visibleDelta(req(["fare.search", "mail.send"]))).toEqual({
      violation: inAgent("target lacks required mail.send"),
    });
    expect(visibleDelta(withMigration(final, () => ({ bundle: null })))).toBe(true);
  });
  it("I5 fails when a migration report's delta lists overlap; disjoint lists hold", () => {
    const { final } = scenario();
    const report = (d: { gained: string[]; lost: string[]; unchanged: string[] }) =>
      withRipa(final, () => ({ reports: [{ migration_id: "m0", capability_delta: d } as never] }));
    expect(visibleDelta(report({ gained: ["a"], lost: ["b"], unchanged: ["c"] }))).toBe(true);
    expect(visibleDelta(report({ gained: ["a"], lost: ["a"], unchanged: [] }))).toEqual({
      violation: inAgent("report m0 delta lists overlap"),
    });
    fails(visibleDelta(report({ gained: [], lost: ["b"], unchanged: ["b"] })), "report m0 delta lists overlap");
  });
  it("I5 holds on the report of a real completed migration", () => {
    const { final } = scenario();
    const w = acceptAll(final, [
      {
        op: "ripa.migration_bind",
        tick: 10,
        agent: AGENT,
        migration_id: "m1",
        surfaces: [{ surface_id: "s1", kind: "chat", account: "a", session: "y" }],
        labels: { team: "red" },
      },
      { op: "ripa.migration_rehydrate", tick: 10, agent: AGENT, migration_id: "m1" },
      { op: "ripa.migration_resume", tick: 10, agent: AGENT, migration_id: "m1", token: "f2" },
    ]);
    expect(agentOf(w).ripa.reports).toHaveLength(1);
    expect(visibleDelta(w)).toBe(true);
  });
  it("I5 fails when two providers share an id", () => {
    const { final } = scenario();
    const v = visibleDelta(withRipa(final, (r) => ({ providers: [...r.providers, ...r.providers] })));
    expect(v).toEqual({ violation: inAgent("two providers share an id") });
  });
});

// --- I6 ----------------------------------------------------------------------------------------

describe("I6 selfDescription", () => {
  it("I6 fails when any reserved label key is bound on a surface; other keys hold", () => {
    const { final } = scenario();
    expect(selfDescription(final)).toBe(true);
    const labelled = (labels: Record<string, string>) =>
      withRipa(final, (r) => {
        const s = r.surfaces.get("s1");
        if (s === undefined) throw new Error("s1");
        return { surfaces: new Map(r.surfaces).set("s1", { ...s, labels }) };
      });
    expect(selfDescription(labelled({ team: "blue", identities: "x", self_: "y" }))).toBe(true);
    for (const key of RESERVED_LABEL_KEYS)
      expect(selfDescription(labelled({ team: "blue", [key]: "me" }))).toEqual({
        violation: inAgent(`surface s1 label ${key} stands in for the identity`),
      });
  });
  it("I6 fails when a migration's target surface carries a reserved label", () => {
    const { final } = scenario();
    const w = withRipa(final, (r) => {
      if (r.migration === null) throw new Error("migration");
      return {
        migration: {
          ...r.migration,
          surfaces: [
            { surface: { surface_id: "s2", kind: "chat", account: "a", session: "y" }, labels: { self: "me" } },
          ],
        },
      };
    });
    expect(selfDescription(w)).toEqual({ violation: inAgent("surface s2 label self stands in for the identity") });
  });
});

// --- the table and checkAt ---------------------------------------------------------------------

describe("PREDICATES and checkAt", () => {
  it("PREDICATES maps every invariant id to its own predicate", () => {
    const expected = {
      "J-1": completeAtBirth,
      "J-2": scopedCapabilities,
      "J-3": boundedLifetime,
      "J-4": oneDistillation,
      "S-1": onlyDispositions,
      "S-2": principalSigned,
      "S-3": appendOnly,
      "S-4": deterministicReplay,
      "S-5": exactExcision,
      "AD-1": singleIdentity,
      "AD-2": statelessProjections,
      "AD-3": convergentReconciliation,
      "AD-4": attributionPreserved,
      I1: identityContinuity,
      I2: memoryAncestry,
      I3: bodyRevision,
      I4: continuationAuthority,
      I5: visibleDelta,
      I6: selfDescription,
    };
    expect(Object.keys(PREDICATES).sort()).toEqual([...INVARIANT_IDS].sort());
    for (const id of INVARIANT_IDS) expect(PREDICATES[id].check).toBe(expected[id]);
  });
  it("checkAt on a state predicate reads the initial world when the history is empty", () => {
    const w = minted();
    const bad = { ...w, roots_used: [] };
    expect(checkAt("AD-1", [], w)).toBe(true);
    fails(checkAt("AD-1", [], bad), "root root-1 not recorded");
    expect(checkAt("AD-1", [], initialWorld())).toBe(true);
  });
  it("checkAt on a state predicate reads the last next state, not the initial world", () => {
    const { full } = scenario();
    const last = full[full.length - 1] as HistoryStep;
    const w = minted();
    expect(checkAt("I4", full, { ...w, roots_used: [] })).toBe(true);
    const bad = withRipa(last.next, (r) => ({ authority: { ...r.authority, holder: "exec-1" } }));
    fails(checkAt("I4", [...full.slice(0, -1), { ...last, next: bad }], w), "authority held while fenced");
    // only the last state counts
    fails(checkAt("I4", [{ ...last, next: bad }], w), "authority held while fenced");
    expect(checkAt("I4", [{ ...last, next: bad }, last], w)).toBe(true);
  });
  it("checkAt on a transition predicate holds on an empty history and reads only the last step", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.identity_update");
    const bad = withCommand(s, { authorization: ROGUE });
    expect(checkAt("I1", [], minted())).toBe(true);
    fails(checkAt("I1", [s, bad], minted()), "identity record changed without an authorised update");
    expect(checkAt("I1", [bad, s], minted())).toBe(true);
  });
  it("checkAt on a history predicate reads the whole history; an empty history holds", () => {
    const { full } = scenario();
    const k = full.findIndex((s) => s.events.some((e) => e.type === "store.merge_noop"));
    const s = full[k] as HistoryStep;
    const bad = nextPatched(s, (a) => ({
      ...a,
      store: { ...a.store, chain: [...a.store.chain, ...a.store.chain.slice(-1)] },
    }));
    expect(checkAt("AD-3", [], minted())).toBe(true);
    // a violation early in the history is still seen at the end (the final state is fine)
    fails(
      checkAt("AD-3", [...full.slice(0, k), bad, ...full.slice(k + 1)], minted()),
      `step ${k}: a no-op merge changed the store`,
    );
  });
});
