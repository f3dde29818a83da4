/**
 * Renders reports/mutants.md again from reports/mutants.json and conformance/mutants/decisions.json
 * (seconds; `npm run mutants` does it after a run): after a decision is written for a mutant
 * killed under another invariant, or after a change of how the report is worded.
 *
 *   npx tsx conformance/mutants/render-matrix.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../transport/local.ts";
import { readDecisions } from "./decisions.ts";
import { MATRIX_MD, readMatrixDoc } from "./matrix-files.ts";
import { renderMatrix } from "./matrix-report.ts";

writeFileSync(join(REPO_ROOT, MATRIX_MD), renderMatrix(readMatrixDoc(), readDecisions()));
process.stdout.write(`wrote ${MATRIX_MD}\n`);
