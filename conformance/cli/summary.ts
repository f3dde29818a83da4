/**
 * The human summary printed at the end of `srk certify`: stages, the 19 invariants, the result,
 * and each counterexample as the commands sent with the failing step's expected and actual reply.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Certificate, CounterexampleRef, PortableTrace } from "../../spec/certificate.ts";
import { readTrace } from "../trace/trace.ts";
import { countsText, describeResult } from "../verdicts/decide.ts";

const pad = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

const clip = (v: unknown, n = 300): string => {
  const t = JSON.stringify(v);
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

/** A counterexample as a person reads it: the commands sent (numbered), then the failing step. */
export const renderStory = (t: PortableTrace, maxSteps = 12): string[] => {
  const out: string[] = [];
  const fail = t.failing_step ?? t.steps.length - 1;
  const from = Math.max(0, fail + 1 - maxSteps);
  if (from > 0) out.push(`    … ${from} earlier request(s), see the trace file`);
  t.steps.slice(from, fail + 1).forEach((s, k) => {
    const i = from + k;
    const r = s.request as { type?: string; command?: { op?: string }; query?: { name?: string } };
    const what =
      r.type === "command"
        ? (r.command?.op ?? "command")
        : r.type === "query"
          ? `query ${r.query?.name ?? ""}`
          : (r.type ?? "?");
    out.push(`    ${String(i + 1).padStart(3)}. ${what}${i === fail ? "   <- fails here" : ""}`);
  });
  const last = t.steps[fail];
  if (last !== undefined) {
    out.push(`    request:  ${clip(last.request)}`);
    out.push(`    expected: ${clip(last.expected)}`);
    out.push(`    actual:   ${clip(last.actual)}`);
  }
  if (t.difference !== null) out.push(`    first difference: ${t.difference}`);
  return out;
};

const story = (x: CounterexampleRef, certificatePath: string): string[] => {
  if (x.trace_file === null) return [];
  const file = join(dirname(certificatePath), x.trace_file);
  if (!existsSync(file)) return [];
  try {
    return renderStory(readTrace(file));
  } catch {
    return [`    (trace ${file} could not be read)`];
  }
};

export const renderSummary = (c: Certificate, certificatePath: string): string => {
  const lines: string[] = [];
  lines.push(`srk certify — ${c.implementation.name ?? "(no handshake)"} ${c.implementation.version ?? ""}`.trimEnd());
  const prof = c.implementation.profile;
  lines.push(
    `profile: ${prof === null ? "unknown" : `[${prof.families.join(", ")}], crash hook ${prof.crash_hook ? "yes" : "no"}`}; seed ${c.settings.seed}, ${c.settings.runs} runs; ${(c.duration_ms / 1000).toFixed(1)} s`,
  );
  lines.push("");
  lines.push(`${pad("stage", 14)}${pad("verdict", 16)}${pad("checks", 8)}${pad("time", 9)}reason`);
  for (const s of c.stages)
    lines.push(
      `${pad(s.stage, 14)}${pad(s.verdict, 16)}${pad(String(s.checks), 8)}${pad(`${(s.duration_ms / 1000).toFixed(1)} s`, 9)}${pad(s.reason, 90)}`,
    );
  lines.push("");
  lines.push(
    `${pad("invariant", 11)}${pad("verdict", 16)}${pad("accepted", 10)}${pad("rejected", 10)}${pad("crash", 7)}${pad("algebra", 9)}${pad("forget", 8)}reason`,
  );
  for (const i of c.invariants) {
    const w = i.witnesses;
    const v = `${i.verdict}${i.expected_failure ? " (exp.)" : ""}`;
    lines.push(
      `${pad(i.invariant, 11)}${pad(v, 16)}${pad(String(w.accepted), 10)}${pad(String(w.rejected), 10)}${pad(String(w.crash_cuts), 7)}${pad(String(w.algebra), 9)}${pad(String(w.forgetting), 8)}${pad(i.reason, 80)}`,
    );
  }
  lines.push("");
  lines.push(countsText(c));
  for (const i of c.invariants) {
    for (const x of i.counterexamples) {
      lines.push(`${i.invariant}: ${x.summary}`);
      lines.push(...story(x, certificatePath));
      if (x.replay !== null) lines.push(`  replay: ${x.replay}`);
    }
  }
  for (const s of c.stages)
    for (const f of s.findings.filter((x) => x.invariant === null)) lines.push(`${s.stage}: ${f.summary}`);
  if (c.baseline.stale.length > 0)
    lines.push(`stale baseline entries (they pass now; remove them): ${c.baseline.stale.join(", ")}`);
  for (const f of c.implementation_faults) lines.push(`implementation fault: ${f.split("\n").join("\n  ")}`);
  for (const f of c.harness_faults)
    lines.push(`harness fault (a bug of the runner): ${f.split("\n").slice(0, 6).join("\n  ")}`);
  // Worded by decide.ts from the facts the result was decided from, so the two cannot disagree.
  lines.push(`result: ${describeResult(c)}`);
  lines.push(`certificate: ${certificatePath}`);
  return `${lines.join("\n")}\n`;
};
