/**
 * The committed sample certificate of the bundled implementation (`docs/examples/certificate/`,
 * written by `npm run docs:sample`, i.e. reports/sample-certificate.ts) and what it was made from:
 * the paths, the digests of its inputs (`inputs.json` beside it) and the re-rendering of its
 * reports. Shared by the script that writes the sample and by reports/sample-certificate.test.ts,
 * which fails when the sample is stale. Nothing here runs a certification.
 *
 * The inputs are the files that can change the certificate's verdicts, witnesses, checks and
 * coverage: every module the certification runs — the runner (from `conformance/certify.ts`) and
 * the implementation (from `impl/main.ts`, its command line) — found by following their imports
 * (read with the TypeScript parser; `import type` left out: it loads nothing), the golden
 * transcripts the golden stage reads, and the installed version of every package those modules
 * import (fast-check draws the generated runs, better-sqlite3 stores the implementation's data).
 * Following imports, not a list of folders, keeps the set exact as files are added or split: a
 * test file, a script or a report the certification never loads is not an input, and a new module
 * it loads is one from the day it is imported. The spec's normative files are not digested here:
 * the certificate carries their digest (`kit.spec_digest`), which the test compares directly.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import ts from "typescript";
import type { Certificate } from "../spec/certificate.ts";
import { loadReportInput } from "../conformance/reporters/common.ts";
import { renderDiagrams, renderHtml } from "../conformance/reporters/html.ts";
import { renderJunit } from "../conformance/reporters/junit.ts";
import { renderMarkdown } from "../conformance/reporters/markdown.ts";
import { REPORT_FILES } from "../conformance/reporters/write.ts";
import { REPO_ROOT } from "./paths.ts";

/** Where the sample lives, relative to the repository root. */
export const SAMPLE_DIR = "docs/examples/certificate";
export const SAMPLE_CERTIFICATE = `${SAMPLE_DIR}/certificate.json`;
export const SAMPLE_INPUTS = `${SAMPLE_DIR}/inputs.json`;
/** The one command that writes the sample again (package.json `docs:sample`). */
export const REGENERATE = "npm run docs:sample";
/** The bundled implementation's command line, as `npm start` runs it. */
export const SAMPLE_IMPL = "node --import tsx impl/main.ts";

/**
 * Where the certification starts: the runner's entry and the implementation's. Every module they
 * import, transitively, is an input.
 */
export const ENTRY_POINTS = ["conformance/certify.ts", "impl/main.ts"] as const;

/**
 * Modules the certification loads that cannot change the certificate, left out so that editing
 * them does not call for a new certification (a few minutes):
 * - conformance/reporters/: report.md, report.html and junit.xml are pure functions of the
 *   certificate; the test re-renders them from the committed certificate.json and compares them
 *   byte for byte, so a reporter change is caught there, and fixed without certifying again.
 * - conformance/cli/out-dir.ts (which folder is written) and conformance/cli/progress.ts (what
 *   is printed on stderr): neither reaches the certificate's content.
 */
export const NOT_INPUTS: readonly string[] = ["conformance/reporters/", "conformance/cli/out-dir.ts", "conformance/cli/progress.ts"];

/** Data files the certification reads at run time, not by import: the golden transcripts. */
const dataInputs = (): string[] =>
  readdirSync(join(REPO_ROOT, "conformance/golden")).filter((f) => f.endsWith(".jsonl")).map((f) => `conformance/golden/${f}`);

const BUILTINS = new Set(builtinModules);

/** The specifiers a module imports at run time: static imports and re-exports (less `import type` and `export type`) and dynamic `import()`. */
export const runtimeImports = (file: string, text: string): string[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      // Under verbatimModuleSyntax (tsconfig.json) only `import type` is erased: `import { type A }`
      // still loads the module.
      if (node.importClause?.isTypeOnly !== true) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg !== undefined && ts.isStringLiteralLike(arg)) out.push(arg.text);
      else throw new Error(`${file}: an import() of a computed name; reports/sample-inputs.ts cannot follow it`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
};

/** The package a bare specifier names: `fast-check`, `@noble/hashes` (of `@noble/hashes/sha2.js`). */
const packageName = (spec: string): string => {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
};

