import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The tests Stryker runs against every mutant (stryker/impl.config.mjs, stryker/model.config.mjs).
 * Only fast, in-process checks: a mutant is activated by a global switch inside the test worker,
 * so a test that talks to a spawned implementation process can never see it (the child runs the
 * unmutated code) and would only slow the run. STRYKER_SCOPE picks the tests of one folder:
 *
 *   impl  – the implementation's unit, store, persistence and storage tests, the golden sessions replayed in process,
 *           and the model-vs-implementation differential property;
 *   model – the model's own tests and properties, the golden sessions (whose "is current" test
 *           re-derives every committed reply from the model) and the same differential property.
 *
 * The properties run at a fixed seed and a modest count (FC_SEED / FC_RUNS, read by
 * properties/generators/replay.ts) so that a mutant is judged the same way every time, and stop
 * at the first failure without shrinking (FC_NO_SHRINK). Files run in the order listed, quickest
 * and broadest first: Stryker stops at the first failing test, so a mutant the golden replay
 * kills in 0.3 s never waits for the store tests.
 */
const scope = process.env["STRYKER_SCOPE"] ?? "impl";

const GOLDEN = "conformance/golden/golden.test.ts";
const DIFFERENTIAL = "properties/differential.property.test.ts";
const INCLUDE: Record<string, readonly string[]> = {
  impl: [
    GOLDEN,
    "impl/test/units.test.ts",
    "impl/test/inprocess.test.ts",
    DIFFERENTIAL,
    "impl/test/store.test.ts",
    "impl/test/persist.test.ts",
    "impl/test/storage.test.ts",
  ],
  model: [GOLDEN, "model/**/*.test.ts", "properties/model.property.test.ts", DIFFERENTIAL],
};

/**
 * Tests that read the source text rather than run it: in Stryker's sandbox the source is
 * instrumented (every mutant is inserted behind a switch), so they would fail on the unmutated
 * code and tell nothing about a mutant.
 */
const SOURCE_TEXT_TESTS = ["model/checks.test.ts", "model/sort-equivalence.test.ts"];

const include = INCLUDE[scope];
if (include === undefined)
  throw new Error(`STRYKER_SCOPE=${scope}: expected one of ${Object.keys(INCLUDE).join(", ")}`);

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Position of a test file in INCLUDE (a glob entry matches the files under its fixed prefix). */
const rank = (moduleId: string): number => {
  const rel = moduleId.startsWith(ROOT) ? moduleId.slice(ROOT.length) : moduleId;
  const i = include.indexOf(rel);
  return i === -1 ? include.length : i;
};

class ListedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  root: ROOT,
  test: {
    include: [...include],
    exclude: [...SOURCE_TEXT_TESTS, "**/node_modules/**"],
    // Never the over-the-wire golden replay (it spawns the implementation: see above), nor the
    // witness tests (they measure the generator at its full run count, not the code).
    testNamePattern: /^(?!.*(over the wire|the comparison covers every operation|witness: ))/,
    sequence: { sequencer: ListedOrder },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { FC_SEED: "20261130", FC_RUNS: "20", FC_NO_SHRINK: "1" },
  },
});
