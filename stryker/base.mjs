/**
 * Settings shared by the two Stryker configurations (stryker/impl.config.mjs, model.config.mjs).
 *
 * - The tests are the fast in-process checks of stryker/vitest.config.ts (picked by
 *   STRYKER_SCOPE), never the whole suite: a run must fit a 2-core machine.
 * - coverageAnalysis "perTest": each mutant runs only the tests that executed its code.
 * - incremental: results are kept in stryker/incremental-<scope>.json (committed), so a rerun
 *   after a small change tests only the mutants in changed code or covered by changed tests.
 * - The TypeScript checker drops mutants that do not compile (not bugs anyone could write);
 *   "prioritizePerformanceOverAccuracy" checks mutants in groups, one compile per group.
 * - concurrency 1 by default (STRYKER_CONCURRENCY to change): the machine is shared.
 * - The json report (mutation-testing-report-schema) feeds stryker/report.ts.
 * - Mutants in informative texts (rejection messages and paths, D-032) are not run:
 *   stryker/ignore-informative.mjs.
 */
/**
 * What each scope mutates: production code only, never tests or test helpers. stryker/report.ts
 * names the same files (MUTATED_FOLDERS); reports/stryker.test.ts checks that the two agree.
 */
export const MUTATE = {
  impl: ["impl/core/**/*.ts", "impl/durable/**/*.ts"],
  model: ["model/**/*.ts", "!model/**/*.test.ts", "!model/testkit.ts", "!model/fixture.ts"],
};

export const base = (scope) => {
  const mutate = MUTATE[scope];
  process.env["STRYKER_SCOPE"] = scope;
  return {
    packageManager: "npm",
    plugins: ["@stryker-mutator/*", "./stryker/ignore-informative.mjs"],
    ignorers: ["informative-texts"],
    testRunner: "vitest",
    vitest: { configFile: "stryker/vitest.config.ts", related: false },
    checkers: ["typescript"],
    tsconfigFile: `stryker/tsconfig.${scope}.json`,
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    coverageAnalysis: "perTest",
    mutate,
    incremental: true,
    incrementalFile: `stryker/incremental-${scope}.json`,
    concurrency: Number(process.env["STRYKER_CONCURRENCY"] ?? "1"),
    reporters: ["json", "clear-text", "progress"],
    jsonReporter: { fileName: `stryker/out/${scope}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
    tempDirName: ".stryker-tmp",
    // A loaded machine makes the per-mutant timeout (1.5 × the mutant's tests' time + this) tight.
    timeoutMS: 20_000,
    dryRunTimeoutMinutes: 15,
    // Only what the tests load is copied into the sandbox.
    ignorePatterns: [
      "reports/site",
      "reports/screenshots",
      "reports/certificates",
      "docs",
      "bench",
      ".tmp",
      "stryker/out",
    ],
    cleanTempDir: true,
  };
};
