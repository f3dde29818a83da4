/**
 * The adapter stands alone: its copy of the kit's JSON data (spec-copy/) is exactly the kit's
 * current spec/ files (run `node adapters/js/spec-copy.mjs` when this fails), and its modules
 * import nothing but Node's built-ins and each other, so that adapters/js/ can be copied into
 * another repository as it is.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COPIED, COPY_DIR, DEFAULT_KIT_ROOT, specCopyDifferences } from "./spec-copy.mjs";

const HERE = import.meta.dirname;
const tmp = mkdtempSync(join(tmpdir(), "js-adapter-copy-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("spec-copy/", () => {
  it("is the kit's current data: every copied file byte for byte, and nothing else (else: node adapters/js/spec-copy.mjs)", () => {
    expect(DEFAULT_KIT_ROOT).toBe(resolve(HERE, "..", ".."));
    expect(specCopyDifferences()).toEqual([]);
    expect(COPIED).toContain("json-schema/wire/");
  });

  it("a stale copy is detected: a changed byte, a missing file and a stray file are each named", () => {
    const copy = join(tmp, "copy");
    cpSync(COPY_DIR, copy, { recursive: true });
    const changed = join(copy, "json-schema", "Command.schema.json");
    writeFileSync(changed, readFileSync(changed, "utf8").replace("advaita.mint", "advaita.mintt"));
    unlinkSync(join(copy, "tables.json"));
    writeFileSync(join(copy, "json-schema", "wire", "Old.schema.json"), "{}");
    expect(specCopyDifferences(DEFAULT_KIT_ROOT, copy).sort()).toEqual([
      "json-schema/Command.schema.json: differs from the kit's spec/json-schema/Command.schema.json",
      "json-schema/wire/Old.schema.json: in the copy but not a copied file of the kit",
      "tables.json: missing from the copy",
    ]);
  });
});

describe("the adapter imports nothing of the kit and no package", () => {
  const modules = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory()
        ? d.name === "spec-copy"
          ? []
          : modules(join(dir, d.name))
        : d.name.endsWith(".mjs")
          ? [join(dir, d.name)]
          : [],
    );

  it("every import of every .mjs file is a node: built-in or a file inside adapters/js/", () => {
    const files = modules(HERE);
    expect(files.map((f) => relative(HERE, f))).toEqual(
      expect.arrayContaining(["index.mjs", "wire.mjs", "strict-json.mjs", "schema.mjs", join("examples", "empty.mjs")]),
    );
    for (const f of files) {
      const src = readFileSync(f, "utf8");
      const specifiers = [
        ...src.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm),
        ...src.matchAll(/import\(\s*"([^"]+)"\s*\)/g),
      ].map((m) => m[1] as string);
      for (const s of specifiers) {
        const ok =
          s.startsWith("node:") || (s.startsWith(".") && !relative(HERE, resolve(dirname(f), s)).startsWith(".."));
        expect(ok, `${relative(HERE, f)} imports ${s}`).toBe(true);
      }
    }
  });
});
