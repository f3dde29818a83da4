import { defineConfig } from "vitest/config";

// One suite for the whole kit. Long campaigns (fuzz, bench) live behind their own scripts,
// so the default run stays within a few minutes on two cores. The JSON report feeds the plain
// "N passed, N failed" line that .ci/run prints last.
export default defineConfig({
  test: {
    include: ["{spec,model,impl,properties,conformance,reports}/**/*.test.ts"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core machines CI
    // runs on, which made the suite run file after file.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", "json"],
    outputFile: { json: "reports/.last-test-run.json" },
  },
});
