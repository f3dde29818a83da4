/**
 * reports/stryker.md and reports/stryker.json from Stryker's results and the hand-kept triage.
 *
 * The source of truth is Stryker's own report in mutation-testing-report-schema form, kept as the
 * incremental file of each scope (stryker/incremental-impl.json, stryker/incremental-model.json,
 * committed): it holds every mutant with its status, the source it was made from, and the tests.
 * stryker/triage/<source file>.json says, for every mutant that survived (or that no test covers), why:
 *
 *   (a) a real gap in the checks: the test added to close it is named, and the next run kills it;
 *   (b) equivalent: no observable difference through the spec's interface, with the reason;
 *   (c) outside the spec: informative texts (D-032), logging, diagnostics.
 *
 * A triage entry is keyed without line numbers, so that it survives edits elsewhere in the file:
 * file, mutator, the original text, the replacement, and the trimmed source line the mutant starts
 * on (its context). Fields left out match anything, so one entry can cover a precise group (the
 * same mutator on the same message literal, say). Generation fails, listing them, when a survivor
 * has no entry; an entry that matches no survivor is stale and fails it too.
 *
 * Scores, as Stryker defines them (mutation-testing-metrics):
 *   detected = killed + timeout; undetected = survived + no coverage; valid = detected + undetected
 *   mutation score = detected / valid; score on covered code = detected / (detected + survived)
 * and the goal of issue 10, the score on killable mutants: detected / (valid − (b) − (c)), where
 * (b) and (c) are the triaged survivors that no check may kill. Compile errors (dropped by the
 * TypeScript checker) and ignored mutants (informative texts, stryker/ignore-informative.mjs)
 * are not valid mutants and count in no score.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const SCOPES = ["impl", "model"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The folders each scope mutates, as stryker/impl.config.mjs and stryker/model.config.mjs say
 * (reports/stryker.test.ts checks that they agree): every .ts file under them but tests and the
 * model's test helpers (testkit.ts, fixture.ts). A file listed here that has no results yet is named in the report.
 */
export const MUTATED_FOLDERS: Readonly<Record<Scope, readonly string[]>> = {
  impl: ["impl/core", "impl/durable"],
  model: ["model"],
};
const NOT_MUTATED = (file: string): boolean =>
  file.endsWith(".test.ts") || file === "model/testkit.ts" || file === "model/fixture.ts";

/**
 * Whether a source file has nothing Stryker could mutate: every top-level statement is an import,
 * a re-export (`export … from`) or a type declaration, so it holds no expression of its own (such
 * as model/index.ts). Stryker never reports results for such a file, so it is not "not run yet".
 */
export const nothingToMutate = (source: string): boolean =>
  ts
    .createSourceFile("x.ts", source, ts.ScriptTarget.Latest)
    .statements.every(
      (st) =>
        ts.isImportDeclaration(st) ||
        (ts.isExportDeclaration(st) && st.moduleSpecifier !== undefined) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isInterfaceDeclaration(st),
    );

/** The files a scope mutates, relative to `root`, sorted (without those with nothing to mutate). */
export const mutatedFiles = (root: string, scope: Scope): string[] =>
  MUTATED_FOLDERS[scope]
    .flatMap((d) =>
      readdirSync(join(root, d), { recursive: true, encoding: "utf8" }).map((f) =>
        posix(relative(root, join(root, d, f))),
      ),
    )
    .filter((f) => f.endsWith(".ts") && !NOT_MUTATED(f) && !nothingToMutate(readFileSync(join(root, f), "utf8")))
    .sort();

/** The parts of mutation-testing-report-schema (v2) read here. */
export interface MutantResult {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end: { readonly line: number; readonly column: number };
  };
  readonly status:
    | "Killed"
    | "Survived"
    | "NoCoverage"
    | "CompileError"
    | "RuntimeError"
    | "Timeout"
    | "Ignored"
    | "Pending";
  readonly statusReason?: string;
}
export interface StrykerReport {
  readonly files: Readonly<Record<string, { readonly source: string; readonly mutants: readonly MutantResult[] }>>;
}

