/**
 * The Samskara predicates (S-1..S-5 in model/predicates.ts), branch by branch.
 *
 * The property run (properties/model.property.test.ts) evaluates every predicate after every
 * generated step, so a predicate that is too strict fails there; one that is too weak (accepts a
 * violating state) is caught only by showing it a violating state. Here every violation branch of
 * onlyDispositions (S-1), principalSigned (S-2), appendOnly (S-3), deterministicReplay (S-4) and
 * exactExcision (S-5) gets a state or step that violates exactly that branch, and the verdict's
 * text is compared in full, so the test shows WHICH check fired; where a branch has a boundary
 * (a comparison, an `every`/`some`, a skipped entry, the first violation winning) the near miss
 * that must still hold sits beside the case just past it.
 *
 * Every world is built inside the `it` that uses it: the mutation tool attributes the model code
 * it executes to the test that runs it.
 */
import { describe, it, expect } from "vitest";
import type { SamskaraDistillate } from "../spec/index.ts";
import { initialWorld } from "./world.ts";
import type { World } from "./state.ts";
import {
  appendOnly,
  attributionPreserved,
  deterministicReplay,
  exactExcision,
  onlyDispositions,
  principalSigned,
  type TransitionStep,
  type Verdict,
} from "./predicates.ts";
import {
  AGENT,
  K,
  agentOf,
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

// --- local helpers -----------------------------------------------------------------------------

/** eachAgent / eachPair prefix every violation with the agent's identity. */
const expectViolation = (v: Verdict, text: string): void => {
  expect(v).toEqual({ violation: `${AGENT.slice(0, 15)}: ${text}` });
};

type D = SamskaraDistillate;

/** Rewrite a retained distillate's content (its recorded digest is kept). */
const withRetained = (w: World, id: string, f: (d: D) => D): World =>
  withStore(w, (s) => {
    const r = s.retained.get(id);
    if (r === undefined) throw new Error(`${id} not retained`);
    return { ...s, retained: new Map(s.retained).set(id, { ...r, distillate: f(r.distillate) }) };
  });

/** Rewrite the distillate a pending obligation holds. */
const withHeld = (w: World, obligationId: string, f: (d: D) => D): World =>
  patch(w, (a) => {
    const o = a.obligations.get(obligationId);
    if (o === undefined || o.held === null) throw new Error(`${obligationId} holds nothing`);
    return { ...a, obligations: new Map(a.obligations).set(obligationId, { ...o, held: f(o.held) }) };
  });

const weights =
  (...ws: number[]) =>
  (d: D): D => ({ ...d, dispositions: d.dispositions.map((x, i) => ({ ...x, weight: ws[i] ?? x.weight })) });
const signal =
  (over: Partial<D["signal"]>) =>
  (d: D): D => ({ ...d, signal: { ...d.signal, ...over } });
const category =
  (c: D["dispositions"][number]["category"], at = 0) =>
  (d: D): D => ({
    ...d,
    dispositions: d.dispositions.map((x, i) => (i === at ? { ...x, category: c } : x)),
  });

/** The scenario's world right after the first merge: d1 retained (merged), d2 held by ob-d2 (pending). */
const merged = (): World => {
  const w = scenario().stepOf("samskara.merge").next;
  expect(agentOf(w).store.retained.has("d1")).toBe(true);
  expect(agentOf(w).obligations.get("ob-d2")?.held?.distillate_id).toBe("d2");
  return w;
};

/**
 * A small lineage run: d1 and d2 merged in one batch, d3 in a second; then d1 is excised (its batch
 * keeps d2) and then d2 and d3 together (every batch empties, the chain falls back to genesis).
 */
const lineageRun = () => {
  const l3 = life("i3");
  let start = minted();
  start = distilled(start, l1, 2, "d1", 600_000, 800_000, [K.disposition("k.a", 500_000)]);
  start = distilled(start, l2, 3, "d2", 400_000, 500_000, [K.disposition("k.b", 300_000)]);
  start = distilled(start, l3, 4, "d3", -300_000, 500_000, [K.disposition("k.a", -200_000)]);
  const h = record(start, [
    { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1", "ob-d2"] },
    { op: "samskara.merge", tick: 6, agent: AGENT, obligation_ids: ["ob-d3"] },
    { op: "samskara.excise", tick: 7, agent: AGENT, excision_id: "x1", distillate_ids: ["d1"], authorization: K.AUTH },
    {
      op: "samskara.excise",
      tick: 8,
      agent: AGENT,
      excision_id: "x2",
      distillate_ids: ["d2", "d3"],
      authorization: K.AUTH,
    },
  ]);
  expect(h.map((s) => s.accepted)).toEqual([true, true, true, true]);
  const [merge1, merge2, excise1, excise2] = h as [TransitionStep, TransitionStep, TransitionStep, TransitionStep];
  return { start, merge1, merge2, excise1, excise2 };
};

/** The last excision record of a world's store. */
const lastExcision = (w: World) => {
  const r = agentOf(w).store.excisions.at(-1);
  if (r === undefined) throw new Error("no excision");
  return r;
};
const withLastExcision = (w: World, f: (r: ReturnType<typeof lastExcision>) => unknown): World =>
  withStore(w, (s) => ({ ...s, excisions: [...s.excisions.slice(0, -1), f(lastExcision(w)) as never] }));

// --- S-1 onlyDispositions ---------------------------------------------------------------------

describe("S-1 onlyDispositions", () => {
  it("S-1 holds on a live instance whose trace count matches its trace (no obligation yet)", () => {
    const w = scenario().stepOf("janma.act").next;
    const i2 = agentOf(w).instances.get("i2");
    expect(i2?.trace.length).toBe(1);
    expect(i2?.view.obligation_id).toBeNull();
    expect(onlyDispositions(w)).toBe(true);
  });
  it("S-1 fails when the trace count is one more than the trace", () => {
    const w = withInstance(scenario().stepOf("janma.act").next, "i2", (i) => ({
      ...i,
      view: { ...i.view, trace_entries: i.trace.length + 1 },
    }));
    expectViolation(onlyDispositions(w), "i2 trace count differs from its trace");
  });
  it("S-1 fails when the trace count is one less than the trace", () => {
    const w = withInstance(scenario().stepOf("janma.act").next, "i2", (i) => ({
      ...i,
      view: { ...i.view, trace_entries: i.trace.length - 1 },
    }));
    expectViolation(onlyDispositions(w), "i2 trace count differs from its trace");
  });
  it("S-1 holds when a distilled instance's trace is gone (D-029)", () => {
    const w = scenario().final;
    const i2 = agentOf(w).instances.get("i2");
    expect(i2?.view.obligation_id).not.toBeNull();
    expect(i2?.trace).toEqual([]);
    expect(onlyDispositions(w)).toBe(true);
  });
  it("S-1 fails when a distilled instance kept its trace (D-029, one entry)", () => {
    const w = withInstance(scenario().final, "i2", (i) => ({
      ...i,
      trace: ["secret"],
      view: { ...i.view, trace_entries: 1 },
    }));
    expectViolation(onlyDispositions(w), "i2 kept its trace after distillation");
  });
  it("S-1 fails when a pending obligation's held distillate carries a trace field (OP-2.7.c4)", () => {
    const w = withHeld(merged(), "ob-d2", (d) => ({ ...d, trace: ["looked at fares"] }) as D);
    expectViolation(onlyDispositions(w), "d2 is not a strict distillate");
  });
  it("S-1 fails when a retained distillate carries an episode field (OP-2.7.c4)", () => {
    const w = withRetained(merged(), "d1", (d) => ({ ...d, episode: "the whole conversation" }) as D);
    expectViolation(onlyDispositions(w), "d1 is not a strict distillate");
  });
  it("S-1 fails when a retained distillate repeats a disposition key (SamskaraDistillate.unique-disposition-keys)", () => {
    const w = withRetained(merged(), "d1", (d) => ({
      ...d,
      dispositions: d.dispositions.map((x) => ({ ...x, key: "k.a" })),
    }));
    expectViolation(onlyDispositions(w), "d1 is not a strict distillate");
  });
  it("S-1 fails when a retained disposition's category is unconsented (OP-2.7.c8, D-011: health cell is high)", () => {
    const w = withRetained(merged(), "d1", category("health"));
    expectViolation(onlyDispositions(w), "d1 persists an unconsented category");
  });
  it("S-1 fails when only the second disposition is unconsented (every disposition is checked)", () => {
    const w = withRetained(merged(), "d1", category("health", 1));
    expectViolation(onlyDispositions(w), "d1 persists an unconsented category");
  });
  it("S-1 fails when a held disposition's category is unconsented (OP-2.7.c8)", () => {
    const w = withHeld(merged(), "ob-d2", category("health"));
    expectViolation(onlyDispositions(w), "d2 persists an unconsented category");
  });
  it("S-1 fails when the category default (medium) exceeds a low persist ceiling (D-011)", () => {
    const w = withRetained(merged(), "d1", category("financial"));
    expectViolation(onlyDispositions(w), "d1 persists an unconsented category");
  });
  it("S-1 holds when the category default (medium) equals a medium persist ceiling (D-011 boundary)", () => {
    let w = withRetained(merged(), "d1", category("financial"));
    w = withInstance(w, "i1", (i) => ({
      ...i,
      manifest: { ...i.manifest, consent_scope: { ...i.manifest.consent_scope, persist_ceiling: "medium" } },
    }));
    expect(onlyDispositions(w)).toBe(true);
  });
  it("S-1 leaves a distillate whose source instance is unknown to AD-4 (consent cannot be resolved)", () => {
    const w = withRetained(merged(), "d1", (d) =>
      category("health")({ ...d, source: { ...d.source, instance_id: "ghost" } }),
    );
    expect(onlyDispositions(w)).toBe(true);
    expect(attributionPreserved(w)).not.toBe(true);
  });
  it("S-1 reports the trace before the distillates (first violation wins)", () => {
    let w = withRetained(merged(), "d1", category("health"));
    w = withInstance(w, "i1", (i) => ({ ...i, trace: ["secret"], view: { ...i.view, trace_entries: 1 } }));
    expectViolation(onlyDispositions(w), "i1 kept its trace after distillation");
  });
  it("S-1 holds on a freshly minted agent with no instances and an empty store", () => {
    expect(onlyDispositions(minted())).toBe(true);
  });
});

// --- S-2 principalSigned ----------------------------------------------------------------------

describe("S-2 principalSigned", () => {
  it("S-2 holds on the merged world (weights within a positive and a negative valence)", () => {
    expect(principalSigned(merged())).toBe(true);
  });
  it("S-2 fails when a retained signal has zero confidence and backs weights (OP-2.7.c6, D-012, D-057)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", signal({ confidence: 0 }))),
      "d1 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 fails when a held signal has zero confidence and backs weights (OP-2.7.c6)", () => {
    expectViolation(
      principalSigned(withHeld(merged(), "ob-d2", signal({ confidence: 0 }))),
      "d2 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 fails when a signal's confidence is negative", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", signal({ confidence: -1 }))),
      "d1 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 holds for the no-feedback distillate: confidence 0, valence 0, no dispositions (D-057)", () => {
    const silent = (d: D): D => ({ ...d, signal: { ...d.signal, confidence: 0, valence: 0 }, dispositions: [] });
    expect(principalSigned(withRetained(merged(), "d1", silent))).toBe(true);
    expect(principalSigned(withHeld(merged(), "ob-d2", silent))).toBe(true);
  });
  it("S-2 fails for a zero confidence with valence 0 that still backs a zero weight (D-057 boundary)", () => {
    const zeroed = (d: D): D => weights(0, 0)({ ...d, signal: { ...d.signal, confidence: 0, valence: 0 } });
    expectViolation(
      principalSigned(withRetained(merged(), "d1", zeroed)),
      "d1 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 fails for a zero confidence with a valence and no dispositions (D-057 boundary)", () => {
    expectViolation(
      principalSigned(
        withRetained(merged(), "d1", (d) => ({ ...d, signal: { ...d.signal, confidence: 0 }, dispositions: [] })),
      ),
      "d1 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 fails when a retained signal names another satisfaction model than its manifest declares (D-053)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", signal({ model_version: "psm-distiller" }))),
      "d1 was judged under psm-distiller, not the principal's declared model",
    );
  });
  it("S-2 holds when confidence is the smallest positive value (1 micro)", () => {
    expect(principalSigned(withRetained(merged(), "d1", signal({ confidence: 1 })))).toBe(true);
  });
  it("S-2 fails when a retained weight has the opposite sign of the valence (OP-2.7.c7)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", weights(-500_000))),
      "d1/k.a weight -500000 against valence 600000",
    );
  });
  it("S-2 fails when a held weight has the opposite sign of a negative valence (OP-2.7.c7)", () => {
    expectViolation(
      principalSigned(withHeld(merged(), "ob-d2", weights(700_000))),
      "d2/k.a weight 700000 against valence -700000",
    );
  });
  it("S-2 fails when a weight is zero under a non-zero valence (D-012: the distiller must not choose the sign)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", weights(0))),
      "d1/k.a weight 0 against valence 600000",
    );
  });
  it("S-2 holds when the valence and every weight are zero", () => {
    expect(principalSigned(withRetained(merged(), "d1", (d) => weights(0, 0)(signal({ valence: 0 })(d))))).toBe(true);
  });
  it("S-2 fails when a weight is non-zero under a zero valence", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", (d) => weights(0, 1)(signal({ valence: 0 })(d)))),
      "d1/k.b weight 1 against valence 0",
    );
  });
  it("S-2 holds when a positive weight equals the valence in magnitude", () => {
    expect(principalSigned(withRetained(merged(), "d1", weights(600_000)))).toBe(true);
  });
  it("S-2 fails when a positive weight exceeds the valence by one micro (OP-2.7.c7)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", weights(600_001))),
      "d1/k.a weight 600001 against valence 600000",
    );
  });
  it("S-2 holds when a negative weight equals a negative valence in magnitude (d2: -700000 / -700000)", () => {
    const d2 = agentOf(merged()).obligations.get("ob-d2")?.held;
    expect(d2?.dispositions[0]?.weight).toBe(-700_000);
    expect(d2?.signal.valence).toBe(-700_000);
    expect(principalSigned(merged())).toBe(true);
  });
  it("S-2 fails when a negative weight exceeds a negative valence by one micro", () => {
    expectViolation(
      principalSigned(withHeld(merged(), "ob-d2", weights(-700_001))),
      "d2/k.a weight -700001 against valence -700000",
    );
  });
  it("S-2 fails when only the second disposition is over the valence (every disposition is checked)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", weights(500_000, 600_001))),
      "d1/k.b weight 600001 against valence 600000",
    );
  });
  it("S-2 reports zero confidence before a bad weight (first violation wins)", () => {
    expectViolation(
      principalSigned(withRetained(merged(), "d1", (d) => weights(-1)(signal({ confidence: 0 })(d)))),
      "d1 has zero confidence yet carries a judgement",
    );
  });
  it("S-2 holds on the final world, where discharged obligations hold nothing", () => {
    const w = scenario().final;
    expect([...agentOf(w).obligations.values()].some((o) => o.held === null)).toBe(true);
    expect(principalSigned(w)).toBe(true);
  });
});

