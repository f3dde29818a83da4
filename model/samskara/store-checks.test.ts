/**
 * The checks of OP-4.1 `samskara.merge`, OP-4.2 `samskara.excise`, OP-4.3 `samskara.replay` and
 * OP-4.4 `advaita.project_write` (model/samskara/store.ts) name their own clauses when they fail:
 * not on the wire (D-032), but the first failing check decides the rejection (OP-0.2) and the kit
 * reads the clause as that verdict (properties/witness.ts). Each scenario breaks exactly the
 * condition its clause states in spec/checks.ts and passes every check before it.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, PIN, accept, acceptAll, distilled, life, minted, rejectedAt, withStore } from "../fixture.ts";
import type { World } from "../state.ts";

/** Two corrective obligations (ob-d1, ob-d2), distilled at tick 2 with deadline_tick 52. */
const twoPending = (): World => {
  const w = distilled(minted(), life("i1"), 2, "d1", -500_000, 900_000, [K.disposition("k.a", -300_000)]);
  return distilled(w, life("i2"), 2, "d2", -400_000, 800_000, [K.disposition("k.b", -200_000)]);
};
const merge = (tick: number, ids: readonly string[]): Command => ({
  op: "samskara.merge",
  tick,
  agent: AGENT,
  obligation_ids: [...ids],
});
const excise = (over: object = {}): Command =>
  ({
    op: "samskara.excise",
    tick: 6,
    agent: AGENT,
    excision_id: "x1",
    distillate_ids: ["d1"],
    authorization: K.AUTH,
    ...over,
  }) as Command;

describe("samskara.merge (OP-4.1)", () => {
  it("fails at OP-4.1.c2 for an unknown obligation, c3 for one discharged other than applied, c4 for one pending at its deadline (D-060)", () => {
    expect(rejectedAt(twoPending(), merge(5, ["ob-d1", "ob-none"]), "OP-4.1.c2").code).toBe("NOT_FOUND");
    const declined = accept(twoPending(), {
      op: "custody.attempt",
      tick: 3,
      agent: AGENT,
      obligation_id: "ob-d1",
      ack: "declined",
    }).world;
    expect(rejectedAt(declined, merge(4, ["ob-d1"]), "OP-4.1.c3").invariant).toBe("J-4");
    // Both deadlines are tick 52: tick 51 is the last merge tick, tick 52 belongs to expire (D-060).
    expect(accept(twoPending(), merge(51, ["ob-d1"])).events[0]).toMatchObject({ type: "store.merged" });
    expect(rejectedAt(twoPending(), merge(52, ["ob-d2"]), "OP-4.1.c4").invariant).toBe("J-4");
    expect(rejectedAt(twoPending(), merge(53, ["ob-d2"]), "OP-4.1.c4").invariant).toBe("J-4");
  });
});

describe("samskara.excise (OP-4.2)", () => {
  const merged = () => accept(twoPending(), merge(5, ["ob-d1"])).world;
  it("fails at OP-4.2.c2 for a used excision id, c3 without a custodian's authorisation, c4 for a distillate not retained", () => {
    const once = accept(merged(), excise()).world;
    expect(rejectedAt(once, excise(), "OP-4.2.c2").code).toBe("DUPLICATE_ID");
    expect(
      rejectedAt(merged(), excise({ authorization: { custodian: "mallory", decision_id: "d" } }), "OP-4.2.c3")
        .invariant,
    ).toBe("I2");
    // d2 is distilled but not merged: pending, not retained by the store.
    expect(rejectedAt(merged(), excise({ distillate_ids: ["d1", "d2"] }), "OP-4.2.c4").code).toBe("NOT_FOUND");
  });
});

describe("samskara.replay (OP-4.3) and advaita.project_write (OP-4.4)", () => {
  it("replay fails at OP-4.3.c1 on a recorded chain its batches do not reproduce (only a corrupted state has one)", () => {
    const w = accept(twoPending(), merge(5, ["ob-d1"])).world;
    const corrupted = withStore(w, (st) => ({
      chain: st.chain.map((v, i) => (i === 1 ? { ...v, state_digest: PIN } : v)),
    }));
    expect(rejectedAt(corrupted, { op: "samskara.replay", tick: 6, agent: AGENT }, "OP-4.3.c1").invariant).toBe("S-4");
    expect(accept(w, { op: "samskara.replay", tick: 6, agent: AGENT }).events[0]).toMatchObject({
      type: "lineage.replayed",
    });
  });
  it("project_write fails at OP-4.4.c2 for an instance that exists", () => {
    const w = acceptAll(minted(), [
      { op: "janma.conceive", tick: 2, agent: AGENT, instance_id: "i1", nonce: "n1", manifest: life("i1").manifest },
    ]);
    expect(
      rejectedAt(
        w,
        { op: "advaita.project_write", tick: 2, agent: AGENT, instance_id: "i1", disposition: K.disposition("k", 1) },
        "OP-4.4.c2",
      ).invariant,
    ).toBe("AD-2");
  });
});
