/**
 * Records the mutants' labels in properties/mutants/labels.lock.json (labels.ts). Refuses, and
 * writes nothing, when a mutant's invariant or clause changed while its `why` did not: the new
 * label needs its reason first.
 *
 *   npx tsx properties/mutants/lock-labels.ts
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MUTANTS } from "./catalog.ts";
import { LOCK_FILE, lockOf, lockProblems, type Lock } from "./labels.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const file = join(root, LOCK_FILE);
const before: Lock = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Lock) : {};
const problems = lockProblems(MUTANTS, before);
const refused = problems.filter((p) => p.kind === "unreasoned");
if (refused.length > 0) {
  process.stderr.write(`${LOCK_FILE} not written:\n${refused.map((p) => `  ${p.message}`).join("\n")}\n`);
  process.exit(1);
}
writeFileSync(file, `${JSON.stringify(lockOf(MUTANTS), null, 2)}\n`);
process.stdout.write(
  `wrote ${LOCK_FILE}: ${MUTANTS.length} labels${problems.length === 0 ? " (unchanged)" : `; recorded: ${problems.map((p) => `${p.id} (${p.kind})`).join(", ")}`}\n`,
);
