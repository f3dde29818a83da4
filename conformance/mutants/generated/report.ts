/**
 * reports/mutants-generated.json and .md: the wire kill matrix of the generated mutants. The JSON
 * is the measurement (rows, options, what was drawn, the inputs it was made at); the Markdown is
 * rendered from it and the triage (triage.ts), so an equivalence argued after a run needs no rerun.
 *
 * The figure the goal reads (issue 21: ≥ 95 %) is killed / (killed + survived + inconclusive),
 * survivors argued equivalent left out of both sides: mutants that did not compile or did not
 * start are counted apart and in neither, and the control is never counted.
 */
import type { StageName } from "../../../spec/certificate.ts";
import type { WireOptions, WireRow } from "./certify-one.ts";
import type { GeneratedMutant } from "./source.ts";
import type { Triage } from "./triage.ts";
import { latestRerun, type Rerun } from "./reruns.ts";

export const GENERATED_JSON = "reports/mutants-generated.json";
export const GENERATED_MD = "reports/mutants-generated.md";

/** A mutant as the report keeps it: where, what, and its row. */
export interface ReportRow extends WireRow {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
}

export interface Selection {
  /** "sample": the first `size` compiling mutants of the seeded order; "all": every runnable one; "ids": named on the command line. */
  readonly kind: "sample" | "all" | "ids";
  readonly size: number | null;
  readonly orderSeed: number;
  /** Mutants Stryker's mutators made, those the informative-texts ignorer left out, and those that are run. */
  readonly generated: number;
  readonly ignored: number;
  readonly runnable: number;
  /** Of the runnable ones, in impl/core/ops/ (drawn first). */
  readonly runnableOps: number;
  /** Shards merged into this report (1 when unsharded). */
  readonly shards: number;
}

export interface GeneratedDoc {
  readonly report_version: 1;
  readonly generated_at: string;
  readonly options: WireOptions;
  readonly selection: Selection;
  /** The control of every batch (one per shard): the unmutated implementation, which must certify. */
  readonly controls: readonly WireRow[];
  readonly rows: readonly ReportRow[];
  readonly seconds: number;
  readonly inputs: unknown;
}

export const clip = (s: string, n = 160): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

export const reportRow = (m: GeneratedMutant, r: WireRow): ReportRow => ({
  ...r,
  file: m.file,
  line: m.line,
  column: m.column,
  mutator: m.mutator,
  original: clip(m.original),
  replacement: clip(m.replacement),
});

export interface Counts {
  readonly drawn: number;
  readonly didNotCompile: number;
  readonly didNotStart: number;
  readonly killed: number;
  readonly survived: number;
  readonly equivalent: number;
  readonly inconclusive: number;
  /** Entries of the triage whose mutant was killed: the triage is wrong about them. */
  readonly triageKilled: readonly string[];
  /** killed / (killed + survived not argued equivalent + inconclusive), null when nothing counts. */
  readonly score: number | null;
}

export const countsOf = (rows: readonly ReportRow[], triage: Triage): Counts => {
  const n = (o: WireRow["outcome"]): number => rows.filter((r) => r.outcome === o).length;
  const equivalent = rows.filter((r) => r.outcome === "survived" && Object.hasOwn(triage, r.id)).length;
  const killed = n("killed");
  const survived = n("survived") - equivalent;
  const inconclusive = n("inconclusive");
  const denominator = killed + survived + inconclusive;
  return {
    drawn: rows.length,
    didNotCompile: n("did-not-compile"),
    didNotStart: n("did-not-start"),
    killed,
    survived,
    equivalent,
    inconclusive,
    triageKilled: rows.filter((r) => r.outcome === "killed" && Object.hasOwn(triage, r.id)).map((r) => r.id),
    score: denominator === 0 ? null : killed / denominator,
  };
};

/**
 * The same figure with each survivor and inconclusive row replaced by its latest rerun (reruns.ts),
 * when it has one: what the certification of the later commits makes of the measured run's
 * misses. Only misses are rerun, so a measured kill is assumed to stay a kill (no rerun checks
 * it); the report prints this figure beside the measured one, never in its place, with the commits
 * it mixes.
 */
