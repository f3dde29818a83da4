/**
 * Reads the "Checks:" lists of OPERATIONS.md as data, so that `spec/checks.ts` (the table every
 * tool uses) can be compared with the prose item by item (spec/checks.test.ts). Only the drift
 * test and the table's bootstrap use it; nothing normative is computed from the prose.
 */
import { readFileSync } from "node:fs";

/** One "Checks:" list item of OPERATIONS.md: its clause, operation and "→" targets in order. */
export interface ProseCheck {
  readonly clause: string;
  readonly op: string;
  readonly index: number;
  readonly text: string;
  /** The codes or invariant ids after each "→" (an item with "a → X, b → Y" has two). */
  readonly targets: readonly string[];
}

const TARGET = /→\s*(?:else\s+)?`?([A-Z][A-Z0-9_-]*\d?|[A-Z]+-\d|I\d)`?/g;

/** The targets of one item; a bare "quiescence" item names I4 (OP-0.4). */
export const targetsOf = (item: string): string[] => {
  const found = [...item.matchAll(TARGET)].map((m) => m[1] as string);
  if (found.length > 0) return found;
  if (/^quiescence\b/.test(item)) return ["I4"];
  const always = /always rejected with ([A-Z]+-\d|I\d)/.exec(item);
  return always === null ? [] : [always[1] as string];
};

/**
 * Every operation clause with a "Checks:" list, in document order. A clause is either a
 * `### OP-x.y \`op\`` section or a `- **OP-x.y \`op\`** — checks: …` bullet; its list runs from
 * "Checks" to the first sentence end (". " or the end of the clause).
 */
export const parseOperationChecks = (markdown: string): ProseCheck[] => {
  const out: ProseCheck[] = [];
  const heads = [...markdown.matchAll(/^(?:### |- \*\*)(OP-\d+\.\d+) `([a-z_.]+)`/gm)];
  heads.forEach((h, k) => {
    const start = h.index ?? 0;
    const end = k + 1 < heads.length ? (heads[k + 1]?.index ?? markdown.length) : markdown.length;
    const body = markdown.slice(start, end).replace(/\s+/g, " ");
    const m = /[Cc]hecks(?:, in order)?:\s*(.*?)(?:\.\s|\.$|$)/.exec(body);
    if (m === null) return;
    const list = (m[1] ?? "")
      .split(";")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    list.forEach((text, i) =>
      out.push({ clause: h[1] as string, op: h[2] as string, index: i + 1, text, targets: targetsOf(text) }),
    );
  });
  return out;
};

/** OP-0.2's numbered common checks "(1) schema → MALFORMED; (2) …", in order. */
export const parseCommonChecks = (markdown: string): ProseCheck[] => {
  const m = /\*\*OP-0\.2 Check order\.\*\*(.*?)The first failing check/s.exec(markdown);
  const body = (m?.[1] ?? "").replace(/\s+/g, " ");
  return [...body.matchAll(/\((\d)\)\s*([^;]*)/g)]
    .map((x) => ({
      clause: "OP-0.2",
      op: "*",
      index: Number(x[1]),
      text: (x[2] ?? "").trim(),
      targets: targetsOf(x[2] ?? ""),
    }))
    .filter((x) => x.targets.length > 0);
};

/** OP-0.4's list of quiescence-guarded operations. */
export const parseQuiescedOps = (markdown: string): string[] => {
  const m = /\*\*OP-0\.4 Quiescence \(I4\)\.\*\*(.*?)Withdrawal,/s.exec(markdown);
  return [...(m?.[1] ?? "").matchAll(/`([a-z]+\.[a-z_]+)`/g)].map((x) => x[1] as string);
};

export const readOperations = (): string => readFileSync(new URL("./OPERATIONS.md", import.meta.url), "utf8");
