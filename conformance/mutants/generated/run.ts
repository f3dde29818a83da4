/**
 * `npm run mutants:wire-generated`: the wire kill matrix of generated mutants (issue 21).
 *
 *   npm run mutants:wire-generated                       # the seeded sample (150), writes the reports
 *   npm run mutants:wire-generated -- --sample 40        # a smaller sample
 *   npm run mutants:wire-generated -- --all              # every runnable mutant (hours: shard it)
 *   npm run mutants:wire-generated -- --all --shard 2/8 --rows shard-2.json   # one shard's rows
 *   npm run mutants:wire-generated -- merge shard-*.json                      # the shards' report
 *   (a shard rewrites its rows file after every mutant; run the same command again to resume one cut short)
 *   npm run mutants:wire-generated -- <mutant id> ...    # certify those alone, print, write nothing
 *   npm run mutants:wire-generated -- --rerun "why" <mutant id> ...   # the same, appended to reruns.json
 *   --seed S (order and certification seed, 1), --runs N (300), --budget SECONDS (180)
 *
 * Every batch (the whole run, or one shard) certifies the unmutated implementation first with the
 * same settings: if it does not certify, nothing is written and the exit status is 1, since the
 * kills would then say nothing about the mutants. The exit status is otherwise 0: a survivor is a
 * measurement, listed in the report with its change, not an error of the run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inputsOf } from "../../evidence/inputs.ts";
import { REPO_ROOT } from "../../transport/local.ts";
import { parseShard } from "../../shard/shard.ts";
import { certifyGenerated, didNotCompile, type WireOptions } from "./certify-one.ts";
import { compileChecker } from "./compile.ts";
import { drawOrder, OPS_FIRST, shardOf } from "./draw.ts";
import {
  GENERATED_JSON,
  GENERATED_MD,
  renderGenerated,
  reportRow,
  type GeneratedDoc,
  type ReportRow,
  type Selection,
} from "./report.ts";
import { generateMutants, type GeneratedMutant } from "./source.ts";
import { readTriage } from "./triage.ts";
import { mergeShards, readResumable, saveShard, type ShardRows } from "./shard-rows.ts";
import { appendRerun, readReruns, RERUNS_FILE } from "./reruns.ts";

export const DEFAULT_SAMPLE = 150;

interface Args {
  readonly merge: readonly string[] | null;
  readonly ids: readonly string[];
  readonly all: boolean;
  readonly sample: number;
  readonly seed: number;
  readonly runs: number;
  readonly budgetS: number;
  readonly shard: string | null;
  readonly rows: string | null;
  /** Why the named mutants are rerun (--rerun "…"): the rows are appended to reruns.json. */
  readonly rerun: string | null;
}

const usage = (why: string): never => {
  process.stderr.write(
    `${why}\nusage: npm run mutants:wire-generated -- [--sample N | --all] [--seed S] [--runs N] [--budget SECONDS] [--shard i/n --rows FILE] | merge FILE... | <mutant id>...\n`,
  );
  process.exit(64);
};

const positive = (flag: string, v: string | undefined): number => {
  const n = Number(v);
  if (v === undefined || !Number.isSafeInteger(n) || n < 1)
    usage(`${flag} needs a positive integer, not ${JSON.stringify(v)}`);
  return n;
};

export const parseArgs = (argv: readonly string[]): Args => {
  let all = false;
  let sample = DEFAULT_SAMPLE;
  let seed = 1;
  let runs = 300;
  let budgetS = 180;
  let shard: string | null = null;
  let rows: string | null = null;
  let rerun: string | null = null;
  if (argv[0] === "merge") {
    if (argv.length < 2) usage("merge needs the rows files of the shards");
    return { merge: argv.slice(1), ids: [], all, sample, seed, runs, budgetS, shard, rows, rerun: null };
  }
  const ids: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--all") all = true;
    else if (a === "--sample") sample = positive(a, argv[++i]);
    else if (a === "--seed") seed = positive(a, argv[++i]);
    else if (a === "--runs") runs = positive(a, argv[++i]);
    else if (a === "--budget") budgetS = positive(a, argv[++i]);
    else if (a === "--shard") shard = argv[++i] ?? usage("--shard needs i/n");
    else if (a === "--rows") rows = argv[++i] ?? usage("--rows needs a file");
    else if (a === "--rerun") rerun = argv[++i] ?? usage("--rerun needs the reason (the change the rerun tests)");
    else if (a.startsWith("--")) usage(`unknown option ${a}`);
    else ids.push(a);
  }
  if ((shard === null) !== (rows === null))
    usage("--shard and --rows go together: a shard writes its rows, merge writes the report");
  if (rerun !== null && ids.length === 0) usage("--rerun needs the ids of the mutants to rerun");
  return { merge: null, ids, all, sample, seed, runs, budgetS, shard, rows, rerun };
};

