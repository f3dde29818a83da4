/**
 * The generated mutants: what Stryker's instrumenter (the same mutators and the same ignorer as
 * `npm run stryker -- impl`, stryker/base.mjs) makes of impl/core/ and impl/durable/, as text
 * patches a copy of the implementation can be built from. Nobody wrote them knowing what the
 * runner checks, which is the point (issue 21): the wire kill matrix of these mutants measures the
 * certifier, where Stryker's own score measures the in-process test suite.
 *
 * A mutant's id is made from where it is and what it does (file, 1-based line and column, mutator,
 * a digest of the replacement and of the span it replaces), never from its position in the list,
 * so a row of a report names the same mutant after unrelated code elsewhere moved.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import type { Logger } from "@stryker-mutator/api/logging";
// @ts-expect-error: the ignorer is a plain ES module of the Stryker configuration, without types.
import { informativeTexts } from "../../../stryker/ignore-informative.mjs";
import { REPO_ROOT } from "../../transport/local.ts";

/** The files mutated: Stryker's `impl` scope (stryker/base.mjs MUTATE.impl), listed by git. */
export const MUTATED_GLOBS: readonly string[] = ["impl/core/", "impl/durable/"];

export interface Span {
  /** 0-based offsets into the file's text: the mutant replaces text[start, end). */
  readonly start: number;
  readonly end: number;
}

export interface GeneratedMutant {
  readonly id: string;
  /** Relative to the repository root, e.g. impl/core/ops/janma.ts. */
  readonly file: string;
  /** 1-based line and column of the span's start, as editors show them. */
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly span: Span;
  /** The text replaced and what replaces it. */
  readonly original: string;
  readonly replacement: string;
  /** Why the ignorer left it out (the informative texts of D-032), or null: it is run. */
  readonly ignored: string | null;
}

/** A logger that says only what is wrong: the instrumenter is quiet unless a file cannot be parsed. */
const quiet: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => void process.stderr.write(`stryker instrumenter: ${m}\n`),
  error: (m: string) => void process.stderr.write(`stryker instrumenter: ${m}\n`),
  fatal: (m: string) => void process.stderr.write(`stryker instrumenter: ${m}\n`),
};

/** Offsets of the start of each line (0-based lines). */
const lineStarts = (text: string): number[] => {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
};

const offsetOf = (starts: readonly number[], p: { line: number; column: number }, file: string): number => {
  const base = starts[p.line];
  if (base === undefined) throw new Error(`stryker instrumenter: ${file} has no line ${p.line + 1}`);
  return base + p.column;
};

const short = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 8);

/** The id of a mutant: where it is and what it does. */
export const mutantId = (
  file: string,
  line: number,
  column: number,
  mutator: string,
  original: string,
  replacement: string,
): string => `${file}:${line}:${column}:${mutator}:${short(`${original}\0${replacement}`)}`;

/** The mutated files (MUTATED_GLOBS, TypeScript sources, no tests), sorted. */
export const mutatedFiles = (root = REPO_ROOT): string[] => {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSorted(join(root, dir))) {
      const rel = `${dir}${name}`;
      if (name.endsWith("/")) walk(rel);
      else if (rel.endsWith(".ts") && !rel.endsWith(".test.ts") && !rel.endsWith(".d.ts")) out.push(rel);
    }
  };
  for (const g of MUTATED_GLOBS) walk(g);
  return out.sort();
};

import { readdirSync } from "node:fs";
const readdirSorted = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
    .sort();

/** Every mutant Stryker's mutators make of `files` (default: mutatedFiles()), in file and position order. */
export const generateMutants = async (
  files: readonly string[] = mutatedFiles(),
  root = REPO_ROOT,
): Promise<GeneratedMutant[]> => {
  const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), "utf8")]));
  const result = await new Instrumenter(quiet).instrument(
    files.map((f) => ({ name: join(root, f), content: texts.get(f) as string, mutate: true })),
    { plugins: null, ignorers: [informativeTexts], excludedMutations: [] },
  );
  const out: GeneratedMutant[] = [];
  const seen = new Set<string>();
  const starts = new Map<string, number[]>();
  for (const m of result.mutants) {
    const file = relative(root, m.fileName).split("\\").join("/");
    const text = texts.get(file);
    if (text === undefined) throw new Error(`stryker instrumenter: a mutant of ${m.fileName}, which was not given`);
    const ls = starts.get(file) ?? lineStarts(text);
    starts.set(file, ls);
    const span = { start: offsetOf(ls, m.location.start, file), end: offsetOf(ls, m.location.end, file) };
    const original = text.slice(span.start, span.end);
    const line = m.location.start.line + 1;
    const column = m.location.start.column + 1;
    const id = mutantId(file, line, column, m.mutatorName, original, m.replacement);
    if (seen.has(id)) continue; // the same text change reached twice (Stryker does this for nested optional chains): one mutant
    seen.add(id);
    const ignored =
      (m as { statusReason?: string; status?: string }).status === "Ignored"
        ? ((m as { statusReason?: string }).statusReason ?? "ignored")
        : null;
    out.push({ id, file, line, column, mutator: m.mutatorName, span, original, replacement: m.replacement, ignored });
  }
  return out;
};

/** The file's text with the mutant applied; refuses a mutant whose span no longer holds its original text. */
export const applyMutant = (m: GeneratedMutant, text: string): string => {
  if (text.slice(m.span.start, m.span.end) !== m.original)
    throw new Error(
      `mutant ${m.id}: ${m.file} changed since it was generated (the span no longer holds ${JSON.stringify(m.original.slice(0, 60))})`,
    );
  return text.slice(0, m.span.start) + m.replacement + text.slice(m.span.end);
};
