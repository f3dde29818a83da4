/**
 * A shard's rows file: what one shard of `npm run mutants:wire-generated -- --all --shard i/n
 * --rows FILE` writes and `merge` reads. A full run takes hours, so the file is rewritten (write to
 * a temporary name, then rename: a crash leaves the old file or the new one, never half of one)
 * after every mutant with `complete: false`, and a rerun of the same shard with the same options,
 * selection and inputs resumes after the rows it holds; merge takes only finished shards.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { WireOptions, WireRow } from "./certify-one.ts";
import type { GeneratedDoc, ReportRow, Selection } from "./report.ts";

export interface ShardRows {
  readonly shard: { readonly index: number; readonly count: number };
  readonly options: WireOptions;
  readonly selection: Selection;
  readonly control: WireRow;
  readonly rows: readonly ReportRow[];
  readonly seconds: number;
  readonly inputs: unknown;
  /** False while the shard runs. */
  readonly complete: boolean;
}

/** What identifies a run: two shards of one run, or a shard and its resumption, agree on it. */
export type RunKey = Pick<ShardRows, "shard" | "options" | "selection" | "inputs">;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const digestOf = (inputs: unknown): unknown => (inputs as { digest?: unknown } | null)?.digest;

/** Writes `part` to `file` atomically. */
export const saveShard = (file: string, part: ShardRows): void => {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(part)}\n`);
  renameSync(`${file}.tmp`, file);
};

/** Why `file` cannot be resumed as the run `key` (null: it can), or "absent" when there is no such file. */
export const resumeProblem = (part: ShardRows, key: RunKey): string | null =>
  !same(part.shard, key.shard)
    ? "another shard"
    : !same(part.options, key.options)
      ? "other options"
      : !same(part.selection, key.selection)
        ? "another selection"
        : !same(digestOf(part.inputs), digestOf(key.inputs))
          ? "other inputs (the code changed since)"
          : null;

/** The earlier rows of the same run in `file`, or null (with the reason) when it is absent, unreadable or from another run. */
export const readResumable = (
  file: string,
  key: RunKey,
): { readonly part: ShardRows | null; readonly why: string | null } => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { part: null, why: null };
  }
  let part: ShardRows;
  try {
    part = JSON.parse(text) as ShardRows;
  } catch (e) {
    return { part: null, why: `${file} is not JSON (${(e as Error).message})` };
  }
  const problem = resumeProblem(part, key);
  return problem === null ? { part, why: null } : { part: null, why: `${file} is from ${problem}` };
};

/** The report of the merged shards, or the first reason they do not make one run. */
export const mergeShards = (
  files: readonly string[],
  parts: readonly ShardRows[],
  generatedAt: string,
): GeneratedDoc | string => {
  const first = parts[0];
  if (first === undefined) return "merge needs the rows files of the shards";
  const count = first.shard.count;
  for (const [i, p] of parts.entries()) {
    if (p.complete !== true)
      return `${files[i]}: the shard did not finish (${p.rows.length} rows); run it again with the same arguments to resume it`;
    if (p.shard.count !== count || resumeProblem(p, { ...first, shard: p.shard }) !== null) {
      return `${files[i]}: not a shard of the same run as ${files[0]} (shard count, options, selection or inputs differ)`;
    }
  }
  const indices = parts.map((p) => p.shard.index).sort((a, b) => a - b);
  if (!same(indices, [...Array(count).keys()]))
    return `merge needs every shard of ${count} once, got ${indices.map((i) => i + 1).join(", ")}`;
  return {
    report_version: 1,
    generated_at: generatedAt,
    options: first.options,
    selection: { ...first.selection, shards: count },
    controls: parts.map((p) => p.control),
    rows: parts.flatMap((p) => p.rows).sort((a, b) => (a.id < b.id ? -1 : 1)),
    seconds: Math.max(...parts.map((p) => p.seconds)),
    inputs: first.inputs,
  };
};
