/**
 * `report.md`: the certificate as a person reads it in a pull request — the result, the run's
 * facts, the verdict table (19 rows), the stages, the transitions covered, and each counterexample
 * as a short story (what agreed, the step that diverged, expected vs actual, the first difference,
 * the replay command). Every string that comes from the implementation under test is escaped.
 */
import type { Certificate, CounterexampleRef, PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { showEdgeCoverage } from "../oracle/abstract-edges.ts";
import { MACHINES } from "../oracle/transitions.ts";
import { countsText, describeResult } from "../verdicts/decide.ts";
import {
  counterexamples,
  decidedBy,
  divergence,
  counterexamplesOf,
  failingIndex,
  invariantName,
  isTrace,
  replyLabel,
  requestLabel,
  seconds,
  totalWitnesses,
  traceOf,
  type ReportInput,
} from "./common.ts";
import { valueAt, firstDifferenceOf, bracketedPath } from "../../properties/json-diff.ts";

/** Plain text in Markdown (a table cell or a line): no HTML, no emphasis, no table breaks. */
export const mdText = (s: string): string =>
  s
    .replace(/\r?\n/g, " ")
    .replace(/[\\`*_[\]#|~]/g, (c) => `\\${c}`)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");

const longestRun = (s: string, ch: string): number => {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
};

/** An inline code span that survives any content (and table cells: `|` escaped). */
export const mdCode = (s: string): string => {
  const one = s.replace(/\r?\n/g, " ").replaceAll("|", "\\|");
  const fence = "`".repeat(longestRun(one, "`") + 1);
  const pad = one.startsWith("`") || one.endsWith("`") ? " " : "";
  return `${fence}${pad}${one}${pad}${fence}`;
};

/** A fenced code block that no content can close early. */
export const mdBlock = (s: string, lang = ""): string => {
  const fence = "`".repeat(Math.max(3, longestRun(s, "`") + 1));
  return `${fence}${lang}\n${s}\n${fence}`;
};

const json = (v: unknown): string => JSON.stringify(v) ?? "undefined";

const opsOf = (steps: readonly TraceStep[]): string => {
  const counts = new Map<string, number>();
  for (const s of steps) {
    const l = requestLabel(s.request).replace(/ \(.*\)$/, "");
    counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  return [...counts].map(([l, n]) => `${l} ×${n}`).join(", ");
};

/** One counterexample as a short story. */
export const story = (input: ReportInput, ref: CounterexampleRef, title: string): string[] => {
  const out = [`### ${title}`, "", mdText(ref.summary), ""];
  out.push(
    `- stage ${mdCode(ref.stage)}, check ${mdCode(ref.check)}${ref.trace_file === null ? "" : `, trace ${mdCode(ref.trace_file)}`}`,
  );
  const t = traceOf(input, ref);
  if (t === null) {
    out.push("- no trace: this failure is not a sequence of requests (see the summary)");
  } else if (!isTrace(t)) {
    out.push(`- the trace could not be read: ${mdText(t.error)}`);
  } else {
    out.push(...traceStory(t));
  }
  if (ref.replay !== null) out.push("", "Replay it on any implementation:", "", mdBlock(ref.replay, "sh"));
  out.push("");
  return out;
};

const traceStory = (t: PortableTrace): string[] => {
  const out: string[] = [];
  const facts = [
    t.seed === null ? null : `seed ${t.seed}`,
    t.path === null ? null : `path ${mdCode(t.path)}`,
    t.shrink === null
      ? null
      : `shrunk from ${t.shrink.original_length} to ${t.steps.length} step(s) in ${t.shrink.attempts} attempt(s)${t.shrink.interrupted ? " (interrupted)" : ""}`,
  ].filter((x) => x !== null);
  if (facts.length > 0) out.push(`- ${facts.join("; ")}`);
  out.push("");
  const i = failingIndex(t);
  const agreed = t.steps.slice(0, i);
  const shown = 2;
  let n = 1;
  if (agreed.length > shown) {
    out.push(
      `${n++}. Steps 1–${agreed.length - shown}: the implementation answered as the model did (${mdText(opsOf(agreed.slice(0, agreed.length - shown)))}).`,
    );
  }
  agreed.slice(Math.max(0, agreed.length - shown)).forEach((s, k) => {
    const index = Math.max(0, agreed.length - shown) + k + 1;
    out.push(
      `${n++}. Step ${index}, ${mdCode(requestLabel(s.request))}: ${mdText(replyLabel(s.expected))}, as expected.`,
    );
  });
  const step = t.steps[i];
  if (step === undefined) return out;
  out.push(`${n}. **Step ${i + 1}, ${mdCode(requestLabel(step.request))}: ${mdText(divergence(step))}.**`);
  const p = firstDifferenceOf(step.expected, step.actual)?.path ?? null;
  if (p !== null)
    out.push(
      `   First difference at ${mdCode(bracketedPath(p))}: expected ${mdCode(json(valueAt(step.expected, p)))}, actual ${mdCode(json(valueAt(step.actual, p)))}.`,
    );
  if (t.difference !== null) out.push(`   The runner's diagnosis: ${mdCode(t.difference)}.`);
  out.push(
    "",
    "Request:",
    "",
    mdBlock(JSON.stringify(step.request, null, 2), "json"),
    "",
    "Expected (the reference model):",
    "",
    mdBlock(JSON.stringify(step.expected, null, 2), "json"),
  );
  out.push("", "Actual (the implementation):", "", mdBlock(JSON.stringify(step.actual, null, 2), "json"));
  return out;
};

const factsTable = (c: Certificate): string[] => {
  const prof = c.implementation.profile;
  const rows: [string, string][] = [
    [
      "implementation",
      `${mdText(c.implementation.name ?? "(no handshake)")} ${mdText(c.implementation.version ?? "")}`.trim(),
    ],
    ["command line", mdCode(c.implementation.command_line)],
    [
      "profile",
      prof === null
        ? "unknown"
        : `${prof.families.join(", ") || "no family"}; crash hook ${prof.crash_hook ? "yes" : "no"}`,
    ],
    ["protocol version", c.protocol_version === null ? "none agreed" : mdText(c.protocol_version)],
    ["seed", String(c.settings.seed)],
    ["runs", String(c.settings.runs)],
    ["time budget", seconds(c.settings.time_budget_ms)],
    ["request timeout", seconds(c.settings.request_timeout_ms)],
    ["only", c.settings.only.length === 0 ? "all invariants" : c.settings.only.join(", ")],
    ["stages", c.settings.stages.join(", ")],
    ["started", mdText(c.started_at)],
    ["duration", seconds(c.duration_ms)],
    ["kit", `${mdText(c.kit.name)} ${mdText(c.kit.version)}`],
    ["spec digest", mdCode(c.kit.spec_digest)],
  ];
  return ["| | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)];
};

export const renderMarkdown = (input: ReportInput): string => {
  const c = input.certificate;
  const all = counterexamples(c);
  const out: string[] = [];
  out.push(
    `# srk certify — ${mdText(`${c.implementation.name ?? "(no handshake)"} ${c.implementation.version ?? ""}`.trim())}`,
    "",
  );
  // The result and its reason are worded by conformance/verdicts/decide.ts from the same facts it decides the result from.
  const head = `${c.result} (exit ${c.exit_code})`;
  out.push(`**Result: ${head}**${mdText(describeResult(c).slice(head.length))}`, "", `Counts: ${countsText(c)}.`, "");
  out.push(...factsTable(c), "");

  out.push("## Verdicts", "");
  // The last column says what decided the verdict (the same words as report.html): a pass's reason in
  // the certificate is its witness count, which the columns before it already show.
  out.push(
    "| invariant | name | family | verdict | accepted | rejected | crash cuts | algebra | forgetting | what decided it |",
  );
  out.push("|---|---|---|---|--:|--:|--:|--:|--:|---|");
  for (const v of c.invariants) {
    const w = v.witnesses;
    const cx = counterexamplesOf(all, v)
      .map((x) => `[#${x.n}](#counterexample-${x.n})`)
      .join(" ");
    const verdict = `${v.verdict === "fail" ? "**fail**" : v.verdict}${v.expected_failure ? " (expected)" : ""}`;
    out.push(
      `| ${v.invariant} | ${mdText(invariantName(v.invariant))} | ${v.family} | ${verdict} | ${w.accepted} | ${w.rejected} | ${w.crash_cuts} | ${w.algebra} | ${w.forgetting} | ${mdText(decidedBy(c, v))}${cx === "" ? "" : ` ${cx}`} |`,
    );
  }
  out.push("", `Witnesses in all: ${c.invariants.reduce((a, v) => a + totalWitnesses(v), 0)}.`, "");

  out.push("## Stages", "", "| stage | verdict | checks | time | reason |", "|---|---|--:|--:|---|");
  for (const s of c.stages)
    out.push(`| ${s.stage} | ${s.verdict} | ${s.checks} | ${seconds(s.duration_ms)} | ${mdText(s.reason)} |`);
  out.push("");

  out.push("## Transitions covered", "");
  const transitions = c.coverage?.transitions ?? [];
  if (c.coverage === undefined)
    out.push("This certificate records no transition coverage (written by an older runner).", "");
  for (const m of MACHINES) {
    const mine = transitions.filter((t) => t.machine === m.machine);
    const edges = m.edges.flatMap((e) => e.ops.map((op) => ({ from: e.from, to: e.to, op })));
    const covered = edges.filter((e) => mine.some((t) => t.from === e.from && t.to === e.to && t.op === e.op)).length;
    out.push(`${m.title}: ${covered} of ${edges.length} transitions driven.`, "");
    if (mine.length > 0) {
      out.push("| from | to | op | count |", "|---|---|---|--:|");
      for (const t of mine) out.push(`| ${t.from} | ${t.to} | ${mdCode(t.op)} | ${t.count} |`);
      out.push("");
    }
  }

  const edges = c.coverage?.edges;
  if (edges !== undefined) {
    out.push(
      "## Reachable behaviour covered by the differential campaign",
      "",
      `The differential campaign's runs made ${showEdgeCoverage(edges)} of scope ${mdCode(edges.scope)}: the scope's graph, explored exhaustively with the profile's operations, abstracted to (state shape, operation, outcome) edges (D-075). The exhaustive stage drives every one of them.` +
        (edges.unguided === undefined
          ? ""
          : ` Its runs were chosen for the edges they add (coverage guidance, planned in the model); the same seed's runs without guidance would make ${edges.unguided} of them.`),
      "",
    );
  }

  out.push("## Counterexamples", "");
  if (all.length === 0) out.push("None: no stage found a violation.", "");
  for (const x of all) {
    const who = x.ref.invariant === null ? "wire protocol" : `${x.ref.invariant} ${invariantName(x.ref.invariant)}`;
    out.push(`<a id="counterexample-${x.n}"></a>`, "");
    out.push(...story(input, x.ref, `${x.n}. ${mdText(who)} — ${mdText(x.ref.check)}`));
  }

  if (c.baseline.file !== null || c.baseline.stale.length > 0) {
    out.push("## Baseline", "", `- file: ${c.baseline.file === null ? "none" : mdCode(c.baseline.file)}`);
    out.push(
      `- expected failures: ${c.baseline.expected.join(", ") || "none"}`,
      `- unexpected failures: ${c.baseline.unexpected_failures.join(", ") || "none"}`,
    );
    out.push(`- stale (they pass now; remove them): ${c.baseline.stale.join(", ") || "none"}`, "");
  }
  if (c.implementation_faults.length > 0) {
    out.push("## Implementation faults", "", ...c.implementation_faults.map((f) => mdBlock(f)), "");
  }
  if (c.harness_faults.length > 0) {
    out.push("## Harness faults (bugs of the runner)", "", ...c.harness_faults.map((f) => mdBlock(f)), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
};
