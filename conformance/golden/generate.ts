/** Writes the golden transcripts (`npm run golden`); conformance/golden/golden.test.ts fails when stale. */
import { writeFileSync } from "node:fs";
import { GOLDEN_SESSIONS, goldenPath, renderGolden } from "./session.ts";
import { renderWireSession, WIRE_SESSION_PATH } from "./wire-session.ts";

for (const g of GOLDEN_SESSIONS) {
  writeFileSync(goldenPath(g), renderGolden(g));
  console.error(`golden: wrote ${goldenPath(g)}`);
}
writeFileSync(WIRE_SESSION_PATH, renderWireSession());
console.error(`golden: wrote ${WIRE_SESSION_PATH}`);