export interface AfterReruns {
  readonly killed: number;
  readonly survived: number;
  readonly inconclusive: number;
  /** Misses of the measured run that a rerun killed. */
  readonly killedByRerun: number;
  /** The commits whose certification killed them. */
  readonly commits: readonly string[];
  readonly score: number | null;
}

export const countsAfterReruns = (
  rows: readonly ReportRow[],
  triage: Triage,
  reruns: readonly Rerun[],
): AfterReruns => {
  const later = latestRerun(reruns);
  let killed = 0;
  let survived = 0;
  let inconclusive = 0;
  let killedByRerun = 0;
  const commits = new Set<string>();
  for (const r of rows) {
    if (r.outcome === "killed") {
      killed++;
      continue;
    }
    if (r.outcome !== "survived" && r.outcome !== "inconclusive") continue;
    if (r.outcome === "survived" && Object.hasOwn(triage, r.id)) continue;
    const x = later.get(r.id);
    const outcome = x?.row.outcome ?? r.outcome;
    if (outcome === "killed") {
      killed++;
      killedByRerun++;
      commits.add((x as { rerun: Rerun }).rerun.commit);
    } else if (outcome === "inconclusive") inconclusive++;
    else survived++;
  }
  const denominator = killed + survived + inconclusive;
  return {
    killed,
    survived,
    inconclusive,
    killedByRerun,
    commits: [...commits].sort(),
    score: denominator === 0 ? null : killed / denominator,
  };
};

export const GOAL = 0.95;

const pct = (x: number | null): string => (x === null ? "—" : `${(100 * x).toFixed(1)} %`);

const quantile = (xs: readonly number[], q: number): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] ?? null;
};

const code = (s: string): string => `\`${s.replace(/`/g, "ˋ").replace(/\s+/g, " ").replace(/\|/g, "\\|")}\``;

const tally = <K extends string>(xs: readonly K[]): [K, number][] => {
  const m = new Map<K, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
};

