/**
 * Replayable fast-check parameters. Every property reads FC_SEED / FC_PATH (to replay one
 * failure), FC_RUNS / FUZZ_RUNS (to scale a campaign) and FC_NO_SHRINK (mutation runs), and on failure throws an Error that
 * says what went wrong (the shrunk counterexample's own error), the one command that replays it:
 *
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run <file> -t "<test name>"
 *
 * and the shrunk counterexample itself, rendered by the caller (e.g. as the commands sent) and
 * bounded in size.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { ownsUnit, parseShardText, runSeed } from "./shard.ts";

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
    // Verbosity 0: level 1 makes fast-check keep (and print) every failure met while shrinking,
    // hundreds of kilobytes for command sequences. The report below is built from RunDetails.
    verbose: 0,
    // FC_NO_SHRINK=1 (the Stryker runs, stryker/vitest.config.ts): stop at the first failure
    // without shrinking it. A mutation run only needs to know that a property fails; shrinking a
    // 200-step counterexample would cost seconds per killed mutant and show nobody the result.
    ...(process.env["FC_NO_SHRINK"] === "1" ? { endOnFailure: true } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined && path !== "" ? { path } : {}),
  };
};

/** Upper bounds (in characters) of the failure message and of its parts. */
export const MESSAGE_CAP = 20_000;
const ERROR_CAP = 6_000;
const STACK_FRAMES = 6;

/** Cut `text` to at most `max` characters (at a line end when possible) and say what was cut. */
export const clip = (text: string, max: number, what: string): string => {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const nl = head.lastIndexOf("\n");
  const kept = nl > max / 2 ? head.slice(0, nl) : head;
  const cutLines = text.slice(kept.length).split("\n").length - 1;
  return `${kept}\n… [${text.length - kept.length} more characters (${cutLines} lines) of ${what} cut]`;
};

/** The original error: its message and the first frames of its stack (where it was thrown). */
const describeError = (e: unknown): string => {
  if (!(e instanceof Error)) return fc.stringify(e);
  const frames = (e.stack ?? "")
    .split("\n")
    .filter((l) => /^\s+at /.test(l) && !l.includes("node_modules"))
    .slice(0, STACK_FRAMES);
  return [`${e.name}: ${e.message}`, ...frames].join("\n");
};

/** Shows a shrunk counterexample (given its error too, e.g. to stop at the failing step). */
export type Render<T> = (counterexample: T, error: unknown) => string;

/** Build the failure message from fast-check's run details (never its list of shrink failures). */
export const failureReport = <T>(details: fc.RunDetails<T>, replay: string, render?: Render<T>): string => {
  if (!details.failed) return "";
  if (details.counterexample === null) {
    // Interrupted or too many skipped pre-conditions: no counterexample, fast-check's text is short.
    return `${clip(fc.defaultReportMessage(details) ?? "property failed", MESSAGE_CAP - replay.length - 10, "report")}\n\nReplay: ${replay}`;
  }
  const error = details.errorInstance;
  const head = [
    // The path can run to hundreds of characters; it is given once, in the replay line.
    `Property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s) (seed ${details.seed})`,
    "",
    clip(describeError(error), ERROR_CAP, "the error"),
    "",
    `Replay: ${replay}`,
    "",
  ].join("\n");
  let shown: string;
  try {
    shown = render === undefined ? fc.stringify(details.counterexample) : render(details.counterexample, error);
  } catch (e) {
    // A broken renderer must not hide the failure it was meant to explain.
    shown = `(renderer failed: ${e instanceof Error ? e.message : String(e)})\n${fc.stringify(details.counterexample)}`;
  }
  const budget = Math.max(1_000, MESSAGE_CAP - head.length - 200);
  return `${head}Counterexample (shrunk):\n${clip(shown, budget, "the counterexample")}`;
};

/**
 * Progress for long campaigns: wraps a property so that, at most every `everyMs`, it writes
 * `fuzz <label>: N/M runs, elapsed Xs` (and the shrink attempts once a failure is being shrunk).
 * `generate` is called once per run, `run` once per run and once per shrink attempt.
 */
