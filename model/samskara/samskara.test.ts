import { describe, it, expect } from "vitest";
import {
  AGENT,
  PIN,
  ROOT,
  K,
  accept,
  acceptAll,
  born,
  distilCmd,
  distilled,
  life,
  minted,
  rejection,
} from "../fixture.ts";
import { view } from "../view.ts";
import type { Agent, Store, World } from "../state.ts";
import { batchDigestOf, type Command, type Digest } from "../../spec/index.ts";
import { distillateDigest } from "./aggregate.ts";
import { batchOf, genesisVersion, mergeStep, replay as replayLineage, sameChain } from "./lineage.ts";
import { replayReproduces } from "./store.ts";

const withdrawnLife = (w: World, id: string, trace: string[] = ["Searched FARES, to Lisbon on tuesday morning!"]) => {
  const l = life(id);
  return {
    l,
    w: acceptAll(born(w, l, 2), [
      K.actCmd(3, AGENT, id, l.nonce, l.manifest, { trace }),
      { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: id, reason: "principal" },
    ]),
  };
};

describe("S-1 only dispositions persist", () => {
  const setup = () => withdrawnLife(minted(), "i1");
  it("S-1 accept: a strict distillate with consented categories and non-leaking guidance; the trace is destroyed", () => {
    const { l, w } = setup();
    const r = accept(
      w,
      distilCmd(l, 4, "d1", 500_000, 800_000, [
        K.disposition("a", 100_000, { guidance: "search fares earlier in the week" }),
      ]),
    );
    expect(r.events).toEqual([
      { type: "trace.destroyed", instance_id: "i1", entries: 1 },
      { type: "obligation.emitted", obligation_id: "ob-d1", kind: "reinforcing" },
    ]);
  });
  it("S-1 reject: an episode field (D-028, with the issue path), unconsented category, leaking guidance", () => {
    const { l, w } = setup();
    const c = distilCmd(l, 4, "d1", 500_000, 800_000, [K.disposition("a", 100_000)]);
    const withEpisode = {
      ...c,
      distillate: { ...(c as { distillate: object }).distillate, episode: "the whole transcript" },
    };
    const r = rejection(w, withEpisode);
    expect(r).toMatchObject({ invariant: "S-1", code: "SAMSKARA_NON_DISPOSITIONAL" });
    expect(r.path?.[0]).toBe("distillate");
    expect(
      rejection(w, distilCmd(l, 4, "d1", 500_000, 800_000, [K.disposition("a", 1, { category: "health" })])).invariant,
    ).toBe("S-1");
    expect(
      rejection(w, distilCmd(l, 4, "d1", 500_000, 800_000, [K.disposition("a", 1, { category: "financial" })]))
        .invariant,
    ).toBe("S-1");
    const leak = K.disposition("a", 1, { guidance: "remember: fares to LISBON on Tuesday" });
    expect(rejection(w, distilCmd(l, 4, "d1", 500_000, 800_000, [leak])).path).toEqual([
      "distillate",
      "dispositions",
      0,
      "guidance",
    ]);
  });
});

describe("S-2 weights carry the principal's judgement", () => {
  const setup = () => withdrawnLife(minted(), "i1");
  it("S-2 accept: weight sign follows valence, magnitude bounded; zero valence with zero weights", () => {
    const { l, w } = setup();
    expect(accept(w, distilCmd(l, 4, "d1", -400_000, 1, [K.disposition("a", -400_000)])).events).toHaveLength(2);
    expect(accept(w, distilCmd(l, 4, "d1", 0, 1, [K.disposition("a", 0)])).events).toHaveLength(2);
  });
  it("S-2 reject: zero confidence, flipped sign, amplified magnitude, non-zero weight at zero valence", () => {
    const { l, w } = setup();
    expect(rejection(w, distilCmd(l, 4, "d1", 500_000, 0, [K.disposition("a", 1)])).invariant).toBe("S-2");
    expect(rejection(w, distilCmd(l, 4, "d1", 500_000, 1, [K.disposition("a", -1)])).invariant).toBe("S-2");
    expect(rejection(w, distilCmd(l, 4, "d1", 500_000, 1, [K.disposition("a", 500_001)])).invariant).toBe("S-2");
    expect(rejection(w, distilCmd(l, 4, "d1", 0, 1, [K.disposition("a", 1)])).invariant).toBe("S-2");
  });
});