// --- S-3 appendOnly ---------------------------------------------------------------------------

describe("S-3 appendOnly", () => {
  it("S-3 holds when a merge appends one version (chain +1)", () => {
    const { merge1, merge2 } = lineageRun();
    expect(appendOnly(merge1)).toBe(true);
    expect(appendOnly(merge2)).toBe(true);
  });
  it("S-3 fails when one step appends two versions (chain +2)", () => {
    const { merge1, merge2 } = lineageRun();
    expectViolation(appendOnly({ ...merge2, prev: merge1.prev }), "a step added more than one version");
  });
  it("S-3 holds when an excision rewrites the chain and appends its record (D-009)", () => {
    const { excise1, excise2 } = lineageRun();
    expect(appendOnly(excise1)).toBe(true);
    expect(appendOnly(excise2)).toBe(true);
  });
  it("S-3 holds when a step leaves the store unchanged", () => {
    const s = scenario().stepOf("ripa.task_start");
    expect(appendOnly(s)).toBe(true);
  });
  it("S-3 holds on a mint, whose agent is absent from the previous state", () => {
    const w0 = initialWorld();
    const s = record(w0, [K.mintCmd(1, "root-1")])[0] as TransitionStep;
    expect(s.accepted).toBe(true);
    expect(appendOnly(s)).toBe(true);
  });
  it("S-3 fails when a step removes the head version without an excision", () => {
    const { merge2 } = lineageRun();
    expectViolation(
      appendOnly({ ...merge2, prev: merge2.next, next: merge2.prev }),
      "chain rewritten without an excision",
    );
  });
  it("S-3 fails when a step rewrites the head version in place without an excision", () => {
    const { merge2 } = lineageRun();
    const next = withStore(merge2.next, (s) => ({
      ...s,
      chain: s.chain.map((v, i) => (i === s.chain.length - 1 ? { ...v, state_digest: K.EVIDENCE } : v)),
    }));
    expectViolation(appendOnly({ ...merge2, prev: merge2.next, next }), "chain rewritten without an excision");
  });
  it("S-3 fails when the batches are rewritten while the chain is kept", () => {
    const { merge2 } = lineageRun();
    const next = withStore(merge2.next, (s) => ({ ...s, batches: s.batches.slice(1) }));
    expectViolation(appendOnly({ ...merge2, prev: merge2.next, next }), "batches rewritten without an excision");
  });
  it("S-3 fails when an excision record is rewritten", () => {
    const { excise1, excise2 } = lineageRun();
    const prev = excise2.prev;
    const next = withStore(prev, (s) => ({ ...s, excisions: s.excisions.map((r) => ({ ...r, tick: r.tick + 1 })) }));
    expect(excise1.next).toBe(excise2.prev);
    expectViolation(appendOnly({ ...excise2, prev, next }), "excision records were rewritten");
  });
  it("S-3 fails when an excision record is dropped", () => {
    const { excise2 } = lineageRun();
    const prev = excise2.next;
    const next = withStore(prev, (s) => ({ ...s, excisions: s.excisions.slice(0, 1) }));
    expectViolation(appendOnly({ ...excise2, prev, next }), "excision records were rewritten");
  });
  it("S-3 fails when one step appends two excision records", () => {
    const { excise1, excise2 } = lineageRun();
    expectViolation(appendOnly({ ...excise2, prev: excise1.prev }), "more than one excision in a step");
  });
  it("S-3 fails when the excision record names another prior head", () => {
    const { excise1 } = lineageRun();
    const next = withLastExcision(excise1.next, (r) => ({ ...r, prior_head: K.EVIDENCE }));
    expectViolation(appendOnly({ ...excise1, next }), "excision record does not name the prior and new heads");
  });
  it("S-3 fails when the excision record names another new head", () => {
    const { excise1 } = lineageRun();
    const next = withLastExcision(excise1.next, (r) => ({ ...r, new_head: K.EVIDENCE }));
    expectViolation(appendOnly({ ...excise1, next }), "excision record does not name the prior and new heads");
  });
  it("S-3 reports rewritten records before a wrong head (first violation wins)", () => {
    const { excise2 } = lineageRun();
    const next = withStore(
      withLastExcision(excise2.next, (r) => ({ ...r, new_head: K.EVIDENCE })),
      (s) => ({
        ...s,
        excisions: s.excisions.map((r, i) => (i === 0 ? { ...r, tick: r.tick + 1 } : r)),
      }),
    );
    expectViolation(appendOnly({ ...excise2, next }), "excision records were rewritten");
  });
});