export type Category = "a" | "b" | "c";
export interface TriageEntry {
  readonly file: string;
  readonly mutator?: string;
  readonly original?: string;
  readonly replacement?: string;
  readonly context?: string;
  /**
   * Only for twins: two mutants whose file, mutator, texts and context line are all the same (the
   * same statement written twice) but whose triage differs. It ties the entry to one line number,
   * which an edit above it will move; every other entry is keyed without one.
   */
  readonly line?: number;
  readonly category: Category;
  readonly reason: string;
  /** For (a): the test that now kills it, as `path/to/file.test.ts > test name`. */
  readonly test?: string;
}

/** A mutant Stryker did not detect, located without line numbers. */
export interface Survivor {
  readonly file: string;
  readonly line: number;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
  readonly context: string;
  readonly status: "Survived" | "NoCoverage";
  /**
   * What a confirmation run (stryker/confirm-<scope>.json: Stryker again, on the survivors' spans
   * only, after the checks added for them) found for this same mutant; null when it was not re-tested
   * there, or its file's source has changed since.
   */
  readonly retest: MutantResult["status"] | null;
}

export interface Counts {
  total: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  compileError: number;
  runtimeError: number;
  ignored: number;
  pending: number;
}

export interface ScopeSummary {
  readonly scope: Scope;
  readonly counts: Counts;
  readonly byFolder: Readonly<Record<string, Counts>>;
  readonly ignoredReasons: Readonly<Record<string, number>>;
  readonly survivors: readonly Survivor[];
  /** Files the scope mutates that have no results yet (a partial run): not in any score. */
  readonly filesNotRun: readonly string[];
  /** Every detected mutant, located like a survivor: an (a) entry that matches only these is a closed gap. */
  readonly detected: readonly Survivor[];
}

const zero = (): Counts => ({
  total: 0,
  killed: 0,
  timeout: 0,
  survived: 0,
  noCoverage: 0,
  compileError: 0,
  runtimeError: 0,
  ignored: 0,
  pending: 0,
});

const COUNT_KEY: Record<MutantResult["status"], keyof Counts> = {
  Killed: "killed",
  Timeout: "timeout",
  Survived: "survived",
  NoCoverage: "noCoverage",
  CompileError: "compileError",
  RuntimeError: "runtimeError",
  Ignored: "ignored",
  Pending: "pending",
};

/** The text a location spans (lines and columns are 1-based in the schema). */
export const textAt = (source: string, loc: MutantResult["location"]): string => {
  const lines = source.split("\n");
  if (loc.start.line === loc.end.line)
    return (lines[loc.start.line - 1] ?? "").slice(loc.start.column - 1, loc.end.column - 1);
  const first = (lines[loc.start.line - 1] ?? "").slice(loc.start.column - 1);
  const middle = lines.slice(loc.start.line, loc.end.line - 1);
  const last = (lines[loc.end.line - 1] ?? "").slice(0, loc.end.column - 1);
  return [first, ...middle, last].join("\n");
};

/** Long originals (a whole block) are cut: the context line and the mutator already pin them. */
const clipText = (s: string, max = 160): string => (s.length <= max ? s : `${s.slice(0, max)}…`);

/** impl/core/ops/janma.ts -> impl/core/ops */
const folderOf = (file: string): string => file.slice(0, Math.max(0, file.lastIndexOf("/")));

const posix = (file: string): string => file.replaceAll("\\", "/");

/** The same mutant (file, span, mutator, replacement) in a confirmation run made from the same source. */
const retestOf = (
  confirm: StrykerReport | undefined,
  file: string,
  source: string,
  m: MutantResult,
): MutantResult["status"] | null => {
  const f = confirm?.files[file];
  if (f === undefined || f.source !== source) return null;
  const same = (a: MutantResult["location"], b: MutantResult["location"]): boolean =>
    a.start.line === b.start.line &&
    a.start.column === b.start.column &&
    a.end.line === b.end.line &&
    a.end.column === b.end.column;
  return (
    f.mutants.find(
      (x) =>
        same(x.location, m.location) &&
        x.mutatorName === m.mutatorName &&
        (x.replacement ?? "") === (m.replacement ?? ""),
    )?.status ?? null
  );
};

