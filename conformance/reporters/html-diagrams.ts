/**
 * The Janma lifecycle and the RIPA migration drawn as state diagrams for `report.html`: Graphviz
 * (the WebAssembly build in @viz-js/viz, no network) renders DOT to SVG at report time, inlined in
 * the page. Transitions the campaign drove are highlighted with their counts (`class="covered"`);
 * the others are dashed and grey (`class="uncovered"`). A transition the certificate records that
 * the machine does not list is drawn too, in orange (`class="covered unlisted"`), never dropped.
 */
import { instance, type Viz } from "@viz-js/viz";
import type { CoveredTransition } from "../../spec/certificate.ts";
import type { MachineSpec } from "../oracle/transitions.ts";

let viz: Promise<Viz> | null = null;
const graphviz = (): Promise<Viz> => (viz ??= instance());

/** A DOT double-quoted string (backslashes too, so Graphviz's `\N`-style escapes cannot be injected). */
export const dotString = (s: string): string =>
  `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replace(/\r?\n/g, "\\n")}"`;

/** An op without its family prefix: `janma.birth` → `birth`. */
const shortOp = (op: string): string => op.replace(/^(janma|ripa)\./, "").replace(/^migration_/, "");

const COVERED = "#2563eb";
const UNLISTED = "#ea580c";

export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  readonly ops: readonly { readonly op: string; readonly count: number }[];
  readonly listed: boolean;
}

/** The edges to draw: every listed edge with its ops' counts, then any recorded transition the machine does not list. */
export const diagramEdges = (m: MachineSpec, transitions: readonly CoveredTransition[]): DiagramEdge[] => {
  const mine = transitions.filter((t) => t.machine === m.machine);
  const count = (from: string, to: string, op: string): number =>
    mine.filter((t) => t.from === from && t.to === to && t.op === op).reduce((a, t) => a + t.count, 0);
  const listed = m.edges.map((e) => ({
    from: e.from,
    to: e.to,
    ops: e.ops.map((op) => ({ op, count: count(e.from, e.to, op) })),
    listed: true,
  }));
  const extra = mine.filter((t) => !m.edges.some((e) => e.from === t.from && e.to === t.to && e.ops.includes(t.op)));
  return [
    ...listed,
    ...extra.map((t) => ({ from: t.from, to: t.to, ops: [{ op: t.op, count: t.count }], listed: false })),
  ];
};

export const machineDot = (m: MachineSpec, transitions: readonly CoveredTransition[]): string => {
  const edges = diagramEdges(m, transitions);
  const visited = new Set(edges.filter((e) => e.ops.some((o) => o.count > 0)).flatMap((e) => [e.from, e.to]));
  const lines = [
    `digraph ${dotString(m.machine)} {`,
    `  graph [rankdir=LR, bgcolor="transparent", fontname="Helvetica", pad="0.2", nodesep="0.45", ranksep="0.55"];`,
    `  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=12, margin="0.12,0.06"];`,
    `  edge [fontname="Helvetica", fontsize=10, arrowsize=0.7];`,
  ];
  for (const s of m.states) {
    const seen = visited.has(s);
    const shape = m.terminal.includes(s) ? ", peripheries=2" : s === m.initial ? ", shape=ellipse" : "";
    const group = m.spine.includes(s) ? `, group="spine"` : "";
    lines.push(
      `  ${dotString(s)} [id=${dotString(`${m.machine}-state-${s}`)}, class=${dotString(seen ? "visited" : "unvisited")}, fillcolor="${seen ? "#dbeafe" : "#f4f4f5"}", color="${seen ? COVERED : "#a1a1aa"}", fontcolor="${seen ? "#1e3a8a" : "#52525b"}"${shape}${group}];`,
    );
  }
  edges.forEach((e, i) => {
    const total = e.ops.reduce((a, o) => a + o.count, 0);
    const label = e.ops.map((o) => `${shortOp(o.op)} ×${o.count}`).join("\n");
    const covered = total > 0;
    const color = !e.listed ? UNLISTED : covered ? COVERED : "#a1a1aa";
    const cls = `${covered ? "covered" : "uncovered"}${e.listed ? "" : " unlisted"}`;
    const style = covered
      ? `penwidth=${Math.min(4, 1.4 + Math.log10(total + 1)).toFixed(2)}, style=solid`
      : "penwidth=1, style=dashed";
    lines.push(
      `  ${dotString(e.from)} -> ${dotString(e.to)} [id=${dotString(`${m.machine}-edge-${i}`)}, class=${dotString(cls)}, label=${dotString(label)}, color="${color}", fontcolor="${covered ? "#1e3a8a" : "#71717a"}", ${style}];`,
    );
  });
  lines.push("}");
  return lines.join("\n");
};

export interface Diagram {
  readonly machine: MachineSpec["machine"];
  readonly title: string;
  /** Inline SVG (no XML prolog, no doctype), or null when Graphviz failed (`error` says why). */
  readonly svg: string | null;
  readonly error: string | null;
  readonly edges: readonly DiagramEdge[];
}

/** Renders one machine to an inline SVG element. */
export const renderDiagram = async (m: MachineSpec, transitions: readonly CoveredTransition[]): Promise<Diagram> => {
  const edges = diagramEdges(m, transitions);
  let r: Awaited<ReturnType<Viz["render"]>>;
  try {
    r = (await graphviz()).render(machineDot(m, transitions), { format: "svg" });
  } catch (e) {
    // The page is still written, with the reason in place of the picture (and the counts table).
    return { machine: m.machine, title: m.title, svg: null, error: e instanceof Error ? e.message : String(e), edges };
  }
  if (r.status !== "success")
    return { machine: m.machine, title: m.title, svg: null, error: r.errors.map((e) => e.message).join("; "), edges };
  const svg = r.output
    .replace(/<\?xml[^>]*\?>\s*/g, "")
    .replace(/<!DOCTYPE[^>]*>\s*/g, "")
    .replace(/<!--[\s\S]*?-->\s*/g, "")
    // Inline SVG in HTML needs no namespace declarations (and the page then names no URL at all).
    .replace(/ xmlns(:xlink)?="[^"]*"/g, "")
    .replace("<svg ", `<svg role="img" aria-label="${m.title.replaceAll('"', "&quot;")}" `);
  return { machine: m.machine, title: m.title, svg, error: null, edges };
};