const line = (k: number, n: number, r: ReportRow): string => {
  const what =
    r.outcome === "killed"
      ? `by ${r.stage ?? "a fault"}${r.invariant === null ? "" : ` under ${r.invariant}`} in ${r.secondsToKill?.toFixed(1) ?? "?"} s${r.runsToKill === null ? "" : ` (run ${r.runsToKill})`}`
      : r.outcome === "survived"
        ? `certified in ${r.seconds.toFixed(0)} s`
        : (r.fault ?? r.summary ?? "").slice(0, 160);
  return `[${k}/${n}] ${r.outcome.toUpperCase().padEnd(15)} ${r.id} ${JSON.stringify(r.original.slice(0, 50))} → ${JSON.stringify(r.replacement.slice(0, 50))} ${what}\n`;
};

const writeReports = (doc: GeneratedDoc): void => {
  writeFileSync(join(REPO_ROOT, GENERATED_JSON), `${JSON.stringify(doc, null, 1)}\n`);
  writeFileSync(join(REPO_ROOT, GENERATED_MD), renderGenerated(doc, readTriage(), readReruns()));
  process.stdout.write(`wrote ${GENERATED_JSON} and ${GENERATED_MD}\n`);
};

const merge = (files: readonly string[]): void => {
  const parts = files.map((f) => {
    try {
      return JSON.parse(readFileSync(f, "utf8")) as ShardRows;
    } catch (e) {
      return usage(`${f}: not a rows file (${(e as Error).message})`);
    }
  });
  const doc = mergeShards(files, parts, new Date().toISOString());
  if (typeof doc === "string") usage(doc);
  else writeReports(doc);
};

