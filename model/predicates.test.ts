/**
 * Every invariant's predicate holds along a real run and fails on a deliberately corrupted state,
 * transition or history (so none of them can be vacuous).
 */
import { describe, it, expect } from "vitest";
import { INVARIANT_IDS, INVARIANTS } from "../spec/index.ts";
import { PREDICATES, checkAt, type HistoryStep } from "./predicates.ts";
import { K, agentOf, l1, patch, scenario, violated } from "./fixture.ts";

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
      return {
        ...a,
        instances: new Map(a.instances).set("i2", { ...i, view: { ...i.view, grants: ["fare.*", "mail.*"] } }),
      };
    });
    expect(violated("J-1", { ...s, next })).toBe(true);
  });
  it("J-2 fails when an instance used a tool it never had", () => {
    const { final } = scenario();
    expect(
      violated(
        "J-2",
        patch(final, (a) => {
          const i = a.instances.get("i1");
          if (i === undefined) throw new Error("i1");
          return {
            ...a,
            instances: new Map(a.instances).set("i1", { ...i, view: { ...i.view, tools_used: ["hammer"] } }),
          };
        }),
      ),
    ).toBe(true);
  });
  it("J-3 fails when an act happened past the TTL deadline", () => {
    const { stepOf } = scenario();
    const s = stepOf("janma.act");
    const prev = patch(s.prev, (a) => {
      const i = a.instances.get("i2");
      if (i === undefined) throw new Error("i2");
      return {
        ...a,
        instances: new Map(a.instances).set("i2", {
          ...i,
          manifest: { ...i.manifest, ttl_ticks: 1 },
          view: { ...i.view, born_tick: 0 },
        }),
      };
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
    expect(
      violated(
        "S-1",
        patch(final, (a) => {
          const i = a.instances.get("i2");
          if (i === undefined) throw new Error("i2");
          return {
            ...a,
            instances: new Map(a.instances).set("i2", {
              ...i,
              trace: ["secret"],
              view: { ...i.view, trace_entries: 1 },
            }),
          };
        }),
      ),
    ).toBe(true);
  });
  it("S-2 fails when a held weight contradicts the valence", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(
      violated(
        "S-2",
        patch(s.next, (a) => {
          const [id, r] = [...a.store.retained.entries()][0] ?? [];
          if (id === undefined || r === undefined) throw new Error("retained");
          const bad = {
            ...r.distillate,
            dispositions: r.distillate.dispositions.map((d) => ({ ...d, weight: -d.weight })),
          };
          return {
            ...a,
            store: { ...a.store, retained: new Map(a.store.retained).set(id, { ...r, distillate: bad }) },
          };
        }),
      ),
    ).toBe(true);
  });
  it("S-3 fails when a step drops a version without an excision", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(violated("S-3", { ...s, prev: s.next, next: s.prev })).toBe(true);
  });
  it("S-4 fails when a recorded version was rewritten", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(
      violated(
        "S-4",
        patch(s.next, (a) => ({
          ...a,
          store: { ...a.store, chain: a.store.chain.map((v, i) => (i === 1 ? { ...v, version_id: K.EVIDENCE } : v)) },
        })),
      ),
    ).toBe(true);
  });
  it("S-5 fails when the excised content survives", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.excise");
    const next = patch(s.next, (a) => ({ ...a, store: { ...a.store, retained: agentOf(s.prev).store.retained } }));
    expect(violated("S-5", { ...s, next })).toBe(true);
  });
  it("AD-1 fails when an identity is not H(base || root)", () => {
    const { final } = scenario();
    expect(
      violated(
        "AD-1",
        patch(final, (a) => ({ ...a, identity: { ...a.identity, root: "other-root" } })),
      ),
    ).toBe(true);
  });
  it("AD-2 fails when two projections share a nonce", () => {
    const { final } = scenario();
    expect(
      violated(
        "AD-2",
        patch(final, (a) => {
          const i = a.instances.get("i2");
          if (i === undefined) throw new Error("i2");
          return { ...a, instances: new Map(a.instances).set("i2", { ...i, view: { ...i.view, nonce: l1.nonce } }) };
        }),
      ),
    ).toBe(true);
  });
  it("AD-3 fails when the state is not the aggregate of the retained set", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    const next = patch(s.next, (a) => ({
      ...a,
      store: {
        ...a.store,
        states: a.store.states.map((st) => ({ entries: st.entries.map((e) => ({ ...e, weight: e.weight + 1 })) })),
      },
    }));
    expect(violated("AD-3", [{ ...s, next }])).toBe(true);
  });
  it("AD-4 fails when an entry loses its contributors", () => {
    const { stepOf } = scenario();
    const s = stepOf("samskara.merge");
    expect(
      violated(
        "AD-4",
        patch(s.next, (a) => ({
          ...a,
          store: {
            ...a.store,
            states: a.store.states.map((st) => ({ entries: st.entries.map((e) => ({ ...e, contributors: [] })) })),
          },
        })),
      ),
    ).toBe(true);
  });
  it("I1 fails when the designation changes without an identity update", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(
      violated("I1", {
        ...s,
        next: patch(s.next, (a) => ({ ...a, record: { ...a.record, designation: "label-says-so" } })),
      }),
    ).toBe(true);
  });
  it("I2 fails when memory ancestry is reset", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(
      violated("I2", {
        ...s,
        next: patch(s.next, (a) => ({ ...a, memory: { ...a.memory, ancestry: a.memory.ancestry.slice(0, 1) } })),
      }),
    ).toBe(true);
  });
  it("I3 fails when the body changes without an evolution", () => {
    const { stepOf } = scenario();
    const s = stepOf("ripa.task_start");
    expect(
      violated("I3", {
        ...s,
        next: patch(s.next, (a) => ({ ...a, body: { revision: "rogue", lineage: [...a.body.lineage, "rogue"] } })),
      }),
    ).toBe(true);
  });
  it("I4 fails when a replica, not the bound execution, holds authority (the holder check fires; the replica-id branch is in predicates-advaita-ripa.test.ts)", () => {
    const { final } = scenario();
    expect(
      violated(
        "I4",
        patch(final, (a) => ({
          ...a,
          ripa: { ...a.ripa, migration: null, authority: { ...a.ripa.authority, holder: "rep-1" } },
        })),
      ),
    ).toBe(true);
  });
  it("I5 fails when the reported delta hides a lost capability", () => {
    const { final } = scenario();
    expect(
      violated(
        "I5",
        patch(final, (a) => {
          const m = a.ripa.migration;
          if (m === null || m.delta === null) throw new Error("migration");
          return { ...a, ripa: { ...a.ripa, migration: { ...m, delta: { ...m.delta, lost: [] } } } };
        }),
      ),
    ).toBe(true);
  });
  it("I6 fails when a label stands in for the identity", () => {
    const { final } = scenario();
    expect(
      violated(
        "I6",
        patch(final, (a) => {
          const s = a.ripa.surfaces.get("s1");
          if (s === undefined) throw new Error("s1");
          return {
            ...a,
            ripa: { ...a.ripa, surfaces: new Map(a.ripa.surfaces).set("s1", { ...s, labels: { identity: "me" } }) },
          };
        }),
      ),
    ).toBe(true);
  });
});
