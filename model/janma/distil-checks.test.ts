/**
 * Each check of OP-2.7 `janma.distil` (model/janma/distil.ts) names its own clause when it fails:
 * the clause is not on the wire (D-032) but the first failing check decides the rejection (OP-0.2)
 * and the kit reads the clause as that verdict (properties/witness.ts). Each scenario breaks
 * exactly the condition its clause states in spec/checks.ts and passes every check before it.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { AGENT, K, accept, acceptAll, born, distilCmd, distilled, life, minted, rejectedAt } from "../fixture.ts";
import type { World } from "../state.ts";

const l1 = life("i1");
const l2 = life("i2");
const TRACE = "searched fares to lisbon on tuesday morning";
/** i2 lived (one act with TRACE) and was withdrawn: ready to be distilled. */
const withdrawn = (w: World, l = l2, tick = 2): World =>
  acceptAll(born(w, l, tick), [
    K.actCmd(tick, AGENT, l.id, l.nonce, l.manifest, { trace: [TRACE] }),
    { op: "janma.withdraw", tick, agent: AGENT, instance_id: l.id, reason: "principal" },
  ]);
const negative = [K.disposition("tool.search", -300_000)];
const distil = (
  over: (c: Command & { distillate: Record<string, unknown> }) => object,
  base = distilCmd(l2, 2, "d2", -500_000, 900_000, negative),
): Command => over(base as Command & { distillate: Record<string, unknown> }) as Command;

describe("janma.distil (OP-2.7)", () => {
  it("fails at OP-2.7.c2 for a life not withdrawn, or one already distilled", () => {
    expect(
      rejectedAt(born(minted(), l2, 2), distilCmd(l2, 2, "d2", -500_000, 900_000, negative), "OP-2.7.c2").invariant,
    ).toBe("J-4");
    const once = accept(withdrawn(minted()), distilCmd(l2, 2, "d2", -500_000, 900_000, negative)).world;
    expect(rejectedAt(once, distilCmd(l2, 3, "d3", -500_000, 900_000, negative), "OP-2.7.c2").invariant).toBe("J-4");
  });

  it("fails at OP-2.7.c3 for an obligation id in use (before the distillate is looked at)", () => {
    const w = withdrawn(distilled(minted(), l1, 2, "d1", -500_000, 900_000, negative), l2, 3);
    expect(rejectedAt(w, distilCmd(l2, 3, "d1", -500_000, 900_000, negative), "OP-2.7.c3").code).toBe("DUPLICATE_ID");
  });

  it("fails at OP-2.7.c4 for a distillate the strict schema refuses (an unknown field, a decimal weight)", () => {
    const w = withdrawn(minted());
    expect(
      rejectedAt(
        w,
        distil((c) => ({ ...c, distillate: { ...c.distillate, note: "x" } })),
        "OP-2.7.c4",
      ).invariant,
    ).toBe("S-1");
    const decimal = distilCmd(l2, 2, "d2", -500_000, 900_000, [K.disposition("tool.search", -0.3)]);
    expect(rejectedAt(w, decimal, "OP-2.7.c4").invariant).toBe("S-1");
  });

  it("fails at OP-2.7.c5 for a source naming another nonce, c6 for a zero confidence, c7 for a weight against the valence", () => {
    const w = withdrawn(minted());
    const foreign = distil((c) => ({
      ...c,
      distillate: { ...c.distillate, source: { ...(c.distillate["source"] as object), nonce: "other-nonce" } },
    }));
    expect(rejectedAt(w, foreign, "OP-2.7.c5").invariant).toBe("AD-4");
    expect(rejectedAt(w, distilCmd(l2, 2, "d2", -500_000, 0, negative), "OP-2.7.c6").invariant).toBe("S-2");
    expect(
      rejectedAt(w, distilCmd(l2, 2, "d2", -500_000, 900_000, [K.disposition("tool.search", 300_000)]), "OP-2.7.c7")
        .invariant,
    ).toBe("S-2");
  });

  it("fails at OP-2.7.c8 for a category the consent grant does not authorise, c9 for guidance that repeats 4 trace tokens", () => {
    const w = withdrawn(minted());
    // The fixture's consent grant rates health data for training "high", above its ceiling "low" (D-011).
    const health = [K.disposition("tool.search", -300_000, { category: "health" })];
    expect(rejectedAt(w, distilCmd(l2, 2, "d2", -500_000, 900_000, health), "OP-2.7.c8").invariant).toBe("S-1");
    const leaky = [K.disposition("tool.search", -300_000, { guidance: "avoid fares to lisbon on tuesday" })];
    expect(rejectedAt(w, distilCmd(l2, 2, "d2", -500_000, 900_000, leaky), "OP-2.7.c9").invariant).toBe("S-1");
  });

  it("fails at OP-2.7.c10 for a distillate id used before, under a fresh obligation id", () => {
    const w = withdrawn(distilled(minted(), l1, 2, "d1", -500_000, 900_000, negative), l2, 3);
    const reused = distil(
      (c) => ({ ...c, obligation_id: "ob-fresh" }),
      distilCmd(l2, 3, "d1", -500_000, 900_000, negative),
    );
    expect(rejectedAt(w, reused, "OP-2.7.c10").invariant).toBe("AD-3");
  });
});
