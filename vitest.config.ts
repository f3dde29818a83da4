import { defineConfig } from "vitest/config";

/**
 * The long checks: each spends the better part of a minute or more on processes or campaigns (a
 * pack and an install from the registry, shard campaigns, mutants certified over the wire, the
 * sampled mutants hunted in process with the mutants' budget, certificates validated by zod and Ajv
 * over whole runs, the report in Chromium, a failing certification replayed through the command line,
 * crash cuts at every durable write). `npm test` leaves them out to stay within about five
 * minutes on two cores; `npm run test:long` (vitest.long.config.ts) runs exactly these, and
 * `.ci/run` runs both, so CI still checks everything. Seconds each, measured on 2 cores: README.
 */
export const LONG_TESTS = [
  "conformance/package/package.test.ts",
  "conformance/shard/shard.test.ts",
  "conformance/mutants/over-the-wire.test.ts",
  "conformance/mutants/in-process.test.ts",
  "conformance/mutants/generated/over-the-wire.test.ts",
  "conformance/certificate/certificate.test.ts",
  "conformance/reporters/browser.test.ts",
  "conformance/cli/cli.test.ts",
  "conformance/stages/crash.test.ts",
  "conformance/profiles/profiles.test.ts",
  "conformance/stages/schema-invalid.test.ts",
  "adapters/js/examples.test.ts",
  "adapters/python/examples.test.ts",
  "conformance/log/recordings.test.ts",
  "conformance/explore/model-mutants/model-mutants.test.ts",
  "conformance/mutants/exhaustive-reach.test.ts",
];

// One suite for the whole kit. Campaigns (fuzz, bench, the mutant matrix) live behind their own
// scripts. The JSON report feeds the plain "N passed, N failed" line that .ci/run prints last.
export default defineConfig({
  test: {
    include: ["{spec,model,impl,properties,conformance,reports,adapters,examples}/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...LONG_TESTS],
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
