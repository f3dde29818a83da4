/**
 * reports/bench.md from reports/bench.json: the goals table (met or short, by how much and why),
 * one section per measurement with its figures (median and min–max), and the growth curves as
 * inline SVG charts (log-log, written here: axes, decade grid, one polyline per operation,
 * min–max whiskers, legend). Also the README's table between `<!-- bench:start -->` and
 * `<!-- bench:end -->`. Pure; tested in reports/bench.test.ts.
 */
import type { Goal } from "./goals.ts";
import { GROWTH_OPS, OP_LABELS, type GrowthOp, type GrowthResult } from "./growth.ts";
import { describeAd3 } from "./model.ts";
import { EXPLORE_RATE_TARGET } from "./explore.ts";
import { isError, type BenchReport, type Section } from "./report.ts";
import { showFigure, sig } from "./stats.ts";
import type { CertRun } from "./suite.ts";

export const README_START = "<!-- bench:start -->";
export const README_END = "<!-- bench:end -->";

const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");

export const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [
    `| ${head.map(cell).join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");

const mib = (b: number | null): string => (b === null ? "not measured" : `${sig(b / 2 ** 20)} MiB`);
const secs = (ms: number): string => `${sig(ms / 1000)} s`;
const fmtN = (n: number): string => n.toLocaleString("en-US");

const status = (g: Goal): string =>
  g.status === "met" ? "**met**" : g.status === "short" ? "**short**" : "**not measured**";
const qty = (q: Goal["measured"]): string => (q === null ? "—" : `${sig(q.value)} ${q.unit} (${q.label})`);
const ratio = (g: Goal): string =>
  g.ratio === null
    ? "—"
    : g.goal.kind === "exponent"
      ? `exponent ${sig(g.ratio)}`
      : g.goal.kind === "rate"
        ? "— (a rate)"
        : `${sig(g.ratio)}×`;

export const goalsTable = (goals: readonly Goal[]): string =>
  table(
    ["Goal", "Measured", "Baseline", "Ratio", "Goal", "Status"],
    goals.map((g) => [g.name, qty(g.measured), qty(g.baseline), ratio(g), g.goal.text, status(g)]),
  );

export const goalNotes = (goals: readonly Goal[]): string =>
  goals
    .map((g) => `- **${g.name}** — ${g.status}${g.short_by === null ? "" : `: ${g.short_by}`}. ${g.note}`)
    .join("\n");

// ---------------------------------------------------------------------------------------------
// SVG

const esc = (s: string): string =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

export interface SeriesPoint {
  readonly x: number;
  readonly y: number;
  readonly min?: number;
  readonly max?: number;
}

export interface Series {
  readonly label: string;
  readonly points: readonly SeriesPoint[];
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

const decadeLabel = (e: number, unit: string): string => {
  const v = 10 ** e;
  if (unit === "ms") {
    if (v >= 1000) return `${fmtN(v / 1000)} s`;
    return `${v >= 1 ? fmtN(v) : String(v)} ms`;
  }
  return v >= 1 ? fmtN(v) : String(v);
};

/** A log-log line chart as one SVG element (no blank lines, so it stays one HTML block in Markdown). */
export const logLogChart = (o: {
  title: string;
  xLabel: string;
  yUnit: string;
  series: readonly Series[];
  width?: number;
  height?: number;
}): string => {
  const W = o.width ?? 780;
  const H = o.height ?? 380;
  const m = { left: 70, right: 320, top: 34, bottom: 46 };
  const all = o.series.flatMap((s) => s.points);
  if (all.length === 0)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="60" role="img"><title>${esc(o.title)}</title><text x="10" y="30" font-family="sans-serif" font-size="13">${esc(o.title)}: no data</text></svg>`;
  const xs = all.map((p) => p.x);
  const ys = all.flatMap((p) => [p.y, p.min ?? p.y, p.max ?? p.y]).filter((y) => y > 0);
  const x0 = Math.floor(Math.log10(Math.min(...xs)));
  const x1 = Math.max(x0 + 1, Math.ceil(Math.log10(Math.max(...xs))));
  const y0 = Math.floor(Math.log10(Math.min(...ys)));
  const y1 = Math.max(y0 + 1, Math.ceil(Math.log10(Math.max(...ys))));
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const px = (x: number): number => m.left + ((Math.log10(x) - x0) / (x1 - x0)) * pw;
  const py = (y: number): number => m.top + ph - ((Math.log10(Math.max(y, 10 ** y0)) - y0) / (y1 - y0)) * ph;
  const f = (v: number): string => v.toFixed(1);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" font-family="sans-serif" font-size="12">`,
  );
  parts.push(`<title>${esc(o.title)}</title>`);
  parts.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  parts.push(`<text x="${m.left}" y="20" font-size="14" font-weight="bold">${esc(o.title)}</text>`);
  for (let e = x0; e <= x1; e++) {
    const x = px(10 ** e);
    parts.push(`<line x1="${f(x)}" y1="${m.top}" x2="${f(x)}" y2="${m.top + ph}" stroke="#dddddd"/>`);
    parts.push(`<text x="${f(x)}" y="${m.top + ph + 16}" text-anchor="middle">${esc(decadeLabel(e, ""))}</text>`);
  }
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    parts.push(`<line x1="${m.left}" y1="${f(y)}" x2="${m.left + pw}" y2="${f(y)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${m.left - 6}" y="${f(y + 4)}" text-anchor="end">${esc(decadeLabel(e, o.yUnit))}</text>`);
  }
  parts.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#444444"/>`);
  parts.push(`<text x="${m.left + pw / 2}" y="${H - 8}" text-anchor="middle">${esc(o.xLabel)}</text>`);
  o.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length] ?? "#000000";
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    if (pts.length > 1)
      parts.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map((p) => `${f(px(p.x))},${f(py(p.y))}`).join(" ")}"/>`,
      );
    for (const p of pts) {
      if (p.min !== undefined && p.max !== undefined && p.max > p.min) {
        parts.push(
          `<line x1="${f(px(p.x))}" y1="${f(py(p.min))}" x2="${f(px(p.x))}" y2="${f(py(p.max))}" stroke="${color}" stroke-width="1"/>`,
        );
      }
      parts.push(
        `<circle cx="${f(px(p.x))}" cy="${f(py(p.y))}" r="3.5" fill="${color}"><title>${esc(`${s.label}: N = ${fmtN(p.x)}, ${sig(p.y)} ${o.yUnit}`)}</title></circle>`,
      );
    }
    const ly = m.top + 10 + i * 20;
    parts.push(
      `<line x1="${W - m.right + 16}" y1="${ly}" x2="${W - m.right + 36}" y2="${ly}" stroke="${color}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${W - m.right + 42}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("");
};

export const growthSeries = (g: GrowthResult, ops: readonly GrowthOp[]): Series[] =>
  ops.map((op) => ({
    label: `${OP_LABELS[op]}${g.fits[op] === undefined ? "" : ` (${(g.fits[op]?.exponent ?? NaN).toFixed(2)})`}`,
    points: g.levels.flatMap((l) => {
      const fig = l.ops[op];
      return fig === undefined ? [] : [{ x: l.n, y: fig.median, min: fig.min, max: fig.max }];
    }),
  }));

// ---------------------------------------------------------------------------------------------
// Sections

const failed = (s: Section<unknown>): string | null => (isError(s) ? `Not measured: ${s.error}` : null);

const durableMd = (r: BenchReport): string => {
  const d = r.sections.durable;
  if (isError(d)) return failed(d) ?? "";
  const below = Object.entries(d.syscalls?.below_baseline ?? {});
  const belowNote =
    below.length === 0
      ? ""
      : `; ${below.map(([k, v]) => `${k} ${sig(v)}`).join(", ")} per command before being shown as 0: the run with none made more of ${below.length === 1 ? "that call" : "those calls"} than the run with the commands, which is noise between the two runs, not something the commands undo`;
  const sys =
    d.syscalls === null
      ? d.syscalls_reason
      : `${Object.entries(d.syscalls.per_command)
          .map(([k, v]) => `${k} ${sig(v)}`)
          .join(", ")} (${d.syscalls_reason}${belowNote})`;
  return [
    `Everything on the OS temporary directory's filesystem (${d.dir_fs}). ${d.writes_per_run} writes or commands per run; the runs interleave.`,
    "",
    table(
      ["What", "Rate (median, min–max)"],
      [
        ["Baseline: 64-byte write + fsync, preallocated file", showFigure(d.fsync_loop)],
        ["The same, appending to a growing file", showFigure(d.append_fsync)],
        ["Bare SQLite transaction (one row; journal_mode=TRUNCATE, synchronous=FULL)", showFigure(d.sqlite_bare)],
        ["Implementation, in process: accepted ripa.task_start", showFigure(d.impl_in_process)],
        [
          "Implementation over the wire (pipelined)",
          d.impl_wire === null ? `not measured: ${d.impl_wire_error ?? ""}` : showFigure(d.impl_wire),
        ],
      ],
    ),
    "",
    `System calls per accepted command: ${sys}. Data directory: ${d.data_dir_files.join(", ")}.`,
  ].join("\n");
};