export const summarize = (
  scope: Scope,
  report: StrykerReport,
  files: readonly string[] = [],
  confirm?: StrykerReport,
): ScopeSummary => {
  const counts = zero();
  const byFolder: Record<string, Counts> = {};
  const ignoredReasons: Record<string, number> = {};
  const survivors: Survivor[] = [];
  const detected: Survivor[] = [];
  for (const [rawFile, f] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const file = posix(rawFile);
    const folder = (byFolder[folderOf(file)] ??= zero());
    const lines = f.source.split("\n");
    const mutants = [...f.mutants].sort(
      (a, b) =>
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column ||
        a.mutatorName.localeCompare(b.mutatorName),
    );
    for (const m of mutants) {
      const k = COUNT_KEY[m.status];
      counts[k]++;
      counts.total++;
      folder[k]++;
      folder.total++;
      if (m.status === "Ignored") {
        const reason = m.statusReason ?? "(no reason)";
        ignoredReasons[reason] = (ignoredReasons[reason] ?? 0) + 1;
      }
      if (m.status === "Killed" || m.status === "Timeout") {
        detected.push({
          file,
          line: m.location.start.line,
          mutator: m.mutatorName,
          original: clipText(textAt(f.source, m.location)),
          replacement: clipText(m.replacement ?? ""),
          context: (lines[m.location.start.line - 1] ?? "").trim(),
          status: "Survived",
          retest: null,
        });
      }
      if (m.status === "Survived" || m.status === "NoCoverage") {
        survivors.push({
          file,
          line: m.location.start.line,
          mutator: m.mutatorName,
          original: clipText(textAt(f.source, m.location)),
          replacement: clipText(m.replacement ?? ""),
          context: (lines[m.location.start.line - 1] ?? "").trim(),
          status: m.status,
          retest: retestOf(confirm, rawFile, f.source, m),
        });
      }
    }
  }
  const ran = new Set(Object.keys(report.files).map(posix));
  return {
    scope,
    counts,
    byFolder,
    ignoredReasons,
    survivors,
    filesNotRun: files.filter((f) => !ran.has(f)),
    detected,
  };
};

const matches = (e: TriageEntry, s: Survivor): boolean =>
  e.file === s.file &&
  (e.mutator === undefined || e.mutator === s.mutator) &&
  (e.original === undefined || e.original === s.original) &&
  (e.replacement === undefined || e.replacement === s.replacement) &&
  (e.context === undefined || e.context === s.context) &&
  (e.line === undefined || e.line === s.line);

/** The first triage entry for each survivor (null when none), and the entries that matched nothing. */
export const triageOf = (
  survivors: readonly Survivor[],
  triage: readonly TriageEntry[],
): { readonly verdicts: readonly (TriageEntry | null)[]; readonly stale: readonly TriageEntry[] } => {
  const used = new Set<TriageEntry>();
  const verdicts = survivors.map((s) => {
    const e = triage.find((t) => matches(t, s)) ?? null;
    if (e !== null) used.add(e);
    return e;
  });
  return { verdicts, stale: triage.filter((t) => !used.has(t)) };
};

export interface Scores {
  readonly detected: number;
  readonly valid: number;
  /** Stryker's mutation score: detected / valid. */
  readonly mutationScore: number | null;
  /** Stryker's score based on covered code: detected / (detected + survived). */
  readonly coveredScore: number | null;
  /** Survivors triaged (b) or (c): not killable through the spec's interface. */
  readonly notKillable: number;
  /** Issue 10's goal: detected / (valid - notKillable). */
  readonly killableScore: number | null;
  /** Survivors (all triaged (a)) that the confirmation run detected. */
  readonly confirmed: number;
  /** The same goal counting what the confirmation run detected: (detected + confirmed) / (valid - notKillable). */
  readonly killableScoreConfirmed: number | null;
}

