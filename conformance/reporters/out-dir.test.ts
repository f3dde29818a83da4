/**
 * Where `srk certify` and `srk merge` write (D-048, conformance/reporters/out-dir.ts): the name of an
 * implementation that never answered hello, taken from its command line; the default folder
 * `srk-reports/<name>/`; and the folder check, which uses a new or empty folder, replaces an earlier
 * srk report and refuses anything else (a UsageError, exit 64) before deleting anything.
 *
 * Every expected value is read off the rule: the first script or program path after an interpreter
 * and its options (never program text, never an option's value); its file name without a script
 * extension, with the folder above added when the file name is generic (main, index, server…);
 * characters other than letters, digits, `_`, `.` and `-` made `-`; no leading or trailing `-` or `.`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CERTIFICATE_VERSION } from "../../spec/certificate.ts";
import { UsageError } from "../driver/command-line.ts";
import { defaultOutDir, nameFromCommandLine, prepareOutDir, REPORTS_DIR } from "./out-dir.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-out-dir-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fresh folder under the test's temporary directory holding `files` (a name ending in / is a folder). */
const folder = (files: Record<string, string> = {}): string => {
  const dir = join(tmp, `case-${++n}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith("/")) mkdirSync(join(dir, name), { recursive: true });
    else {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  }
  return dir;
};

/** Every file and folder under `dir`, relative, sorted. */
const listing = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split("\\").join("/")).sort();

const CERT = JSON.stringify({ certificate_version: CERTIFICATE_VERSION, result: "certified" });
/** What an earlier `srk certify` leaves: the certificate, its reports and a trace. */
const earlierReport = (): Record<string, string> => ({
  "certificate.json": CERT,
  "report.md": "# report\n",
  "report.html": "<html></html>",
  "junit.xml": "<testsuites/>",
  "traces/golden-S-4-1.json": "{}",
});

const refusal = (dir: string, clear: boolean): UsageError => {
  try {
    prepareOutDir(dir, { clear });
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`prepareOutDir(${dir}) accepted the folder`);
};

describe("nameFromCommandLine: an implementation that never said its name", () => {
  const table: readonly (readonly [string, string, string])[] = [
    // [command line, name, why]
    ["python3 impls/toy.py", "toy", "the script after the interpreter, without its extension"],
    ["python3 docs/examples/empty_profile.py", "empty_profile", "`_` is kept"],
    ["python3.11 -u x.py", "x", "a versioned interpreter is an interpreter; its options are skipped"],
    [
      "/usr/bin/python3 /srv/impls/toy.py --data-dir {data_dir}",
      "toy",
      "the interpreter by absolute path; arguments after the script ignored",
    ],
    ["pythonista x.py", "pythonista", "boundary: not an interpreter (python + letters), so the program names it"],
    [
      "node --import tsx impl/main.ts",
      "impl-main",
      "an option's value without a path (tsx) is skipped; main is generic: its folder is added",
    ],
    ["node toy.ts", "toy", "boundary: not generic, no folder added"],
    ["node dist/index.js", "dist-index", "index is generic"],
    ["npx tsx server.ts", "server", "npx and tsx are runners; server is generic but the path has no folder above it"],
    ["npx tsx srv/server.ts", "srv-server", "boundary: the same generic name with a folder"],
    ["npx tsx@4.19.0 toy.ts", "toy", "a package with a version is not a script (.0 is no script extension)"],
    [
      "node --import ./loader.mjs app/main.js",
      "app-main",
      "the value of --import is a module to preload, not the script",
    ],
    ["node --require ./setup.js toy.js", "toy", "the value of --require likewise"],
    ["./bin/my-impl --fast", "my-impl", "a program by path: its file name"],
    ["bin/main --fast", "bin-main", "a generic program name gets its folder too"],
    [
      "./bin/agentd config.json",
      "agentd",
      "boundary: a program that is no interpreter names itself, not its first argument",
    ],
    ["agentd --wire", "agentd", "a program with no path"],
    [
      "python3 -c \"import runpy; runpy.run_path('impls/toy.py')\"",
      "python3",
      "program text is not a script, even with a path inside",
    ],
    ["python3 -c pass", "python3", "program text"],
    ["node -e \"import('./impl/main.js')\"", "node", "node's program text"],
    ["sh -c 'python3 impls/toy.py'", "sh", "a shell's program text"],
    ["python3 impl.py | tee log", "implementation", "a shell operator: not a command line srk runs"],
    ["python3 impl.py && echo done", "implementation", "another shell operator"],
    ["   ", "implementation", "an empty command line"],
    ["python3 'my impl!.py'", "my-impl", "a space and ! become -, a trailing - is dropped"],
    ["python3 'café bar.py'", "caf-bar", "non-ASCII letters are not kept in a path name"],
    ["python3 impls/.hidden.py", "hidden", "no leading ."],
    ["python3 '../..'", "implementation", "a path that is only dots never names a folder (it would be .. itself)"],
    ["'./--x--'", "x", "no leading or trailing -"],
  ];
  for (const [line, name, why] of table) {
    it(`${line} → ${name} (${why})`, () => {
      expect(nameFromCommandLine(line)).toBe(name);
    });
  }
});

describe("defaultOutDir: srk-reports/<name>/ under the working directory", () => {
  it("is the implementation's name under srk-reports, a relative path", () => {
    expect(REPORTS_DIR).toBe("srk-reports");
    expect(defaultOutDir("empty-profile-example")).toBe(join("srk-reports", "empty-profile-example"));
    expect(defaultOutDir("toy v1.2")).toBe(join("srk-reports", "toy-v1.2"));
  });

  it("a name from hello never leaves srk-reports nor names it", () => {
    expect(defaultOutDir("../../etc")).toBe(join("srk-reports", "etc"));
    expect(defaultOutDir("a/../b")).toBe(join("srk-reports", "a-..-b"));
    for (const dots of ["..", ".", "..."])
      expect(defaultOutDir(dots), dots).toBe(join("srk-reports", "implementation"));
    expect(defaultOutDir("")).toBe(join("srk-reports", "implementation"));
    expect(defaultOutDir("-")).toBe(join("srk-reports", "implementation"));
  });
});

describe("prepareOutDir: a new, empty or earlier-report folder, nothing else", () => {
  it("a missing folder is fine and is not created", () => {
    const dir = join(tmp, "missing");
    expect(() => prepareOutDir(dir)).not.toThrow();
    expect(existsSync(dir)).toBe(false);
  });

  it("an empty folder is fine and left as it is", () => {
    const dir = folder();
    expect(() => prepareOutDir(dir)).not.toThrow();
    expect(listing(dir)).toEqual([]);
  });

  it("a file is refused, naming it, and left alone", () => {
    const dir = folder({ "out.txt": "mine" });
    const file = join(dir, "out.txt");
    const e = refusal(file, true);
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/not a folder/);
    expect(readFileSync(file, "utf8")).toBe("mine");
  });

  it("an earlier srk report is cleared with clear=true", () => {
    const dir = folder(earlierReport());
    prepareOutDir(dir, { clear: true });
    expect(existsSync(dir)).toBe(true);
    expect(listing(dir)).toEqual([]);
  });

  it("clear defaults to true", () => {
    const dir = folder(earlierReport());
    prepareOutDir(dir);
    expect(listing(dir)).toEqual([]);
  });

  it("an earlier srk report is kept whole with clear=false (srk merge: its inputs may be inside)", () => {
    const dir = folder({ ...earlierReport(), "shards/shard-1/certificate.json": CERT });
    const before = listing(dir);
    prepareOutDir(dir, { clear: false });
    expect(listing(dir)).toEqual(before);
    expect(readFileSync(join(dir, "certificate.json"), "utf8")).toBe(CERT);
  });

  it("a certificate alone is an earlier report", () => {
    const dir = folder({ "certificate.json": CERT });
    prepareOutDir(dir);
    expect(listing(dir)).toEqual([]);
  });

  it("a temporary file an interrupted srk run left (certificate.json.<pid>.tmp) is part of the report", () => {
    const dir = folder({ ...earlierReport(), "certificate.json.4242.tmp": "{", "report.md.17.tmp": "" });
    prepareOutDir(dir);
    expect(listing(dir)).toEqual([]);
  });

  for (const clear of [true, false]) {
    it(`a folder with a foreign file is refused, naming the folder and the file, nothing deleted (clear=${clear})`, () => {
      const dir = folder({ ...earlierReport(), "notes.txt": "my notes" });
      const before = listing(dir);
      const e = refusal(dir, clear);
      expect(e.message).toContain(`--out ${dir}`);
      expect(e.message).toContain('"notes.txt"');
      expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("my notes");
      expect(listing(dir)).toEqual(before);
    });
  }

  it("a foreign folder is refused like a file", () => {
    const dir = folder({ "certificate.json": CERT, "src/": "" });
    expect(refusal(dir, true).message).toContain('"src"');
    expect(existsSync(join(dir, "src"))).toBe(true);
  });

  it("a *.tmp that is not srk's own leftover is foreign (boundary of the leftover rule)", () => {
    for (const name of ["notes.tmp", "draft.json.1234.tmp", "certificate.json.tmp", "certificate.json.12a.tmp"]) {
      const dir = folder({ ...earlierReport(), [name]: "x" });
      expect(refusal(dir, true).message, name).toContain(`"${name}"`);
      expect(existsSync(join(dir, name)), name).toBe(true);
      expect(existsSync(join(dir, "certificate.json")), name).toBe(true);
    }
  });

  it("names at most three foreign entries and counts the rest", () => {
    const dir = folder({ "a.txt": "", "b.txt": "", "c.txt": "", "d.txt": "" });
    const e = refusal(dir, true);
    expect(e.message).toContain('"a.txt", "b.txt", "c.txt" and 1 more');
    expect(listing(dir)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
  });

  it("report.md without certificate.json is refused, nothing deleted", () => {
    const dir = folder({ "report.md": "# someone's report\n", "traces/": "" });
    const e = refusal(dir, true);
    expect(e.message).toContain(`--out ${dir}`);
    expect(e.message).toMatch(/no certificate\.json of an earlier srk run/);
    expect(listing(dir)).toEqual(["report.md", "traces"]);
  });

  it("a certificate.json that is not JSON is refused, nothing deleted", () => {
    const dir = folder({ "certificate.json": "certificate_version: 1\n", "report.md": "" });
    expect(refusal(dir, true).message).toMatch(/no certificate\.json of an earlier srk run/);
    expect(readFileSync(join(dir, "certificate.json"), "utf8")).toBe("certificate_version: 1\n");
    expect(listing(dir)).toEqual(["certificate.json", "report.md"]);
  });

  it("a certificate.json that is JSON but not a certificate (no certificate_version) is refused; with it, accepted", () => {
    for (const text of ["{}", '{"certificateVersion": 1}', "[]", "null", '"certificate_version"', "1"]) {
      const dir = folder({ "certificate.json": text });
      expect(refusal(dir, true).message, text).toMatch(/no certificate\.json/);
      expect(readFileSync(join(dir, "certificate.json"), "utf8"), text).toBe(text);
    }
    const dir = folder({ "certificate.json": '{"certificate_version": 1}' });
    prepareOutDir(dir);
    expect(listing(dir)).toEqual([]);
  });

  it("a certificate.json that is a folder is refused", () => {
    const dir = folder({ "certificate.json/": "" });
    expect(refusal(dir, true).message).toMatch(/no certificate\.json/);
    expect(existsSync(join(dir, "certificate.json"))).toBe(true);
  });
});