export const renderGenerated = (doc: GeneratedDoc, triage: Triage, reruns: readonly Rerun[] = []): string => {
  const c = countsOf(doc.rows, triage);
  const s = doc.selection;
  const o = doc.options;
  const inputs = doc.inputs as { commit?: string; digest?: string } | null;
  const killed = doc.rows.filter((r) => r.outcome === "killed");
  const times = killed.flatMap((r) => (r.secondsToKill === null ? [] : [r.secondsToKill]));
  const lines: string[] = [];
  lines.push("# The wire kill matrix of generated mutants", "");
  lines.push(
    "Generated by `npm run mutants:wire-generated` (conformance/mutants/generated/run.ts); do not edit. Each mutant is one change Stryker's mutators make to",
    "impl/core/ or impl/durable/ (the mutants of `npm run stryker -- impl`, with the same informative-texts ignorer), applied to a copy of the implementation, built",
    "into one module (esbuild, as an implementer ships a build; conformance/mutants/generated/copy.ts) and certified over the wire by `srk certify` with every stage, as a user's implementation is: nobody wrote these mutants knowing what the runner checks.",
    "",
  );
  lines.push(
    `Measured at ${inputs?.commit?.slice(0, 12) ?? "(no commit)"} on ${doc.generated_at} (digest ${inputs?.digest ?? "(none)"}), ${doc.seconds.toFixed(0)} s${s.shards > 1 ? ` over ${s.shards} shards` : ""}.`,
    "",
  );
  lines.push("## What was run", "");
  const what =
    s.kind === "sample"
      ? `**A seeded sample**, not the whole set: the first ${s.size ?? "?"} mutants that compile of an order seeded ${s.orderSeed}, the ${s.runnableOps} mutants of impl/core/ops/ before the rest (conformance/mutants/generated/draw.ts). \`npm run mutants:wire-generated -- --all\` runs every one.`
      : s.kind === "all"
        ? `**Every runnable mutant**, in the order seeded ${s.orderSeed}.`
        : "The mutants named on the command line.";
  lines.push(
    what,
    "",
    `- Stryker's mutators made ${s.generated} mutants; ${s.ignored} are in informative texts (D-032: a rejection's message and path) and are not run; ${s.runnable} are runnable, ${s.runnableOps} of them in impl/core/ops/.`,
    `- Each certification: seed ${o.seed}, ${o.runs} runs, a budget of ${(o.timeBudgetMs / 1000).toFixed(0)} s, stages ${o.stages === undefined ? "all (the default certification)" : o.stages.join(", ")}, stopping at the first stage that finds a violation.`,
    `- The control (the unmutated implementation, run first in every batch with the same settings): ${doc.controls.map((r) => `${r.outcome} in ${r.seconds.toFixed(0)} s`).join("; ")}. A batch whose control does not certify writes nothing.`,
    "",
  );
  lines.push("## Counts", "");
  lines.push("| | mutants |", "|---|---:|");
  lines.push(
    `| drawn | ${c.drawn} |`,
    `| did not compile (TypeScript rejects them; counted apart) | ${c.didNotCompile} |`,
    `| did not start (no handshake; counted apart) | ${c.didNotStart} |`,
    `| **killed** over the wire | **${c.killed}** |`,
    `| survived | ${c.survived} |`,
    `| survived, argued equivalent (conformance/mutants/generated/equivalent.json) | ${c.equivalent} |`,
    `| inconclusive (no violation, no implementation fault) | ${c.inconclusive} |`,
    "",
  );
  lines.push(
    `**Killed: ${pct(c.score)}** of the mutants that count (killed ÷ (killed + survived + inconclusive), equivalents left out of both). Goal ≥ ${pct(GOAL)}: ${c.score === null ? "nothing counted" : c.score >= GOAL ? "met" : "short"}.`,
    "",
  );
  const after = countsAfterReruns(doc.rows, triage, reruns);
  if (after.killedByRerun > 0) {
    lines.push(
      `**After the reruns: ${pct(after.score)}** (${after.killed} killed, ${after.survived} survived, ${after.inconclusive} inconclusive): the same figure with each miss above replaced by its latest rerun (${code("conformance/mutants/generated/reruns.json")}), ${after.killedByRerun} of them killed by the certification of ${after.commits.map((x) => x.slice(0, 12)).join(", ")}. It mixes commits: the kills above were measured at ${inputs?.commit?.slice(0, 12) ?? "(no commit)"} and are not rerun. Goal ≥ ${pct(GOAL)}: ${after.score === null ? "nothing counted" : after.score >= GOAL ? "met" : "short"}.`,
      "",
    );
  }
  if (c.triageKilled.length > 0)
    lines.push(
      `**The triage is wrong about ${c.triageKilled.length}:** ${c.triageKilled.map(code).join(", ")} are argued equivalent but were killed.`,
      "",
    );
  lines.push("## What killed them", "");
  lines.push(
    `Time to kill (from the start of the certification to the end of the stage that found it): median ${quantile(times, 0.5)?.toFixed(1) ?? "—"} s, 90th percentile ${quantile(times, 0.9)?.toFixed(1) ?? "—"} s, longest ${quantile(times, 1)?.toFixed(1) ?? "—"} s.`,
    "",
  );
  lines.push("| stage | killed | median s |", "|---|---:|---:|");
  for (const [stage, n] of tally(killed.map((r) => (r.stage ?? "(fault)") as StageName | "(fault)"))) {
    lines.push(
      `| ${stage} | ${n} | ${
        quantile(
          killed
            .filter((r) => (r.stage ?? "(fault)") === stage)
            .flatMap((r) => (r.secondsToKill === null ? [] : [r.secondsToKill])),
          0.5,
        )?.toFixed(1) ?? "—"
      } |`,
    );
  }
  lines.push("", "| invariant of the first finding | killed |", "|---|---:|");
  for (const [inv, n] of tally(
    killed.map((r) => r.invariant ?? (r.stage === null ? "(implementation fault)" : "(wire finding)")),
  ))
    lines.push(`| ${inv} | ${n} |`);
  lines.push(
    "",
    "| file | drawn | killed | survived | equivalent | did not compile |",
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const [file] of tally(doc.rows.map((r) => r.file)).sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const rs = doc.rows.filter((r) => r.file === file);
    const k = countsOf(rs, triage);
    lines.push(`| ${file} | ${rs.length} | ${k.killed} | ${k.survived} | ${k.equivalent} | ${k.didNotCompile} |`);
  }
  lines.push("", "| mutator | drawn | killed | survived |", "|---|---:|---:|---:|");
  for (const [mut] of tally(doc.rows.map((r) => r.mutator))) {
    const k = countsOf(
      doc.rows.filter((r) => r.mutator === mut),
      triage,
    );
    lines.push(`| ${mut} | ${k.drawn} | ${k.killed} | ${k.survived} |`);
  }
  const survivors = doc.rows.filter((r) => r.outcome === "survived" && !Object.hasOwn(triage, r.id));
  lines.push("", `## Survivors (${survivors.length})`, "");
  if (survivors.length === 0) lines.push("None: every mutant that counts was killed.");
  else {
    const later = latestRerun(reruns);
    const since = survivors.filter((r) => later.get(r.id)?.row.outcome === "killed").length;
    lines.push(
      "Each is a bug `srk certify` certified at the measured commit. Rerun one: `npm run mutants:wire-generated -- <id>`.",
      `The last column is the latest rerun of the survivor after a change (${code("conformance/mutants/generated/reruns.json")}): ${since} of the ${survivors.length} are killed by the certification of a later commit.`,
      "",
      "| mutant | change | rerun after a change |",
      "|---|---|---|",
    );
    for (const r of survivors) {
      const x = later.get(r.id);
      const after =
        x === undefined
          ? "not rerun"
          : x.row.outcome === "killed"
            ? `killed at ${x.rerun.commit.slice(0, 12)} by ${x.row.stage ?? "a fault"}${x.row.check === null ? "" : ` (${x.row.check})`}${x.row.invariant === null ? "" : ` under ${x.row.invariant}`}: ${x.rerun.why}`
            : `${x.row.outcome} at ${x.rerun.commit.slice(0, 12)}`;
      lines.push(`| ${code(r.id)} | ${code(r.original)} → ${code(r.replacement)} | ${after} |`);
    }
  }
  const equivalents = doc.rows.filter((r) => r.outcome === "survived" && Object.hasOwn(triage, r.id));
  lines.push("", `## Argued equivalent (${equivalents.length})`, "");
  if (equivalents.length === 0) lines.push("None.");
  else
    for (const r of equivalents)
      lines.push(`- ${code(r.id)}: ${code(r.original)} → ${code(r.replacement)}. ${triage[r.id]?.argument ?? ""}`);
  const inconclusive = doc.rows.filter((r) => r.outcome === "inconclusive");
  if (inconclusive.length > 0) {
    lines.push("", `## Inconclusive (${inconclusive.length})`, "", "| mutant | change | why |", "|---|---|---|");
    for (const r of inconclusive)
      lines.push(
        `| ${code(r.id)} | ${code(r.original)} → ${code(r.replacement)} | ${clip(r.summary ?? r.fault ?? "", 200)} |`,
      );
  }
  lines.push(
    "",
    `## Killed (${killed.length})`,
    "",
    "| mutant | change | stage | invariant | s | runs | steps | shrink |",
    "|---|---|---|---|---:|---:|---:|---|",
  );
  for (const r of killed) {
    const shrink =
      r.shrink === null
        ? "—"
        : `${r.shrink.originalLength}→${r.steps ?? "?"}${r.shrink.interrupted ? ", cut short" : ""}`;
    lines.push(
      `| ${code(r.id)} | ${code(r.original)} → ${code(r.replacement)} | ${r.stage ?? "fault"} | ${r.invariant ?? (r.stage === null ? clip(r.fault ?? "", 80) : "wire")} | ${r.secondsToKill?.toFixed(1) ?? "—"} | ${r.runsToKill ?? "—"} | ${r.steps ?? "—"} | ${shrink} |`,
    );
  }
  const other = doc.rows.filter((r) => r.outcome === "did-not-compile" || r.outcome === "did-not-start");
  lines.push("", `## Counted apart (${other.length})`, "");
  lines.push(
    "Mutants TypeScript rejects in the mutated file (unused-declaration lints aside: conformance/mutants/generated/compile.ts) and mutants whose implementation never handshook. Neither is a kill.",
    "",
  );
  for (const r of other) lines.push(`- ${code(r.id)} ${r.outcome}: ${clip(r.fault ?? "", 200)}`);
  lines.push("");
  return lines.join("\n");
};