// --- S-4 deterministicReplay ------------------------------------------------------------------

describe("S-4 deterministicReplay", () => {
  it("S-4 holds on a genesis-only store and along merges and excisions", () => {
    const { merge1, merge2, excise1, excise2 } = lineageRun();
    expect(deterministicReplay(minted())).toBe(true);
    for (const s of [merge1, merge2, excise1, excise2]) expect(deterministicReplay(s.next)).toBe(true);
  });
  it("S-4 fails when the store has no genesis", () => {
    expectViolation(deterministicReplay(withStore(minted(), (s) => ({ ...s, chain: [] }))), "no genesis");
  });
  it("S-4 fails when either member of a recorded batch lost its content", () => {
    const { merge1 } = lineageRun();
    for (const id of ["d1", "d2"]) {
      const w = withStore(merge1.next, (s) => {
        const retained = new Map(s.retained);
        retained.delete(id);
        return { ...s, retained };
      });
      expectViolation(deterministicReplay(w), "a recorded batch member's content is missing");
    }
  });
  it("S-4 fails when a member of the second batch lost its content", () => {
    const { merge2 } = lineageRun();
    const w = withStore(merge2.next, (s) => {
      const retained = new Map(s.retained);
      retained.delete("d3");
      return { ...s, retained };
    });
    expectViolation(deterministicReplay(w), "a recorded batch member's content is missing");
  });
  it("S-4 fails when a recorded version id was rewritten (OP-4.3.c1)", () => {
    const { merge2 } = lineageRun();
    const w = withStore(merge2.next, (s) => ({
      ...s,
      chain: s.chain.map((v, i) => (i === 1 ? { ...v, version_id: K.EVIDENCE } : v)),
    }));
    expectViolation(deterministicReplay(w), "replay does not reproduce the chain");
  });
  it("S-4 fails when a recorded batch digest was rewritten while the chain is kept (OP-4.3.c1)", () => {
    const { merge2 } = lineageRun();
    const w = withStore(merge2.next, (s) => ({
      ...s,
      batches: s.batches.map((b, i) => (i === 0 ? { ...b, batch_digest: K.EVIDENCE } : b)),
    }));
    expectViolation(deterministicReplay(w), "replay does not reproduce the chain");
  });
  it("S-4 fails when retained content was changed after its merge (OP-4.3.c1)", () => {
    const { merge2 } = lineageRun();
    expectViolation(
      deterministicReplay(withRetained(merge2.next, "d1", weights(1))),
      "replay does not reproduce the chain",
    );
  });
  it("S-4 fails when the head state is missing", () => {
    const { merge2 } = lineageRun();
    expectViolation(
      deterministicReplay(withStore(merge2.next, (s) => ({ ...s, states: [] }))),
      "head state does not match its digest",
    );
  });
  it("S-4 fails when the head state differs from the head's state digest", () => {
    const { merge2 } = lineageRun();
    const w = withStore(merge2.next, (s) => ({
      ...s,
      states: s.states.map((st, i) =>
        i === s.states.length - 1 ? { entries: st.entries.map((e) => ({ ...e, weight: e.weight + 1 })) } : st,
      ),
    }));
    expectViolation(deterministicReplay(w), "head state does not match its digest");
  });
  it("S-4 fails when a genesis-only store's state is not the empty state", () => {
    const w = withStore(minted(), (s) => ({
      ...s,
      states: [
        {
          entries: [
            { key: "k.a", guidance: "g", weight: 1, category: "operational", contested: false, contributors: [] },
          ],
        },
      ],
    }));
    expectViolation(deterministicReplay(w), "head state does not match its digest");
  });
});

