/**
 * What each piece of committed generated evidence is made from, and whether it still is.
 *
 * A generator records `inputsOf(artifact)` beside what it writes: the commit it ran at, the SHA-256
 * of every input file and the installed version of every package its modules import. A test calls
 * `staleInputs(artifact, recorded)`, which computes the same inputs again from the working tree and
 * names each one that changed since, with the command that regenerates the artifact. Nothing here
 * generates anything or runs a certification: it reads files (seconds).
 *
 * An input set (INPUT_SETS) is a list of patterns, each of one kind:
 *   "imports:<file>"   the module and every module it imports at run time, transitively (static
 *                      imports, re-exports and `import()`; `import type` and `export type` are
 *                      erased, so they load nothing), with the installed version of every package
 *                      those modules import. Following imports, not a list of folders, keeps the set
 *                      exact as files are added or split: a test, a script or a report the generator
 *                      never loads is not an input, and a new module it loads is one from the day it
 *                      is imported.
 *   "<dir>/"           every file under the folder (names starting with "." and node_modules left out);
 *   "<dir>/*<suffix>"  the files directly in the folder whose name ends with the suffix;
 *   "<dir>/**\/*<suffix>" the same, in the folder and every folder under it;
 *   "<file>"           that file (it must exist);
 *   "!<path>"          not an input, though a pattern above takes it in: the file itself, or, for
 *                      "!<dir>/", every file under the folder. A left-out module's imports are not
 *                      followed either.
 *   "computed:<file>"  the module's `import()` of a computed name is accounted for: what it loads is
 *                      named by another pattern of the set. Without it such an import() is an error,
 *                      since the set could not be told complete.
 * Data a generator reads at run time (golden transcripts, a committed certificate) is named by a
 * file or folder pattern: imports do not reach it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join, posix } from "node:path";
import ts from "typescript";
import { KIT_ROOT as REPO_ROOT } from "../kit-root.ts";

/** The committed generated evidence whose inputs are recorded and checked. */
export type Artifact = "sample-certificate" | "mutants" | "mutants-generated" | "invariants" | "bench" | "guide";
export const ARTIFACTS: readonly Artifact[] = [
  "sample-certificate",
  "mutants",
  "mutants-generated",
  "invariants",
  "bench",
  "guide",
];

/** The runner's modules that cannot change what a certification decides, left out of the sets that run one. */
const NOT_DECIDING = [
  // report.md, report.html and junit.xml are pure functions of the certificate: a reporter change
  // changes no verdict (the sample's reports are re-rendered and compared by their own test).
  "!conformance/reporters/",
  // Which folder is written (reporters/out-dir.ts, left out above) and what is printed on stderr
  // never reach a certificate's content.
  "!conformance/core/progress.ts",
] as const;

/**
 * This module, which generators import to record their inputs: it decides what is recorded, not
 * what is generated, so editing it does not make the evidence stale (a changed INPUT_SETS shows as
 * added or removed inputs anyway).
 */
const RECORD_KEEPING = "!conformance/evidence/inputs.ts";

