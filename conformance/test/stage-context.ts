/**
 * A stage context for tests that run one stage directly: the kit's own implementation (or a
 * fixture) behind a Target, every family declared, the crash hook on, a silent progress and a
 * two-minute budget; any field can be overridden.
 */
import type { StageContext } from "../stages/types.ts";
import { afterAll } from "vitest";
import { Target } from "../driver/target.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { silentProgress } from "../core/progress.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";

/** The kit's implementation as a command line (run from the repository root). */
export const KIT_COMMAND_LINE = `${process.execPath} --import tsx impl/main.ts`;

export const stageContext = (
  t: Target,
  over: Partial<StageContext> = {},
  settings: Partial<StageContext["settings"]> = {},
): StageContext => ({
  settings: {
    seed: 1,
    runs: 10,
    timeBudgetMs: 120_000,
    requestTimeoutMs: 15_000,
    startupTimeoutMs: 30_000,
    only: [],
    ...settings,
  },
  hello: {
    implementation: { name: "test", version: "0" },
    protocol_version: "1",
    protocol_versions: ["1"],
    profile: { families: ["janma", "samskara", "advaita", "ripa"], crash_hook: true },
  },
  families: ["janma", "samskara", "advaita", "ripa"],
  crashHook: true,
  target: t,
  witnesses: new WitnessBook(),
  progress: silentProgress,
  deadline: Date.now() + 120_000,
  ...over,
});

/**
 * Targets for a test file's stage runs, from the repository root, all disposed after the file's
 * tests: call once at the file's top level, then `target(commandLine)` in its cases.
 */
export const disposedAfterAll = (): ((commandLine: string) => Target) => {
  const targets: Target[] = [];
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.dispose()));
  });
  return (commandLine) => {
    const t = new Target({ commandLine, cwd: REPO_ROOT, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000 });
    targets.push(t);
    return t;
  };
};
