/**
 * Which operations raise which error code, read from the normative prose: the per-operation check
 * lists of spec/OPERATIONS.md ("check → CODE" or "→ else J-1"), the common checks of OP-0.2 (schema,
 * tick, agent lookup) and the quiescence list of OP-0.4; and, for the wire codes, the W-4 table of
 * spec/wire/PROTOCOL.md. reports/operations.test.ts checks the reading against every rejection of
 * the golden sessions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMAND_OPS } from "../spec/schemas/commands.ts";
import { invariant, isInvariantId } from "../spec/catalog.ts";
import { REPO_ROOT } from "./paths.ts";

export const OPERATIONS_MD = "spec/OPERATIONS.md";
export const PROTOCOL_MD = "spec/wire/PROTOCOL.md";

export interface OperationDoc {
  readonly op: string;
  /** The clause number, e.g. OP-2.1. */
  readonly clause: string;
  /** The Markdown heading under which the operation is specified (its anchor). */
  readonly heading: string;
  /** The codes its checks reject with, in the order they first appear (OP-0.2 common checks first). */
  readonly codes: readonly string[];
}

const OP_START = /^(?:### (OP-[\d.]+) `([a-z_.]+)`|- \*\*(OP-[\d.]+) `([a-z_.]+)`\*\*)/;
const HEADING = /^(#{1,6}) (.*)$/;
/** "→ J-1", "→ else AD-4", "→ `NOT_FOUND`", "→ else `DUPLICATE_ID`", "always rejected with AD-2" */
const ARROW = /(?:→\s+(?:else\s+)?|rejected with\s+)`?([A-Z]{1,2}-\d|I\d|[A-Z][A-Z_]*[A-Z])\b`?/g;

const codeOf = (token: string): string => (isInvariantId(token) ? invariant(token).errorCode : token);

/** The ops listed in OP-0.4 as rejected with I4 while a migration is in progress. */
const quiescedOps = (text: string): string[] => {
  const start = text.indexOf("**OP-0.4 Quiescence (I4).**");
  const end = text.indexOf("stay allowed", start);
  if (start < 0 || end < 0) throw new Error(`${OPERATIONS_MD}: the OP-0.4 quiescence list was not found`);
  const para = text.slice(text.indexOf("right after the agent lookup:", start), end);
  return [...para.matchAll(/`([a-z]+\.[a-z_]+)`/g)]
    .map((m) => m[1] ?? "")
    .filter((op) => (COMMAND_OPS as readonly string[]).includes(op));
};

export const readOperations = (markdown = readFileSync(join(REPO_ROOT, OPERATIONS_MD), "utf8")): OperationDoc[] => {
  const lines = markdown.split("\n");
  const quiesced = new Set(quiescedOps(markdown));
  const found: { op: string; clause: string; heading: string; body: string[] }[] = [];
  let heading = "";
  let current: (typeof found)[number] | null = null;
  for (const line of lines) {
    const start = OP_START.exec(line);
    const h = HEADING.exec(line);
    if (start !== null) {
      const op = start[2] ?? start[4] ?? "";
      if (h !== null) heading = h[2] ?? "";
      current = { op, clause: start[1] ?? start[3] ?? "", heading, body: [line] };
      found.push(current);
      continue;
    }
    if (h !== null) {
      heading = h[2] ?? "";
      current = null;
      continue;
    }
    current?.body.push(line);
  }
  return found.map(({ op, clause, heading: hd, body }) => {
    const own = [...body.join(" ").matchAll(ARROW)].map((m) => codeOf(m[1] ?? ""));
    const common = [
      "MALFORMED",
      "TICK_REGRESSED",
      ...(op === "advaita.mint" ? [] : ["NOT_FOUND"]),
      ...(quiesced.has(op) ? [codeOf("I4")] : []),
    ];
    return { op, clause, heading: hd, codes: [...new Set([...common, ...own])] };
  });
};

/** Operations raising each code, in the order of spec/OPERATIONS.md. */
export const operationsByCode = (ops: readonly OperationDoc[]): ReadonlyMap<string, readonly OperationDoc[]> => {
  const m = new Map<string, OperationDoc[]>();
  for (const o of ops) for (const c of o.codes) m.set(c, [...(m.get(c) ?? []), o]);
  return m;
};

export interface WireCodeRow {
  readonly order: string;
  readonly code: string;
  readonly when: string;
  readonly id: string;
}

/** The rows of the W-4 table, one per code (a row naming two codes is split in two). */
export const readWireTable = (markdown = readFileSync(join(REPO_ROOT, PROTOCOL_MD), "utf8")): WireCodeRow[] => {
  const start = markdown.indexOf("## W-4 Wire error codes");
  const section = markdown.slice(start, markdown.indexOf("\n## ", start + 1));
  const rows: WireCodeRow[] = [];
  for (const line of section.split("\n")) {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const [order, codes, when, id] = cells;
    if (
      cells.length !== 4 ||
      order === undefined ||
      codes === undefined ||
      when === undefined ||
      id === undefined ||
      !codes.startsWith("`")
    )
      continue;
    const names = codes.split(" / ").map((c) => c.replaceAll("`", ""));
    const whens = when.split(" / ");
    names.forEach((code, i) =>
      rows.push({ order, code, when: names.length === whens.length ? (whens[i] ?? when) : when, id }),
    );
  }
  return rows;
};
