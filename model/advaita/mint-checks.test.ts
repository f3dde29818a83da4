/**
 * The checks of OP-5.1 `advaita.mint` (model/advaita/mint.ts) name their own clauses when they
 * fail: not on the wire (D-032), but the kit reads the clause as the verdict of which check failed
 * (properties/witness.ts).
 */
import { describe, expect, it } from "vitest";
import { K, minted, rejectedAt } from "../fixture.ts";
import { initialWorld } from "../world.ts";

describe("advaita.mint (OP-5.1)", () => {
  it("fails at OP-5.1.c1 for a root used before, c2 for repeated provider ids", () => {
    expect(rejectedAt(minted(), K.mintCmd(2, "root-1"), "OP-5.1.c1").invariant).toBe("AD-1");
    const p = K.mintCmd(1, "r").providers[0]!;
    expect(rejectedAt(initialWorld(), K.mintCmd(1, "r", { providers: [p, p] }), "OP-5.1.c2").code).toBe("DUPLICATE_ID");
  });
});