const pct = (n: number, d: number): number | null => (d === 0 ? null : Math.round((10_000 * n) / d) / 100);

export const scoresOf = (c: Counts, notKillable: number, confirmed = 0): Scores => {
  const detected = c.killed + c.timeout;
  const valid = detected + c.survived + c.noCoverage;
  return {
    detected,
    valid,
    mutationScore: pct(detected, valid),
    coveredScore: pct(detected, detected + c.survived),
    notKillable,
    killableScore: pct(detected, valid - notKillable),
    confirmed,
    killableScoreConfirmed: pct(detected + confirmed, valid - notKillable),
  };
};

const isDetected = (status: MutantResult["status"] | null): boolean => status === "Killed" || status === "Timeout";

export interface RunRecord {
  readonly scope: Scope;
  readonly date: string;
  readonly seconds: number;
  readonly command: string;
  readonly concurrency: number;
}

/** What a confirmation run (stryker/confirm-<scope>.json) re-tested among the survivors, by triage. */
export interface Retested {
  /** Survivors triaged (a) that it re-tested (`Scores.confirmed` of them were detected). */
  readonly a: number;
  /** Survivors triaged (b) or (c) that it re-tested because they share an (a) survivor's span, and what they did. */
  readonly notKillable: number;
  readonly notKillableSurvived: number;
  readonly notKillableTimeout: number;
}

export interface Summary {
  readonly generatedFrom: readonly string[];
  /** Scopes with no results yet (no incremental file): `npm run stryker -- <scope>` makes them. */
  readonly notRun: readonly Scope[];
  readonly scopes: readonly (ScopeSummary & {
    readonly scores: Scores;
    readonly byFolderScores: Readonly<Record<string, Scores>>;
    readonly triaged: Readonly<Record<Category, number>>;
    readonly survivorTriage: readonly {
      readonly category: Category;
      readonly reason: string;
      readonly test?: string;
    }[];
    readonly closedGaps: readonly TriageEntry[];
    readonly retested: Retested;
  })[];
  readonly runs: readonly RunRecord[];
}

