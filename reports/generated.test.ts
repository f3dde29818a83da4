import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INVARIANTS } from "../spec/catalog.ts";
import { renderReports } from "./render.ts";
import { currentTraceability } from "./traceability.ts";

describe("generated reports are up to date (run `npm run docs`)", () => {
  const files = renderReports(currentTraceability());
  for (const [path, content] of files) {
    it(`${path} is current`, () => {
      expect(readFileSync(path, "utf8") === content, `${path} is stale`).toBe(true);
    });
  }
  it("documents all 19 invariants, each with its statement and error code", () => {
    const doc = files.get("reports/invariants.md") ?? "";
    for (const inv of INVARIANTS) {
      expect(doc).toContain(`## ${inv.id} — `);
      expect(doc).toContain(inv.statement);
      expect(doc).toContain(`\`${inv.errorCode}\``);
    }
  });
});

describe("traceability in the generated docs", () => {
  const trace = currentTraceability();
  it("names at least one model guard, implementation check and test for every invariant", () => {
    for (const inv of INVARIANTS) {
      expect(trace.modelGuards?.[inv.id]?.length ?? 0, `${inv.id} model guard`).toBeGreaterThan(0);
      expect(trace.implChecks?.[inv.id]?.length ?? 0, `${inv.id} implementation check`).toBeGreaterThan(0);
      expect(trace.tests?.[inv.id]?.length ?? 0, `${inv.id} tests`).toBeGreaterThan(0);
      expect(trace.mutants?.[inv.id]?.length ?? 0, `${inv.id} mutants`).toBeGreaterThan(0);
    }
  });
  it("matches ids as whole words only", () => {
    for (const files of Object.values(trace.implChecks ?? {})) for (const f of files) expect(f).toMatch(/^impl\//);
    const doc = renderReports(trace).get("reports/invariants.md") ?? "";
    expect(doc).toContain("**Model guard");
  });
});