const growthMd = (r: BenchReport): string => {
  const g = r.sections.growth;
  if (isError(g)) return failed(g) ?? "";
  const head = ["Operation (ms)", ...g.levels.map((l) => `N = ${fmtN(l.n)}`), "Exponent"];
  const rows = GROWTH_OPS.map((op) => [
    OP_LABELS[op],
    ...g.levels.map((l) => {
      const fig = l.ops[op];
      return fig === undefined ? `skipped: ${l.skipped_ops[op] ?? ""}` : showFigure(fig);
    }),
    g.fits[op] === undefined ? "—" : `${sig(g.fits[op]?.exponent ?? NaN)} (r² ${sig(g.fits[op]?.r2 ?? NaN)})`,
  ]);
  rows.push([
    "state digest (canonical JSON + SHA-256 of the aggregated state)",
    ...g.levels.map((l) => showFigure(l.state_digest)),
    g.state_digest_fit === null ? "—" : sig(g.state_digest_fit.exponent),
  ]);
  rows.push(["state size (canonical JSON bytes)", ...g.levels.map((l) => fmtN(l.state_bytes)), ""]);
  rows.push(["data directory on disk (bytes)", ...g.levels.map((l) => fmtN(l.data_dir_bytes)), ""]);
  rows.push(["build time to this N (s, in memory)", ...g.levels.map((l) => sig(l.build_ms / 1000)), ""]);
  const flat: GrowthOp[] = ["task_start", "merge", "excise", "query_authority", "query_store"];
  const heavy: GrowthOp[] = ["replay", "recovery", "query_world"];
  return [
    `One agent, N distillates each merged as its own batch (conceive, birth, withdraw, distil, merge). Built by the implementation in process in a data directory on ${g.build_dir_fs}; measured on a durable copy in the OS temporary directory (${g.measure_dir_fs}). Growth budget ${g.budget_s} s (this run: ${secs(g.duration_ms)}); an operation is skipped at an N where one run is projected over ${secs(g.op_cap_ms)} or over what is left of the budget.`,
    ...(g.skipped.length > 0 ? ["", ...g.skipped.map((s) => `- Planned N = ${fmtN(s.n)}: ${s.reason}.`)] : []),
    "",
    table(head, rows),
    "",
    logLogChart({
      title: "Per-command latency against N (log-log; fitted exponent in brackets)",
      xLabel: "distillates in the lineage (N)",
      yUnit: "ms",
      series: growthSeries(g, flat),
    }),
    "",
    logLogChart({
      title: "Replay, recovery and the world query against N (log-log)",
      xLabel: "distillates in the lineage (N)",
      yUnit: "ms",
      series: growthSeries(g, heavy),
    }),
  ].join("\n");
};