/**
 * The inputs of each artifact: every file that can change what its generator writes.
 *
 * - sample-certificate (docs/examples/certificate/, `npm run docs:sample`): the runner (from
 *   conformance/certify.ts) decides what is sent, expected and counted; the implementation (from
 *   impl/main.ts, its command line) gives the replies; the golden transcripts are read at run time.
 *   The spec's normative Markdown and JSON are not listed: the certificate carries their digest
 *   (`kit.spec_digest`), which reports/sample-certificate.test.ts compares directly.
 * - mutants (reports/mutants.json and .md, `npm run mutants`): the matrix script and what it
 *   imports (the mutant catalog properties/mutants/catalog.ts, the harness that patches a copy of
 *   impl/, the runner that certifies each mutant, the matrix renderer), the implementation that is
 *   copied and patched (every module impl/main.ts and impl/api.ts load; the spec modules they import
 *   are linked into the copy), and the golden transcripts. The spec's Markdown is not read by any of
 *   them, so a wording change does not call for the matrix's quarter of an hour again.
 * - mutants-generated (reports/mutants-generated.json and .md, `npm run mutants:wire-generated`):
 *   the script and what it imports (Stryker's instrumenter through the generator, the ignorer of
 *   informative texts, the compile check, the harness, the runner), the TypeScript project the
 *   compile check reads, the implementation that is mutated, and the golden transcripts. Like the
 *   benchmark it is a measurement of one commit (a full run takes hours, sharded): it must say
 *   truly which commit it measured, not be rerun at every commit (reports/freshness.test.ts).
 * - invariants (reports/invariants.md and reports/error-codes.md, `npx tsx reports/generate.ts`, a
 *   step of `npm run docs`): the renderer and what it imports, and everything it quotes or scans:
 *   the golden transcripts (accepted and rejected examples), the kill matrix reports/mutants.json
 *   (mutants, counterexamples), the sample certificate (witness rows), spec/OPERATIONS.md,
 *   spec/wire/PROTOCOL.md and spec/DECISIONS.md (operations, wire codes, decision headings), the
 *   implementation's and the model's sources (the lines that check or guard each invariant) and the
 *   test files of every layer (test names and their lines).
 * - bench (reports/bench.json and .md, `npm run bench`): the benchmark's modules, the children it
 *   starts (the echo child, the fsync probe, the implementation, `srk` from bin/srk.mjs and its
 *   command line) and the golden transcripts the certifications it times replay. Its suite section
 *   times the whole test suite as well; the tests are not listed, since that figure is a duration,
 *   not a claim about them.
 */
export const INPUT_SETS: Record<Artifact, readonly string[]> = {
  "sample-certificate": [
    "imports:conformance/certify.ts",
    "imports:impl/main.ts",
    "conformance/golden/*.jsonl",
    ...NOT_DECIDING,
  ],
  mutants: [
    "imports:conformance/mutants/run-matrix.ts",
    "imports:impl/main.ts",
    "imports:impl/api.ts",
    "conformance/golden/*.jsonl",
    ...NOT_DECIDING,
    // load() imports the patched copy's impl/api.ts, named above by the original's.
    "computed:conformance/mutants/harness.ts",
    RECORD_KEEPING,
  ],
  "mutants-generated": [
    "imports:conformance/mutants/generated/run.ts",
    "imports:impl/main.ts",
    "imports:impl/api.ts",
    "conformance/golden/*.jsonl",
    ...NOT_DECIDING,
    "stryker/ignore-informative.mjs",
    "stryker/tsconfig.impl.json",
    "tsconfig.json",
    RECORD_KEEPING,
  ],
  invariants: [
    "imports:reports/generate.ts",
    "conformance/golden/*.jsonl",
    "reports/mutants.json",
    "docs/examples/certificate/certificate.json",
    "spec/OPERATIONS.md",
    "spec/wire/PROTOCOL.md",
    "spec/DECISIONS.md",
    "impl/**/*.ts",
    "model/**/*.ts",
    "spec/**/*.test.ts",
    "properties/**/*.test.ts",
    "conformance/**/*.test.ts",
    RECORD_KEEPING,
  ],
  // The guide's sample outputs (docs/guide/runs.json): srk run on the Python adapter's examples
  // and on the kit's implementation under smaller profiles; the adapter reads the spec's JSON.
  guide: [
    "imports:conformance/cli/main.ts",
    "imports:impl/main.ts",
    "conformance/golden/*.jsonl",
    ...NOT_DECIDING,
    "adapters/python/srk_adapter/*.py",
    "adapters/python/examples/*.py",
    "spec/tables.json",
    "spec/json-schema/",
    "spec/unicode/*.json",
    RECORD_KEEPING,
  ],
  bench: [
    "imports:bench/run.ts",
    "imports:bench/echo-child.ts",
    "imports:bench/relay-child.ts",
    "imports:bench/fsync-probe.ts",
    "imports:impl/main.ts",
    "imports:conformance/cli/main.ts",
    "bin/srk.mjs",
    "bin/engine.mjs",
    "conformance/golden/*.jsonl",
    RECORD_KEEPING,
  ],
};

