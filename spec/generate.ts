/**
 * Writes every generated artefact of spec/ (JSON Schemas, invariant clauses, decision record,
 * digest vectors). Run with `npm run spec:generate`; `spec/generated.test.ts` fails when stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { JSON_SCHEMA_DIR, renderSpecArtefacts } from "./render.ts";

const files = renderSpecArtefacts();
// Remove schema files no longer rendered, so a deleted schema does not linger.
const listJson = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listJson(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );
try {
  for (const f of listJson(JSON_SCHEMA_DIR)) if (!files.has(f)) rmSync(f);
} catch {
  // first run: the directory does not exist yet
}
for (const [path, content] of files) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
console.error(`spec: wrote ${files.size} files`);