const runnerMd = (r: BenchReport): string => {
  const x = r.sections.runner;
  if (isError(x)) return failed(x) ?? "";
  return [
    `Campaign: seed ${x.seed}, ${x.runs_per_campaign} differential runs, ${fmtN(x.requests_per_campaign)} requests.`,
    "",
    table(
      ["What", "Median (min–max)"],
      [
        [
          "srk certify (differential stage) against the instant implementation (the model's recorded replies played back)",
          showFigure(x.certify_steps_per_s),
        ],
        ["share of that time the instant implementation was busy", showFigure(x.impl_busy_percent)],
        [
          "srk certify against the model behind the wire computing every reply (the recording run)",
          `${showFigure(x.model_steps_per_s)}; the model busy ${sig(x.model_busy_share * 100)}% of the time`,
        ],
        ["the same WireClient and requests against the echo child", showFigure(x.echo_round_trips_per_s)],
        ["planning the campaign with the model, per request (in process)", showFigure(x.plan_us_per_request)],
        [
          "reading the replies as the client does (JSON.parse + Reply schema), per request (in process)",
          showFigure(x.validate_us_per_request),
        ],
      ],
    ),
  ].join("\n");
};

const modelMd = (r: BenchReport): string => {
  const x = r.sections.model;
  if (isError(x)) return failed(x) ?? "";
  return [
    `${x.sequences} generated sequences of ${x.steps_per_sequence} steps (${fmtN(x.steps)} steps per run).`,
    "",
    table(
      ["What", "Median (min–max)"],
      [
        ["model: generate + transition", showFigure(x.model_steps_per_s)],
        ...(x.model_split === undefined
          ? []
          : [
              [
                "the same steps timed call by call: view(world), materialize, transition",
                `${sig(x.model_split.view_us)} µs, ${sig(x.model_split.materialize_us)} µs, ${sig(x.model_split.transition_us)} µs per step`,
              ],
            ]),
        [
          "differential: model + implementation in process (volatile storage), views compared every step",
          showFigure(x.differential_steps_per_s),
        ],
        ...x.ad3.map((a) => [
          `exhaustive merge order-independence, ${a.distillates} distillates (orders × batchings)`,
          `${showFigure(a.checks_per_s)}; the whole space of ${fmtN(a.space)} would take ${sig(a.whole_space_s)} s`,
        ]),
        ...x.ad3.flatMap((a) =>
          a.replay_checks_per_s === undefined
            ? []
            : [
                [
                  `the same, each case replayed from genesis on its own (the baseline), ${a.distillates} distillates`,
                  showFigure(a.replay_checks_per_s),
                ],
              ],
        ),
      ],
    ),
    "",
    ...x.ad3.map((a) => `- ${describeAd3(a)}.`),
  ].join("\n");
};