const main = async (): Promise<void> => {
  const args = parseArgs(process.argv.slice(2));
  if (args.merge !== null) return merge(args.merge);
  const t0 = Date.now();
  const inputs = args.ids.length === 0 || args.rerun !== null ? inputsOf("mutants-generated") : null;
  const all = await generateMutants();
  const order = drawOrder(all, args.seed);
  const options: WireOptions = { seed: args.seed, runs: args.runs, timeBudgetMs: args.budgetS * 1000 };
  const unknown = args.ids.filter((id) => !all.some((m) => m.id === id));
  if (unknown.length > 0)
    usage(
      `unknown mutant(s): ${unknown.join(", ")} (ids are file:line:column:mutator:digest, as the report lists them)`,
    );
  const checker = compileChecker();
  // The chosen mutants, each with its compile verdict: a sample is the first `sample` that compile
  // (those that do not, met on the way, are counted apart), computed alike by every shard.
  // With --all the chosen list is the whole order whatever compiles, so a shard takes its positions
  // first and type-checks only its own mutants (each check is a fraction of a second, thousands
  // of them are minutes that every shard would otherwise repeat).
  const shard = args.shard === null ? { index: 0, count: 1 } : parseShard(args.shard);
  const chosen: { m: GeneratedMutant; error: string | null }[] = [];
  let mine: { m: GeneratedMutant; error: string | null }[];
  if (args.ids.length > 0) {
    for (const id of args.ids) {
      const m = all.find((x) => x.id === id) as GeneratedMutant;
      chosen.push({ m, error: checker.check(m) });
    }
    mine = shardOf(chosen, shard);
  } else if (args.all) {
    mine = shardOf(order, shard).map((m) => ({ m, error: checker.check(m) }));
  } else {
    let compiling = 0;
    for (const m of order) {
      if (compiling >= args.sample) break;
      const error = checker.check(m);
      if (error === null) compiling++;
      chosen.push({ m, error });
    }
    mine = shardOf(chosen, shard);
  }
  const selection: Selection = {
    kind: args.ids.length > 0 ? "ids" : args.all ? "all" : "sample",
    size: args.ids.length > 0 || args.all ? null : args.sample,
    orderSeed: args.seed,
    generated: all.length,
    ignored: all.filter((m) => m.ignored !== null).length,
    runnable: order.length,
    runnableOps: order.filter((m) => m.file.startsWith(OPS_FIRST)).length,
    shards: shard.count,
  };
  process.stdout.write(
    args.all
      ? `${selection.generated} generated, ${selection.runnable} runnable, all chosen${shard.count > 1 ? `; shard ${shard.index + 1}/${shard.count}: ${mine.length}` : ""} (${mine.filter((c) => c.error !== null).length} do not compile)\n`
      : `${selection.generated} generated, ${selection.runnable} runnable; ${chosen.length} chosen (${chosen.filter((c) => c.error !== null).length} do not compile)${shard.count > 1 ? `, shard ${shard.index + 1}/${shard.count}: ${mine.length}` : ""}\n`,
  );
  const found =
    args.rows !== null && inputs !== null ? readResumable(args.rows, { shard, options, selection, inputs }) : null;
  if (found?.why != null) process.stderr.write(`${found.why}: the shard starts again\n`);
  const earlier = found?.part ?? null;
  const control = earlier?.control ?? (await certifyGenerated(null, options));
  process.stdout.write(
    `control: ${control.outcome} in ${control.seconds.toFixed(0)} s${earlier === null ? "" : ` (from ${args.rows}, resuming after ${earlier.rows.length} mutants)`}\n`,
  );
  if (control.outcome !== "survived") {
    process.stderr.write(
      `the unmutated implementation did not certify (${control.outcome}: ${control.summary ?? control.fault ?? ""}): nothing is written\n`,
    );
    process.exitCode = 1;
    return;
  }
  const done = new Map((earlier?.rows ?? []).map((r) => [r.id, r] as const));
  const before = earlier?.seconds ?? 0;
  const rows: ReportRow[] = [];
  const save = (complete: boolean): void => {
    if (args.rows === null || inputs === null) return;
    saveShard(args.rows, {
      shard,
      options,
      selection,
      control,
      rows,
      seconds: before + (Date.now() - t0) / 1000,
      inputs,
      complete,
    });
  };
  for (const [k, { m, error }] of mine.entries()) {
    const kept = done.get(m.id);
    const r = kept ?? reportRow(m, error !== null ? didNotCompile(m, error) : await certifyGenerated(m, options));
    rows.push(r);
    if (kept === undefined) {
      process.stdout.write(line(k + 1, mine.length, r));
      save(false);
    }
  }
  const seconds = before + (Date.now() - t0) / 1000;
  const n = (o: string): number => rows.filter((r) => r.outcome === o).length;
  process.stdout.write(
    `${n("killed")} killed, ${n("survived")} survived, ${n("inconclusive")} inconclusive, ${n("did-not-compile")} did not compile, ${n("did-not-start")} did not start (${rows.length} mutants) in ${seconds.toFixed(0)} s\n`,
  );
  if (inputs === null) return;
  if (args.rerun !== null) {
    appendRerun({
      commit: (inputs as { commit?: string }).commit ?? "(none)",
      at: new Date().toISOString(),
      why: args.rerun,
      options,
      control,
      rows,
    });
    process.stdout.write(`appended the rerun to ${RERUNS_FILE}\n`);
    return;
  }
  if (args.rows !== null) {
    save(true);
    process.stdout.write(`wrote ${args.rows} (merge the shards: npm run mutants:wire-generated -- merge FILE...)\n`);
    return;
  }
  writeReports({
    report_version: 1,
    generated_at: new Date().toISOString(),
    options,
    selection,
    controls: [control],
    rows,
    seconds,
    inputs,
  });
};

await main();