/** Builds the summary; throws listing every untriaged survivor and every stale triage entry. */
export const buildSummary = (
  reports: ReadonlyMap<Scope, StrykerReport>,
  triage: readonly TriageEntry[],
  runs: readonly RunRecord[],
  files: Partial<Record<Scope, readonly string[]>> = {},
  confirms: ReadonlyMap<Scope, StrykerReport> = new Map(),
): Summary => {
  const problems: string[] = [];
  const used = new Set<TriageEntry>();
  const scopes = [...reports].map(([scope, report]) => {
    const s = summarize(scope, report, files[scope] ?? [], confirms.get(scope));
    const inScope = triage.filter((t) => t.file.startsWith(`${scope}/`));
    const { verdicts, stale } = triageOf(s.survivors, inScope);
    inScope.filter((t) => !stale.includes(t)).forEach((t) => used.add(t));
    const triaged: Record<Category, number> = { a: 0, b: 0, c: 0 };
    const notKillableByFolder: Record<string, number> = {};
    const confirmedByFolder: Record<string, number> = {};
    verdicts.forEach((v, i) => {
      const sv = s.survivors[i]!;
      if (v === null) {
        problems.push(
          `untriaged survivor: ${JSON.stringify({ file: sv.file, mutator: sv.mutator, original: sv.original, replacement: sv.replacement, context: sv.context })} (line ${sv.line}, ${sv.status})`,
        );
        return;
      }
      triaged[v.category]++;
      if (v.category !== "a")
        notKillableByFolder[folderOf(sv.file)] = (notKillableByFolder[folderOf(sv.file)] ?? 0) + 1;
      // A mutant triaged as unkillable that a check now kills was triaged wrong.
      // Killed only: a timeout can be the machine's load rather than the mutant (it counts as detected for (a)).
      if (v.category !== "a" && sv.retest === "Killed")
        problems.push(
          `survivor triaged (${v.category}) but killed by the confirmation run: ${JSON.stringify({ file: sv.file, line: sv.line, mutator: sv.mutator, replacement: sv.replacement })}`,
        );
      if (v.category === "a" && isDetected(sv.retest))
        confirmedByFolder[folderOf(sv.file)] = (confirmedByFolder[folderOf(sv.file)] ?? 0) + 1;
    });
    const byFolderScores = Object.fromEntries(
      Object.entries(s.byFolder).map(([folder, c]) => [
        folder,
        scoresOf(c, notKillableByFolder[folder] ?? 0, confirmedByFolder[folder] ?? 0),
      ]),
    );
    const survivorTriage = verdicts.map((v) =>
      v === null
        ? { category: "a" as Category, reason: "UNTRIAGED" }
        : { category: v.category, reason: v.reason, ...(v.test === undefined ? {} : { test: v.test }) },
    );
    // An (a) entry whose mutants are all killed now is a closed gap: the report keeps it as such.
    const closedGaps = stale.filter((t) => t.category === "a" && s.detected.some((d) => matches(t, d)));
    closedGaps.forEach((t) => used.add(t));
    const confirmed = Object.values(confirmedByFolder).reduce((a, b) => a + b, 0);
    const again = s.survivors.filter(
      (sv, i) => sv.retest !== null && verdicts[i] !== null && verdicts[i]!.category !== "a",
    );
    const retested: Retested = {
      a: s.survivors.filter((sv, i) => sv.retest !== null && verdicts[i]?.category === "a").length,
      notKillable: again.length,
      notKillableSurvived: again.filter((sv) => sv.retest === "Survived").length,
      notKillableTimeout: again.filter((sv) => sv.retest === "Timeout").length,
    };
    return {
      ...s,
      detected: [],
      scores: scoresOf(s.counts, triaged.b + triaged.c, confirmed),
      byFolderScores,
      triaged,
      survivorTriage,
      closedGaps,
      retested,
    };
  });
  // A triage entry is stale when no scope that was reported has a survivor it matches.
  for (const t of triage) {
    const scope = SCOPES.find((sc) => t.file.startsWith(`${sc}/`));
    if (scope === undefined) problems.push(`triage entry outside impl/ and model/: ${JSON.stringify(t)}`);
    else if (reports.has(scope) && !used.has(t))
      problems.push(`stale triage entry (matches no survivor): ${JSON.stringify(t)}`);
    if (t.category === "a" && (t.test === undefined || t.test === ""))
      problems.push(`triage entry (a) names no test: ${JSON.stringify(t)}`);
  }
  if (problems.length > 0)
    throw new Error(`the triage (stryker/triage/) does not fit the results:\n${problems.join("\n")}`);
  return {
    generatedFrom: [
      ...[...reports.keys()].map(incrementalFile),
      ...[...confirms.keys()].filter((sc) => reports.has(sc)).map(confirmFile),
    ],
    notRun: SCOPES.filter((sc) => !reports.has(sc)),
    scopes,
    runs,
  };
};

export const incrementalFile = (scope: Scope): string => `stryker/incremental-${scope}.json`;
/**
 * Stryker's JSON report of a confirmation run: after the checks for the survivors triaged (a) were
 * added, Stryker again on those survivors' spans only (`--mutate file:line:col-line:col,…`; a full
 * incremental rerun retests every mutant whose covering test file changed, which is nearly all).
 */
export const confirmFile = (scope: Scope): string => `stryker/confirm-${scope}.json`;

const fmt = (n: number | null): string => (n === null ? "n/a" : `${n.toFixed(2)} %`);

const CATEGORY_TITLE: Record<Category, string> = {
  a: "(a) a gap in the checks, closed in this repository (still counted as survivors until `npm run stryker` re-tests them)",
  b: "(b) equivalent: no observable difference through the spec's interface",
  c: "(c) outside the spec",
};