/** The command that regenerates each artifact (and so records its inputs again). */
export const REGENERATE: Record<Artifact, string> = {
  "sample-certificate": "npm run docs:sample",
  mutants: "npm run mutants",
  "mutants-generated": "npm run mutants:wire-generated (in a clean checkout)",
  invariants: "npx tsx reports/generate.ts (a step of npm run docs)",
  bench: "npm run bench",
  guide: "npx tsx reports/guide.ts --run (a few minutes)",
};

/**
 * Where each artifact's generator records its inputs: a file of its own, or a field of the JSON it
 * writes (the record travels with the evidence it describes).
 */
export const RECORDS: Record<Artifact, { readonly file: string; readonly field: string | null }> = {
  "sample-certificate": { file: "docs/examples/certificate/inputs.json", field: null },
  mutants: { file: "reports/mutants.json", field: "inputs" },
  "mutants-generated": { file: "reports/mutants-generated.json", field: "inputs" },
  invariants: { file: "reports/invariants.inputs.json", field: null },
  bench: { file: "reports/bench.json", field: "inputs" },
  guide: { file: "docs/guide/runs.json", field: "inputs" },
};

/** The record an artifact's generator wrote (undefined when the file or the field is missing). */
export const readRecord = (artifact: Artifact, root = REPO_ROOT): unknown => {
  const { file, field } = RECORDS[artifact];
  if (!existsSync(join(root, file))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(root, file), "utf8"));
  } catch (e) {
    throw new Error(`${file} is not JSON: ${(e as Error).message}`);
  }
  return field === null ? parsed : (parsed as Record<string, unknown> | null)?.[field];
};

/** What a generator records: `inputsOf(artifact)` at the time it ran. */
export interface Inputs {
  /** `git rev-parse HEAD` when the artifact was generated, or "unknown" outside a git checkout. */
  readonly commit: string;
  /** "sha256:<hex>" over the sorted lines "<path>\0<sha256 of its bytes>\n", then "package:<name>@<version>\n" (inputDigest). */
  readonly digest: string;
  /** How many input files there are. */
  readonly files: number;
  /** The input files whose content differed from `commit` then (git status): the commit alone does not give those. */
  readonly uncommitted_inputs: readonly string[];
  /** SHA-256 (hex) of each input file, by path relative to the repository root, sorted: what lets a stale record name its changed files. */
  readonly file_digests: Readonly<Record<string, string>>;
  /** The installed version of each package the input modules import, sorted. */
  readonly packages: Readonly<Record<string, string>>;
}

/**
 * A record as it may be read back from a committed file: the current format, or the one
 * docs/examples/certificate/inputs.json was first written in (`files` the per-file digests,
 * `packages` the versions, no digest).
 */
export type RecordedInputs =
  | (Pick<Inputs, "digest" | "file_digests" | "packages"> & Partial<Inputs>)
  | { readonly files: Readonly<Record<string, string>>; readonly packages: Readonly<Record<string, string>> };

const BUILTINS = new Set(builtinModules);

