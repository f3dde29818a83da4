/** Writes the golden transcripts (`npm run golden`); conformance/golden/golden.test.ts fails when stale. */
import { writeFileSync } from "node:fs";
import { GOLDEN_SESSIONS, goldenPath, renderGolden } from "./session.ts";

for (const g of GOLDEN_SESSIONS) {
  writeFileSync(goldenPath(g), renderGolden(g));
  console.error(`golden: wrote ${goldenPath(g)}`);
}