const RETEST_WORD: Record<MutantResult["status"], string> = {
  Killed: "killed",
  Timeout: "timeout (detected)",
  Survived: "**survived**",
  NoCoverage: "**no coverage**",
  CompileError: "compile error",
  RuntimeError: "runtime error",
  Ignored: "ignored",
  Pending: "pending",
};

const esc = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", "⏎");
const code = (s: string): string => (s === "" ? "(empty)" : `\`${esc(s).replaceAll("`", "ˋ")}\``);

/** reports/stryker.md: a pure function of the summary. */
export const renderMarkdown = (summary: Summary): string => {
  const out: string[] = [
    "# Mutation testing with Stryker",
    "",
    "Generated by `npm run stryker` (stryker/run.ts → stryker/report.ts) from Stryker's own results,",
    `${summary.generatedFrom.map((f) => `\`${f}\``).join(" and ")}, and the triage in \`stryker/triage/\`. Do not edit by hand.`,
    "",
    "Stryker (`@stryker-mutator/core` with its vitest runner and TypeScript checker, `stryker/base.mjs`) makes",
    "small changes to the code (mutants) and runs the fast in-process checks of `stryker/vitest.config.ts` on each:",
    "the golden sessions, the model-versus-implementation differential property at a fixed seed, and the unit",
    "and store tests (for the model: its own tests and properties). A mutant is *killed* when a check fails.",
    "",
    "Scores, as Stryker defines them: *detected* = killed + timed out; *valid* = detected + survived + no coverage;",
    "**mutation score** = detected / valid (mutants no test reaches count against it); **score on covered code** =",
    "detected / (detected + survived); **score on killable mutants** (the goal of issue 10, ≥ 85 % for `impl/`) =",
    "detected / (valid − survivors triaged (b) equivalent or (c) outside the spec). Compile errors (mutants the",
    "TypeScript checker rejects) and ignored mutants (informative texts, `stryker/ignore-informative.mjs`) count in",
    "no score.",
    "",
  ];
  for (const s of summary.scopes) {
    const c = s.counts;
    out.push(`## \`${s.scope}/\``, "");
    out.push(
      "| mutants | killed | timeout | survived | no coverage | compile error | runtime error | ignored (c) | mutation score | score on covered code | score on killable mutants |",
    );
    out.push("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    out.push(
      `| ${c.total} | ${c.killed} | ${c.timeout} | ${c.survived} | ${c.noCoverage} | ${c.compileError} | ${c.runtimeError} | ${c.ignored} | ${fmt(s.scores.mutationScore)} | ${fmt(s.scores.coveredScore)} | **${fmt(s.scores.killableScore)}** |`,
    );
    out.push("", "Per folder:", "");
    out.push(
      "| folder | mutants | killed | timeout | survived | no coverage | compile error | ignored | mutation score | score on killable mutants |",
    );
    out.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const [folder, fc] of Object.entries(s.byFolder)) {
      const sc = s.byFolderScores[folder]!;
      out.push(
        `| \`${folder}/\` | ${fc.total} | ${fc.killed} | ${fc.timeout} | ${fc.survived} | ${fc.noCoverage} | ${fc.compileError} | ${fc.ignored} | ${fmt(sc.mutationScore)} | ${fmt(sc.killableScore)} |`,
      );
    }
    if (s.filesNotRun.length > 0) {
      out.push(
        "",
        `**Partial:** ${s.filesNotRun.length} file(s) of \`${s.scope}/\` have no results yet and are in none of these numbers (\`npm run stryker -- ${s.scope}\` runs them; a file Stryker finds nothing to mutate in, such as a list of re-exports, never has results): ${s.filesNotRun.map((f) => `\`${f}\``).join(", ")}.`,
      );
    }
    out.push("", `Survivors: ${s.survivors.length} — (a) ${s.triaged.a}, (b) ${s.triaged.b}, (c) ${s.triaged.c}.`, "");
    if (s.survivors.some((sv) => sv.retest !== null)) {
      const r = s.retested;
      out.push(
        `Confirmation run (\`${confirmFile(s.scope)}\`): Stryker re-tested ${r.a} of the ${s.triaged.a} survivors triaged (a) after the checks for them were added, and detected ${s.scores.confirmed}; ` +
          `the others were not re-tested in it. It also re-tested ${r.notKillable} survivors triaged (b) or (c) that share those spans: ${r.notKillableSurvived} survived again, ${r.notKillableTimeout} timed out on a loaded machine (a timeout is not a kill: none was killed). ` +
          `Counting the detected (a) survivors, the **score on killable mutants is ${fmt(s.scores.killableScoreConfirmed)}** (the numbers above are the full run's).`,
        "",
      );
    }
    if (Object.keys(s.ignoredReasons).length > 0) {
      out.push("Ignored before running (category (c) by construction):", "");
      for (const [reason, n] of Object.entries(s.ignoredReasons).sort()) out.push(`- ${n} × ${esc(reason)}`);
      out.push("");
    }
    for (const cat of ["a", "b", "c"] as const) {
      const rows = s.survivors.map((sv, i) => ({ sv, t: s.survivorTriage[i]! })).filter(({ t }) => t.category === cat);
      if (rows.length === 0) continue;
      out.push(`### ${CATEGORY_TITLE[cat]} — ${rows.length}`, "");
      out.push(
        cat === "a"
          ? "| where | mutator | original → replacement | why | killed now by | confirmation run |"
          : "| where | mutator | original → replacement | why |",
      );
      out.push(cat === "a" ? "| --- | --- | --- | --- | --- | --- |" : "| --- | --- | --- | --- |");
      for (const { sv, t } of rows) {
        const where = `\`${sv.file}:${sv.line}\`${sv.status === "NoCoverage" ? " (no coverage)" : ""}`;
        const cells = [where, sv.mutator, `${code(sv.original)} → ${code(sv.replacement)}`, esc(t.reason)];
        if (cat === "a") cells.push(esc(t.test ?? ""), sv.retest === null ? "not re-tested" : RETEST_WORD[sv.retest]);
        out.push(`| ${cells.join(" | ")} |`);
      }
      out.push("");
    }
  }
  for (const scope of summary.notRun)
    out.push(
      `## \`${scope}/\``,
      "",
      `Not run yet: \`npm run stryker -- ${scope}\` makes \`${incrementalFile(scope)}\`.`,
      "",
    );
  for (const s of summary.scopes.filter((x) => x.closedGaps.length > 0)) {
    out.push(
      `## \`${s.scope}/\`: gaps closed — survivors of earlier runs that the checks added for them now kill`,
      "",
      "| file | mutants | why they survived | killed now by |",
      "| --- | --- | --- | --- |",
    );
    for (const t of s.closedGaps)
      out.push(
        `| \`${t.file}\` | ${esc([t.mutator, t.context === undefined ? undefined : code(t.context)].filter((x) => x !== undefined).join(" on ") || "all")} | ${esc(t.reason)} | ${esc(t.test ?? "")} |`,
      );
    out.push("");
  }
  if (summary.runs.length > 0) {
    out.push(
      "## Runs",
      "",
      "Wall-clock time of the recorded `npm run stryker` runs (incremental runs reuse every result whose code and tests did not change).",
      "",
    );
    out.push("| scope | date | seconds | concurrency | command |", "| --- | --- | ---: | ---: | --- |");
    for (const r of summary.runs)
      out.push(`| ${r.scope} | ${r.date} | ${r.seconds} | ${r.concurrency} | \`${esc(r.command)}\` |`);
    out.push("");
  }
  return out.join("\n");
};

