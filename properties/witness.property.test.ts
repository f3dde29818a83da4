/**
 * Coverage that cannot silently regress (issue 12, point 6): the generator, run through the model
 * at the differential property's default budget (150 mixed and 100 store-profile sequences of 60
 * to 200 commands), must reach every check clause of spec/CHECKS.md both passing and as the first
 * to fail, and every boundary of properties/witness.ts. The table is printed; any zero fails.
 * The seeds are fixed, so the table is the same on every run (a random seed could hide a zero
 * one day and show it the next). Every ordered comparison of spec/CHECKS.md is driven from every
 * operation that applies it, one below its boundary, at it and one above (properties/comparisons.ts,
 * issue 21 item 2): a zero cell fails too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import { initialWorld, transition, view } from "../model/index.ts";
import { errorCodeOf, isInvariantId } from "../spec/catalog.ts";
import type { CheckClause } from "../spec/checks.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "./generators/commands.ts";
import { checksOf } from "../spec/checks.ts";
import { COMMAND_OPS } from "../spec/schemas/commands.ts";
import { COMPARISONS } from "./comparisons.ts";
import {
  BOUNDARIES,
  beginRun,
  newWitnessBook,
  recordWitness,
  renderWitnessTable,
  witnessZeros,
  type WitnessBook,
} from "./witness.ts";

const codes = (c: CheckClause): string[] => c.targets.map((t) => (isInvariantId(t) ? errorCodeOf(t) : t));

const run = (book: WitnessBook, profile: GenProfile, runs: number, seed: number): void => {
  for (const choices of fc.sample(choicesArb(60, 200), { numRuns: runs, seed })) {
    const mem = newMemory(profile);
    beginRun(book);
    let world = initialWorld();
    for (const choice of choices) {
      const pre = view(world);
      const cmd = materialize(pre, mem, choice);
      const r = transition(world, cmd);
      if (Result.isSuccess(r)) {
        recordWitness(book, pre, cmd, { ok: true, events: r.success.events }, codes);
        world = r.success.world;
      } else {
        recordWitness(book, pre, cmd, { ok: false, check: r.failure.check, code: r.failure.code }, codes);
      }
    }
  }
};

describe("every check clause of OPERATIONS.md has witnesses at the default budget (issue 12, point 6)", () => {
  const book = newWitnessBook();
  let table = "";
  beforeAll(() => {
    run(book, "mixed", 150, 12);
    run(book, "store", 100, 13);
    table = renderWitnessTable(book);
    console.error(table);
  });

  it("every rejection names a check of its own operation (or OP-0.2) with a code that check allows", () => {
    expect(book.misnamed).toEqual([]);
  });

  it("every comparison cell is counted, read from a boundary, or impossible with a reason, and names a check of its operation", () => {
    const boundaries = new Set(BOUNDARIES.map((b) => b.id));
    for (const k of COMPARISONS) {
      expect(
        [k.hit !== undefined, k.sameAs !== undefined, k.impossible !== undefined].filter(Boolean),
        k.id,
      ).toHaveLength(1);
      if (k.sameAs !== undefined) expect(boundaries.has(k.sameAs), k.id).toBe(true);
      // OP-2.5 is an effect rule (expire withdraws at the TTL deadline), not a check clause.
      if (k.check !== "OP-2.5")
        expect(
          checksOf(k.op).map((c) => c.id),
          k.id,
        ).toContain(k.check);
    }
    // OP-0.2.c2 on every operation (every command carries a tick), each at its three sides.
    for (const op of COMMAND_OPS)
      expect(
        COMPARISONS.filter((k) => k.op === op && k.check === "OP-0.2.c2").map((k) => k.side),
        op,
      ).toEqual([-1, 0, 1]);
    expect(new Set(COMPARISONS.map((k) => k.id)).size).toBe(COMPARISONS.length);
  });

  it("no check clause, no boundary and no comparison cell has zero witnesses", () => {
    expect(witnessZeros(book), table).toEqual([]);
  });
});
