/**
 * The weight tables expand to the lists `choice.op` indexes. Their order decides which kind every
 * choice names, so it is pinned here: the golden sessions (conformance/golden/*.jsonl) were
 * generated from exactly these lists, and a reordered table would change them all.
 */
import { describe, expect, it } from "vitest";
import { MAKERS } from "./makers.ts";
import { OP_KINDS, OP_LISTS, OP_WEIGHTS } from "./weights.ts";

/** A list as `kind×n` runs, in order. */
const runs = (list: readonly string[]): string =>
  list
    .reduce<Array<[string, number]>>((acc, k) => {
      const last = acc.at(-1);
      if (last !== undefined && last[0] === k) last[1] += 1;
      else acc.push([k, 1]);
      return acc;
    }, [])
    .map(([k, n]) => `${k}×${n}`)
    .join(" ");

describe("operation weights", () => {
  it("expand, in table order, to the lists the golden sessions were generated from", () => {
    expect(runs(OP_LISTS.mixed)).toBe(
      "mint×1 conceive×5 birth×7 act×10 withdraw×5 expire×2 distil×8 attempt×3 custody_expire×1 merge×7 excise×2 replay×1 dissolve×1 acquire×1 project_write×1 " +
        "task_start×2 task_resume×1 task_pause×2 request×2 reply×2 effect×2 evolve×1 identity_update×1 bind_surface×2 replicate×2 descend×1 restart×1 migrate×2 cancel×1",
    );
    expect(OP_LISTS.mixed).toHaveLength(77);
    expect(runs(OP_LISTS.store)).toBe(
      "conceive×4 birth×4 act×5 withdraw×4 distil×6 merge×6 excise×1 replay×1 attempt×1",
    );
    expect(OP_LISTS.store).toHaveLength(32);
  });

  it("are positive integers, and every kind has a maker", () => {
    for (const table of Object.values(OP_WEIGHTS))
      for (const n of Object.values(table)) expect(Number.isInteger(n) && n > 0).toBe(true);
    expect(new Set(Object.keys(MAKERS))).toEqual(new Set(OP_KINDS));
  });
});