export const README_START = "<!-- stryker:start -->";
export const README_END = "<!-- stryker:end -->";

/** The README's lines between the stryker markers: the scores per scope and where the rest is. */
export const renderReadmeBlock = (summary: Summary): string => {
  const out = [
    "| scope | mutants | killed + timeout | survived + no coverage | mutation score | score on covered code | score on killable mutants | survivors (a) / (b) / (c) |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const s of summary.scopes) {
    const c = s.counts;
    const partial = s.filesNotRun.length > 0 ? ` (partial: ${s.filesNotRun.length} files not run yet)` : "";
    const confirmed = s.survivors.some((sv) => sv.retest !== null)
      ? `; ${fmt(s.scores.killableScoreConfirmed)} counting the ${s.scores.confirmed} (a) survivors the confirmation run detected`
      : "";
    out.push(
      `| \`${s.scope}/\`${partial} | ${c.total} | ${s.scores.detected} | ${c.survived + c.noCoverage} | ${fmt(s.scores.mutationScore)} | ${fmt(s.scores.coveredScore)} | ${fmt(s.scores.killableScore)}${confirmed} | ${s.triaged.a} / ${s.triaged.b} / ${s.triaged.c} |`,
    );
  }
  for (const scope of summary.notRun) out.push(`| \`${scope}/\` | not run yet | | | | | | |`);
  return out.join("\n");
};

