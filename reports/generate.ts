/**
 * Writes the generated reports (`npm run docs` runs this, then builds the docs site with
 * reports/site.ts): reports/invariants.md and reports/error-codes.md, and beside them
 * reports/invariants.inputs.json, what they were made from (conformance/evidence/inputs.ts), which
 * reports/freshness.test.ts compares with the inputs as they are.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { currentInputs, inputChanges, inputsOf, RECORDS } from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";
import { renderReports } from "./render.ts";
import { currentTraceability } from "./traceability.ts";

// Read before rendering: a record taken after could name inputs newer than what was rendered.
const inputs = inputsOf("invariants");
const files = renderReports(currentTraceability());
const changed = inputChanges(inputs, currentInputs("invariants"));
if (changed.length > 0)
  throw new Error(
    `inputs changed while rendering, the reports would not match them; nothing written, run again:\n  ${changed.join("\n  ")}`,
  );
for (const [path, content] of files) writeFileSync(join(REPO_ROOT, path), content);
const record = {
  generated_by: "npx tsx reports/generate.ts (npm run docs); checked by reports/freshness.test.ts",
  outputs: [...files.keys()],
  ...inputs,
};
writeFileSync(join(REPO_ROOT, RECORDS.invariants.file), `${JSON.stringify(record, null, 2)}\n`);
console.error(
  `reports: wrote ${[...files.keys()].join(", ")} and ${RECORDS.invariants.file} (${inputs.files} inputs at ${inputs.commit.slice(0, 12)}${inputs.uncommitted_inputs.length > 0 ? `, ${inputs.uncommitted_inputs.length} of them uncommitted` : ""})`,
);
