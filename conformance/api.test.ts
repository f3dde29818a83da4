/**
 * The library API's documented examples run, from the kit's sources: each `@example` of
 * `conformance/index.ts` is written to an empty folder as the program a reader would copy (its
 * `"samsara-ripa-kit"` import pointed at the source entry), and must exit 0. The same examples run
 * against the packed tarball in `conformance/package/package.test.ts`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { KIT_ROOT } from "./kit-root.ts";
import { apiExamples, emptyProfileShim, ENTRY_SOURCE } from "./package/examples.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const TSX = import.meta.resolve("tsx");
const ENTRY = pathToFileURL(join(KIT_ROOT, ENTRY_SOURCE)).href;

describe("the library API's examples", () => {
  const examples = apiExamples();

  it("document every entry point the package promises", () => {
    expect(examples.map((e) => e.entry).sort()).toEqual(["INVARIANTS", "certify", "digestOf", "replay", "transition"]);
  });

  it("are found only under @example, with the package's own import", () => {
    const src = `/** Not an example. */\nexport const a = 1;\n/**\n * Doc.\n * @example\n * \`\`\`ts\n * import { a } from "samsara-ripa-kit";\n * \`\`\`\n */\nexport const b = 2;\n`;
    expect(apiExamples(src)).toEqual([{ entry: "b", code: `import { a } from "samsara-ripa-kit";\n` }]);
    expect(() => apiExamples("/**\n * @example\n * no code\n */\nexport const c = 3;\n")).toThrow(
      /@example of c has no/,
    );
  });

  it.each(examples.map((e) => [e.entry, e] as const))(
    "%s: runs to exit 0 from a fresh folder",
    (_name, e) => {
      const dir = mkdtempSync(join(tmpdir(), "srk-example-"));
      dirs.push(dir);
      writeFileSync(join(dir, "empty_profile.py"), emptyProfileShim());
      const file = join(dir, `${e.entry}.mts`);
      writeFileSync(file, e.code.replaceAll('from "samsara-ripa-kit"', `from ${JSON.stringify(ENTRY)}`));
      const r = spawnSync(process.execPath, ["--import", TSX, file], { cwd: dir, encoding: "utf8", timeout: 150_000 });
      expect(r.stderr, `${e.entry}'s example failed:\n${r.stderr}`).not.toMatch(/AssertionError|Error:/);
      expect(r.status).toBe(0);
      // What an example writes stays in the caller's folder: the certify example's reports.
      if (e.entry === "certify") {
        expect(readdirSync(join(dir, "srk-reports")).sort()).toEqual(["empty-profile-example"]);
        expect(r.stdout).toContain("2 srk-reports/empty-profile-example/certificate.json");
      }
    },
    180_000,
  );

  it("fail when what an example asserts is false", () => {
    const dir = mkdtempSync(join(tmpdir(), "srk-example-"));
    dirs.push(dir);
    const e = examples.find((x) => x.entry === "digestOf");
    expect(e).toBeDefined();
    const file = join(dir, "broken.mts");
    writeFileSync(
      file,
      (e?.code ?? "")
        .replaceAll('from "samsara-ripa-kit"', `from ${JSON.stringify(ENTRY)}`)
        .replace("assert.equal(a, b);", "assert.notEqual(a, b);"),
    );
    const r = spawnSync(process.execPath, ["--import", TSX, file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/AssertionError/);
  }, 90_000);
});
