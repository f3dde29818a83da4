/**
 * Renders spec/CHECKS.md (a table per operation) and spec/checks.json from spec/checks.ts, so
 * an implementer in any language can read every check clause, its order and its code.
 */
import { errorCodeOf, isInvariantId } from "./catalog.ts";
import { CHECKS, QUIESCED_OPS, type CheckClause, type CheckTarget } from "./checks.ts";

const codeOf = (t: CheckTarget): string => (isInvariantId(t) ? errorCodeOf(t) : t);

const outcome = (c: CheckClause): string =>
  c.targets.length === 0
    ? "accepted (no-op branch)"
    : c.targets.map((t) => (isInvariantId(t) ? `${t} \`${codeOf(t)}\`` : `\`${t}\``)).join(" / ");

const cell = (s: string): string => s.replace(/\|/g, "\\|");

export const renderChecksJson = (): string =>
  `${JSON.stringify(
    {
      quiesced_ops: QUIESCED_OPS,
      checks: CHECKS.map((c) => ({
        id: c.id,
        clause: c.clause,
        index: c.index,
        op: c.op,
        ops: c.ops,
        text: c.text,
        outcomes: c.targets.map((t) => ({ code: codeOf(t), invariant: isInvariantId(t) ? t : null })),
        ...(c.unreachable === undefined ? {} : { unreachable: c.unreachable }),
        ...(c.alwaysRejects === true ? { always_rejects: true } : {}),
        ...(c.protects === undefined ? {} : { protects: c.protects }),
      })),
    },
    null,
    2,
  )}\n`;

export const renderChecksMarkdown = (): string => {
  const lines = [
    "<!-- Generated from spec/checks.ts by `npm run spec:generate`. Do not edit. -->",
    "# Check clauses",
    "",
    'Every check of `spec/OPERATIONS.md`, one row per item of a clause\'s "Checks:" list, in the order the',
    "checks apply (OP-0.2, D-032): the first failing check decides the rejection. `OP-2.3.c5` is the fifth",
    "item of OP-2.3's list. A command first passes the common checks of OP-0.2 (and, for a migration phase",
    "command, the migration lookup of OP-7), then its operation's own list. `spec/checks.test.ts` keeps",
    "this table and the prose in step; `spec/checks.json` holds the same data.",
    "",
    `Quiescence-guarded operations (OP-0.4, I4): ${QUIESCED_OPS.map((o) => `\`${o}\``).join(", ")}.`,
    "",
  ];
  const groups = new Map<string, CheckClause[]>();
  for (const c of CHECKS) {
    const key = c.op === null ? `${c.clause} (shared)` : `${c.clause} \`${c.op}\``;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [title, rows] of groups) {
    lines.push(`## ${title}`, "");
    if (rows[0]?.op === null) lines.push(`Applies to: ${rows[0].ops.map((o) => `\`${o}\``).join(", ")}.`, "");
    lines.push("| Check | Condition | Rejects with |", "|---|---|---|");
    for (const c of rows) {
      const unreachable =
        c.unreachable === undefined ? "" : ` (never fails against a conforming system: ${c.unreachable})`;
      const protects =
        c.protects === undefined
          ? ""
          : `; a disagreement here is attributed to ${c.protects.invariant} (D-035): ${c.protects.why}`;
      const note = unreachable + protects;
      lines.push(`| ${c.id} | ${cell(c.text)} | ${cell(outcome(c))}${cell(note)} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
};
