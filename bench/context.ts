/**
 * What every section of the benchmark receives: the mode (full or BENCH_QUICK smoke), a progress
 * log on stderr, temporary directories that are removed at the end, and the clock of the whole
 * run (sections with adaptive sizes stay within their share of the 10-minute budget).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchContext {
  /** BENCH_QUICK=1: small sizes and few runs, for a smoke test of the whole pipeline. */
  readonly quick: boolean;
  readonly startedAt: number;
  log(line: string): void;
  /** A fresh directory under the OS temporary directory (the disk the durable store uses). */
  tmp(prefix: string): string;
  /** A fresh directory under `root` (e.g. /dev/shm), removed at the end like tmp(). */
  tmpUnder(root: string, prefix: string): string;
  /** Seconds since the run started. */
  elapsedS(): number;
  cleanup(): void;
}

export const makeContext = (
  quick: boolean,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): BenchContext => {
  const dirs: string[] = [];
  const startedAt = Date.now();
  const under = (root: string, prefix: string): string => {
    const d = mkdtempSync(join(root, `srk-bench-${prefix}-`));
    dirs.push(d);
    return d;
  };
  return {
    quick,
    startedAt,
    log,
    tmp: (prefix) => under(tmpdir(), prefix),
    tmpUnder: under,
    elapsedS: () => (Date.now() - startedAt) / 1000,
    cleanup: () => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
};

/** Runs `f` `runs` times (after `warmup` unmeasured calls) and returns each run's milliseconds. */
export const timeRuns = (runs: number, f: () => void, warmup = 0): number[] => {
  for (let i = 0; i < warmup; i++) f();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    out.push(performance.now() - t);
  }
  return out;
};

/**
 * Samples of one operation under a time budget: at most `max` runs; after `min` runs no new run
 * starts once `budgetMs` has been spent, and none at all once three times the budget has been
 * spent (an operation slower than its budget gets fewer than `min` runs, at least one; the
 * report shows the number of runs of every figure). `setup` runs before each sample, untimed;
 * `f` is timed.
 */
export const budgetedRuns = <S>(
  o: { min: number; max: number; budgetMs: number },
  setup: () => S,
  f: (s: S) => void,
): number[] => {
  const out: number[] = [];
  const t0 = performance.now();
  const more = (): boolean => {
    const spent = performance.now() - t0;
    if (out.length === 0) return true;
    if (out.length >= o.max || spent >= o.budgetMs * 3) return false;
    return out.length < o.min || spent < o.budgetMs;
  };
  while (more()) {
    const s = setup();
    const t = performance.now();
    f(s);
    out.push(performance.now() - t);
  }
  return out;
};