const digestMd = (r: BenchReport): string => {
  const x = r.sections.digest;
  if (isError(x)) return failed(x) ?? "";
  return [
    table(
      [
        "Value",
        "Bytes",
        "digestOf",
        "node:crypto",
        "check",
        "canonicalize",
        "encode",
        "SHA-256 (noble)",
        "hex",
        "SHA-256 (node)",
        "JSON.stringify",
      ],
      x.workloads.map((w) => [
        w.name,
        fmtN(w.bytes),
        showFigure(w.digest_per_s),
        showFigure(w.node_per_s),
        `${sig(w.steps_us.check)} µs`,
        `${sig(w.steps_us.canonicalize)} µs`,
        `${sig(w.steps_us.encode)} µs`,
        `${sig(w.steps_us.sha256_noble)} µs`,
        `${sig(w.steps_us.hex)} µs`,
        `${sig(w.steps_us.sha256_node)} µs`,
        `${sig(w.steps_us.json_stringify)} µs`,
      ]),
    ),
    "",
    "The step columns are the median time of each step of one `digestOf`, each timed on its own (where the time goes); JSON.stringify of the same value, which is not canonical, is there for scale.",
  ].join("\n");
};

const logMd = (r: BenchReport): string => {
  const x = r.sections.log;
  if (x === undefined) return "Not measured: this report was made before the section existed.";
  if (isError(x)) return failed(x) ?? "";
  return [
    `A complete log of ${fmtN(x.commands)} generated commands (${sig(x.log_bytes / 1e6)} MB); ${fmtN(x.round_trips)} sequential round trips per run.`,
    "",
    table(
      ["What", "Median (min–max)"],
      [
        ["srk check-log on the complete log (in process)", showFigure(x.check_commands_per_s)],
        ["the model's bare transitions over the same commands", showFigure(x.bare_commands_per_s)],
        ["round trip to the echo child, directly", showFigure(x.direct_rtt_us)],
        ...(x.relay_rtt_us === undefined
          ? []
          : [
              [
                "round trip to the echo child through a bare relay (bench/relay-child.ts, logs nothing)",
                showFigure(x.relay_rtt_us),
              ],
            ]),
        ["round trip to the echo child through srk record", showFigure(x.recorded_rtt_us)],
      ],
    ),
  ].join("\n");
};

