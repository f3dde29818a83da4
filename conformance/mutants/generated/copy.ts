/**
 * A copy of impl/ with one file rewritten, for a generated mutant: the same layout as the kill
 * matrix's copies (conformance/mutants/harness.ts `materialize`: impl/ without its tests, spec/
 * linked so the copy speaks the real spec), under .tmp/mutants/<name>/. Kept apart from the
 * harness so that the hand-written matrix's inputs (conformance/evidence/inputs.ts) do not change with it;
 * the two copy the same way, and a later change may make the harness call this.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const WORK = join(ROOT, ".tmp", "mutants");

/** Copies impl/ for `name`, rewrites `patch.file` (relative to the copy's root) when a patch is given, and returns the copy's impl/api.ts. */
export const materializeWith = (
  name: string,
  patch: { readonly file: string; readonly apply: (text: string) => string } | null,
): string => {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, "impl"), join(dir, "impl"), {
    recursive: true,
    filter: (src) => !src.includes(`${join("impl", "test")}`),
  });
  if (!existsSync(join(dir, "spec"))) symlinkSync(join(ROOT, "spec"), join(dir, "spec"), "dir");
  if (patch !== null) {
    const file = join(dir, patch.file);
    writeFileSync(file, patch.apply(readFileSync(file, "utf8")));
  }
  return join(dir, "impl", "api.ts");
};

/** Removes the copy made for `name`. */
export const discard = (name: string): void => rmSync(join(WORK, name), { recursive: true, force: true });

/**
 * Builds the copy whose impl/api.ts is `api` into one ES module beside it (`main.mjs`), as an
 * implementer ships a build: esbuild bundles impl/main.ts and the spec files it imports, leaving
 * packages (better-sqlite3, zod) to node_modules. The mutant is the same code either way; the
 * build only spares every process start of the certification TypeScript's transpiling through tsx
 * (measured on the control: about 0.18 s against 0.45-0.66 s per start, 16 s against 28 s for a
 * whole certification), which is most of the time a golden kill takes. Types are checked before,
 * by compile.ts, as a build would.
 */
export const buildCopy = (api: string): string => {
  const out = join(dirname(dirname(api)), "main.mjs");
  buildSync({
    entryPoints: [join(dirname(api), "main.ts")],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "silent",
    sourcemap: false,
  });
  return out;
};
