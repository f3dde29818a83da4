/**
 * Each check of the Janma lifecycle operations (model/janma/lifecycle.ts: OP-2.1 conceive .. OP-2.8
 * dissolve) names its own clause when it fails. The clause is not on the wire (D-032), but the
 * first failing check decides the rejection (OP-0.2) and the kit reads the clause as that verdict
 * (properties/witness.ts counts which check each rejection failed at), so a rejection filed under
 * no clause or another one is a wrong answer. Each scenario breaks exactly the condition its
 * clause states in spec/checks.ts and passes every check before it.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, PIN, accept, acceptAll, born, distilled, life, minted, rejectedAt } from "../fixture.ts";
import type { World } from "../state.ts";

const l = life("i1");
const conceive = (id: string, nonce: string, manifest = life(id).manifest, tick = 2): Command => ({
  op: "janma.conceive",
  tick,
  agent: AGENT,
  instance_id: id,
  nonce,
  manifest,
});
const birth = (id: string, tick: number, environment: object = K.ENV): Command =>
  ({ op: "janma.birth", tick, agent: AGENT, instance_id: id, environment }) as Command;
const conceived = (): World => accept(minted(), conceive("i1", l.nonce, l.manifest)).world;
/** i1's life distilled into a corrective obligation, then declined by custody: its pin (PIN) is quarantined. */
const quarantinedAfter = (before: (w: World) => World = (w) => w): World => {
  const w = before(distilled(minted(), l, 2, "d1", -500_000, 900_000, [K.disposition("tool.search", -300_000)]));
  return accept(w, { op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "declined" }).world;
};

describe("janma.conceive (OP-2.1)", () => {
  it("fails at OP-2.1.c2 for a used instance id, c3 for a used nonce, c4 for a foreign base digest, c5 for a quarantined pin", () => {
    const w = conceived();
    expect(rejectedAt(w, conceive("i1", "fresh-nonce"), "OP-2.1.c2").code).toBe("DUPLICATE_ID");
    expect(rejectedAt(w, conceive("i2", l.nonce), "OP-2.1.c3").invariant).toBe("AD-2");
    const foreign = life("i2", PIN, { substrate: { base_digest: K.EVIDENCE, store_version: PIN } });
    expect(rejectedAt(w, conceive("i2", "n2", foreign.manifest), "OP-2.1.c4").invariant).toBe("J-1");
    expect(rejectedAt(quarantinedAfter(), conceive("i2", "n2", life("i2").manifest, 4), "OP-2.1.c5").invariant).toBe(
      "J-4",
    );
  });
});

describe("janma.birth (OP-2.2)", () => {
  it("fails at OP-2.2.c3 when not conceived, c4 for a pin outside the chain, c5 for a quarantined pin, c6 for an unresolved tool, c7 for an ungrantable grant", () => {
    expect(rejectedAt(born(minted(), l, 2), birth("i1", 3), "OP-2.2.c3").invariant).toBe("J-1");
    const stray = life("i3", K.EVIDENCE);
    expect(
      rejectedAt(accept(minted(), conceive("i3", stray.nonce, stray.manifest)).world, birth("i3", 2), "OP-2.2.c4")
        .invariant,
    ).toBe("J-1");
    // i2 is conceived from PIN while it is still clean, then PIN is quarantined before i2's birth.
    const early = life("i2");
    const q = quarantinedAfter((w) => accept(w, conceive("i2", early.nonce, early.manifest, 3)).world);
    expect(rejectedAt(q, birth("i2", 4), "OP-2.2.c5").invariant).toBe("J-1");
    expect(rejectedAt(conceived(), birth("i1", 2, { ...K.ENV, tools: [] }), "OP-2.2.c6").invariant).toBe("J-1");
    expect(
      rejectedAt(conceived(), birth("i1", 2, { ...K.ENV, grantable: ["fare.search"] }), "OP-2.2.c7").invariant,
    ).toBe("J-1");
  });
});

