/**
 * `report.html`: one self-contained page (inline CSS, inline SVG, one inline script; no network,
 * no external asset — a Content-Security-Policy says so to the browser too, and allows only the
 * page's own script by its hash). It shows the result; the run's profile, seeds, durations and
 * spec digest; the verdict table (19 rows: each invariant linked to its documentation (doc-links.ts)
 * with its meaning in one line, the witness counts, and what decided the verdict) with filters by
 * verdict and family, which say so when nothing matches; each counterexample as a step-by-step
 * story (request, expected, actual, the first difference highlighted) with its replay command; the
 * state machines of the declared profile's families (the Janma lifecycle for janma, the RIPA
 * migration for ripa) drawn with the transitions the campaign covered highlighted and counted; the
 * stages. The links to the docs are the page's only links out of it: a reader follows them, the
 * page fetches nothing.
 *
 * Every string from the certificate or a trace is escaped: the implementation under test chooses
 * some of them (its name, its replies), and a hostile one must not run script in the reader's browser.
 */
import { createHash } from "node:crypto";
import type { Certificate, CounterexampleRef, PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { VERDICTS } from "../../spec/certificate.ts";
import { INVARIANTS, PROTOCOLS, type InvariantId, type Protocol } from "../../spec/catalog.ts";
import { MACHINES, type Machine, type MachineSpec } from "../oracle/transitions.ts";
import { renderDiagram, type Diagram } from "./html-diagrams.ts";
import {
  counterexamples,
  decidedBy,
  divergence,
  counterexamplesOf,
  countVerdicts,
  failingIndex,
  invariantName,
  isTrace,
  oneLineMeaning,
  replyLabel,
  requestLabel,
  seconds,
  totalWitnesses,
  traceOf,
  type Counterexample,
  type ReportInput,
} from "./common.ts";
import { valueAt, firstDifferenceOf, bracketedPath, type JsonPath } from "../../properties/json-diff.ts";
import type { DocLinks } from "./doc-links.ts";
import { countsText, describeResult } from "../verdicts/decide.ts";

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export const esc = (s: string): string =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

const json = (v: unknown): string => JSON.stringify(v) ?? "undefined";

/** The longest prefix of `p` that names a value inside `v` (the whole value for []). */
const existingPrefix = (v: unknown, p: JsonPath): JsonPath => {
  const out: (string | number)[] = [];
  let x: unknown = v;
  for (const k of p) {
    if (typeof x !== "object" || x === null || !(String(k) in x)) break;
    x = (x as Record<string, unknown>)[String(k)];
    out.push(k);
  }
  return out;
};

const samePath = (a: JsonPath, b: JsonPath): boolean =>
  a.length === b.length && a.every((k, i) => String(k) === String(b[i]));

/** Pretty JSON (as JSON.stringify(v, null, 2)) as escaped HTML, with the value at `mark` wrapped in <mark class="diff">. */
export const jsonHtml = (v: unknown, mark: JsonPath | null): string => {
  const target = mark === null ? null : existingPrefix(v, mark);
  const render = (x: unknown, path: JsonPath, indent: string): string => {
    let s: string;
    const inner = `${indent}  `;
    if (Array.isArray(x)) {
      s =
        x.length === 0
          ? "[]"
          : `[\n${x.map((y, i) => `${inner}${render(y, [...path, i], inner)}`).join(",\n")}\n${indent}]`;
    } else if (typeof x === "object" && x !== null) {
      const entries = Object.entries(x);
      s =
        entries.length === 0
          ? "{}"
          : `{\n${entries.map(([k, y]) => `${inner}<span class="k">${esc(JSON.stringify(k))}</span>: ${render(y, [...path, k], inner)}`).join(",\n")}\n${indent}}`;
    } else {
      s = `<span class="${x === null ? "null" : typeof x}">${esc(json(x))}</span>`;
    }
    return target !== null && samePath(path, target) ? `<mark class="diff">${s}</mark>` : s;
  };
  return render(v, [], "");
};

const CSS = `
:root { --pass:#15803d; --fail:#b91c1c; --na:#6b7280; --inc:#b45309; --ink:#18181b; --muted:#52525b; --line:#e4e4e7; --bg:#fafafa; --blue:#2563eb; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color:var(--ink); background:var(--bg); }
header { padding:18px 28px; color:#fff; background:#3f3f46; }
header.certified { background:var(--pass); } header.violations { background:var(--fail); } header.inconclusive { background:var(--inc); }
header h1 { margin:0 0 4px; font-size:22px; font-weight:650; word-break:break-word; }
header .result { margin:0; font-size:16px; } header .counts { margin:4px 0 0; opacity:.92; }
main { max-width:1240px; margin:0 auto; padding:8px 28px 40px; }
section { margin-top:22px; } h2 { font-size:18px; margin:0 0 10px; border-bottom:1px solid var(--line); padding-bottom:4px; }
h3 { font-size:15px; margin:0 0 6px; } h4 { font-size:13px; margin:8px 0 4px; color:var(--muted); font-weight:600; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size:12px; }
pre { margin:0; padding:8px 10px; background:#fff; border:1px solid var(--line); border-radius:6px; overflow:auto; max-height:420px; white-space:pre; }
dl.facts { display:grid; grid-template-columns: max-content 1fr max-content 1fr; gap:4px 16px; margin:0; background:#fff; border:1px solid var(--line); border-radius:8px; padding:10px 14px; }
dl.facts dt { color:var(--muted); } dl.facts dd { margin:0; word-break:break-all; }
table { border-collapse:collapse; width:100%; background:#fff; border:1px solid var(--line); }
th, td { text-align:left; padding:4px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { background:#f4f4f5; font-weight:600; font-size:12px; } td.n, th.n { text-align:right; font-variant-numeric: tabular-nums; }
tr.v-fail td { background:#fef2f2; }
.badge { display:inline-block; padding:0 7px; border-radius:9px; font-size:12px; font-weight:600; color:#fff; white-space:nowrap; }
.badge.pass { background:var(--pass); } .badge.fail { background:var(--fail); } .badge.not-applicable, .badge.not-selected { background:var(--na); } .badge.inconclusive { background:var(--inc); }
.filters { display:flex; flex-wrap:wrap; gap:6px 14px; align-items:center; margin:0 0 8px; }
.filters fieldset { border:1px solid var(--line); border-radius:6px; padding:3px 10px; margin:0; background:#fff; }
.filters legend { font-size:12px; color:var(--muted); padding:0 4px; } .filters label { margin-right:10px; white-space:nowrap; }
#shown { color:var(--muted); }
td.reason { color:#3f3f46; min-width:200px; max-width:420px; overflow-wrap:anywhere; }
td.id a { color:var(--blue); text-decoration:none; } td.id a:hover, td.id a:focus { text-decoration:underline; }
td.meaning { max-width:320px; } td.meaning .stmt { display:block; color:var(--muted); font-size:12px; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
#no-match { margin:8px 0 0; padding:10px 12px; background:#fff; border:1px dashed #a1a1aa; border-radius:6px; color:var(--muted); }
.story { background:#fff; border:1px solid var(--line); border-left:4px solid var(--fail); border-radius:8px; padding:12px 14px; margin:0 0 14px; }
.story .meta { color:var(--muted); margin:2px 0 8px; }
ol.steps { margin:6px 0; padding-left:0; list-style:none; } ol.steps > li { margin:3px 0; } ol.steps ol.steps { padding-left:14px; }
li.failing { border:1px solid #fecaca; background:#fff7f7; border-radius:6px; padding:8px 10px; }
details.inline { display:inline; } details.inline > summary { display:inline; cursor:pointer; color:var(--muted); font-size:12px; } details.inline[open] > pre { margin-top:4px; }
.step-head { font-weight:600; } .ok { color:var(--pass); } .bad { color:var(--fail); font-weight:600; }
.compare { display:grid; grid-template-columns:minmax(0,1fr) minmax(0,1fr); gap:10px; } .compare > div { min-width:0; }
mark.diff { background:#fde047; color:inherit; outline:2px solid #ca8a04; border-radius:2px; }
.k { color:#1e40af; } .string { color:#166534; } .number { color:#9a3412; } .boolean, .null { color:#7c3aed; }
.difference { margin:8px 0 0; }
.replay pre { background:#18181b; color:#f4f4f5; border-color:#18181b; white-space:pre-wrap; word-break:break-all; }
figure { margin:0 0 16px; background:#fff; border:1px solid var(--line); border-radius:8px; padding:10px; }
figure svg { max-width:100%; height:auto; display:block; margin:0 auto; }
figcaption { color:var(--muted); margin-top:4px; }
.legend span { display:inline-block; margin-right:14px; } .legend i { display:inline-block; width:26px; height:0; vertical-align:middle; margin-right:5px; border-top:3px solid var(--blue); }
.legend i.dashed { border-top:2px dashed #a1a1aa; }
footer { margin-top:28px; color:var(--muted); font-size:12px; }
`;

/** The page's only script: the verdict and family filters of the verdict table. */
const SCRIPT = `
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input[data-filter]"));
  var rows = Array.prototype.slice.call(document.querySelectorAll("#verdict-table tbody tr"));
  var shown = document.getElementById("shown");
  var table = document.getElementById("verdict-table");
  var none = document.getElementById("no-match");
  function checked(kind) {
    return boxes.filter(function (b) { return b.getAttribute("data-filter") === kind && b.checked; }).map(function (b) { return b.value; });
  }
  function apply() {
    var verdicts = checked("verdict"), families = checked("family"), n = 0;
    rows.forEach(function (r) {
      var visible = verdicts.indexOf(r.getAttribute("data-verdict")) >= 0 && families.indexOf(r.getAttribute("data-family")) >= 0;
      r.hidden = !visible;
      if (visible) n++;
    });
    shown.textContent = n + " of " + rows.length + " invariants shown";
    table.hidden = n === 0;
    none.hidden = n !== 0;
  }
  boxes.forEach(function (b) { b.addEventListener("change", apply); });
  apply();
})();
`;

const badge = (v: string): string => `<span class="badge ${esc(v)}">${esc(v)}</span>`;

const facts = (c: Certificate, traces: readonly PortableTrace[]): string => {
  const prof = c.implementation.profile;
  const seeds = [...new Set([c.settings.seed, ...traces.flatMap((t) => (t.seed === null ? [] : [t.seed]))])];
  const rows: [string, string][] = [
    ["implementation", esc(`${c.implementation.name ?? "(no handshake)"} ${c.implementation.version ?? ""}`.trim())],
    [
      "profile",
      prof === null
        ? "unknown (no handshake)"
        : `${esc(prof.families.join(", ") || "no family")}; crash hook ${prof.crash_hook ? "yes" : "no"}`,
    ],
    ["command line", `<code>${esc(c.implementation.command_line)}</code>`],
    ["protocol version", esc(c.protocol_version ?? "none agreed")],
    ["seed", esc(String(c.settings.seed))],
    ["seeds of the traces", esc(seeds.join(", "))],
    ["runs", String(c.settings.runs)],
    ["only", esc(c.settings.only.length === 0 ? "all invariants" : c.settings.only.join(", "))],
    ["time budget", seconds(c.settings.time_budget_ms)],
    ["request timeout", seconds(c.settings.request_timeout_ms)],
    ["started", esc(c.started_at)],
    ["duration", seconds(c.duration_ms)],
    ["stages", esc(c.stages.map((s) => `${s.stage} ${seconds(s.duration_ms)}`).join(", ") || "none")],
    ["kit", esc(`${c.kit.name} ${c.kit.version}`)],
    ["spec digest", `<code>${esc(c.kit.spec_digest)}</code>`],
    ["certificate version", String(c.certificate_version)],
  ];
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
};

const statementOf = (id: InvariantId): string => INVARIANTS.find((i) => i.id === id)?.statement ?? "";

/** The invariant's id, linked to its documentation when the kit's folder has it. */
const idCell = (id: InvariantId, docs: DocLinks): string => {
  const d = docs[id];
  const title =
    d === null ? "" : d.where === "site" ? `${id} in the kit's docs site` : `${id} in the kit's spec/INVARIANTS.md`;
  return d === null
    ? `<td class="id"><b>${esc(id)}</b></td>`
    : `<td class="id"><a href="${esc(d.href)}" title="${esc(title)}" data-docs="${d.where}"><b>${esc(id)}</b></a></td>`;
};

const verdictTable = (c: Certificate, all: readonly Counterexample[], docs: DocLinks): string => {
  const counts = countVerdicts(c);
  const famCount = (f: string): number => c.invariants.filter((i) => i.family === f).length;
  const filters = `<div class="filters">
<fieldset><legend>verdict</legend>${VERDICTS.map((v) => `<label><input type="checkbox" data-filter="verdict" value="${v}" checked> ${v} (${counts[v]})</label>`).join("")}</fieldset>
<fieldset><legend>family</legend>${PROTOCOLS.map((f) => `<label><input type="checkbox" data-filter="family" value="${f}" checked> ${f} (${famCount(f)})</label>`).join("")}</fieldset>
<span id="shown" aria-live="polite">${c.invariants.length} of ${c.invariants.length} invariants shown</span></div>`;
  const rows = c.invariants.map((v) => {
    const w = v.witnesses;
    const links = counterexamplesOf(all, v)
      .map((x) => ` <a href="#cx-${x.n}">counterexample #${x.n}</a>`)
      .join("");
    return (
      `<tr data-invariant="${esc(v.invariant)}" data-verdict="${esc(v.verdict)}" data-family="${esc(v.family)}" class="v-${esc(v.verdict)}">` +
      `${idCell(v.invariant, docs)}<td class="meaning">${esc(invariantName(v.invariant))}<span class="stmt" title="${esc(statementOf(v.invariant))}">${esc(oneLineMeaning(v.invariant))}</span></td><td>${esc(v.family)}</td>` +
      `<td class="verdict">${badge(v.verdict)}${v.expected_failure ? " <small>(expected)</small>" : ""}</td>` +
      `<td class="n">${w.accepted}</td><td class="n">${w.rejected}</td><td class="n">${w.crash_cuts}</td><td class="n">${w.algebra}</td><td class="n">${w.forgetting}</td><td class="n"><b>${totalWitnesses(v)}</b></td>` +
      `<td class="reason">${esc(decidedBy(c, v))}${links}</td></tr>`
    );
  });
  return `${filters}
<table id="verdict-table"><thead><tr><th>invariant</th><th>meaning</th><th>family</th><th>verdict</th><th class="n">accepted</th><th class="n">rejected</th><th class="n">crash cuts</th><th class="n">algebra</th><th class="n">forgetting</th><th class="n">witnesses</th><th>what decided it</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>
<p id="no-match" hidden>No invariant matches this filter: check a verdict and a family above.</p>`;
};

/** Steps before the failing one shown with their request in full; earlier ones are one line each. */
const DETAILED = 8;

const stepLine = (s: TraceStep, i: number, detailed: boolean): string => {
  const head = `<span class="step-no">Step ${i + 1}</span> · <code>${esc(requestLabel(s.request))}</code> → ${esc(replyLabel(s.actual))} <span class="ok">as expected</span>`;
  return detailed
    ? `<li class="step agreed">${head} <details class="inline"><summary>request</summary><pre>${jsonHtml(s.request, null)}</pre></details></li>`
    : `<li class="step agreed">${head}</li>`;
};

const traceStory = (t: PortableTrace): string => {
  const i = failingIndex(t);
  const agreed = t.steps.slice(0, i);
  const cut = Math.max(0, agreed.length - DETAILED);
  const parts: string[] = [];
  if (cut > 0) {
    parts.push(
      `<li class="agreed-summary"><details><summary>Steps 1–${cut}: the implementation answered ${cut} request(s) as the model did</summary><ol class="steps">${agreed
        .slice(0, cut)
        .map((s, k) => stepLine(s, k, false))
        .join("")}</ol></details></li>`,
    );
  }
  agreed.slice(cut).forEach((s, k) => parts.push(stepLine(s, cut + k, true)));
  const step = t.steps[i];
  if (step !== undefined) {
    const p = firstDifferenceOf(step.expected, step.actual)?.path ?? null;
    const diff =
      p === null
        ? ""
        : `<p class="difference">First difference at <code>${esc(bracketedPath(p))}</code>: expected <code>${esc(json(valueAt(step.expected, p)))}</code>, actual <code>${esc(json(valueAt(step.actual, p)))}</code>.</p>`;
    parts.push(`<li class="step failing"><div class="step-head"><span class="bad">Step ${i + 1} diverged</span> · <code>${esc(requestLabel(step.request))}</code>: ${esc(divergence(step))}</div>
<h4>request</h4><pre class="request">${jsonHtml(step.request, null)}</pre>
<div class="compare"><div><h4>expected (the reference model)</h4><pre class="expected">${jsonHtml(step.expected, p)}</pre></div><div><h4>actual (the implementation)</h4><pre class="actual">${jsonHtml(step.actual, p)}</pre></div></div>
${diff}${t.difference === null ? "" : `<p class="difference">The runner's diagnosis: <code>${esc(t.difference)}</code></p>`}</li>`);
  }
  return `<ol class="steps">${parts.join("\n")}</ol>`;
};

const storyHtml = (input: ReportInput, x: Counterexample): string => {
  const ref: CounterexampleRef = x.ref;
  const who = ref.invariant === null ? "wire protocol" : `${ref.invariant} ${invariantName(ref.invariant)}`;
  const t = traceOf(input, ref);
  const meta = [`stage ${esc(ref.stage)}`, `check <code>${esc(ref.check)}</code>`, `${ref.steps} step(s)`];
  if (isTrace(t)) {
    if (t.seed !== null) meta.push(`seed ${esc(String(t.seed))}`);
    if (t.path !== null) meta.push(`path <code>${esc(t.path)}</code>`);
    if (t.shrink !== null)
      meta.push(
        `shrunk from ${t.shrink.original_length} step(s) in ${t.shrink.attempts} attempt(s)${t.shrink.interrupted ? " (interrupted)" : ""}`,
      );
  }
  if (ref.trace_file !== null) meta.push(`trace <code>${esc(ref.trace_file)}</code>`);
  const body =
    t === null
      ? `<p>No trace: this failure is not a sequence of requests.</p>`
      : isTrace(t)
        ? traceStory(t)
        : `<p class="bad">The trace could not be read: ${esc(t.error)}</p>`;
  const replay =
    ref.replay === null
      ? ""
      : `<div class="replay"><h4>replay it on any implementation</h4><pre><code>${esc(ref.replay)}</code></pre></div>`;
  return `<article class="story" id="cx-${x.n}" data-invariant="${esc(ref.invariant ?? "wire")}">
<h3>#${x.n} · ${esc(who)} — ${esc(ref.check)}</h3>
<p class="summary">${esc(ref.summary)}</p>
<p class="meta">${meta.join(" · ")}</p>
${body}
${replay}
</article>`;
};

const diagramHtml = (d: Diagram, present: boolean): string => {
  const drawn = d.edges.flatMap((e) => e.ops.map((o) => ({ ...o, from: e.from, to: e.to, listed: e.listed })));
  const covered = drawn.filter((o) => o.count > 0);
  const listed = drawn.filter((o) => o.listed);
  const rows = covered
    .map(
      (o) =>
        `<tr><td>${esc(o.from)}</td><td>${esc(o.to)}</td><td><code>${esc(o.op)}</code>${o.listed ? "" : " (not a transition of this machine)"}</td><td class="n">${o.count}</td></tr>`,
    )
    .join("");
  const picture =
    d.svg ?? `<p class="bad">Graphviz could not draw this diagram: ${esc(d.error ?? "unknown error")}</p>`;
  const caption = present
    ? `${listed.filter((o) => o.count > 0).length} of ${listed.length} transitions driven`
    : "this certificate records no coverage (written by an older runner)";
  return `<figure class="diagram" data-machine="${esc(d.machine)}">
<h3>${esc(d.title)}</h3>
${picture}
<figcaption>${caption}. <span class="legend"><span><i></i>driven, with how often</span><span><i class="dashed"></i>not driven</span></span></figcaption>
${rows === "" ? "" : `<details><summary>counts</summary><table class="coverage"><thead><tr><th>from</th><th>to</th><th>op</th><th class="n">count</th></tr></thead><tbody>${rows}</tbody></table></details>`}
</figure>`;
};

const stagesTable = (c: Certificate): string => {
  if (c.stages.length === 0) return "<p>No stage ran.</p>";
  const rows = c.stages.map(
    (s) =>
      `<tr><td>${esc(s.stage)}</td><td>${badge(s.verdict)}</td><td class="n">${s.checks}</td><td class="n">${seconds(s.duration_ms)}</td><td>${esc(s.reason)}${s.notes.length === 0 ? "" : `<details><summary>${s.notes.length} note(s)</summary><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul></details>`}</td></tr>`,
  );
  return `<table id="stage-table"><thead><tr><th>stage</th><th>verdict</th><th class="n">checks</th><th class="n">time</th><th>reason</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
};

const faults = (title: string, list: readonly string[]): string =>
  list.length === 0
    ? ""
    : `<section class="faults"><h2>${title}</h2>${list.map((f) => `<pre>${esc(f)}</pre>`).join("")}</section>`;

/** The sha256 source expression of a Content-Security-Policy for an inline script. */
export const cspHash = (script: string): string =>
  `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;

export const renderHtml = (input: ReportInput, diagrams: readonly Diagram[]): string => {
  const c = input.certificate;
  const all = counterexamples(c);
  const traces = [...input.traces.values()].filter((t): t is PortableTrace => !("error" in t));
  const name = `${c.implementation.name ?? "(no handshake)"} ${c.implementation.version ?? ""}`.trim();
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src ${cspHash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>srk certify — ${esc(name)}: ${esc(c.result)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="${esc(c.result)}">
<h1>srk certify — ${esc(name)}</h1>
<p class="result" id="result"><b>${esc(c.result)}</b> (exit ${c.exit_code})${esc(describeResult(c).slice(`${c.result} (exit ${c.exit_code})`.length))}</p>
<p class="counts" id="counts">${esc(countsText(c))}</p>
</header>
<main>
<section id="run"><h2>Run</h2>${facts(c, traces)}</section>
<section id="verdicts"><h2>Verdicts</h2>${verdictTable(c, all, input.docs)}</section>
<section id="counterexamples"><h2>Counterexamples</h2>${all.length === 0 ? "<p>None: no stage found a violation.</p>" : all.map((x) => storyHtml(input, x)).join("\n")}</section>
<section id="coverage"><h2>State machines: transitions covered</h2>
${coverageIntro(c, diagrams)}
${diagrams.map((d) => diagramHtml(d, c.coverage !== undefined)).join("\n")}</section>
<section id="stages"><h2>Stages</h2>${stagesTable(c)}</section>
${faults("Implementation faults", c.implementation_faults)}
${faults("Harness faults (bugs of the runner)", c.harness_faults)}
<footer>Written by ${esc(c.kit.name)} ${esc(c.kit.version)} from <code>certificate.json</code> (certificate version ${c.certificate_version}); spec digest <code>${esc(c.kit.spec_digest)}</code>.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
};

/** The family whose operations drive each machine: a machine is drawn only when its family is declared. */
export const MACHINE_FAMILY: Readonly<Record<Machine, Protocol>> = { janma: "janma", "ripa-migration": "ripa" };

/** The machines of the declared profile's families (none without a handshake: no profile was declared). */
export const profileMachines = (c: Certificate): MachineSpec[] => {
  const families: readonly string[] = c.implementation.profile?.families ?? [];
  return MACHINES.filter((m) => families.includes(MACHINE_FAMILY[m.machine]));
};

const coverageIntro = (c: Certificate, diagrams: readonly Diagram[]): string => {
  const profile = c.implementation.profile;
  const left = MACHINES.filter((m) => !diagrams.some((d) => d.machine === m.machine)).map(
    (m) => `${esc(m.title)} (needs ${MACHINE_FAMILY[m.machine]})`,
  );
  const notDrawn = left.length === 0 ? "" : ` Not drawn, outside the declared profile: ${left.join("; ")}.`;
  if (profile === null) return `<p>No state machine is drawn: no handshake succeeded, so no profile was declared.</p>`;
  if (diagrams.length === 0)
    return `<p>No state machine is drawn: the declared profile (${esc(profile.families.join(", ") || "no family")}) has none.${notDrawn}</p>`;
  return `<p>Accepted commands of the golden sessions and the generated runs, whose replies agreed with the reference model, replayed over each machine of the declared profile.${notDrawn}</p>`;
};

/** Draws the machines of the declared profile from the certificate's coverage (none recorded: drawn with nothing covered). */
export const renderDiagrams = (c: Certificate): Promise<Diagram[]> =>
  Promise.all(profileMachines(c).map((m) => renderDiagram(m, c.coverage?.transitions ?? [])));
