/** Where the kill matrix is written, and reading it back (reports/mutants.json is its measurement). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../transport/local.ts";
import type { MatrixDoc } from "./matrix-report.ts";

export const MATRIX_JSON = "reports/mutants.json";
export const MATRIX_MD = "reports/mutants.md";

export const readMatrixDoc = (root = REPO_ROOT): MatrixDoc => {
  const doc = JSON.parse(readFileSync(join(root, MATRIX_JSON), "utf8")) as MatrixDoc;
  if (!Array.isArray(doc.mutants) || doc.counts === undefined)
    throw new Error(`${MATRIX_JSON} is not a kill matrix of this format (no mutants or counts): run npm run mutants`);
  return doc;
};
