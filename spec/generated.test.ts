import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JSON_SCHEMA_DIR, renderSpecArtefacts } from "./render.ts";

const listJson = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listJson(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );

describe("generated spec artefacts are up to date (run `npm run spec:generate`)", () => {
  const files = renderSpecArtefacts();
  for (const [path, content] of files) {
    it(`${path} is current`, () => {
      expect(existsSync(path), `${path} is missing`).toBe(true);
      expect(readFileSync(path, "utf8") === content, `${path} is stale`).toBe(true);
    });
  }
  it("no stale JSON Schema file lingers", () => {
    for (const f of listJson(JSON_SCHEMA_DIR)) expect(files.has(f), `${f} is no longer generated`).toBe(true);
  });
});