/** README.md with the block between the markers replaced. */
export const spliceReadme = (readme: string, block: string): string => {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${README_START} … ${README_END} block`);
  return `${readme.slice(0, a + README_START.length)}\n${block}\n${readme.slice(b)}`;
};

export const readJson = <T>(root: string, file: string): T => JSON.parse(readFileSync(join(root, file), "utf8")) as T;

export const RUNS_FILE = "stryker/runs.json";
/**
 * The triage, one file per mutated source file: stryker/triage/<path of the source>.json holds
 * `{ "entries": [...] }` for that file only (so triage of different files never collides).
 */
export const TRIAGE_DIR = "stryker/triage";
export const triageFileOf = (source: string): string => `${TRIAGE_DIR}/${source.replace(/\.ts$/, ".json")}`;

/** Every triage entry under `root`; throws when an entry sits in another source file's triage file. */
export const readTriage = (root: string): TriageEntry[] => {
  const dir = join(root, TRIAGE_DIR);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => posix(join(TRIAGE_DIR, f)))
    .sort();
  return files.flatMap((file) => {
    const entries = readJson<{ readonly entries: readonly TriageEntry[] }>(root, file).entries;
    for (const t of entries)
      if (triageFileOf(t.file) !== file)
        throw new Error(`${file}: entry for ${t.file} belongs in ${triageFileOf(t.file)}`);
    return entries;
  });
};
export const SUMMARY_FILE = "reports/stryker.json";
export const MARKDOWN_FILE = "reports/stryker.md";

/** The summary and markdown from the committed files under `root` (throws on a triage mismatch). */
export const generate = (
  root: string,
): { readonly summary: Summary; readonly markdown: string; readonly json: string; readonly readme: string } => {
  const ran = SCOPES.filter((s) => existsSync(join(root, incrementalFile(s))));
  const reports = new Map<Scope, StrykerReport>(ran.map((s) => [s, readJson<StrykerReport>(root, incrementalFile(s))]));
  const triage = readTriage(root);
  const confirms = new Map<Scope, StrykerReport>(
    ran
      .filter((s) => existsSync(join(root, confirmFile(s))))
      .map((s) => [s, readJson<StrykerReport>(root, confirmFile(s))]),
  );
  const runs = readJson<{ readonly runs: readonly RunRecord[] }>(root, RUNS_FILE).runs;
  const summary = buildSummary(
    reports,
    triage,
    runs,
    Object.fromEntries(ran.map((s) => [s, mutatedFiles(root, s)])),
    confirms,
  );
  const readme = spliceReadme(readFileSync(join(root, "README.md"), "utf8"), renderReadmeBlock(summary));
  return { summary, markdown: renderMarkdown(summary), json: `${JSON.stringify(summary, null, 2)}\n`, readme };
};

export const writeReports = (root: string): Summary => {
  const { summary, markdown, json, readme } = generate(root);
  writeFileSync(join(root, SUMMARY_FILE), json);
  writeFileSync(join(root, MARKDOWN_FILE), markdown);
  writeFileSync(join(root, "README.md"), readme);
  return summary;
};