/** Three lives distilled, ready to merge in any grouping. */
const threeLives = (): World => {
  let w = minted();
  w = distilled(w, life("i1"), 2, "d1", 600_000, 500_000, [
    K.disposition("k.a", 600_000),
    K.disposition("k.b", 100_000),
  ]);
  w = distilled(w, life("i2"), 2, "d2", -800_000, 700_000, [K.disposition("k.a", -800_000, { guidance: "avoid k.a" })]);
  w = distilled(w, life("i3"), 2, "d3", 300_000, 900_000, [K.disposition("k.c", 300_000)]);
  return w;
};

describe("S-3 append-only lineage", () => {
  it("S-3 accept: each merge appends exactly one version whose parent is the previous head", () => {
    const w0 = threeLives();
    const r1 = accept(w0, { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] });
    const r2 = accept(r1.world, { op: "samskara.merge", tick: 6, agent: AGENT, obligation_ids: ["ob-d2", "ob-d3"] });
    const s = view(r2.world).agents[0]?.store;
    expect(s?.chain.map((v) => v.seq)).toEqual([0, 1, 2]);
    expect(s?.chain[2]?.parent).toBe(s?.chain[1]?.version_id);
    expect(s?.batches[1]?.members.map((m) => m.distillate_id).sort()).toEqual(["d2", "d3"]);
    expect(r2.events.map((e) => e.type)).toEqual([
      "store.merged",
      "custody.discharged",
      "custody.discharged",
      "memory.extended",
    ]);
  });
  it("S-3 reject: excision without a custodian's authorisation is refused (I2) and the chain stays", () => {
    const w = accept(threeLives(), { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] }).world;
    const r = rejection(w, {
      op: "samskara.excise",
      tick: 6,
      agent: AGENT,
      excision_id: "x",
      distillate_ids: ["d1"],
      authorization: { custodian: "mallory", decision_id: "d" },
    });
    expect(r.invariant).toBe("I2");
  });
});

describe("S-4 deterministic replay", () => {
  it("S-4 accept: replay attests the chain with a typed claim", () => {
    const w = acceptAll(threeLives(), [
      { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
      { op: "samskara.merge", tick: 6, agent: AGENT, obligation_ids: ["ob-d2", "ob-d3"] },
    ]);
    const r = accept(w, { op: "samskara.replay", tick: 7, agent: AGENT });
    const s = view(w).agents[0]?.store;
    expect(r.events[0]).toMatchObject({
      type: "lineage.replayed",
      claim: { versions: 3, head: s?.head, excisions: 0, batch_digests: s?.batches.map((b) => b.batch_digest) },
    });
  });
  it("S-4 reject: a corrupted recorded chain does not replay", () => {
    const w = accept(threeLives(), { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] }).world;
    const a = w.agents.get(AGENT);
    if (a === undefined) throw new Error("agent");
    const bad = {
      ...a,
      store: { ...a.store, chain: a.store.chain.map((v, i) => (i === 1 ? { ...v, state_digest: PIN } : v)) },
    };
    const corrupted: World = { ...w, agents: new Map(w.agents).set(AGENT, bad) };
    expect(rejection(corrupted, { op: "samskara.replay", tick: 6, agent: AGENT }).invariant).toBe("S-4");
  });
});

describe("S-5 excisable lineage", () => {
  it("S-5 accept: excision equals a fresh lineage of the remaining distillates in the same batches", () => {
    const w = acceptAll(threeLives(), [
      { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
      { op: "samskara.merge", tick: 6, agent: AGENT, obligation_ids: ["ob-d2", "ob-d3"] },
    ]);
    const x = accept(w, {
      op: "samskara.excise",
      tick: 7,
      agent: AGENT,
      excision_id: "x1",
      distillate_ids: ["d1", "d2"],
      authorization: K.AUTH,
    });
    const fresh = acceptAll(threeLives(), [{ op: "samskara.merge", tick: 6, agent: AGENT, obligation_ids: ["ob-d3"] }]);
    const a = view(x.world).agents[0]?.store;
    const b = view(fresh).agents[0]?.store;
    expect(a?.chain).toEqual(b?.chain);
    expect(a?.batches).toEqual(b?.batches);
    expect(a?.state).toEqual(b?.state);
    expect(a?.distillates.map((d) => d.distillate_id)).toEqual(["d3"]);
    expect(a?.excisions[0]).toMatchObject({
      excision_id: "x1",
      prior_head: view(w).agents[0]?.store.head,
      new_head: a?.head,
    });
  });
  it("S-5 reject: excising a distillate the store does not retain, or reusing an excision id", () => {
    const w = accept(threeLives(), { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] }).world;
    expect(
      rejection(w, {
        op: "samskara.excise",
        tick: 6,
        agent: AGENT,
        excision_id: "x",
        distillate_ids: ["d2"],
        authorization: K.AUTH,
      }).code,
    ).toBe("NOT_FOUND");
    const x = accept(w, {
      op: "samskara.excise",
      tick: 6,
      agent: AGENT,
      excision_id: "x",
      distillate_ids: ["d1"],
      authorization: K.AUTH,
    }).world;
    expect(
      rejection(x, {
        op: "samskara.excise",
        tick: 6,
        agent: AGENT,
        excision_id: "x",
        distillate_ids: ["d1"],
        authorization: K.AUTH,
      }).code,
    ).toBe("DUPLICATE_ID");
  });
});

