/**
 * What `srk check-log` prints: the result and its exit code first, the counts that decided it
 * (compared, left unchecked and why), each violation with the line, the invariant, what the model
 * answers there and the session that leads to it, then the invariants the log witnessed. With the
 * search for unlogged commands (L-2.4) on, its statistics and explanations come after the counts,
 * and each violation says how the search ended, since a consistent result then rests on them.
 */
import type { LogCheck, LogViolation } from "./check.ts";
import { shellWord as shq } from "../core/shell.ts";

/** Why the search for unlogged commands (L-2.4) did not explain a violation. */
const SEARCH_END: Readonly<Record<NonNullable<LogViolation["search"]>, (c: LogCheck) => string>> = {
  "gave-up": (c) =>
    `the search for unlogged commands gave up: its budget of ${c.search?.budget ?? "?"} states ran out before it decided (the violation stands undecided by the search)`,
  unexplained: (c) =>
    `no sequence of at most ${c.search?.unlogged ?? "?"} alphabet commands at any candidate gap explains it`,
  "no-gap": () =>
    "no candidate seq gap before it (in this session, at or after its latest explanation's gap, within the last 1,000 requests), so no unlogged command may be inserted (L-2.4)",
};

const short = (v: unknown, max = 600): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
};

/** `traces[k]`: the trace file written for violation k, if any. */
export const renderLogCheck = (file: string, c: LogCheck, traces: readonly (string | undefined)[] = []): string => {
  const out: string[] = [];
  const compared = c.checked.replies + c.checked.worlds;
  const head =
    c.result === "violations"
      ? `violations (exit 1): ${c.violations.length} reply(s) no behaviour of the model explains`
      : c.result === "nothing-checked"
        ? "nothing checked (exit 2): the log holds no reply the model decides"
        : `consistent (exit 0): every one of the ${compared} compared replies is the model's${(c.search?.explanations.length ?? 0) > 0 ? `, given the ${c.search?.explanations.length} explanation(s) by unlogged commands below (L-2.4)` : ""}`;
  out.push(`srk check-log ${file}: ${head}`);
  out.push(
    `  log: ${c.entries} entries, ${c.requests} requests, ${c.replies} replies, ${c.sessions} session(s); recorder ${c.header.recorder}${c.header.impl === null ? "" : `, impl ${c.header.impl}`}`,
  );
  out.push(
    `  profile: ${c.profile === null ? "unknown (no successful hello in the log: every family's commands are checked)" : `[${c.profile.join(", ")}]`}`,
  );
  out.push(`  compared: ${c.checked.replies} command replies, ${c.checked.worlds} world views`);
  const u = c.unchecked;
  out.push(
    `  not compared: ${u.no_reply} without a reply in the log, ${u.wire_level} wire-level (hello, reset, wire errors, other queries), ${u.agent_not_in_log} of agents the log never mints, ${u.after_violation} after a violation`,
  );
  if (c.seq_gaps > 0)
    out.push(
      `  the log skips entries ${c.seq_gaps} time(s) (seq gaps): it is partial, and only what it holds was checked`,
    );
  if (c.search !== undefined) {
    const s = c.search;
    out.push(
      `  unlogged commands (L-2.4): up to ${s.unlogged} at a seq gap, from an alphabet of ${s.alphabet} command(s), at most ${s.budget} states per search: ${s.searches} search(es), ${s.states_visited} states visited, ${s.explained} explained, ${s.unexplained} unexplained, ${s.gave_up} gave up (budget exhausted), max depth ${s.max_depth}`,
    );
    for (const x of s.explanations) {
      const cmds = x.inserted
        .map((k) => `${String((k as { op?: unknown }).op)}@${String((k as { tick?: unknown }).tick)}`)
        .join(", ");
      out.push(
        `  explained: ${x.inserted.length} unlogged command(s) before line ${x.line} [${cmds}] make the model answer up to line ${x.explains_line}`,
      );
    }
  }
  for (const g of c.gaps)
    out.push(
      `  gap: agent ${g.agent} is used from line ${g.line} but never minted in the log; its commands were not checked`,
    );
  for (const v of c.violations) {
    out.push("", `violation at line ${v.line} (request at line ${v.request_line}, id ${short(v.id)}): ${v.invariant}`);
    out.push(`  ${v.summary}`);
    out.push(`  the model answers: ${short(v.expected)}`);
    out.push(
      `  context: lines ${v.context.from_line}-${v.context.to_line}, ${v.context.requests} request(s) of this session`,
    );
    if (v.search !== undefined) out.push(`  search: ${SEARCH_END[v.search](c)}`);
    const t = traces[c.violations.indexOf(v)];
    if (t !== undefined)
      out.push(
        `  replay: npx srk replay ${shq(t)} --impl ${shq(c.header.impl ?? "<your implementation's command line>")}`,
      );
  }
  const witnessed = c.invariants.filter((i) => i.accepted + i.rejected > 0 && i.violations === 0);
  const failed = c.invariants.filter((i) => i.violations > 0);
  out.push(
    "",
    `invariants: ${failed.length} violated${failed.length === 0 ? "" : ` (${failed.map((i) => i.invariant).join(", ")})`}, ${witnessed.length} witnessed without a violation, ${c.invariants.length - failed.length - witnessed.length} not exercised by this log`,
  );
  for (const i of c.invariants)
    if (i.accepted + i.rejected + i.violations > 0)
      out.push(
        `  ${i.invariant}: ${i.accepted} accepted, ${i.rejected} agreed rejections, ${i.violations} violation(s)`,
      );
  return `${out.join("\n")}\n`;
};