// --- S-5 exactExcision ------------------------------------------------------------------------

describe("S-5 exactExcision", () => {
  it("S-5 holds when an excision re-derives a batch that keeps a member, and when every batch empties (D-009)", () => {
    const { excise1, excise2 } = lineageRun();
    expect(agentOf(excise1.next).store.chain).toHaveLength(3);
    expect(agentOf(excise2.next).store.chain).toHaveLength(1);
    expect(exactExcision(excise1)).toBe(true);
    expect(exactExcision(excise2)).toBe(true);
  });
  it("S-5 holds on the scenario's excision and ignores every step without one", () => {
    const { full } = scenario();
    for (const s of full) expect(exactExcision(s)).toBe(true);
  });
  it("S-5 ignores a step without an excision record even if it drops content (S-3/S-4 judge it)", () => {
    const { merge2 } = lineageRun();
    const next = withStore(merge2.next, (s) => ({ ...s, retained: new Map() }));
    expect(exactExcision({ ...merge2, next })).toBe(true);
  });
  it("S-5 leaves a step with two excision records to S-3", () => {
    const { excise1, excise2 } = lineageRun();
    const s = { ...excise2, prev: excise1.prev };
    expect(exactExcision(s)).toBe(true);
    expect(appendOnly(s)).not.toBe(true);
  });
  it("S-5 fails when the excision record carries content (ids and digests only)", () => {
    const { excise1 } = lineageRun();
    const d1 = agentOf(excise1.prev).store.retained.get("d1")?.distillate;
    const next = withLastExcision(excise1.next, (r) => ({
      ...r,
      excised: r.excised.map((e) => ({ ...e, content: d1 })),
    }));
    expectViolation(exactExcision({ ...excise1, next }), "excision record is not ids and digests only");
  });
  it("S-5 fails when the excision record names nothing", () => {
    const { excise1 } = lineageRun();
    const next = withLastExcision(excise1.next, (r) => ({ ...r, excised: [] }));
    expectViolation(exactExcision({ ...excise1, next }), "excision record is not ids and digests only");
  });
  it("S-5 fails when the excision record gives a wrong digest", () => {
    const { excise1 } = lineageRun();
    const next = withLastExcision(excise1.next, (r) => ({
      ...r,
      excised: r.excised.map((e) => ({ ...e, digest: K.EVIDENCE })),
    }));
    expectViolation(exactExcision({ ...excise1, next }), "excision record misnames d1");
  });
  it("S-5 fails when the excision record names a distillate the store never retained", () => {
    const { excise1 } = lineageRun();
    const next = withLastExcision(excise1.next, (r) => ({
      ...r,
      excised: r.excised.map((e) => ({ ...e, distillate_id: "ghost" })),
    }));
    expectViolation(exactExcision({ ...excise1, next }), "excision record misnames ghost");
  });
  it("S-5 fails when only the last of two named digests is wrong (every member is checked)", () => {
    const { excise2 } = lineageRun();
    const rec = lastExcision(excise2.next);
    const lastId = rec.excised.at(-1)?.distillate_id ?? "";
    const next = withLastExcision(excise2.next, (r) => ({
      ...r,
      excised: r.excised.map((e, i) => (i === r.excised.length - 1 ? { ...e, digest: K.EVIDENCE } : e)),
    }));
    expect(rec.excised).toHaveLength(2);
    expectViolation(exactExcision({ ...excise2, next }), `excision record misnames ${lastId}`);
  });
  it("S-5 fails when the excised content survives", () => {
    const { excise1 } = lineageRun();
    const next = withStore(excise1.next, (s) => ({ ...s, retained: agentOf(excise1.prev).store.retained }));
    expectViolation(exactExcision({ ...excise1, next }), "d1 content survived excision");
  });
  it("S-5 fails when the last of two excised distillates survives", () => {
    const { excise2 } = lineageRun();
    const lastId = lastExcision(excise2.next).excised.at(-1)?.distillate_id ?? "";
    const kept = agentOf(excise2.prev).store.retained.get(lastId);
    if (kept === undefined) throw new Error(lastId);
    const next = withStore(excise2.next, (s) => ({ ...s, retained: new Map(s.retained).set(lastId, kept) }));
    expectViolation(exactExcision({ ...excise2, next }), `${lastId} content survived excision`);
  });
  it("S-5 fails when the store before the excision has no genesis", () => {
    const { excise1 } = lineageRun();
    const prev = withStore(excise1.prev, (s) => ({ ...s, chain: [] }));
    expectViolation(exactExcision({ ...excise1, prev }), "no genesis");
  });
  it("S-5 fails when the chain was not re-derived (the old chain kept under a new record)", () => {
    const { excise1 } = lineageRun();
    const old = agentOf(excise1.prev).store;
    const next = withStore(excise1.next, (s) => ({ ...s, chain: old.chain, states: old.states, batches: old.batches }));
    expectViolation(
      exactExcision({ ...excise1, next }),
      "excised chain differs from a fresh lineage of the remaining distillates",
    );
  });
  it("S-5 fails when the re-derived batches differ while the chain is right", () => {
    const { excise1 } = lineageRun();
    const next = withStore(excise1.next, (s) => ({ ...s, batches: s.batches.slice(0, 1) }));
    expectViolation(
      exactExcision({ ...excise1, next }),
      "excised chain differs from a fresh lineage of the remaining distillates",
    );
  });
  it("S-5 fails when everything was dropped though a distillate remains (chain reset to genesis)", () => {
    const { excise1 } = lineageRun();
    const next = withStore(excise1.next, (s) => ({ ...s, chain: s.chain.slice(0, 1), batches: [] }));
    expectViolation(
      exactExcision({ ...excise1, next }),
      "excised chain differs from a fresh lineage of the remaining distillates",
    );
  });
  it("S-5 reports a misnamed record before surviving content (first violation wins)", () => {
    const { excise1 } = lineageRun();
    let next = withStore(excise1.next, (s) => ({ ...s, retained: agentOf(excise1.prev).store.retained }));
    next = withLastExcision(next, (r) => ({ ...r, excised: r.excised.map((e) => ({ ...e, digest: K.EVIDENCE })) }));
    expectViolation(exactExcision({ ...excise1, next }), "excision record misnames d1");
  });
});
