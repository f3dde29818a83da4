/**
 * `npm run mutants`: the whole kill matrix over the wire. Certifies every mutant (or the ids given
 * as arguments) as its own process, prints one line per mutant as it goes, writes
 * reports/mutants.md and reports/mutants.json (read by the generated docs) when the whole catalog
 * ran, and exits 1 if any mutant was not failed under the invariant it breaks.
 *
 *   npm run mutants                      # all, writes reports/mutants.md and reports/mutants.json
 *   npm run mutants -- AD-3.round-half-up S-5.excised-content-retained
 *   MUTANT_SEED=7 MUTANT_RUNS=200 npm run mutants
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { certifyMutant, matrixJson, renderMatrix, type KillRow, type MatrixOptions } from "./matrix.ts";

const ids = process.argv.slice(2);
const unknown = ids.filter((id) => !MUTANTS.some((m) => m.id === id));
if (unknown.length > 0) {
  process.stderr.write(`unknown mutant(s): ${unknown.join(", ")}\n`);
  process.exit(64);
}
const options: MatrixOptions = {
  seed: Number(process.env["MUTANT_SEED"] ?? 1),
  runs: Number(process.env["MUTANT_RUNS"] ?? 300),
  timeBudgetMs: Number(process.env["MUTANT_BUDGET_S"] ?? 180) * 1000,
};
const chosen = MUTANTS.filter((m) => ids.length === 0 || ids.includes(m.id));
const rows: KillRow[] = [];
const t0 = Date.now();
for (const [i, m] of chosen.entries()) {
  const r = await certifyMutant(m, options);
  rows.push(r);
  process.stdout.write(`[${i + 1}/${chosen.length}] ${r.killed ? "killed " : "SURVIVED"} ${r.id}: reported ${r.reported.join(", ") || "nothing"} by ${r.stage ?? "—"} in ${r.msToFailure === null ? "—" : `${(r.msToFailure / 1000).toFixed(1)} s`}, ${r.shrunkSteps ?? "—"} request(s)${r.killed ? "" : `; ${r.summary ?? "no finding"}`}\n`);
}
if (ids.length === 0) {
  writeFileSync(join(REPO_ROOT, "reports", "mutants.md"), renderMatrix(rows, options));
  writeFileSync(join(REPO_ROOT, "reports", "mutants.json"), matrixJson(rows, options));
}
const killed = rows.filter((r) => r.killed).length;
process.stdout.write(`${killed} of ${rows.length} mutants killed under their own invariant in ${((Date.now() - t0) / 1000).toFixed(0)} s${ids.length === 0 ? "; wrote reports/mutants.md and reports/mutants.json" : ""}\n`);
process.exitCode = killed === rows.length ? 0 : 1;
