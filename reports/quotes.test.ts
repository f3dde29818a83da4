/**
 * The papers' quotes in the generated docs are verbatim: each occurs in the paper's text (up to
 * whitespace), inside the section it names, and is at most one sentence. The papers are read from
 * ../shared/papers beside the repository (where CI puts a copy of shared/). A fresh clone has no
 * papers: there these tests are skipped, with one line saying so; under CI=true they fail instead
 * (test-support/needs.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { INVARIANT_IDS } from "../spec/catalog.ts";
import { needs, SHARED_PAPERS } from "../test-support/needs.ts";
import { REPO_ROOT } from "./paths.ts";
import { PAPERS, QUOTES, type PaperName } from "./quotes.ts";

const PAPERS_DIR = join(REPO_ROOT, "..", "shared", "papers");
const normalise = (s: string): string => s.replace(/\s+/g, " ").trim();

const paperLines = (name: PaperName): string[] => {
  const file = join(PAPERS_DIR, PAPERS[name].file);
  if (!existsSync(file)) {
    throw new Error(
      `the paper ${PAPERS[name].file} ("${PAPERS[name].title}") is not at ${file}: the docs' quotes are checked against ../shared/papers beside the repository; put a copy of shared/ there`,
    );
  }
  return readFileSync(file, "utf8").split("\n");
};

/** The text of one section: from its heading line to the next heading of the paper. */
const sectionText = (name: PaperName, section: string): string => {
  const lines = paperLines(name);
  const headings = new Set(PAPERS[name].sections);
  const start = lines.findIndex((l) => l.trim() === section);
  if (start < 0) throw new Error(`section "${section}" is not a line of ${PAPERS[name].file}`);
  const next = lines.findIndex((l, i) => i > start && headings.has(l.trim()));
  return normalise(lines.slice(start + 1, next < 0 ? undefined : next).join("\n"));
};

needs(SHARED_PAPERS).describe("papers' quotes in the generated docs", () => {
  it("finds the papers at ../shared/papers", () => {
    expect(
      existsSync(PAPERS_DIR),
      `${PAPERS_DIR} is missing: the quote checks need the papers' text (a copy of shared/ beside the repository)`,
    ).toBe(true);
  });

  for (const name of Object.keys(PAPERS) as PaperName[]) {
    it(`${name}: every listed section is a heading line of the paper, in order`, () => {
      const lines = paperLines(name).map((l) => l.trim());
      let at = -1;
      for (const s of PAPERS[name].sections) {
        const i = lines.indexOf(s, at + 1);
        expect(i, `"${s}" after line ${at + 1}`).toBeGreaterThan(at);
        at = i;
      }
    });
  }

  for (const id of INVARIANT_IDS) {
    it(`${id}: every quote is verbatim, inside the section it names, at most one sentence`, () => {
      const quotes = QUOTES[id];
      expect(quotes.length).toBeGreaterThan(0);
      for (const q of quotes) {
        expect(PAPERS[q.paper].sections).toContain(q.section);
        expect(
          sectionText(q.paper, q.section),
          `${id}: "${q.text}" is not in ${q.paper}, section "${q.section}"`,
        ).toContain(normalise(q.text));
        expect(q.text, "more than one sentence").not.toMatch(/[.!?]\s+\p{Lu}/u);
        expect(q.text.length).toBeLessThan(260);
      }
    });
  }

  it("a quote that is not in the paper is caught", () => {
    expect(sectionText("RIPA", "4 Authorized Migration Protocol")).not.toContain(
      normalise("Migration preserves the installed identity version"),
    );
  });
});
