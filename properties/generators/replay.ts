/**
 * Replayable fast-check parameters. Every property reads FC_SEED / FC_PATH (to replay one
 * failure) and FC_RUNS / FUZZ_RUNS (to scale a campaign), and on failure prints the one command
 * that replays it:
 *
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run <file> -t "<test name>"
 */
import fc from "fast-check";
import { expect } from "vitest";

const envInt = (name: string): number | undefined => {
  const v = process.env[name];
  return v === undefined || v === "" ? undefined : Number.parseInt(v, 10);
};

/** Runs: FC_RUNS overrides per run; FUZZ_RUNS scales long campaigns; otherwise the fast default. */
export const runs = (fast: number): number => envInt("FC_RUNS") ?? envInt("FUZZ_RUNS") ?? fast;

export const params = <T>(fast: number): fc.Parameters<T> => {
  const seed = envInt("FC_SEED");
  const path = process.env["FC_PATH"];
  return {
    numRuns: runs(fast),
    verbose: 1,
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined && path !== "" ? { path } : {}),
  };
};

/** Check a property; on failure throw fast-check's report plus the one-line replay command. */
export const assertReplayable = <T>(file: string, property: fc.IProperty<T>, fast: number): void => {
  const details = fc.check(property, params<T>(fast));
  if (!details.failed) return;
  // -t narrows the run to this test, so the seed and path are not consumed by other properties.
  const name = expect.getState().currentTestName?.split(" > ").pop() ?? "";
  const filter = name === "" ? "" : ` -t ${JSON.stringify(name)}`;
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""} npx vitest run ${file}${filter}`;
  console.error(`property failed; replay with:\n  ${replay}`);
  throw new Error(`${fc.defaultReportMessage(details) ?? "property failed"}\n\nReplay: ${replay}`);
};
