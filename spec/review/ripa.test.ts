/**
 * The RIPA review rows (spec/review/ripa.ts) say what is true of the committed pins: every golden
 * session a row names holds a line carrying the item id, every mutant it names exists and is tagged
 * with that item, and every mutant tagged with one of these items is named by its row.
 */
import { describe, expect, it } from "vitest";
import { readGolden } from "../../conformance/golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../../conformance/golden/session.ts";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { ROWS } from "./ripa.ts";

const ITEMS = new Set(ROWS.map((r) => r.item));

describe("spec review 1, RIPA rows (G-33 .. G-43)", () => {
  it("one row per item, each decided row pinned by a golden line and a mutant, or saying why not", () => {
    expect(ITEMS.size).toBe(ROWS.length);
    for (const r of ROWS) {
      expect(r.where.length, r.item).toBeGreaterThan(0);
      if (r.status === "decided") expect(r.golden.length > 0 && r.mutants.length > 0, r.item).toBe(true);
      if (r.golden.length === 0 && r.status !== "no-gap") expect(r.unpinned, r.item).toBeDefined();
    }
  });

  it("every named session holds a line whose request id starts with the item id", () => {
    for (const r of ROWS) {
      for (const name of r.golden) {
        const g = GOLDEN_SESSIONS.find((x) => x.name === name);
        expect(g, `${r.item}: session ${name}`).toBeDefined();
        if (g === undefined) continue;
        const ids = readGolden(goldenPath(g)).map((l) => l.request.id);
        expect(ids.some((id) => id.startsWith(`${r.item}.`)), `${r.item} in ${name}`).toBe(true);
      }
    }
  });

  it("named mutants exist with the item's tag, and every mutant tagged with these items is named", () => {
    for (const r of ROWS) {
      for (const id of r.mutants) expect(MUTANTS.find((m) => m.id === id)?.review, id).toBe(r.item);
    }
    for (const m of MUTANTS.filter((x) => x.review !== undefined && ITEMS.has(x.review as `G-${number}`))) {
      expect(ROWS.find((r) => r.item === m.review)?.mutants, m.id).toContain(m.id);
    }
  });
});
