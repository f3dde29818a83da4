import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INVARIANTS } from "../spec/catalog.ts";
import { ALL_ERROR_CODES } from "../spec/errors.ts";
import { WIRE_ERROR_CODE_LIST } from "../spec/wire/errors.ts";
import { REPO_ROOT } from "./paths.ts";
import { QUOTES } from "./quotes.ts";
import { renderReports } from "./render.ts";
import { currentTraceability } from "./traceability.ts";

const input = currentTraceability();
const files = renderReports(input);
const doc = files.get("reports/invariants.md") ?? "";
const codes = files.get("reports/error-codes.md") ?? "";
/** The section of one invariant: from its heading to the next one. */
const sectionOf = (id: string): string => {
  const start = doc.indexOf(`\n## ${id}\n`);
  if (start < 0) throw new Error(`no section for ${id}`);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
};

describe("generated reports are up to date (run `npm run docs`)", () => {
  for (const [path, content] of files) {
    it(`${path} is current`, () => {
      expect(readFileSync(join(REPO_ROOT, path), "utf8") === content, `${path} is stale: run npm run docs`).toBe(true);
    });
  }
});

describe("each invariant's section in reports/invariants.md", () => {
  for (const inv of INVARIANTS) {
    it(`${inv.id}: statement, quotes, error code, examples, checks, witnesses and mutants`, () => {
      const s = sectionOf(inv.id);
      expect(s).toContain(`<a id="${inv.id}"></a>`);
      expect(s).toContain(inv.statement);
      for (const q of QUOTES[inv.id]) expect(s).toContain(`“${q.text}”`);
      expect(s).toContain(`(error-codes.md#${inv.errorCode.toLowerCase()})`);
      expect(s).toContain("**Accepted example** — `conformance/golden/");
      expect(s).toMatch(/\*\*Rejected example/);
      expect(s).toContain("**Stages of `srk certify`**");
      expect(s, "test names, linked to their line").toMatch(/\]\(\.\.\/[a-z/.-]+\.test\.ts#L\d+\)/);
      expect(s).toContain(
        "| verdict | accepted steps | agreed rejections | crash cuts | algebra checks | byte scans |",
      );
      for (const m of input.mutants[inv.id]) expect(s).toContain(`**Mutant \`${m.id}\`**`);
      expect(s).toContain("Shrunk counterexample");
    });
  }
});

describe("traceability in the generated docs", () => {
  it("names at least one model guard, predicate, implementation check, test, property and mutant for every invariant", () => {
    for (const inv of INVARIANTS) {
      expect(input.modelGuards[inv.id].length, `${inv.id} model guard`).toBeGreaterThan(0);
      expect(
        input.modelGuards[inv.id].every((g) => g.line !== null),
        `${inv.id}: every model guard is found in its file`,
      ).toBe(true);
      expect(input.predicates[inv.id].line, `${inv.id} predicate`).not.toBeNull();
      const step = input.stepClauses[inv.id];
      if (step !== null) expect(step.line, `${inv.id} step clause`).not.toBeNull();
      expect(input.implChecks[inv.id].length, `${inv.id} implementation check`).toBeGreaterThan(0);
      const tests = input.tests.filter((t) => t.invariants.includes(inv.id));
      expect(tests.filter((t) => !t.file.startsWith("properties/")).length, `${inv.id} tests`).toBeGreaterThan(0);
      expect(tests.filter((t) => t.file.startsWith("properties/")).length, `${inv.id} property tests`).toBeGreaterThan(
        0,
      );
      expect(input.mutants[inv.id].length, `${inv.id} mutants`).toBeGreaterThan(0);
    }
  });
  it("implementation checks are under impl/; test names are read from the test files", () => {
    for (const refs of Object.values(input.implChecks)) for (const r of refs) expect(r.file).toMatch(/^impl\//);
    const t = input.tests.find(
      (x) => x.file === "properties/model.property.test.ts" && x.title.startsWith("J-1 J-2 J-3"),
    );
    expect(t?.invariants.length).toBe(19);
    expect(readFileSync(join(REPO_ROOT, t?.file ?? ""), "utf8").split("\n")[(t?.line ?? 1) - 1]).toContain("it(");
  });
});

describe("reports/error-codes.md", () => {
  it("has a section for every code, and says which operations raise each invariant code", () => {
    for (const c of [...ALL_ERROR_CODES, ...WIRE_ERROR_CODE_LIST]) expect(codes).toContain(`\n### ${c}\n`);
    for (const inv of INVARIANTS) {
      const at = codes.indexOf(`\n### ${inv.errorCode}\n`);
      const s = codes.slice(at, codes.indexOf("\n### ", at + 1));
      expect(s).toContain(`[${inv.id} `);
      expect(s).toMatch(/\*\*Raised by\*\* /);
    }
    const j1 = codes.slice(
      codes.indexOf("\n### JANMA_INCOMPLETE_AT_BIRTH\n"),
      codes.indexOf("\n### JANMA_CAPABILITY_OUT_OF_SCOPE\n"),
    );
    expect(j1).toContain("[`janma.birth`](../spec/OPERATIONS.md#op-22-janmabirth) (OP-2.2)");
  });
});
