/**
 * The first spec review is closed item by item (spec/REVIEW-1.md, generated from spec/review/*.ts).
 * This test checks the closing is real: every item of the review has a row, and every pin a row
 * names exists — golden lines whose request ids start with the item id, in the sessions named,
 * mutants tagged with the item id in the catalog, and recorded decisions — and that each pin pins:
 * every mutant taking the other reading of an item, replayed through the golden sessions in their
 * order, first fails on a line of that item ("G-28.<n>") in a session the row names, not on some
 * earlier line that happens to be reachable by it. That the mutants are also killed by the
 * differential is checked by conformance/mutants/in-process.test.ts; the wire mutants, which only a
 * process sees, first fail on their own item's step of the wire session by
 * conformance/mutants/wire.test.ts (`npm run mutants:check` runs every one).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DECISIONS } from "../spec/decisions.ts";
import { REVIEW_ROWS } from "../spec/review/index.ts";
import { ABSENT_FROM_REVIEW, REVIEW_ITEMS } from "../spec/review/titles.ts";
import { MUTANTS } from "../properties/mutants/catalog.ts";
import { needs, SHARED_REVIEWS } from "../test-support/needs.ts";
import { describeMismatch } from "./golden/replay.ts";
import { firstGoldenFailure, reviewItemOfLine } from "./golden/first-failure.ts";
import { GOLDEN_SESSIONS, goldenPath } from "./golden/session.ts";
import { load, materialize } from "./mutants/harness.ts";
import { REPO_ROOT } from "./transport/local.ts";

const REVIEW_FILE = join(REPO_ROOT, "..", "shared", "reviews", "spec-review-1.md");

/** Request ids of a committed golden file (scripted, generated or wire session). */
const requestIds = (file: string): string[] =>
  readFileSync(join(REPO_ROOT, file), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => {
      // A generated or scripted session line carries its request; a wire-session line names its step.
      const line = JSON.parse(l) as { request?: { id?: unknown }; step?: unknown };
      return String(line.request?.id ?? line.step ?? "");
    });

const goldenFileOf = (name: string): string | undefined => {
  const g = GOLDEN_SESSIONS.find((s) => s.name === name);
  if (g !== undefined) return goldenPath(g);
  const file = `conformance/golden/${name}.jsonl`;
  return existsSync(join(REPO_ROOT, file)) ? file : undefined;
};

