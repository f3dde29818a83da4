/**
 * `npm run stryker [-- impl|model|report] [stryker options…]`
 *
 *   npm run stryker                  Stryker on impl/, then on model/, then the reports
 *   npm run stryker -- impl          only impl/ (stryker/impl.config.mjs), then the reports
 *   npm run stryker -- model         only model/ (stryker/model.config.mjs), then the reports
 *   npm run stryker -- report        only reports/stryker.md and reports/stryker.json
 *   npm run stryker -- impl --force  every mutant again, ignoring the incremental file
 *
 * Options after the scope go to `stryker run` as they are (e.g. `--mutate impl/core/store.ts`,
 * `--concurrency 2`). Runs are incremental (stryker/incremental-<scope>.json, committed): a rerun
 * after a small change tests only the mutants whose code or covering tests changed. Each run's
 * wall-clock time is recorded in stryker/runs.json (the last ten per scope). The reports are
 * written from the incremental files and stryker/triage/ (stryker/report.ts); the command
 * fails, listing them, when a survivor is not triaged or a triage entry matches nothing.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../reports/paths.ts";
import { RUNS_FILE, SCOPES, writeReports, type RunRecord, type Scope } from "./report.ts";

const KEEP_RUNS = 10;

const runStryker = (scope: Scope, extra: readonly string[]): RunRecord => {
  const args = ["stryker", "run", `stryker/${scope}.config.mjs`, ...extra];
  const started = Date.now();
  const r = spawnSync("npx", args, { cwd: REPO_ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`stryker run for ${scope} failed (exit ${r.status ?? r.signal})`);
  const concurrencyArg = extra.indexOf("--concurrency");
  return {
    scope,
    date: new Date(started).toISOString().slice(0, 16).replace("T", " "),
    seconds: Math.round((Date.now() - started) / 1000),
    command: `npx ${args.join(" ")}`,
    concurrency: Number(concurrencyArg >= 0 ? extra[concurrencyArg + 1] : (process.env["STRYKER_CONCURRENCY"] ?? "1")),
  };
};

const recordRun = (run: RunRecord): void => {
  const path = join(REPO_ROOT, RUNS_FILE);
  const { runs } = JSON.parse(readFileSync(path, "utf8")) as { runs: RunRecord[] };
  const kept = [...runs, run].filter(
    (r, i, all) => all.slice(i + 1).filter((x) => x.scope === r.scope).length < KEEP_RUNS,
  );
  writeFileSync(path, `${JSON.stringify({ runs: kept }, null, 2)}\n`);
};

const main = (argv: readonly string[]): void => {
  const [first, ...rest] = argv;
  const mode = first === undefined || first.startsWith("-") ? "all" : first;
  const extra = mode === "all" ? argv : rest;
  if (mode !== "all" && mode !== "report" && !(SCOPES as readonly string[]).includes(mode)) {
    throw new Error(`unknown scope "${mode}": expected impl, model, report or nothing (both)`);
  }
  const scopes: readonly Scope[] = mode === "all" ? SCOPES : mode === "report" ? [] : [mode as Scope];
  for (const scope of scopes) recordRun(runStryker(scope, extra));
  const summary = writeReports(REPO_ROOT);
  for (const s of summary.scopes) {
    const c = s.counts;
    console.log(
      `${s.scope}/: ${c.total} mutants (${c.killed} killed, ${c.timeout} timeout, ${c.survived} survived, ${c.noCoverage} no coverage, ${c.compileError} compile errors, ${c.ignored} ignored); ` +
        `mutation score ${s.scores.mutationScore ?? "n/a"} %, on covered code ${s.scores.coveredScore ?? "n/a"} %, on killable mutants ${s.scores.killableScore ?? "n/a"} %; ` +
        `survivors triaged (a) ${s.triaged.a}, (b) ${s.triaged.b}, (c) ${s.triaged.c}`,
    );
  }
  console.log("wrote reports/stryker.md and reports/stryker.json");
};

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
