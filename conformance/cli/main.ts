/**
 * `srk`: the conformance runner's command line (commander). Commands:
 *
 *   srk certify --impl "<command line>" [options]   certify an implementation, write certificate.json
 *   srk replay <trace.json> --impl "<command line>"  re-run a counterexample on any implementation (JSON or ITF)
 *   srk itf <trace.json> [--out <file.itf.json>]     write a counterexample as ITF (Apalache ADR-015, Quint)
 *   srk explore [--scope FILE|NAME] [--out DIR]      explore the model breadth-first over a finite scope
 *   srk record / check-log / adapt-log               record wire traffic, check a log, adapt an event log
 *   srk golden --impl "<command line>"               replay the golden sessions only (quick self-check)
 *   srk list                                         the invariants, stages and operations
 *
 * Exit codes: 0 certified (or: replay passes, golden passes); 1 violations found (or: the replay
 * still fails); 2 inconclusive (could not be driven, time budget, harness fault); 64 usage error
 * (including a command line whose program cannot be started: no such program, not executable).
 * SIGINT or SIGTERM during `srk certify` stops the implementation and writes a partial certificate
 * (the stage under way and those after it inconclusive, cut short), exiting 2 (1 if a violation
 * was already found); a second one exits at once (cli/interrupt.ts).
 * Progress and logs go to stderr; the summary goes to stdout; nothing goes to the implementation
 * but protocol messages.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { DEFAULTS } from "./defaults.ts";
import { outDirFor, prepareOutDir } from "../reporters/out-dir.ts";

// Each command loads its machinery when it runs, not before: `srk --help` and `srk list` start in
// a fraction of the time the certifier's module graph (the model, zod, effect, fast-check) takes.

export const EXIT_USAGE = 64;

const int =
  (name: string, min: number) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}, got "${v}"`);
    return n;
  };

const ids = (v: string): InvariantId[] => {
  const list = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const id of list) {
    if (!(INVARIANT_IDS as readonly string[]).includes(id))
      throw new InvalidArgumentError(`unknown invariant "${id}"; the ids are ${INVARIANT_IDS.join(", ")}`);
  }
  return list as InvariantId[];
};

const implOption = (): Option =>
  new Option(
    "--impl <command line>",
    'the implementation\'s command line, e.g. "python3 impl.py"; {data_dir} is replaced by the data directory, otherwise --data-dir DIR is appended',
  ).makeOptionMandatory();

export const program = (): Command => {
  const p = new Command("srk")
    .description(
      "Conformance runner for the Samsara and RIPA agent-lifecycle protocols: certifies any implementation, in any language, over the JSON-lines wire protocol (spec/wire/PROTOCOL.md).",
    )
    .showHelpAfterError()
    .exitOverride();

  p.command("certify")
    .description(
      "certify an implementation: handshake, golden sessions, wire robustness, generated differential campaign, algebra, crash cuts, forgetting; writes certificate.json",
    )
    .addOption(implOption())
    .option("--seed <n>", "seed of every generated campaign", int("--seed", 0), DEFAULTS.seed)
    .option("--runs <n>", "generated runs of the differential campaign", int("--runs", 1), DEFAULTS.runs)
    .option(
      "--time-budget <seconds>",
      "wall-clock budget of the whole certification",
      int("--time-budget", 1),
      DEFAULTS.timeBudgetSeconds,
    )
    .option(
      "--request-timeout <ms>",
      "time allowed for each reply",
      int("--request-timeout", 1),
      DEFAULTS.requestTimeoutMs,
    )
    .option(
      "--startup-timeout <ms>",
      "time allowed from start to the reply to hello",
      int("--startup-timeout", 1),
      DEFAULTS.startupTimeoutMs,
    )
    .option("--only <ids>", "certify only these invariants, e.g. S-5,AD-3", ids, [] as InvariantId[])
    .option(
      "--out <dir>",
      "where to write certificate.json and traces (default srk-reports/<implementation name>/ under the working directory; an existing folder must be empty or an earlier srk report)",
    )
    .option("--data-dir <dir>", "data directory of the first process (default: a fresh temporary directory)")
    .option("--fail-fast", "stop after the first stage that finds a violation")
    .option(
      "--exhaustive <scope>",
      "the exhaustive stage's scope: every edge of its explored model graph is driven over the wire (a shipped name: quick, default, large; or a file)",
      "quick",
    )
    .option(
      "--shard <i/n>",
      "run only shard i of n of the campaign (deterministic; merge the n certificates with srk merge)",
    )
    .option(
      "--jobs <n>",
      "run the campaign as n shards in parallel processes on this machine, then merge them",
      int("--jobs", 1),
      1,
    )
    .option(
      "--expected-failures <file>",
      "baseline: invariant ids (or stage names) expected to fail; a listed entry that passes fails the run (stale)",
    )
    .action(
      async (o: {
        impl: string;
        seed: number;
        runs: number;
        timeBudget: number;
        requestTimeout: number;
        startupTimeout: number;
        only: InvariantId[];
        out?: string;
        dataDir?: string;
        expectedFailures?: string;
        failFast?: boolean;
        shard?: string;
        jobs: number;
        exhaustive: string;
      }) => {
        const { readBaseline } = await import("../verdicts/baseline.ts");
        const { renderSummary } = await import("./summary.ts");
        const { UsageError } = await import("../driver/command-line.ts");
        const baseline = o.expectedFailures === undefined ? undefined : readBaseline(o.expectedFailures);
        const exhaustiveScope = o.exhaustive;
        {
          // A scope that does not load is the command line's fault: refused before anything starts.
          const { loadScope, ScopeError } = await import("../explore/scope.ts");
          try {
            loadScope(exhaustiveScope);
          } catch (e) {
            if (e instanceof ScopeError) throw new UsageError(`--exhaustive: ${e.message}`);
            throw e;
          }
        }
        if (o.jobs > 1) {
          if (o.shard !== undefined)
            throw new UsageError("--jobs and --shard exclude each other: --jobs runs every shard");
          if (o.dataDir !== undefined)
            throw new UsageError("--jobs and --data-dir exclude each other: each shard needs its own data directories");
          // The children get the same campaign options; each writes its shard, then they are merged.
          const args = [
            "--impl",
            o.impl,
            "--seed",
            String(o.seed),
            "--runs",
            String(o.runs),
            "--time-budget",
            String(o.timeBudget),
            "--request-timeout",
            String(o.requestTimeout),
            "--startup-timeout",
            String(o.startupTimeout),
            ...(o.only.length > 0 ? ["--only", o.only.join(",")] : []),
            ...(o.failFast === true ? ["--fail-fast"] : []),
            "--exhaustive",
            exhaustiveScope,
            ...(o.expectedFailures === undefined ? [] : ["--expected-failures", o.expectedFailures]),
          ];
          // The shards' folder is made before any child has said hello: named from the command line.
          const named = outDirFor(o.impl, o.out);
          const out = typeof named === "string" ? named : named(null);
          prepareOutDir(out);
          const { certifyInJobs } = await import("../shard/jobs.ts");
          const { listenForInterrupts } = await import("./interrupt.ts");
          const interrupt = listenForInterrupts((s) =>
            process.stderr.write(
              `srk: ${s}: passing it on to the shards, which stop and write partial certificates (again to quit at once)\n`,
            ),
          );
          const merged = await certifyInJobs(args, o.jobs, out, undefined, interrupt.signal).finally(() =>
            interrupt.dispose(),
          );
          process.stdout.write(renderSummary(merged.certificate, merged.certificatePath));
          process.exitCode = merged.certificate.exit_code;
          return;
        }
        const { certify } = await import("../certify.ts");
        const { parseShard } = await import("../shard/shard.ts");
        const { streamProgress } = await import("../core/progress.ts");
        const { listenForInterrupts } = await import("./interrupt.ts");
        const progress = streamProgress(process.stderr);
        const interrupt = listenForInterrupts((s) =>
          progress.line(
            `srk: ${s}: stopping the implementation and writing a partial certificate (again to quit at once)`,
          ),
        );
        const result = await certify({
          commandLine: o.impl,
          seed: o.seed,
          runs: o.runs,
          timeBudgetMs: o.timeBudget * 1000,
          requestTimeoutMs: o.requestTimeout,
          startupTimeoutMs: o.startupTimeout,
          only: o.only,
          outDir: outDirFor(o.impl, o.out),
          failFast: o.failFast === true,
          ...(o.shard === undefined ? {} : { shard: parseShard(o.shard) }),
          ...(o.dataDir === undefined ? {} : { dataDir: o.dataDir }),
          ...(baseline === undefined ? {} : { baseline }),
          exhaustiveScope,
          progress,
          signal: interrupt.signal,
        }).finally(() => interrupt.dispose());
        process.stdout.write(renderSummary(result.certificate, result.certificatePath));
        process.exitCode = result.certificate.exit_code;
        interrupt.exitIfInterrupted(result.certificate.exit_code);
      },
    );

  p.command("replay")
    .description(
      "re-run a portable trace (a counterexample from a certificate) on any implementation and say whether it still fails, and where",
    )
    .argument(
      "<trace.json>",
      "the trace file: a portable trace as the certificate's traces/ hold it, or the same trace in ITF (Informal Trace Format, *.itf.json, as srk itf writes it)",
    )
    .addOption(implOption())
    .option(
      "--request-timeout <ms>",
      "time allowed for each reply",
      int("--request-timeout", 1),
      DEFAULTS.requestTimeoutMs,
    )
    .option(
      "--startup-timeout <ms>",
      "time allowed from start to the reply to hello",
      int("--startup-timeout", 1),
      DEFAULTS.startupTimeoutMs,
    )
    .action(async (file: string, o: { impl: string; requestTimeout: number; startupTimeout: number }) => {
      const { readAnyTrace } = await import("../itf/file.ts");
      const { replayTrace } = await import("../replay.ts");
      const { match } = await import("ts-pattern");
      const { interruptible } = await import("./interrupt.ts");
      const trace = readAnyTrace(file);
      const v = await interruptible("replay", (signal) =>
        replayTrace(trace, {
          commandLine: o.impl,
          requestTimeoutMs: o.requestTimeout,
          startupTimeoutMs: o.startupTimeout,
          signal,
        }),
      );
      const r = match(v)
        .with({ kind: "still-fails" }, (x) => ({
          code: 1,
          text: `still fails${x.step > 0 ? ` at step ${x.step}` : ""}: ${x.summary}\n(trace: ${trace.invariant ?? "wire"} ${trace.check}, ${trace.steps.length} steps)\n`,
        }))
        .with({ kind: "passes" }, (x) => ({
          code: 0,
          text: `passes now: all ${x.steps} replies as expected (trace: ${trace.invariant ?? "wire"} ${trace.check})\n`,
        }))
        .with({ kind: "undrivable" }, (x) => ({ code: 2, text: `inconclusive: ${x.reason}\n` }))
        .exhaustive();
      process.stdout.write(r.text);
      process.exitCode = r.code;
    });

  p.command("itf")
    .description(
      "write a portable trace (a counterexample from a certificate's traces/) as ITF, the Informal Trace Format of Apalache ADR-015 that Quint and Apalache tools read; srk replay reads it back",
    )
    .argument("<trace.json>", "the portable trace")
    .option("--out <file>", "where to write it (by convention <name>.itf.json); default: stdout")
    .action(async (file: string, o: { out?: string }) => {
      const { readAnyTrace, writeItfTrace } = await import("../itf/file.ts");
      const { itfOfPortableTrace } = await import("../itf/trace.ts");
      const trace = readAnyTrace(file);
      if (o.out === undefined) process.stdout.write(`${JSON.stringify(itfOfPortableTrace(trace), null, 2)}\n`);
      else writeItfTrace(o.out, trace);
    });

  p.command("explore")
    .description(
      "explore the reference model breadth-first over a finite scope (JSON data: a shipped name or a file), checking the 19 predicates in every state reached and counting every operation and check clause; progress on stderr, the result as explore.json and explore.md",
    )
    .option("--scope <file|name>", "the scope: a file, or a shipped name (quick, default, large)", "default")
    .option(
      "--out <dir>",
      "where to write explore.json, explore.md and, for each predicate violated, its shortest path as a portable trace (traces/explore-<id>.json and .itf.json, for srk replay); default: the Markdown on stdout",
    )
    .action(async (o: { scope: string; out?: string }) => {
      const { UsageError } = await import("../driver/command-line.ts");
      const { explore, exploreJson, exploreMarkdown, loadScope, ScopeError } = await import("../explore/index.ts");
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const { join } = await import("node:path");
      let scope: ReturnType<typeof loadScope>;
      try {
        scope = loadScope(o.scope);
      } catch (e) {
        if (e instanceof ScopeError) throw new UsageError(`--scope: ${e.message}`);
        throw e;
      }
      const r = explore(scope, {
        onProgress: (x) =>
          process.stderr.write(
            `explore ${scope.name}: ${x.states} states generated, ${x.distinct} distinct, depth ${x.depth}, ${x.statesPerSecond} states/s\n`,
          ),
      });
      if (o.out === undefined) process.stdout.write(exploreMarkdown(r));
      else {
        const { writeViolationTraces } = await import("../explore/traces.ts");
        mkdirSync(o.out, { recursive: true });
        const traces = writeViolationTraces(o.out, scope.name, r.violations);
        writeFileSync(join(o.out, "explore.json"), exploreJson(r, traces));
        writeFileSync(join(o.out, "explore.md"), exploreMarkdown(r, traces));
        process.stderr.write(
          `explore: wrote ${join(o.out, "explore.json")} and explore.md${traces.length === 0 ? "" : `, and ${traces.length} trace(s) in ${join(o.out, "traces")}`}\n`,
        );
      }
      process.exitCode = r.violations.length > 0 ? 1 : 0;
    });

  p.command("merge")
    .description(
      "merge the certificates of the shards of one campaign (srk certify --shard i/n) into one certificate, with its reports",
    )
    .argument("<certificate.json...>", "one certificate per shard")
    .requiredOption("--out <dir>", "where to write the merged certificate, traces and reports")
    .action(async (files: string[], o: { out: string }) => {
      const { mergeCertificates } = await import("../shard/merge.ts");
      const { renderSummary } = await import("./summary.ts");
      prepareOutDir(o.out, { clear: false });
      const merged = await mergeCertificates(files, o.out);
      process.stdout.write(renderSummary(merged.certificate, merged.certificatePath));
      process.exitCode = merged.certificate.exit_code;
    });

  p.command("golden")
    .description("replay the golden sessions (conformance/golden/*.jsonl) only: a quick self-check before certifying")
    .addOption(implOption())
    .option(
      "--startup-timeout <ms>",
      "time allowed from start to the reply to hello",
      int("--startup-timeout", 1),
      DEFAULTS.startupTimeoutMs,
    )
    .action(async (o: { impl: string; startupTimeout: number }) => {
      const { runGolden } = await import("./golden.ts");
      const { interruptible } = await import("./interrupt.ts");
      const r = await interruptible("golden", (signal) => runGolden(o.impl, o.startupTimeout, signal));
      process.stdout.write(r.text);
      process.exitCode = r.exitCode;
    });

  p.command("record")
    .description(
      "run an implementation behind a transparent proxy and append every request and reply, timestamped, to a wire log (spec/LOG.md); point your own client or tests at this command instead of the implementation",
    )
    .requiredOption(
      "--impl <command line>",
      "the implementation's command line, run as given (no data directory is added)",
    )
    .requiredOption("--log <file>", "the log to write (never overwritten)")
    .action(async (o: { impl: string; log: string }) => {
      const { record } = await import("../log/record.ts");
      const { readFileSync } = await import("node:fs");
      const { join } = await import("node:path");
      const { KIT_ROOT } = await import("../kit-root.ts");
      const version =
        (JSON.parse(readFileSync(join(KIT_ROOT, "package.json"), "utf8")) as { version?: string }).version ?? "?";
      process.exitCode = await record({ commandLine: o.impl, log: o.log, recorder: `srk record ${version}` });
    });

  p.command("check-log")
    .description(
      "check a wire log (spec/LOG.md) against the reference model: every reply it holds must be the model's; exit 0 consistent, 1 violations, 2 nothing checked",
    )
    .argument("<log>", "the log file (from srk record, or an adapter)")
    .option("--out <dir>", "where the result (check.json) and a portable trace per violation (traces/) go", undefined)
    .option(
      "--unlogged <k>",
      "search for up to k commands the log left out at each seq gap, from --alphabet (spec/LOG.md L-2.4); 0 turns the search off",
      int("--unlogged", 0),
      0,
    )
    .option(
      "--alphabet <file>",
      "with --unlogged: a JSON array of wire commands the unlogged ones are drawn from (tick may be omitted)",
    )
    .option(
      "--search-budget <n>",
      "with --unlogged: model states one search may visit before it gives up",
      int("--search-budget", 1),
    )
    .action(async (file: string, o: { out?: string; unlogged: number; alphabet?: string; searchBudget?: number }) => {
      const { basename, join } = await import("node:path");
      const { mkdirSync } = await import("node:fs");
      const { checkLog, readAlphabet, DEFAULT_SEARCH_BUDGET } = await import("../log/check.ts");
      const { UsageError } = await import("../driver/command-line.ts");
      if (o.unlogged > 0 && o.alphabet === undefined)
        throw new UsageError("--unlogged needs --alphabet <file>: the commands the search may insert");
      if (o.unlogged === 0 && (o.alphabet !== undefined || o.searchBudget !== undefined))
        throw new UsageError("--alphabet and --search-budget need --unlogged <k> with k ≥ 1");
      const search =
        o.alphabet === undefined
          ? null
          : {
              unlogged: o.unlogged,
              alphabet: readAlphabet(o.alphabet),
              budget: o.searchBudget ?? DEFAULT_SEARCH_BUDGET,
            };
      const { renderLogCheck } = await import("../log/render.ts");
      const { traceOfViolation } = await import("../log/trace.ts");
      const { writeJsonAtomic } = await import("../trace/trace.ts");
      const { defaultOutDir } = await import("../reporters/out-dir.ts");
      const c = await checkLog(file, search);
      const dir = o.out ?? defaultOutDir(`check-log-${basename(file).replace(/\.[^.]*$/, "")}`);
      mkdirSync(join(dir, "traces"), { recursive: true });
      writeJsonAtomic(join(dir, "check.json"), c);
      // A trace per violation (the first 8), each read from the log again (trace.ts).
      const traces: string[] = [];
      for (const [k, v] of c.violations.slice(0, 8).entries()) {
        const path = join(dir, "traces", `log-${v.invariant}-${k + 1}.json`);
        writeJsonAtomic(path, await traceOfViolation(file, v, c.search?.explanations ?? []));
        traces.push(path);
      }
      process.stdout.write(renderLogCheck(file, c, traces));
      process.stdout.write(`(result: ${join(dir, "check.json")})\n`);
      process.exitCode = c.exit_code;
    });

  p.command("adapt-log")
    .description(
      "turn an implementation's own event log into a wire log (spec/LOG.md L-3) for srk check-log; adapters: impl-events (the bundled implementation's SRK_IMPL_EVENT_LOG)",
    )
    .argument("<adapter>", "the adapter: impl-events")
    .argument("<event-log>", "the implementation's event log")
    .requiredOption("--out <log>", "the wire log to write (never overwritten)")
    .action(async (adapter: string, file: string, o: { out: string }) => {
      const { UsageError } = await import("../driver/command-line.ts");
      if (adapter !== "impl-events")
        throw new UsageError(`adapt-log: unknown adapter "${adapter}"; the adapters are impl-events`);
      const { adaptImplEvents } = await import("../log/adapters/impl-events.ts");
      const r = await adaptImplEvents(file, o.out);
      process.stdout.write(
        `srk adapt-log impl-events ${file}: ${r.events} event(s), ${r.entries} log entries written to ${o.out}; check it with: npx srk check-log ${o.out}\n`,
      );
    });

  p.command("list")
    .description("list the invariants, the stages and the operations, with what each checks")
    .action(async () => {
      const { renderList } = await import("./list.ts");
      process.stdout.write(renderList());
    });
  return p;
};

export const main = async (argv: readonly string[]): Promise<void> => {
  try {
    await program().parseAsync([...argv], { from: "user" });
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (typeof err.code === "string" && err.code.startsWith("commander.")) {
      // Help and version are successes; anything else commander refused is a usage error.
      process.exitCode =
        err.code === "commander.helpDisplayed" || err.code === "commander.help" || err.code === "commander.version"
          ? 0
          : EXIT_USAGE;
      return;
    }
    // An error of a command comes from modules that command loaded: importing them again is free.
    const [{ UsageError }, { TraceFileError }, { JobFailed }, { LogFileError }] = await Promise.all([
      import("../driver/command-line.ts"),
      import("../trace/trace.ts"),
      import("../shard/jobs.ts"),
      import("../log/lines.ts"),
    ]);
    if (e instanceof UsageError || e instanceof TraceFileError || e instanceof LogFileError) {
      process.stderr.write(`srk: ${e.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    if (e instanceof JobFailed) {
      process.stderr.write(`srk: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(
      `srk: internal error (a bug of the runner, please report it): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exitCode = 70;
  }
};

await main(process.argv.slice(2));