describe("spec review 1 is closed item by item", () => {
  // The review's text is in ../shared, beside the repository: skipped with one line in a fresh clone, required under CI.
  needs(SHARED_REVIEWS).it("the item list is the review's (every G-n heading of the review, no more)", () => {
    const text = readFileSync(REVIEW_FILE, "utf8");
    const inReview = [...new Set([...text.matchAll(/^- \*\*(G-\d+)\b/gm)].map((m) => m[1]))];
    expect(inReview.sort()).toEqual(Object.keys(REVIEW_ITEMS).sort());
    for (const absent of ABSENT_FROM_REVIEW) expect(inReview).not.toContain(absent);
  });

  it("every item has at least one row, and every row names a review item and where it is settled", () => {
    const covered = new Set(REVIEW_ROWS.map((r) => r.item));
    expect(Object.keys(REVIEW_ITEMS).filter((i) => !covered.has(i as never))).toEqual([]);
    for (const r of REVIEW_ROWS) {
      expect(Object.keys(REVIEW_ITEMS), r.item).toContain(r.item);
      expect(r.where.length, `${r.item} names no clause or decision`).toBeGreaterThan(0);
      expect(r.summary.length, r.item).toBeGreaterThan(20);
    }
  });

  it("every decided item is pinned by a golden line and a tagged mutant, or says why it cannot be", () => {
    for (const r of REVIEW_ROWS.filter((x) => x.status === "decided")) {
      if (r.unpinned !== undefined) continue;
      expect(r.golden.length, `${r.item} has no golden pin`).toBeGreaterThan(0);
      expect(r.mutants.length, `${r.item} has no mutant`).toBeGreaterThan(0);
    }
  });

  it("every golden pin exists: a line whose request id starts with the item id, in the session named", () => {
    for (const r of REVIEW_ROWS) {
      for (const name of r.golden) {
        const file = goldenFileOf(name);
        expect(file, `${r.item}: no golden session ${name}`).toBeDefined();
        const ids = requestIds(file as string);
        expect(
          ids.some((id) => id.startsWith(`${r.item}.`)),
          `${r.item}: no line ${r.item}.<n> in ${file}`,
        ).toBe(true);
      }
    }
  });

  it("every decision a row names is recorded in spec/DECISIONS.md", () => {
    for (const r of REVIEW_ROWS) {
      for (const d of r.where.filter((w) => /^D-\d+$/.test(w))) {
        const rec = DECISIONS.find((x) => x.id === d);
        expect(rec?.why.length ?? 0, `${r.item}: ${d} is not in spec/DECISIONS.md`).toBeGreaterThan(0);
      }
    }
  });

  it("every mutant pin exists in the catalog, tagged with its item", () => {
    for (const r of REVIEW_ROWS) {
      for (const id of r.mutants) {
        const m = MUTANTS.find((x) => x.id === id);
        expect(m, `${r.item}: mutant ${id} is not in the catalog`).toBeDefined();
        expect(m?.review, `${id}`).toBe(r.item);
      }
    }
    // and no tagged mutant is left out of the record
    for (const m of MUTANTS.filter((x) => x.review !== undefined)) {
      expect(
        REVIEW_ROWS.some((r) => r.item === m.review && r.mutants.includes(m.id)),
        `${m.id} (${m.review}) is in no row`,
      ).toBe(true);
    }
  });

  it("every scripted line a row's summary cites (G-33.6) is a line of that item in one of the row's sessions", () => {
    for (const r of REVIEW_ROWS) {
      const ids = new Set(
        r.golden.flatMap((name) => {
          const file = goldenFileOf(name);
          return file === undefined ? [] : requestIds(file);
        }),
      );
      for (const cited of r.summary.match(/\bG-\d+\.\d+\b/g) ?? []) {
        expect(cited.startsWith(`${r.item}.`), `${r.item} cites ${cited}, a line of another item`).toBe(true);
        expect(ids.has(cited), `${r.item} cites ${cited}, which is no line of ${r.golden.join(", ")}`).toBe(true);
      }
    }
  });
});

/**
 * Pins proven. The mutants run in process, as the mutation harness runs them (a patched copy of
 * impl/ loaded as its own module), against the golden sessions in GOLDEN_SESSIONS order, each on
 * a fresh instance; the first line whose reply differs (or that throws) must pin the mutant's own
 * item. Copies are named "pins-<id>" so that they never collide with the mutation tests' copies.
 */
describe("spec review 1: each review mutant first fails on a golden line pinning its own item", () => {
  const reviewMutants = MUTANTS.filter((m) => m.review !== undefined && m.invariant !== null);

  it("the unpatched copy, built the same way, replays every golden session (so a first failure is the mutant's)", async () => {
    const f = firstGoldenFailure(await load(materialize("pins-unpatched", null)), REPO_ROOT);
    expect(f === null ? null : `${f.session} ${describeMismatch(f.mismatch)}`).toBeNull();
  }, 60_000);

  it("every review item with an in-process mutant is checked below, and every such mutant's item has a row naming it", () => {
    expect(reviewMutants.length).toBeGreaterThan(0);
    for (const m of reviewMutants)
      expect(
        REVIEW_ROWS.some((r) => r.item === m.review && r.mutants.includes(m.id)),
        m.id,
      ).toBe(true);
  });

  for (const m of reviewMutants) {
    it(`${m.review}: ${m.id} first fails on a ${m.review}.<n> line of a session its row names`, async () => {
      const f = firstGoldenFailure(await load(materialize(`pins-${m.id}`, m)), REPO_ROOT);
      expect(f, `${m.id} survived every golden session`).not.toBeNull();
      if (f === null) return;
      const where = `${f.session} ${describeMismatch(f.mismatch)}`;
      expect(
        reviewItemOfLine(f.mismatch.id),
        `${m.id} first fails on a line that does not pin ${m.review}: ${where}`,
      ).toBe(m.review);
      const rows = REVIEW_ROWS.filter((r) => r.item === m.review);
      expect(
        rows.some((r) => r.golden.includes(f.session)),
        `${m.id} first fails in ${f.session}, which no ${m.review} row names`,
      ).toBe(true);
    }, 60_000);
  }
});
