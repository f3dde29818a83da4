/**
 * The Janma / Samskara review rows (spec/review/janma-samskara.ts) are backed by what they claim:
 * each pinned item has lines in the scripted golden session whose request id starts with the item,
 * and each named mutant exists in the catalog tagged with that item. (Whether the hunts kill the
 * mutants is conformance/mutants/in-process.test.ts's job.)
 */
import { describe, expect, it } from "vitest";
import { ROWS } from "../../../spec/review/janma-samskara.ts";
import { MUTANTS } from "../../../properties/mutants/catalog.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../session.ts";
import { readGolden } from "../replay.ts";
import { REVIEW_ROWS } from "../../../spec/review/index.ts";

describe("spec review rows for Janma / Samskara are pinned as they say", () => {
  it("one row per item, each decided or fixed row with golden lines and mutants of its own item", () => {
    expect(new Set(ROWS.map((r) => r.item)).size).toBe(ROWS.length);
    for (const r of ROWS) {
      if (r.status !== "no-gap" || r.golden.length > 0) {
        expect(r.golden.length + (r.unpinned === undefined ? 0 : 1), r.item).toBeGreaterThan(0);
        for (const name of r.golden) {
          const g = GOLDEN_SESSIONS.find((x) => x.name === name);
          expect(g, `${r.item}: session ${name}`).toBeDefined();
          const ids = readGolden(goldenPath(g as NonNullable<typeof g>)).map((l) => l.request.id);
          expect(ids.some((id) => id.startsWith(`${r.item}.`)), `${r.item}: a line of ${name} pins it`).toBe(true);
        }
        for (const id of r.mutants) expect(MUTANTS.find((m) => m.id === id)?.review, `${r.item}: mutant ${id}`).toBe(r.item);
      }
    }
  });
  it("every review-tagged mutant of these items is listed in a row of its item", () => {
    // An item may be closed by rows of two areas (G-30: its duplicate default rows are closed in
    // spec/review/spec-text.ts), so the mutant must be in some row of its item, not necessarily ours.
    const items = new Set(ROWS.map((r) => r.item as string));
    for (const m of MUTANTS.filter((x) => x.review !== undefined && items.has(x.review))) {
      expect(REVIEW_ROWS.filter((r) => r.item === m.review).flatMap((r) => r.mutants), m.id).toContain(m.id);
    }
  });
});
