import { defineConfig } from "vitest/config";
import base, { LONG_TESTS } from "./vitest.config.ts";

/** `npm run test:long`: the long checks `npm test` leaves out (see LONG_TESTS), with their own report. */
export default defineConfig({
  test: {
    ...base.test,
    include: LONG_TESTS,
    exclude: ["**/node_modules/**"],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    outputFile: { json: "reports/.last-long-run.json" },
  },
});