/** The specifiers a module imports at run time: static imports and re-exports (less `import type` and `export type`) and dynamic `import()`. */
export const runtimeImports = (file: string, text: string, computedKnown = false): string[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      // Under verbatimModuleSyntax (tsconfig.json) only `import type` is erased: `import { type A }`
      // still loads the module.
      if (node.importClause?.isTypeOnly !== true) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg !== undefined && ts.isStringLiteralLike(arg)) out.push(arg.text);
      else if (!computedKnown)
        throw new Error(
          `${file}: an import() of a computed name, which conformance/evidence/inputs.ts cannot follow; name what it loads in the input set and add "computed:${file}"`,
        );
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
const installedVersion = (root: string, pkg: string, fromFile: string): string => {
  for (let dir = posix.dirname(join(root, fromFile)); ; dir = posix.dirname(dir)) {
    const manifest = join(dir, "node_modules", pkg, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (posix.dirname(dir) === dir) break;
  }
  // Node's own resolution, for a package whose manifest is not at the top of a node_modules.
  const req = createRequire(join(root, fromFile));
  return (JSON.parse(readFileSync(req.resolve(`${pkg}/package.json`), "utf8")) as { version: string }).version;
};

const skipped = (name: string): boolean => name.startsWith(".") || name === "node_modules";

/** Files under `dir` (relative to root), recursively or not, whose name ends with `suffix`. */
const filesUnder = (root: string, dir: string, suffix: string, recursive: boolean, pattern: string): string[] => {
  const abs = join(root, dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory())
    throw new Error(`input pattern ${pattern}: ${dir} is not a folder`);
  return readdirSync(abs, { withFileTypes: true })
    .filter((e) => !skipped(e.name))
    .flatMap((e) => {
      const rel = posix.join(dir, e.name);
      if (e.isDirectory()) return recursive ? filesUnder(root, rel, suffix, true, pattern) : [];
      return e.name.endsWith(suffix) ? [rel] : [];
    });
};

/** The input files and packages of one set of patterns, read from the tree at `root`. */
export const resolveInputs = (
  patterns: readonly string[],
  root = REPO_ROOT,
): { files: string[]; packages: Record<string, string> } => {
  const excludes = patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  const computed = new Set(patterns.filter((p) => p.startsWith("computed:")).map((p) => p.slice("computed:".length)));
  const excluded = (f: string): boolean => excludes.some((x) => (x.endsWith("/") ? f.startsWith(x) : f === x));
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue: string[] = [];
  const mustExist = (f: string, pattern: string): string => {
    if (!existsSync(join(root, f)) || !statSync(join(root, f)).isFile())
      throw new Error(`input pattern ${pattern}: ${f} does not exist`);
    return f;
  };
  for (const p of patterns) {
    if (p.startsWith("!") || p.startsWith("computed:")) continue;
    const recursive = /^(.+)\/\*\*\/\*([^/]*)$/.exec(p);
    const flat = /^(.+)\/\*([^/]*)$/.exec(p);
    if (p.startsWith("imports:")) queue.push(mustExist(p.slice("imports:".length), p));
    else if (recursive !== null)
      for (const f of filesUnder(root, recursive[1] ?? "", recursive[2] ?? "", true, p)) files.add(f);
    else if (flat !== null) for (const f of filesUnder(root, flat[1] ?? "", flat[2] ?? "", false, p)) files.add(f);
    else if (p.endsWith("/")) for (const f of filesUnder(root, p.slice(0, -1), "", true, p)) files.add(f);
    else files.add(mustExist(p, p));
  }
  const followed = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (followed.has(file) || excluded(file)) continue;
    followed.add(file);
    files.add(file);
    if (!/\.(ts|mts|js|mjs)$/.test(file)) continue; // a JSON module: an input, with nothing to follow
    for (const spec of runtimeImports(file, readFileSync(join(root, file), "utf8"), computed.has(file))) {
      if (spec.startsWith("node:") || BUILTINS.has(spec)) continue;
      if (spec.startsWith(".")) {
        const target = posix.normalize(posix.join(posix.dirname(file), spec));
        if (target.startsWith("../")) throw new Error(`${file} imports ${spec}, outside the repository`);
        if (excluded(target)) continue;
        if (!existsSync(join(root, target))) throw new Error(`${file} imports ${spec}, which does not exist`);
        queue.push(target);
      } else {
        const pkg = packageName(spec);
        if (!packages.has(pkg)) packages.set(pkg, installedVersion(root, pkg, file));
      }
    }
  }
  return {
    files: [...files].filter((f) => !excluded(f)).sort(),
    packages: Object.fromEntries([...packages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
};

const sha256 = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

/** The digest of a whole input set, from its per-file digests and package versions (so a record can be checked against itself). */
export const inputDigest = (
  fileDigests: Readonly<Record<string, string>>,
  packages: Readonly<Record<string, string>>,
): string => {
  const lines = [
    ...Object.keys(fileDigests)
      .sort()
      .map((f) => `${f}\0${fileDigests[f] ?? ""}\n`),
    ...Object.keys(packages)
      .sort()
      .map((p) => `package:${p}@${packages[p] ?? ""}\n`),
  ];
  return `sha256:${sha256(lines.join(""))}`;
};

const git = (root: string, args: readonly string[]): string | null => {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return null;
  }
};

/** The per-file digests and package versions of the inputs a set of patterns names, as they are now in the tree at `root` (no git). */
export const measureInputs = (
  patterns: readonly string[],
  root = REPO_ROOT,
): Pick<Inputs, "digest" | "files" | "file_digests" | "packages"> => {
  const { files, packages } = resolveInputs(patterns, root);
  const fileDigests = Object.fromEntries(files.map((f) => [f, sha256(readFileSync(join(root, f)))]));
  return { digest: inputDigest(fileDigests, packages), files: files.length, file_digests: fileDigests, packages };
};

/** What a generator records for a set of patterns: the inputs now, the commit, and the inputs that differ from it. */
export const recordInputs = (patterns: readonly string[], root = REPO_ROOT): Inputs => {
  const now = measureInputs(patterns, root);
  const commit = git(root, ["rev-parse", "HEAD"])?.trim() ?? "unknown";
  const status =
    commit === "unknown"
      ? null
      : git(root, ["status", "--porcelain=v1", "--untracked-files=all", "--", ...Object.keys(now.file_digests)]);
  const uncommitted =
    status === null
      ? []
      : status
          .split("\n")
          .filter((l) => l.length > 3)
          .map((l) => l.slice(3))
          .sort();
  return {
    commit,
    digest: now.digest,
    files: now.files,
    uncommitted_inputs: uncommitted,
    file_digests: now.file_digests,
    packages: now.packages,
  };
};

/** An artifact's inputs as they are now: per-file digests, package versions, the digest (no git). */
export const currentInputs = (
  artifact: Artifact,
  root = REPO_ROOT,
): Pick<Inputs, "digest" | "files" | "file_digests" | "packages"> => measureInputs(INPUT_SETS[artifact], root);

/** What the generator of `artifact` records beside it (INPUT_SETS[artifact], recordInputs). */
export const inputsOf = (artifact: Artifact, root = REPO_ROOT): Inputs => recordInputs(INPUT_SETS[artifact], root);

/** The per-file digests and package versions of a record, in either format. */
const recordedMaps = (
  r: RecordedInputs,
): { files: Readonly<Record<string, string>>; packages: Readonly<Record<string, string>> } =>
  "file_digests" in r ? { files: r.file_digests, packages: r.packages } : { files: r.files, packages: r.packages };

/** The differences between recorded and current inputs, one line each, sorted (empty when nothing changed). */
export const inputChanges = (recorded: RecordedInputs, now: RecordedInputs): string[] => {
  const a = recordedMaps(recorded);
  const b = recordedMaps(now);
  const diff = (
    kind: string,
    x: Readonly<Record<string, string>>,
    y: Readonly<Record<string, string>>,
    show: (v: string) => string,
  ): string[] => [
    ...Object.keys(y)
      .filter((k) => !(k in x))
      .map((k) => `${kind} added: ${k}${show(y[k] ?? "")}`),
    ...Object.keys(x)
      .filter((k) => !(k in y))
      .map((k) => `${kind} removed: ${k}`),
    ...Object.keys(x)
      .filter((k) => k in y && x[k] !== y[k])
      .map((k) => `${kind} changed: ${k}${show(`${x[k] ?? ""} -> ${y[k] ?? ""}`)}`),
  ];
  return [
    ...diff("file", a.files, b.files, () => ""),
    ...diff("package", a.packages, b.packages, (v) => ` ${v}`),
  ].sort();
};

/** Shape errors of a record read from a file, or null when it is one. */
const recordProblem = (r: unknown): string | null => {
  if (typeof r !== "object" || r === null) return "no inputs record";
  const o = r as Record<string, unknown>;
  const isMap = (v: unknown): boolean =>
    typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
  if ("file_digests" in o) {
    if (!isMap(o["file_digests"]) || !isMap(o["packages"]) || typeof o["digest"] !== "string")
      return "an inputs record without digest, file_digests and packages";
    const own = inputDigest(o["file_digests"] as Record<string, string>, o["packages"] as Record<string, string>);
    return own === o["digest"]
      ? null
      : `an inputs record whose digest ${String(o["digest"])} is not that of its own file_digests and packages (${own}): edited by hand?`;
  }
  if (!("files" in o)) return "no inputs recorded";
  return isMap(o["files"]) && isMap(o["packages"]) ? null : "an inputs record without file digests";
};

/** At most this many changed inputs are named in a message; the rest are counted. */
const NAMED = 12;

/**
 * Null when `recorded` (what the artifact's generator wrote) matches the artifact's inputs now;
 * else a message naming the artifact, the inputs that changed and the command that regenerates it.
 */
export const staleInputs = (artifact: Artifact, recorded: unknown, root = REPO_ROOT): string | null => {
  const problem = recordProblem(recorded);
  if (problem !== null) return `${artifact} is stale: ${problem}; run ${REGENERATE[artifact]}`;
  const changes = inputChanges(recorded as RecordedInputs, currentInputs(artifact, root));
  if (changes.length === 0) return null;
  const named = changes
    .slice(0, NAMED)
    .map((c) => `\n  ${c}`)
    .join("");
  const more = changes.length > NAMED ? `\n  … and ${changes.length - NAMED} more` : "";
  const commit =
    typeof (recorded as Partial<Inputs>).commit === "string"
      ? ` (generated at ${(recorded as Partial<Inputs>).commit})`
      : "";
  return `${artifact} is stale${commit}: ${changes.length} of its inputs changed since; run ${REGENERATE[artifact]} and commit the result with the change:${named}${more}`;
};

/** SHA-256 (hex) of each path's content at a commit, by `git cat-file --batch` (null where the commit has no such file). */
export const digestsAtCommit = (
  commit: string,
  paths: readonly string[],
  root = REPO_ROOT,
): Record<string, string | null> => {
  const out = execFileSync("git", ["cat-file", "--batch"], {
    cwd: root,
    input: paths.map((p) => `${commit}:${p}\n`).join(""),
    maxBuffer: 256 * 1024 * 1024,
  });
  const result: Record<string, string | null> = {};
  let at = 0;
  for (const p of paths) {
    const eol = out.indexOf(0x0a, at);
    const header = out.subarray(at, eol).toString("utf8");
    at = eol + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (m === null || m[1] !== "blob") {
      result[p] = null; // "<commit>:<path> missing", or not a file
      continue;
    }
    const size = Number(m[2]);
    result[p] = sha256(out.subarray(at, at + size));
    at += size + 1;
  }
  return result;
};

/**
 * For evidence that is not regenerated at every commit (a benchmark): null when the record names a
 * commit of this history (an ancestor of HEAD) and every recorded input has, at that commit, the
 * digest recorded, so that the evidence is of that commit exactly; else what is wrong.
 */
export const commitMismatch = (artifact: Artifact, recorded: unknown, root = REPO_ROOT): string | null => {
  const problem = recordProblem(recorded);
  if (problem !== null) return `${artifact}: ${problem}; run ${REGENERATE[artifact]}`;
  const r = recorded as Partial<Inputs> & RecordedInputs;
  const commit = r.commit;
  if (typeof commit !== "string" || !/^[0-9a-f]{40}$/.test(commit))
    return `${artifact}: the record names no commit (${String(commit)}); run ${REGENERATE[artifact]} in a git checkout`;
  if (git(root, ["cat-file", "-e", `${commit}^{commit}`]) === null)
    return `${artifact}: the recorded commit ${commit} is not in this repository's history; run ${REGENERATE[artifact]}`;
  if (git(root, ["merge-base", "--is-ancestor", commit, "HEAD"]) === null)
    return `${artifact}: the recorded commit ${commit} is not an ancestor of HEAD; run ${REGENERATE[artifact]}`;
  if ((r.uncommitted_inputs ?? []).length > 0) {
    return `${artifact}: generated with inputs that differed from ${commit}: ${(r.uncommitted_inputs ?? []).join(", ")}; run ${REGENERATE[artifact]} in a checkout without uncommitted inputs`;
  }
  const files = recordedMaps(r).files;
  const at = digestsAtCommit(commit, Object.keys(files), root);
  const differ = Object.keys(files).filter((f) => at[f] !== files[f]);
  return differ.length === 0
    ? null
    : `${artifact}: ${differ.length} recorded inputs are not as at ${commit}: ${differ.slice(0, NAMED).join(", ")}${differ.length > NAMED ? ", …" : ""}; run ${REGENERATE[artifact]}`;
};
