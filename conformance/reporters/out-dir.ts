/**
 * Where `srk certify` writes: by default `srk-reports/<implementation name>/` under the caller's
 * working directory (never inside the installed kit), and never over a folder that holds
 * something other than an earlier srk report (D-048).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { splitCommandLine, UsageError } from "../driver/command-line.ts";

/** The folder every default output goes under, relative to the working directory. */
export const REPORTS_DIR = "srk-reports";

/** What an srk report folder holds: everything srk certify and srk merge write there. */
export const SRK_ENTRIES: ReadonlySet<string> = new Set([
  "certificate.json",
  "report.md",
  "report.html",
  "junit.xml",
  "traces",
  "shards",
]);

/** Programs that run a script: the script, not the interpreter, names the implementation. */
const RUNNERS = new Set([
  "node",
  "nodejs",
  "python",
  "python3",
  "pypy",
  "pypy3",
  "ruby",
  "perl",
  "php",
  "deno",
  "bun",
  "npx",
  "tsx",
  "ts-node",
  "java",
  "dotnet",
  "sh",
  "bash",
  "uv",
  "poetry",
  "pipenv",
  "cargo",
  "go",
]);
/** File names too generic to name an implementation alone: the folder above them is added. */
const GENERIC = new Set(["main", "index", "impl", "server", "app", "cli", "run", "start", "__main__", "mod"]);

const NODE_CODE = ["-e", "--eval", "-p", "--print"];
const NODE_VALUE = ["--import", "--require", "-r", "--loader", "--experimental-loader"];
/**
 * A runner's options whose next argument is program text (`python3 -c "…"`, `node -e "…"`): no
 * script follows (what follows is that program's arguments), so the runner names the implementation.
 */
const CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  python: ["-c"],
  pypy: ["-c"],
  node: NODE_CODE,
  nodejs: NODE_CODE,
  bun: NODE_CODE,
  ruby: ["-e"],
  perl: ["-e", "-E"],
  php: ["-r"],
  sh: ["-c"],
  bash: ["-c"],
};
/** A runner's options whose next argument is a value that can look like a path (a module to preload, a package), not the script. */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  node: NODE_VALUE,
  nodejs: NODE_VALUE,
  npx: ["-p", "--package"],
  ruby: ["-r", "-I"],
};

/** A script's extension: a letter then word characters (`.py`, `.ts`, `.mjs`), not a version's `.0` nor code's `.sleep(60)`. */
const hasScriptExtension = (a: string): boolean => /^\.[A-Za-z]\w*$/.test(extname(a));

/** A name made safe for one path segment: runs of other characters become `-`; no leading or trailing `-` or `.` (so never `.` or `..`). */
const safe = (name: string): string => name.replace(/[^\w.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");

/**
 * A name for an implementation that never said its own in `hello`, from its command line:
 * the first script or program path after any interpreter and its options (`python3 impls/toy.py`
 * is `toy`, `node --import tsx impl/main.ts` is `impl-main`, `./bin/my-impl --fast` is `my-impl`);
 * the interpreter itself when it runs program text (`python3 -c "…"` is `python3`).
 */
export const nameFromCommandLine = (commandLine: string): string => {
  let argv: string[];
  try {
    argv = splitCommandLine(commandLine);
  } catch {
    return "implementation";
  }
  const [program = "", ...rest] = argv;
  const programName = basename(program);
  const family = programName.replace(/[\d.]+$/, ""); // python3.11 is python
  let path = program;
  if (RUNNERS.has(programName) || RUNNERS.has(family)) {
    path = programName;
    const code = CODE_OPTIONS[family] ?? [];
    const value = VALUE_OPTIONS[family] ?? [];
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i] as string;
      if (code.includes(a)) break;
      if (value.includes(a)) {
        i++;
        continue;
      }
      if (!a.startsWith("-") && (a.includes("/") || hasScriptExtension(a))) {
        path = a;
        break;
      }
    }
  }
  const file = hasScriptExtension(path) ? basename(path, extname(path)) : basename(path);
  const parent = basename(join(path, ".."));
  const name = GENERIC.has(file) && parent !== "." && parent !== ".." && parent !== "" ? `${parent}-${file}` : file;
  return safe(name) || "implementation";
};

/** `srk-reports/<name>/`, the name made safe for a path. */
export const defaultOutDir = (name: string): string => join(REPORTS_DIR, safe(name) || "implementation");

/**
 * The output folder of a certification of `commandLine`: `out` when given, else a function of the
 * name the implementation gives in hello (null when none came, then named from its command line).
 * One rule for `srk certify` and the library's `certify`.
 */
export const outDirFor = (
  commandLine: string,
  out: string | undefined,
): string | ((helloName: string | null) => string) =>
  out ?? ((name) => defaultOutDir(name ?? nameFromCommandLine(commandLine)));

/** A temporary file an interrupted srk run left (`certificate.json.<pid>.tmp`, written then renamed), not any `*.tmp`. */
const isLeftover = (entry: string): boolean => {
  const m = /^(.+)\.\d+\.tmp$/.exec(entry);
  return m !== null && SRK_ENTRIES.has(m[1] as string);
};

const isCertificate = (file: string): boolean => {
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return typeof json === "object" && json !== null && "certificate_version" in json;
  } catch {
    return false;
  }
};

/**
 * Makes `dir` ready for a new report: a missing or empty folder is used as it is; a folder holding
 * an earlier srk report (a `certificate.json` srk wrote, and only what srk writes) has that report
 * removed when `clear` (so no trace of an old run is mixed with the new one; `srk merge` keeps it,
 * as its inputs may be the shards inside); anything else is refused (exit 64), since writing over
 * it could lose the user's files.
 */
export const prepareOutDir = (dir: string, { clear }: { readonly clear: boolean } = { clear: true }): void => {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory())
    throw new UsageError(`--out ${dir}: exists and is not a folder; give a new or empty folder`);
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  const foreign = entries.filter((e) => !SRK_ENTRIES.has(e) && !isLeftover(e));
  if (foreign.length > 0 || !isCertificate(join(dir, "certificate.json"))) {
    const what =
      foreign.length > 0
        ? `holds ${foreign
            .slice(0, 3)
            .map((e) => `"${e}"`)
            .join(", ")}${foreign.length > 3 ? ` and ${foreign.length - 3} more` : ""}`
        : "has no certificate.json of an earlier srk run";
    throw new UsageError(
      `--out ${dir}: the folder ${what}, so it is not an earlier srk report; srk will not write over it: give a new or empty folder`,
    );
  }
  if (clear) for (const e of entries) rmSync(join(dir, e), { recursive: true, force: true });
};