describe("AD-3 convergent reconciliation (operations)", () => {
  it("AD-3 accept: a re-merge is a no-op; different batchings reach the same state digest", () => {
    const a = acceptAll(threeLives(), [
      { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d3", "ob-d1", "ob-d2"] },
    ]);
    const noop = accept(a, {
      op: "samskara.merge",
      tick: 6,
      agent: AGENT,
      obligation_ids: ["ob-d2", "ob-d1", "ob-d2"],
    });
    expect(noop.events).toEqual([{ type: "store.merge_noop", obligation_ids: ["ob-d1", "ob-d2"] }]);
    const b = acceptAll(threeLives(), [
      { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d2"] },
      { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d3", "ob-d1"] },
    ]);
    expect(view(a).agents[0]?.store.chain.at(-1)?.state_digest).toBe(
      view(b).agents[0]?.store.chain.at(-1)?.state_digest,
    );
    const e = view(a).agents[0]?.store.state.entries.find((x) => x.key === "k.a");
    expect(e).toMatchObject({ contested: true, contributors: ["d1", "d2"], guidance: "avoid k.a" });
  });
  it("AD-3 reject: a different distillate under an already used id", () => {
    let w = threeLives();
    const l = life("i4");
    w = acceptAll(born(w, l, 3), [
      K.actCmd(3, AGENT, "i4", l.nonce, l.manifest),
      { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i4", reason: "principal" },
    ]);
    const r = rejection(w, {
      ...distilCmd(l, 4, "d1", 100_000, 1, [K.disposition("z", 1)]),
      obligation_id: "ob-fresh",
    } as never);
    expect(r).toMatchObject({ invariant: "AD-3", code: "ADVAITA_RECONCILIATION_DIVERGED" });
  });
});

describe("AD-4 attribution preservation (store side)", () => {
  it("AD-4 accept: every entry lists its contributing distillates", () => {
    const w = accept(threeLives(), {
      op: "samskara.merge",
      tick: 5,
      agent: AGENT,
      obligation_ids: ["ob-d1", "ob-d2", "ob-d3"],
    }).world;
    expect(view(w).agents[0]?.store.state.entries.map((e) => [e.key, e.contributors])).toEqual([
      ["k.a", ["d1", "d2"]],
      ["k.b", ["d1"]],
      ["k.c", ["d3"]],
    ]);
  });
  it("AD-4 reject: a distillate claiming another projection's nonce", () => {
    const { l, w } = withdrawnLife(minted(), "i1");
    const c = distilCmd({ ...l, nonce: "someone-else" }, 4, "d1", 1, 1, [K.disposition("a", 1)]);
    expect(rejection(w, c).invariant).toBe("AD-4");
  });
});

/** The agent of a world, and a world whose agent's store is replaced (a corrupted recorded store). */
const agentOf = (w: World): Agent => {
  const a = w.agents.get(AGENT);
  if (a === undefined) throw new Error("agent");
  return a;
};
const withStore = (w: World, f: (s: Store) => Store): World => {
  const a = agentOf(w);
  return { ...w, agents: new Map(w.agents).set(AGENT, { ...a, store: f(a.store) }) };
};

describe("OP-4.1 merge: events in the spec's order", () => {
  it("OP-4.1 custody.discharged is emitted per obligation sorted by obligation id, whatever the order of obligation_ids", () => {
    const r = accept(threeLives(), {
      op: "samskara.merge",
      tick: 5,
      agent: AGENT,
      obligation_ids: ["ob-d3", "ob-d1", "ob-d2"],
    });
    expect(
      r.events
        .filter((e) => e.type === "custody.discharged")
        .map((e) => (e as { obligation_id: string }).obligation_id),
    ).toEqual(["ob-d1", "ob-d2", "ob-d3"]);
    expect(r.events[0]).toMatchObject({ type: "store.merged", added: ["d1", "d2", "d3"] });
  });
});

describe("OP-4.3 S-4 the replay check refuses a corrupted recorded store", () => {
  const merged = () =>
    accept(threeLives(), { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1", "ob-d2"] }).world;
  it("OP-4.3.c1 S-4 reject: a recorded batch whose record differs from the one replay derives (the chain itself intact)", () => {
    const w = withStore(merged(), (s) => ({
      ...s,
      batches: s.batches.map((b) => ({ ...b, members: [...b.members].reverse() })),
    }));
    expect(rejection(w, { op: "samskara.replay", tick: 6, agent: AGENT })).toMatchObject({
      invariant: "S-4",
      check: "OP-4.3.c1",
    });
    expect(replayReproduces(agentOf(w).store).ok).toBe(false);
    expect(replayReproduces(agentOf(merged()).store).ok).toBe(true);
  });
  it("OP-4.3.c1 S-4 reject: a store that lost a batch member's content, or its genesis, does not replay", () => {
    const lost = withStore(merged(), (s) => ({
      ...s,
      retained: new Map([...s.retained].filter(([id]) => id !== "d2")),
    }));
    expect(rejection(lost, { op: "samskara.replay", tick: 6, agent: AGENT })).toMatchObject({
      invariant: "S-4",
      check: "OP-4.3.c1",
    });
    expect(replayReproduces(agentOf(lost).store)).toEqual({ ok: false, lineage: null });
    expect(replayReproduces({ ...agentOf(merged()).store, chain: [] })).toEqual({ ok: false, lineage: null });
  });
});

describe("OP-1.6..OP-1.8 the lineage algebra (pure helpers)", () => {
  const dist = (id: string, key: string) =>
    K.distillate({
      id,
      agent: AGENT,
      nonce: `n-${id}`,
      instanceId: `i-${id}`,
      bornFrom: PIN,
      valence: 1,
      confidence: 1,
      dispositions: [K.disposition(key, 1)],
    });
  const a = dist("a", "k.a");
  const b = dist("b", "k.b");
  const genesisOf = () => genesisVersion(K.BASE, ROOT);
  it("OP-1.6 a batch is the set of its distillates: members sorted by digest, each once, and the batch digest is over that set", () => {
    const once = batchOf([a, b]);
    expect(once.members.map((m) => m.digest)).toEqual([distillateDigest(a), distillateDigest(b)].sort());
    expect(batchOf([b, a, b])).toEqual(once);
    expect(batchOf([a, a, a, b])).toEqual(once);
    expect(once.batch_digest).toBe(batchDigestOf([distillateDigest(a), distillateDigest(b)].sort() as Digest[]));
  });
  it("OP-1.6 a merge step needs a non-empty set of new distillates", () => {
    const genesis = genesisOf();
    expect(() => mergeStep(genesis, [], [])).toThrow(RangeError);
    expect(mergeStep(genesis, [], [a]).version.seq).toBe(1);
  });
  it("OP-1.7 D-009 replay skips an empty batch: it produces no version", () => {
    const genesis = genesisOf();
    const plain = replayLineage(genesis, [[a], [b]]);
    const gaps = replayLineage(genesis, [[], [a], [], [b], []]);
    expect(gaps.chain).toHaveLength(3);
    expect(sameChain(gaps, plain)).toBe(true);
  });
  it("S-4 S-5 sameChain compares the batches as well as the chain", () => {
    const genesis = genesisOf();
    const l = replayLineage(genesis, [[a, b]]);
    expect(
      sameChain(l, { chain: l.chain, batches: l.batches.map((x) => ({ ...x, members: [...x.members].reverse() })) }),
    ).toBe(false);
    expect(sameChain(l, replayLineage(genesis, [[b, a]]))).toBe(true);
  });
});

describe("the check a rejection names (OP-0.2: the first failing check decides; the witness tally reads it)", () => {
  it("an unknown obligation or projection is NOT_FOUND at OP-3.1.c1, OP-3.2.c1, OP-4.4.c1", () => {
    const w = minted();
    const cases: [Command, string][] = [
      [{ op: "custody.attempt", tick: 2, agent: AGENT, obligation_id: "ob-none", ack: "deferred" }, "OP-3.1.c1"],
      [{ op: "custody.expire", tick: 2, agent: AGENT, obligation_id: "ob-none" }, "OP-3.2.c1"],
      [
        {
          op: "advaita.project_write",
          tick: 2,
          agent: AGENT,
          instance_id: "i-none",
          disposition: K.disposition("k.w", 1),
        },
        "OP-4.4.c1",
      ],
    ];
    for (const [c, check] of cases)
      expect(rejection(w, c), c.op).toMatchObject({ code: "NOT_FOUND", invariant: null, check });
  });
});