const exploreMd = (r: BenchReport): string => {
  const x = r.sections.explore;
  if (x === undefined) return "Not measured: this report was made before the section existed.";
  if (isError(x)) return failed(x) ?? "";
  return [
    `\`srk explore\` on the ${x.scope} scope, in process: ${fmtN(x.steps)} steps tried, ${fmtN(x.distinct)} distinct states, depth ${x.depth}. One timed exploration (the steps are collected by an untimed one first), then the same steps as bare \`expect1\` transitions.`,
    "",
    table(
      ["What", "Figure"],
      [
        ["exploration, wall time", `${sig(x.explore_ms / 1000)} s`],
        [
          "distinct states per second",
          `${fmtN(Math.round(x.distinct_per_s))} (issue 27's target: ${fmtN(EXPLORE_RATE_TARGET)})`,
        ],
        ["steps per second (explorer)", fmtN(Math.round(x.steps_per_s))],
        ["steps per second (bare transitions of the same steps)", fmtN(Math.round(x.bare_steps_per_s))],
        ["visited set, bytes per million distinct states", fmtN(x.visited_bytes_per_million)],
        ["heap growth, bytes per million distinct states", fmtN(x.heap_bytes_per_million)],
      ],
    ),
    ...(x.large === undefined
      ? []
      : [
          "",
          `The ${x.large.scope} scope (two agents), explored once: ${fmtN(x.large.steps)} steps tried, ${fmtN(x.large.distinct)} distinct states, depth ${x.large.depth} of ${x.large.max_depth}, ${sig(x.large.explore_ms / 1000)} s (${fmtN(Math.round(x.large.distinct_per_s))} distinct states/s; heap growth ${fmtN(x.large.heap_bytes_per_million)} bytes per million distinct states).`,
        ]),
  ].join("\n");
};

const certRow = (label: string, c: CertRun): string[] => [
  label,
  c.error === null ? secs(c.wall_ms) : `failed: ${c.error}`,
  mib(c.peak_rss_bytes),
  String(c.peak_processes),
  `${c.result ?? "—"} (exit ${c.exit_code ?? "?"})`,
];

const suiteMd = (r: BenchReport): string => {
  const s = r.sections.suite;
  if (isError(s)) return failed(s) ?? "";
  const l = s.last_test_run;
  const shard = r.sections.sharding;
  const rows = [certRow("default certification (`srk certify`, 1 job)", s.certification)];
  if (!isError(shard)) rows.push(certRow("the same with `--jobs 2`", shard.jobs2));
  const c = s.last_complete_test_run;
  const runLine = (x: NonNullable<typeof l>): string =>
    `started ${x.started_at}: ${secs(x.wall_ms)} wall time, ${x.files} files, ${x.tests} tests (${x.passed} passed, ${x.failed} failed); slowest files: ${x.slowest.map((f) => `${f.file} ${secs(f.ms)}`).join(", ")}`;
  return [
    l === null
      ? `Test suite: ${s.last_test_run_reason}.`
      : `Test suite, the last run before this report (\`${l.report}\`, ${runLine(l)}): ${s.last_test_run_reason}.`,
    ...(l !== null && !l.complete
      ? [
          "",
          c === null
            ? "No complete run of the suite was on record when this report was written (a run of `npm test` just before `npm run bench` gives one)."
            : `The last complete run on record then (kept by the previous benchmark report): ${runLine(c)}.`,
        ]
      : []),
    ...(s.suite_measured === null
      ? []
      : [
          "",
          `Test suite measured by this run (BENCH_SUITE=1): ${secs(s.suite_measured.wall_ms)}, peak memory ${mib(s.suite_measured.peak_rss_bytes)} (exit ${s.suite_measured.exit_code ?? "?"}).`,
        ]),
    "",
    table(["Run", "Wall time", "Peak memory", "Processes (peak)", "Result"], rows),
    "",
    `Memory: ${s.memory_method}. One run each (a certification takes minutes of the budget).`,
    ...(s.certification.stages.length > 0
      ? [
          "",
          `Stages of the default certification: ${s.certification.stages.map((x) => `${x.stage} ${secs(x.duration_ms)}`).join(", ")}.`,
        ]
      : []),
  ].join("\n");
};

