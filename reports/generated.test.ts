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