export const withProgress = <T>(
  property: fc.IRawProperty<T, false>,
  label: string,
  total: number,
  everyMs = 5_000,
  write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): fc.IRawProperty<T, false> => {
  const start = Date.now();
  let last = start;
  let generated = 0;
  let executed = 0;
  const secs = () => ((Date.now() - start) / 1000).toFixed(0);
  return {
    isAsync: () => false,
    generate: (mrng, runId) => {
      generated++;
      return property.generate(mrng, runId);
    },
    shrink: (value) => property.shrink(value),
    run: (v) => {
      executed++;
      const now = Date.now();
      if (now - last >= everyMs) {
        last = now;
        const shrinking = executed > generated ? `, shrinking (${executed - generated} attempts)` : "";
        write(`fuzz ${label}: ${generated}/${total} runs, elapsed ${secs()}s${shrinking}`);
      }
      return property.run(v);
    },
    runBeforeEach: () => property.runBeforeEach(),
    runAfterEach: () => property.runAfterEach(),
  };
};

/**
 * `FUZZ_SHARD=i/n`: a long campaign split into deterministic shards (D-038). The campaign is
 * `runs` runs, run k seeded `runSeed(FUZZ_SEED, k)` (FUZZ_SEED defaults to 1, so every shard
 * agrees on it); shard i runs the runs k with k mod n = i - 1. The n shards together run exactly
 * the campaign one machine would, and a failure replays from its own run's seed and path.
 */
export const fuzzShard = (): { index: number; count: number } | null => {
  const text = process.env["FUZZ_SHARD"];
  if (text === undefined || text === "") return null;
  const s = parseShardText(text);
  if (s === null) throw new Error(`FUZZ_SHARD="${text}": expected i/n with 1 ≤ i ≤ n, e.g. 2/3`);
  return s;
};

/** The seeds of the runs shard `shard` makes of a campaign of `total` runs seeded `seed`. */
export const shardRunSeeds = (seed: number, total: number, shard: { index: number; count: number }): number[] =>
  Array.from({ length: total }, (_, k) => k)
    .filter((k) => ownsUnit(shard.index, shard.count, k))
    .map((k) => runSeed(seed, k));

const checkShard = <T>(property: fc.IRawProperty<T, false>, p: fc.Parameters<T>, total: number): fc.RunDetails<T> => {
  const shard = fuzzShard() ?? { index: 0, count: 1 };
  const seed = envInt("FUZZ_SEED") ?? 1;
  let last: fc.RunDetails<T> | null = null;
  let ran = 0;
  for (const runSeedK of shardRunSeeds(seed, total, shard)) {
    const { path: _path, ...rest } = p;
    last = fc.check(property, { ...rest, seed: runSeedK, numRuns: 1 });
    ran += last.numRuns;
    if (last.failed) break;
  }
  // Report the shard's runs, not the last single-run check's.
  return { ...(last ?? fc.check(property, { ...p, numRuns: 0 })), numRuns: ran } as fc.RunDetails<T>;
};

/**
 * Check a property; on failure throw an Error with the original error of the shrunk
 * counterexample, the one-line replay command and the counterexample (through `render` when
 * given: e.g. the commands sent rather than generator choices), at most MESSAGE_CAP characters.
 */
export const assertReplayable = <T>(
  file: string,
  property: fc.IProperty<T>,
  fast: number,
  render?: Render<T>,
): void => {
  // -t narrows the run to this test, so the seed and path are not consumed by other properties.
  const name = expect.getState().currentTestName?.split(" > ").pop() ?? "";
  const p = params<T>(fast);
  const campaign = p.numRuns ?? fast;
  const shard = fuzzShard();
  // A shard makes its part of the campaign; it reports progress against that part.
  const total = shard === null ? campaign : Math.ceil((campaign - shard.index) / shard.count);
  // Only campaigns larger than the fast default report progress: the default runs stay silent.
  const checked = campaign > fast ? withProgress(property, name === "" ? file : name, total) : property;
  const started = Date.now();
  const details = shard === null ? fc.check(checked, p) : checkShard(checked, p, campaign);
  if (campaign > fast)
    process.stderr.write(
      `fuzz ${name === "" ? file : name}: ${details.numRuns}/${total} runs, ${details.failed ? "FAILED" : "passed"} in ${((Date.now() - started) / 1000).toFixed(0)}s\n`,
    );
  if (!details.failed) return;
  const filter = name === "" ? "" : ` -t ${JSON.stringify(name)}`;
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""} npx vitest run ${file}${filter}`;
  console.error(`property failed; replay with:\n  ${replay}`);
  throw new Error(failureReport(details, replay, render));
};