describe("janma.act (OP-2.3)", () => {
  it("fails at OP-2.3.c3 before birth, c4 after withdrawal, c5 for a broken signature, c6 at the TTL deadline, c7 for an unbound tool or an unbound capability", () => {
    expect(rejectedAt(conceived(), K.actCmd(3, AGENT, "i1", l.nonce, l.manifest), "OP-2.3.c3").invariant).toBe("J-1");
    const b = born(minted(), l, 2);
    const gone = accept(b, {
      op: "janma.withdraw",
      tick: 3,
      agent: AGENT,
      instance_id: "i1",
      reason: "principal",
    }).world;
    expect(rejectedAt(gone, K.actCmd(4, AGENT, "i1", l.nonce, l.manifest), "OP-2.3.c4").invariant).toBe("J-3");
    expect(rejectedAt(b, K.actCmd(3, AGENT, "i1", "other-nonce", l.manifest), "OP-2.3.c5").invariant).toBe("AD-4");
    // born at tick 2 with ttl_ticks 100: tick 102 = born_tick + ttl_ticks is past the lifetime.
    expect(l.manifest.ttl_ticks).toBe(100);
    expect(accept(b, K.actCmd(101, AGENT, "i1", l.nonce, l.manifest)).events).toHaveLength(1);
    expect(rejectedAt(b, K.actCmd(102, AGENT, "i1", l.nonce, l.manifest), "OP-2.3.c6").invariant).toBe("J-3");
    expect(rejectedAt(b, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { tool: "mail" }), "OP-2.3.c7").invariant).toBe(
      "J-2",
    );
    expect(
      rejectedAt(b, K.actCmd(3, AGENT, "i1", l.nonce, l.manifest, { capability: "fare.book" }), "OP-2.3.c7").invariant,
    ).toBe("J-2");
  });
});

describe("janma.acquire (OP-2.4)", () => {
  it("fails at OP-2.4.c2 for a tool (J-1) and for a capability (J-2)", () => {
    const b = born(minted(), l, 2);
    const acquire = (acquisition: object): Command =>
      ({ op: "janma.acquire", tick: 3, agent: AGENT, instance_id: "i1", acquisition }) as Command;
    expect(
      rejectedAt(b, acquire({ kind: "tool", tool: { tool: "x", capabilities: ["a.b"] } }), "OP-2.4.c2").invariant,
    ).toBe("J-1");
    expect(rejectedAt(b, acquire({ kind: "capability", capability: "mail.send" }), "OP-2.4.c2").invariant).toBe("J-2");
  });
});

describe("janma.withdraw (OP-2.6) and janma.dissolve (OP-2.8)", () => {
  const withdraw: Command = { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i1", reason: "forced" };
  const dissolve: Command = { op: "janma.dissolve", tick: 3, agent: AGENT, instance_id: "i1" };
  it("withdraw fails at OP-2.6.c2 when never born, c3 when already withdrawn", () => {
    expect(rejectedAt(conceived(), withdraw, "OP-2.6.c2").invariant).toBe("J-1");
    const gone = accept(born(minted(), l, 2), { ...withdraw, tick: 2 }).world;
    expect(rejectedAt(gone, withdraw, "OP-2.6.c3").invariant).toBe("J-4");
  });
  it("dissolve fails at OP-2.8.c2 when not withdrawn, c3 without a discharged obligation (none yet, or one pending)", () => {
    expect(rejectedAt(born(minted(), l, 2), dissolve, "OP-2.8.c2").invariant).toBe("J-4");
    const gone = accept(born(minted(), l, 2), { ...withdraw, tick: 2 }).world;
    expect(rejectedAt(gone, dissolve, "OP-2.8.c3").invariant).toBe("J-4");
    const pending = distilled(minted(), l, 2, "d1", -500_000, 900_000, [K.disposition("tool.search", -300_000)]);
    expect(rejectedAt(pending, dissolve, "OP-2.8.c3").invariant).toBe("J-4");
    expect(
      accept(
        acceptAll(pending, [{ op: "custody.attempt", tick: 3, agent: AGENT, obligation_id: "ob-d1", ack: "declined" }]),
        { ...dissolve, tick: 4 },
      ).events,
    ).toEqual([{ type: "instance.dissolved", instance_id: "i1" }]);
  });
});