/** The installed version of a package, as Node resolves it from the importing file. */
const installedVersion = (pkg: string, fromFile: string): string => {
  for (let dir = dirname(join(REPO_ROOT, fromFile)); ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", pkg, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (dirname(dir) === dir) break;
  }
  // Fall back on Node's resolution (a package whose manifest is not at the top of node_modules).
  const req = createRequire(join(REPO_ROOT, fromFile));
  return (JSON.parse(readFileSync(req.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version;
};

export interface SampleInputs {
  /** SHA-256 (hex) of each input file, by path relative to the repository root, sorted. */
  readonly files: Readonly<Record<string, string>>;
  /** Installed version of each package the inputs import, sorted. */
  readonly packages: Readonly<Record<string, string>>;
}

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(join(REPO_ROOT, path))).digest("hex");

/** The inputs of a certification of the bundled implementation, as they are now. */
export const currentInputs = (): SampleInputs => {
  const modules = new Set<string>();
  const packages = new Map<string, string>();
  const excluded = (f: string): boolean => NOT_INPUTS.some((x) => (x.endsWith("/") ? f.startsWith(x) : f === x));
  const queue: string[] = [...ENTRY_POINTS];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (modules.has(file) || excluded(file)) continue;
    modules.add(file);
    if (!/\.(ts|mts|js|mjs)$/.test(file)) continue; // a JSON module: an input, with nothing to follow
    for (const spec of runtimeImports(file, readFileSync(join(REPO_ROOT, file), "utf8"))) {
      if (spec.startsWith("node:") || BUILTINS.has(spec)) continue;
      if (spec.startsWith(".")) {
        const target = resolve(REPO_ROOT, dirname(file), spec);
        if (!target.startsWith(REPO_ROOT + sep)) throw new Error(`${file} imports ${spec}, outside the repository`);
        if (!existsSync(target)) throw new Error(`${file} imports ${spec}, which does not exist`);
        queue.push(relative(REPO_ROOT, target).split(sep).join(posix.sep));
      } else {
        const pkg = packageName(spec);
        if (!packages.has(pkg)) packages.set(pkg, installedVersion(pkg, file));
      }
    }
  }
  const files = [...modules, ...dataInputs()].sort();
  return {
    files: Object.fromEntries(files.map((f) => [f, sha256(f)])),
    packages: Object.fromEntries([...packages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
};

/** What `inputs.json` records beside the sample. */
export interface SampleRecord extends SampleInputs {
  readonly generated_by: string;
  /** The commit the sample was certified at (HEAD then), and the input files that differed from it. */
  readonly commit: string;
  readonly uncommitted_inputs: readonly string[];
  readonly node: string;
  readonly settings: { readonly impl: string; readonly seed: number; readonly runs: number; readonly time_budget_seconds: number };
}

export const readSampleRecord = (): SampleRecord | null => {
  const file = join(REPO_ROOT, SAMPLE_INPUTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SampleRecord) : null;
};

/** The differences between recorded and current inputs, one line each (empty when the sample is current). */
export const inputChanges = (recorded: SampleInputs, now: SampleInputs): string[] => {
  const diff = (kind: string, a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>, show: (x: string) => string): string[] => [
    ...Object.keys(b).filter((k) => !(k in a)).map((k) => `${kind} added: ${k}${show(b[k] ?? "")}`),
    ...Object.keys(a).filter((k) => !(k in b)).map((k) => `${kind} removed: ${k}`),
    ...Object.keys(a).filter((k) => k in b && a[k] !== b[k]).map((k) => `${kind} changed: ${k}${show(`${a[k] ?? ""} -> ${b[k] ?? ""}`)}`),
  ];
  return [...diff("file", recorded.files, now.files, () => ""), ...diff("package", recorded.packages, now.packages, (v) => ` ${v}`)].sort();
};

/** The reports the current reporters render from a certificate whose folder is `dir` (traces are read from there). */
export const renderSampleReports = async (certificate: Certificate, dir = join(REPO_ROOT, SAMPLE_DIR)): Promise<Record<string, string>> => {
  const input = loadReportInput(certificate, join(dir, "certificate.json"));
  return {
    [REPORT_FILES.junit]: renderJunit(input),
    [REPORT_FILES.markdown]: renderMarkdown(input),
    [REPORT_FILES.html]: renderHtml(input, await renderDiagrams(certificate)),
  };
};