const load = (xs: readonly number[]): string => xs.map((x) => x.toFixed(2)).join(", ");

/** What the report was measured from: the commit and the digest of its inputs (conformance/evidence/inputs.ts), and the inputs that were not committed. */
const inputsLine = (r: BenchReport): string => {
  const i = r.inputs;
  if (i === undefined) return "Inputs: not recorded (a report written before bench/run.ts recorded them).";
  const uncommitted =
    i.uncommitted_inputs.length === 0
      ? `all as committed at ${i.commit.slice(0, 12)}`
      : `${i.uncommitted_inputs.length} of them not as committed at ${i.commit.slice(0, 12)} (${i.uncommitted_inputs.join(", ")}): the figures are of that commit plus those changes`;
  return `Inputs: ${i.files} files and ${Object.keys(i.packages).length} packages (INPUT_SETS.bench in conformance/evidence/inputs.ts), digest ${i.digest}, ${uncommitted}.`;
};

export const renderMarkdown = (r: BenchReport): string => {
  const m = r.machine;
  const met = r.goals.filter((g) => g.status === "met").length;
  return [
    "# Benchmark",
    "",
    `Written by \`npm run bench\` (bench/run.ts) on ${r.generated_at}${r.quick ? " in quick mode (BENCH_QUICK=1: small sizes, not comparable)" : ""}, in ${sig(r.duration_s)} s, for ${r.kit.name} ${r.kit.version}${r.kit.commit === null ? "" : ` at ${r.kit.commit.slice(0, 12)}`}.`,
    inputsLine(r),
    `Machine: ${m.cpus} × ${m.cpu_model}, ${mib(m.total_memory_bytes)}, Node ${m.node} on ${m.platform}; load average ${load(m.load_start)} at the start and ${load(m.load_end)} at the end (other processes share the machine: absolute figures are noisy, the ratios against baselines measured in the same run are what count).`,
    "",
    'Every figure is the median of several runs, with the min–max range in brackets (or "1 run" where one run takes long); every goal is a ratio against a baseline measured in the same run. The raw data is in `reports/bench.json`.',
    "",
    `## Goals (${met} of ${r.goals.length} met)`,
    "",
    goalsTable(r.goals),
    "",
    goalNotes(r.goals),
    "",
    "## Durable write",
    "",
    durableMd(r),
    "",
    "## Growth",
    "",
    growthMd(r),
    "",
    "## Runner overhead",
    "",
    runnerMd(r),
    "",
    "## Model, differential and exhaustive merge order-independence",
    "",
    modelMd(r),
    "",
    "## Digest",
    "",
    digestMd(r),
    "",
    "## Test suite, certification and sharding",
    "",
    suiteMd(r),
    "",
    "## Exploration",
    "",
    exploreMd(r),
    "",
    "## Wire logs",
    "",
    logMd(r),
    "",
    `Peak memory of the benchmark process itself (the in-process sections): ${mib(r.bench_peak_rss_bytes)}.`,
    "",
  ].join("\n");
};

/** The README's block: when, where, the goals table, and a pointer to the full report. */
export const renderReadmeBlock = (r: BenchReport): string => {
  const met = r.goals.filter((g) => g.status === "met").length;
  return [
    README_START,
    `Latest run: ${r.generated_at.slice(0, 10)}${r.kit.commit === null ? "" : ` at ${r.kit.commit.slice(0, 12)}`}, ${r.machine.cpus} × ${r.machine.cpu_model}, load average ${load(r.machine.load_start)} at the start; ${met} of ${r.goals.length} goals met. Why each short goal is short, the figures behind every ratio and the growth charts: [reports/bench.md](reports/bench.md).`,
    "",
    table(
      ["Goal", "Ratio", "Goal", "Status"],
      r.goals.map((g) => [g.name, ratio(g), g.goal.text, g.status]),
    ),
    README_END,
  ].join("\n");
};

/** Replaces the block between the markers; throws if the README lacks them. */
export const spliceReadme = (readme: string, block: string): string => {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${README_START} … ${README_END} block`);
  return `${readme.slice(0, a)}${block}${readme.slice(b + README_END.length)}`;
};
