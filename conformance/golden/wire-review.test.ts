/**
 * The wire rows of spec review 1 (spec/review/wire.ts) are honest about their pins: every mutant a
 * row names is a wire mutant tagged with that item, every row pinned by the wire session has lines
 * pinning it, and a row without pins says why.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DECISIONS } from "../../spec/decisions.ts";
import { ROWS } from "../../spec/review/wire.ts";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { readWireSession, WIRE_SESSION_PATH } from "./wire-session.ts";

const steps = readWireSession(readFileSync(WIRE_SESSION_PATH, "utf8"));
const protocol = readFileSync("spec/wire/PROTOCOL.md", "utf8");

describe("spec review 1, wire rows", () => {
  it("one row per wire item G-7 … G-20, in order", () => {
    expect(ROWS.map((r) => r.item)).toEqual([
      "G-7",
      "G-8",
      "G-9",
      "G-10",
      "G-11",
      "G-12",
      "G-13",
      "G-14",
      "G-15",
      "G-16",
      "G-17",
      "G-18",
      "G-19",
      "G-20",
    ]);
  });

  for (const row of ROWS) {
    it(`${row.item}: its clauses exist, its pins are real, and an unpinned row says why`, () => {
      for (const w of row.where) {
        if (w.startsWith("D-"))
          expect(
            DECISIONS.some((d) => d.id === w),
            w,
          ).toBe(true);
        else
          expect(
            protocol.includes(`**${w} `) || protocol.includes(`\n## ${w} `),
            `${w} is no clause or section of spec/wire/PROTOCOL.md`,
          ).toBe(true);
      }
      for (const id of row.mutants) {
        const m = MUTANTS.find((x) => x.id === id);
        expect(m, id).toBeDefined();
        expect(m?.review, id).toBe(row.item);
      }
      expect(
        MUTANTS.filter((m) => m.review === row.item && m.invariant === null)
          .map((m) => m.id)
          .sort(),
      ).toEqual([...row.mutants].sort());
      if (row.golden.includes("wire-session"))
        expect(steps.filter((s) => s.pins === row.item).length, row.item).toBeGreaterThan(0);
      if (row.golden.length === 0 || row.mutants.length === 0) expect(row.unpinned ?? "", row.item).not.toBe("");
      else expect(row.unpinned).toBeUndefined();
    });
  }
});
