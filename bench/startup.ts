/**
 * Startup: how long `srk --help` and `srk list` take as a user runs them, from the package as
 * `npm pack` makes it (compiled JavaScript in dist/, no tsx), against `node -e 0` started the same
 * way in the same run. The tarball is unpacked into a temporary folder whose node_modules is the
 * kit's own (a link), so nothing is fetched. Runs are paired (node -e 0, --help, list, in turn),
 * and each figure is the median of its runs, so a burst of load hits all three alike.
 *
 * The kit's clone runs the TypeScript sources through tsx instead (bin/srk.mjs): that start is
 * measured too, as context for the figures, not as a goal.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { packKit } from "../conformance/package/pack.ts";
import type { BenchContext } from "./context.ts";
import { REPO_ROOT } from "./context.ts";
import { evaluate, notMeasured, type Goal, type GoalSpec } from "./goals.ts";
import { median, sig } from "./stats.ts";

export interface StartupResult {
  readonly runs: number;
  /** Median wall times in ms. */
  readonly node_ms: number;
  readonly help_ms: number;
  readonly list_ms: number;
  /** `node bin/srk.mjs --help` in the clone (tsx compiling the sources), median ms. */
  readonly source_help_ms: number;
  /** Files in the tarball and its size, as `npm pack` reported them. */
  readonly tarball_files: number;
  readonly tarball_bytes: number;
}

export const STARTUP_GOAL: GoalSpec = { comparator: "<=", target: 3, kind: "ratio" };
export const STARTUP_GOALS = {
  help: "Startup: srk --help (compiled, as installed) ÷ node -e 0",
  list: "Startup: srk list (compiled, as installed) ÷ node -e 0",
} as const;

const wallMs = (args: readonly string[], cwd: string): number => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${String(r.status)}: ${r.stderr.slice(-500)}`);
  return ms;
};

export const runStartup = (ctx: BenchContext): StartupResult => {
  const dir = ctx.tmp("startup");
  ctx.log(
    "bench: startup: npm pack of a copy of the clone (builds dist/ there), unpacked beside the kit's node_modules",
  );
  const info = packKit(dir);
  const pkg = join(dir, "package");
  mkdirSync(pkg);
  execFileSync("tar", ["-xzf", info.tarball, "-C", dir]);
  symlinkSync(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
  const srk = join(pkg, "bin", "srk.mjs");
  const runs = ctx.quick ? 3 : 11;
  const node: number[] = [];
  const help: number[] = [];
  const list: number[] = [];
  const source: number[] = [];
  // One unmeasured round first: the file system cache, as a user's second call finds it.
  wallMs(["-e", "0"], dir);
  wallMs([srk, "--help"], dir);
  wallMs([srk, "list"], dir);
  for (let i = 0; i < runs; i++) {
    node.push(wallMs(["-e", "0"], dir));
    help.push(wallMs([srk, "--help"], dir));
    list.push(wallMs([srk, "list"], dir));
    if (i < 3) source.push(wallMs([join(REPO_ROOT, "bin", "srk.mjs"), "--help"], REPO_ROOT));
  }
  return {
    runs,
    node_ms: median(node),
    help_ms: median(help),
    list_ms: median(list),
    source_help_ms: median(source),
    tarball_files: info.entryCount,
    tarball_bytes: info.size,
  };
};

export const startupGoals = (r: StartupResult): Goal[] =>
  (["help", "list"] as const).map((which) => {
    const ms = which === "help" ? r.help_ms : r.list_ms;
    return evaluate({
      name: STARTUP_GOALS[which],
      section: "startup",
      measured: {
        value: ms,
        unit: "ms",
        label: `node bin/srk.mjs ${which === "help" ? "--help" : "list"} from the unpacked tarball`,
      },
      baseline: { value: r.node_ms, unit: "ms", label: "node -e 0" },
      ratio: ms / r.node_ms,
      goal: STARTUP_GOAL,
      whenMet: `Medians of ${r.runs} paired runs; the same command from the clone's TypeScript sources through tsx takes ${sig(r.source_help_ms)} ms (${sig(r.source_help_ms / r.node_ms)}× node -e 0); the tarball has ${r.tarball_files} files, ${sig(r.tarball_bytes / 1024)} KiB.`,
      whenShort: `Medians of ${r.runs} paired runs: Node itself takes ${sig(r.node_ms)} ms to start; the rest is loading the modules the command imports (commander and the spec catalog${which === "list" ? ", the stage and operation tables" : ""}); every command loads its machinery lazily, so what is left is module loading and parsing.`,
    });
  });

export const startupNotMeasured = (reason: string): Goal[] =>
  (["help", "list"] as const).map((w) => notMeasured(STARTUP_GOALS[w], "startup", STARTUP_GOAL, reason));
