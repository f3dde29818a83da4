/**
 * `npm run mutants`: the whole kill matrix over the wire. Certifies every mutant (or the ids given
 * as arguments) as its own process, prints one line per mutant as it goes (own, OTHER with what
 * was reported instead, or SURVIVED), and, when the whole catalog ran, writes reports/mutants.json
 * (the measurement, with the inputs it was made from: conformance/evidence/inputs.ts) and reports/mutants.md
 * (rendered from it and conformance/mutants/decisions.json).
 *
 * Exit status: 1 when a mutant survived (nothing failed: the checks missed it), else 0. A mutant
 * killed under another invariant than its label is a finding about the label or the attribution
 * rule (D-035), not a missed mutant: it is printed, counted and listed in reports/mutants.md with
 * its finding and the decision taken, and one not decided yet is printed as such; it does not fail
 * the run, so the report says which kind of problem it is instead of a red exit that hides it.
 * The inputs are taken before the first certification and compared after the last: if any changed
 * meanwhile (another checkout writing the golden sessions, an edit of the catalog), nothing is
 * written and the run exits 1, since the matrix would describe no single state of the kit.
 *
 *   npm run mutants                      # all, writes reports/mutants.json and reports/mutants.md
 *   npm run mutants -- AD-3.round-half-up S-5.excised-content-retained
 *   MUTANT_SEED=7 MUTANT_RUNS=200 npm run mutants
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { inputsOf, staleInputs } from "../evidence/inputs.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { readDecisions } from "./decisions.ts";
import { certifyMutant, type KillRow, type MatrixOptions } from "./matrix.ts";
import { MATRIX_JSON, MATRIX_MD } from "./matrix-files.ts";
import { countsLine, countsOf, matrixDoc, matrixJson, renderMatrix, ruleOf } from "./matrix-report.ts";

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
const decisions = readDecisions();
const inputs = ids.length === 0 ? inputsOf("mutants") : null;
const chosen = MUTANTS.filter((m) => ids.length === 0 || ids.includes(m.id));
const rows: KillRow[] = [];
const t0 = Date.now();
const line = (r: KillRow): string => {
  const where = `by ${r.stage ?? "—"} in ${r.msToFailure === null ? "—" : `${(r.msToFailure / 1000).toFixed(1)} s`}, ${r.shrunkSteps ?? "—"} request(s)`;
  if (r.attribution === "own") return `own      ${r.id}: ${r.invariant ?? "wire"} (${r.clause}) ${where}`;
  if (r.attribution === "survived")
    return `SURVIVED ${r.id}: ${r.invariant ?? "wire"} (${r.clause}); ${r.summary ?? "no finding"}`;
  const d = decisions[r.id];
  return `OTHER    ${r.id}: label ${r.invariant ?? "wire"} (${r.clause}), reported ${r.reported.join(", ") || "a wire finding"} ${where}; ${ruleOf(r.findings[0]?.summary ?? "")}; ${r.summary ?? ""}${d === undefined ? " [not decided yet: conformance/mutants/decisions.json]" : ` [decided: the ${d.wrong} is wrong]`}`;
};
for (const [i, m] of chosen.entries()) {
  const r = await certifyMutant(m, options);
  rows.push(r);
  process.stdout.write(`[${i + 1}/${chosen.length}] ${line(r)}\n`);
}
const c = countsOf(rows);
process.stdout.write(`${countsLine(c)} (${rows.length} mutants) in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
process.exitCode = c.survived === 0 ? 0 : 1;
if (inputs !== null) {
  const changed = staleInputs("mutants", inputs);
  if (changed !== null) {
    // Kept outside the repository, for a look at what was measured: never evidence of one state of the kit.
    const aside = join(mkdtempSync(join(tmpdir(), "srk-matrix-")), "mutants.json");
    writeFileSync(aside, matrixJson(matrixDoc(rows, options, inputs)));
    process.stderr.write(
      `the mutants' inputs changed during the run, so ${MATRIX_JSON} and ${MATRIX_MD} were not written (the rows are in ${aside}):\n${changed}\n`,
    );
    process.exitCode = 1;
  } else {
    const doc = matrixDoc(rows, options, inputs);
    writeFileSync(join(REPO_ROOT, MATRIX_JSON), matrixJson(doc));
    writeFileSync(join(REPO_ROOT, MATRIX_MD), renderMatrix(doc, decisions));
    process.stdout.write(`wrote ${MATRIX_JSON} and ${MATRIX_MD}\n`);
  }
}
