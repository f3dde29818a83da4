/**
 * conformance/evidence/inputs.ts: what an input pattern takes in and leaves out, that the digest depends on every
 * input's path and bytes and on nothing else, and that a stale record is told and named. Each case
 * builds a small tree in a temporary folder; the expected sets are read off the patterns' rules.
 * Whether each committed artifact is fresh is checked where the artifact is (sample-certificate,
 * evidence, generated and bench tests).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KIT_ROOT as REPO_ROOT } from "../kit-root.ts";
import {
  type Artifact,
  ARTIFACTS,
  commitMismatch,
  currentInputs,
  digestsAtCommit,
  inputChanges,
  inputDigest,
  INPUT_SETS,
  inputsOf,
  measureInputs,
  recordInputs,
  REGENERATE,
  resolveInputs,
  runtimeImports,
  staleInputs,
} from "./inputs.ts";

const roots: string[] = [];
/** A temporary tree holding `files` (path → text). */
const tree = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "srk-inputs-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};
/**
 * A copy of an artifact's inputs as they are now (node_modules linked), so that the cases comparing
 * two readings of them are not disturbed by an edit made meanwhile in the working tree.
 */
const frozen = (artifact: Artifact): string => {
  const root = tree({});
  for (const f of Object.keys(currentInputs(artifact).file_digests)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    copyFileSync(join(REPO_ROOT, f), join(root, f));
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return root;
};
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe("runtimeImports", () => {
  it("follows static and dynamic imports and re-exports, and leaves `import type` and `export type` out", () => {
    const text = [
      'import type { A } from "./a.ts";',
      'import { type B } from "./b.ts";',
      'import { c, type C } from "./c.ts";',
      'import d from "./d.ts";',
      'import "./e.ts";',
      'export { f } from "./f.ts";',
      'export type { G } from "./g.ts";',
      'const h = await import("./h.ts");',
      '// import { x } from "./comment.ts";',
    ].join("\n");
    // `import { type B }` still loads b.ts at run time (verbatimModuleSyntax); only `import type` and `export type` are erased.
    expect(runtimeImports("x.ts", text)).toEqual(["./b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts", "./h.ts"]);
  });

  it("refuses an import() of a computed name unless the set says what it loads", () => {
    expect(() => runtimeImports("x.ts", "await import(name);")).toThrow(
      /x\.ts: an import\(\) of a computed name.*"computed:x\.ts"/,
    );
    expect(runtimeImports("x.ts", 'await import(name); import "./y.ts";', true)).toEqual(["./y.ts"]);
  });
});

describe("resolveInputs: the patterns", () => {
  const files = {
    "src/main.ts": 'import { a } from "./a.ts";\nimport type { T } from "./types.ts";\nexport { b } from "./lib/b.ts";',
    "src/a.ts": 'import "./report/r.ts";\nexport const a = 1;',
    "src/report/r.ts": 'import "./deep.ts";',
    "src/report/deep.ts": "",
    "src/types.ts": "",
    "src/lib/b.ts": "export const b = 2;",
    "src/unused.ts": "",
    "data/one.jsonl": "{}",
    "data/two.jsonl": "{}",
    "data/notes.md": "",
    "data/sub/three.jsonl": "{}",
    "data/.hidden.jsonl": "{}",
    "tests/x.test.ts": "",
    "tests/deep/y.test.ts": "",
    "tests/helper.ts": "",
  };

  it("imports:<file> takes the module and what it loads at run time, not `import type` targets or modules nobody imports", () => {
    expect(resolveInputs(["imports:src/main.ts"], tree(files)).files).toEqual([
      "src/a.ts",
      "src/lib/b.ts",
      "src/main.ts",
      "src/report/deep.ts",
      "src/report/r.ts",
    ]);
  });

  it("!<dir>/ and !<file> leave a module out, and its imports are not followed", () => {
    const root = tree(files);
    expect(resolveInputs(["imports:src/main.ts", "!src/report/"], root).files).toEqual([
      "src/a.ts",
      "src/lib/b.ts",
      "src/main.ts",
    ]);
    expect(resolveInputs(["imports:src/main.ts", "!src/a.ts"], root).files).toEqual(["src/lib/b.ts", "src/main.ts"]);
    expect(resolveInputs(["data/", "!data/sub/"], root).files).toEqual([
      "data/notes.md",
      "data/one.jsonl",
      "data/two.jsonl",
    ]);
  });

  it("<dir>/*<suffix> is one folder deep, <dir>/**/*<suffix> every folder under it, <dir>/ every file; dot files are never inputs", () => {
    const root = tree(files);
    expect(resolveInputs(["data/*.jsonl"], root).files).toEqual(["data/one.jsonl", "data/two.jsonl"]);
    expect(resolveInputs(["data/**/*.jsonl"], root).files).toEqual([
      "data/one.jsonl",
      "data/sub/three.jsonl",
      "data/two.jsonl",
    ]);
    expect(resolveInputs(["data/"], root).files).toEqual([
      "data/notes.md",
      "data/one.jsonl",
      "data/sub/three.jsonl",
      "data/two.jsonl",
    ]);
    expect(resolveInputs(["tests/**/*.test.ts", "src/unused.ts"], root).files).toEqual([
      "src/unused.ts",
      "tests/deep/y.test.ts",
      "tests/x.test.ts",
    ]);
  });

  it("a missing file or folder, an import of a missing module or one outside the tree is an error naming it", () => {
    const root = tree({ ...files, "src/bad.ts": 'import "./gone.ts";', "src/out.ts": 'import "../../elsewhere.ts";' });
    expect(() => resolveInputs(["src/none.ts"], root)).toThrow("input pattern src/none.ts: src/none.ts does not exist");
    expect(() => resolveInputs(["nowhere/*.jsonl"], root)).toThrow(
      "input pattern nowhere/*.jsonl: nowhere is not a folder",
    );
    expect(() => resolveInputs(["imports:src/bad.ts"], root)).toThrow(
      "src/bad.ts imports ./gone.ts, which does not exist",
    );
    expect(() => resolveInputs(["imports:src/out.ts"], root)).toThrow(
      "src/out.ts imports ../../elsewhere.ts, outside the repository",
    );
  });

  it("a package a module imports is recorded with its installed version; node: and built-in modules are not", () => {
    const root = tree({
      "m.ts":
        'import fc from "fast-check";\nimport { x } from "@scope/pkg/sub.js";\nimport { readFileSync } from "node:fs";\nimport path from "path";',
      "node_modules/fast-check/package.json": '{"version":"9.9.9"}',
      "node_modules/@scope/pkg/package.json": '{"version":"1.2.3"}',
    });
    expect(resolveInputs(["imports:m.ts"], root)).toEqual({
      files: ["m.ts"],
      packages: { "@scope/pkg": "1.2.3", "fast-check": "9.9.9" },
    });
  });

  it("computed:<file> accepts that module's computed import(); what it loads must be named by another pattern", () => {
    const root = tree({ "h.ts": 'import "./g.ts";\nawait import(entry);', "g.ts": "", "copy/api.ts": "" });
    expect(() => resolveInputs(["imports:h.ts"], root)).toThrow(/computed:h\.ts/);
    expect(resolveInputs(["imports:h.ts", "computed:h.ts", "imports:copy/api.ts"], root).files).toEqual([
      "copy/api.ts",
      "g.ts",
      "h.ts",
    ]);
  });
});

describe("the digest", () => {
  it("is the same for the same paths and bytes, whatever the order they are listed in", () => {
    expect(inputDigest({ "a.ts": "1", "b.ts": "2" }, { zod: "4" })).toBe(
      inputDigest({ "b.ts": "2", "a.ts": "1" }, { zod: "4" }),
    );
    expect(inputDigest({}, {})).toMatch(/^sha256:[0-9a-f]{64}$/);
    const files = { "d/a.txt": "one", "d/b.txt": "two" };
    expect(measureInputs(["d/"], tree(files))).toEqual(measureInputs(["d/"], tree(files)));
  });

  it("changes with a file's bytes, with its path (a rename), with an added file and with a package's version", () => {
    const digest = (files: Record<string, string>): string => measureInputs(["d/"], tree(files)).digest;
    const base = digest({ "d/a.txt": "one", "d/b.txt": "two" });
    expect(digest({ "d/a.txt": "one", "d/b.txt": "two!" })).not.toBe(base);
    expect(digest({ "d/a.txt": "one", "d/c.txt": "two" })).not.toBe(base);
    expect(digest({ "d/a.txt": "one", "d/b.txt": "two", "d/c.txt": "" })).not.toBe(base);
    expect(inputDigest({ "a.ts": "1" }, { zod: "4.0.0" })).not.toBe(inputDigest({ "a.ts": "1" }, { zod: "4.0.1" }));
  });

  it("counts the files, and records each one's SHA-256", () => {
    const m = measureInputs(["d/"], tree({ "d/a.txt": "one", "d/b.txt": "" }));
    expect(m.files).toBe(2);
    // SHA-256 of "one" and of the empty string
    expect(m.file_digests).toEqual({
      "d/a.txt": "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed",
      "d/b.txt": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
  });
});

describe("recordInputs: the commit", () => {
  const gitIn = (root: string, ...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
      cwd: root,
      encoding: "utf8",
    });

  it("is HEAD, and the inputs that differ from it are listed; outside git it is unknown", () => {
    const root = tree({ "d/a.txt": "one", "d/b.txt": "two", "other.txt": "" });
    expect(recordInputs(["d/"], root)).toMatchObject({ commit: "unknown", uncommitted_inputs: [], files: 2 });
    gitIn(root, "init", "-q");
    gitIn(root, "add", ".");
    gitIn(root, "commit", "-q", "-m", "x");
    const head = gitIn(root, "rev-parse", "HEAD").trim();
    expect(recordInputs(["d/"], root)).toMatchObject({ commit: head, uncommitted_inputs: [] });
    writeFileSync(join(root, "d/a.txt"), "changed");
    writeFileSync(join(root, "d/new.txt"), "");
    writeFileSync(join(root, "other.txt"), "not an input");
    expect(recordInputs(["d/"], root)).toMatchObject({
      commit: head,
      uncommitted_inputs: ["d/a.txt", "d/new.txt"],
      files: 3,
    });
  });
});

describe("staleInputs", () => {
  // One case per artifact: each reads its inputs three times (copy, record, check), seconds on a loaded machine.
  for (const a of ARTIFACTS) {
    it(`is null for a record of the inputs as they are (${a})`, () => {
      const root = frozen(a);
      expect(staleInputs(a, inputsOf(a, root), root), a).toBeNull();
    });
  }

  it("names the artifact, the command that regenerates it and each changed, added or removed input", () => {
    const root = frozen("mutants");
    const now = inputsOf("mutants", root);
    const [first, second] = Object.keys(now.file_digests);
    const fileDigests = { ...now.file_digests, [first ?? ""]: "0".repeat(64), "gone/old.ts": "1".repeat(64) };
    delete (fileDigests as Record<string, string>)[second ?? ""];
    const packages = { ...now.packages, "fast-check": "0.0.1" };
    const recorded = { ...now, file_digests: fileDigests, packages, digest: inputDigest(fileDigests, packages) };
    const message = staleInputs("mutants", recorded, root);
    expect(message).toContain(
      `mutants is stale (generated at unknown): 4 of its inputs changed since; run ${REGENERATE.mutants}`,
    );
    expect(message).toContain(`file changed: ${first ?? ""}`);
    expect(message).toContain(`file added: ${second ?? ""}`);
    expect(message).toContain("file removed: gone/old.ts");
    expect(message).toContain(`package changed: fast-check 0.0.1 -> ${now.packages["fast-check"] ?? ""}`);
  });

  it("names at most 12 inputs and counts the rest", () => {
    const root = frozen("invariants");
    const now = inputsOf("invariants", root);
    const fileDigests = Object.fromEntries(Object.keys(now.file_digests).map((f) => [f, "0".repeat(64)]));
    const message =
      staleInputs(
        "invariants",
        { ...now, file_digests: fileDigests, digest: inputDigest(fileDigests, now.packages) },
        root,
      ) ?? "";
    expect(message.split("\n").filter((l) => l.startsWith("  file changed: "))).toHaveLength(12);
    expect(message).toContain(`… and ${now.files - 12} more`);
  });

  it("refuses a missing record, one without digests and one whose digest is not its own (edited by hand)", () => {
    expect(staleInputs("bench", undefined)).toBe(`bench is stale: no inputs record; run ${REGENERATE.bench}`);
    expect(staleInputs("bench", {})).toBe(`bench is stale: no inputs recorded; run ${REGENERATE.bench}`);
    expect(staleInputs("bench", { commit: "x", digest: "sha256:0", files: 3 })).toMatch(
      /^bench is stale: an inputs record without file digests; run npm run bench$/,
    );
    const now = inputsOf("bench");
    expect(staleInputs("bench", { ...now, digest: `sha256:${"0".repeat(64)}` })).toMatch(
      /is not that of its own file_digests and packages.*edited by hand/,
    );
  });

  it("reads the first format of docs/examples/certificate/inputs.json (per-file digests under files, no digest)", () => {
    const root = frozen("sample-certificate");
    const now = currentInputs("sample-certificate", root);
    expect(staleInputs("sample-certificate", { files: now.file_digests, packages: now.packages }, root)).toBeNull();
    const [first] = Object.keys(now.file_digests);
    expect(
      staleInputs(
        "sample-certificate",
        { files: { ...now.file_digests, [first ?? ""]: "x" }, packages: now.packages },
        root,
      ),
    ).toContain(
      `run ${REGENERATE["sample-certificate"]} and commit the result with the change:\n  file changed: ${first ?? ""}`,
    );
  });

  it("tells a changed, an added and a removed input, and a package of another version, in either format", () => {
    const recorded = { files: { "a.ts": "1", "b.ts": "2" }, packages: { "fast-check": "4.10.2" } };
    expect(
      inputChanges(recorded, {
        files: { "a.ts": "1", "b.ts": "3", "c.ts": "4" },
        packages: { "fast-check": "4.11.0" },
      }),
    ).toEqual(["file added: c.ts", "file changed: b.ts", "package changed: fast-check 4.10.2 -> 4.11.0"]);
    expect(inputChanges(recorded, { files: { "a.ts": "1" }, packages: {} })).toEqual([
      "file removed: b.ts",
      "package removed: fast-check",
    ]);
    expect(inputChanges(recorded, { digest: "", file_digests: recorded.files, packages: recorded.packages })).toEqual(
      [],
    );
  });
});

describe("INPUT_SETS", () => {
  it("name, for each artifact, the modules its generator runs and the data it reads, and not its own output", () => {
    const files = (a: Artifact): string[] => Object.keys(currentInputs(a).file_digests);
    expect(files("mutants")).toEqual(
      expect.arrayContaining([
        "properties/mutants/catalog.ts",
        "conformance/mutants/harness.ts",
        "conformance/certify.ts",
        "impl/api.ts",
        "impl/main.ts",
        "spec/catalog.ts",
        "conformance/golden/session-1.jsonl",
      ]),
    );
    expect(files("invariants")).toEqual(
      expect.arrayContaining([
        "reports/render.ts",
        "reports/mutants.json",
        "docs/examples/certificate/certificate.json",
        "spec/OPERATIONS.md",
        "conformance/golden/session-3-store.jsonl",
        "impl/core/store.ts",
        "properties/merge.property.test.ts",
      ]),
    );
    expect(files("bench")).toEqual(
      expect.arrayContaining([
        "bench/run.ts",
        "bench/echo-child.ts",
        "impl/main.ts",
        "conformance/cli/main.ts",
        "bin/srk.mjs",
      ]),
    );
    expect(
      files("mutants").filter(
        (f) => f.startsWith("reports/") || f.startsWith("conformance/reporters/") || f.endsWith(".test.ts"),
      ),
    ).toEqual([]);
    for (const a of ARTIFACTS)
      expect(files(a), `${a}: the record-keeping module is not an input`).not.toContain(
        "conformance/evidence/inputs.ts",
      );
    for (const [a, own] of [
      ["mutants", "reports/mutants.json"],
      ["invariants", "reports/invariants.md"],
      ["bench", "reports/bench.json"],
      ["sample-certificate", "docs/examples/certificate/certificate.json"],
    ] as const) {
      expect(files(a), `${a} is not an input of itself`).not.toContain(own);
    }
    for (const a of ARTIFACTS) expect(INPUT_SETS[a].length, a).toBeGreaterThan(0);
  });
});

describe("commitMismatch and digestsAtCommit: evidence of one commit", () => {
  const gitIn = (root: string, ...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
      cwd: root,
      encoding: "utf8",
    });
  /** A frozen copy of the bench's inputs committed in a repository of its own, with its HEAD. */
  const committed = (): { root: string; head: string } => {
    const root = frozen("bench");
    gitIn(root, "init", "-q");
    writeFileSync(join(root, ".gitignore"), "node_modules\n");
    gitIn(root, "add", ".");
    gitIn(root, "commit", "-q", "-m", "bench inputs");
    return { root, head: gitIn(root, "rev-parse", "HEAD").trim() };
  };

  it("digestsAtCommit reads each file as committed, and null for a path the commit lacks", () => {
    const root = tree({ "a.txt": "one", "b.txt": "" });
    gitIn(root, "init", "-q");
    gitIn(root, "add", ".");
    gitIn(root, "commit", "-q", "-m", "x");
    writeFileSync(join(root, "a.txt"), "changed after the commit");
    expect(digestsAtCommit("HEAD", ["a.txt", "none.txt", "b.txt"], root)).toEqual({
      "a.txt": "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed",
      "none.txt": null,
      "b.txt": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
  });

  it("is null for a record made at a commit of the history with nothing uncommitted, and stays null when inputs change later", () => {
    const { root, head } = committed();
    const record = inputsOf("bench", root);
    expect(record).toMatchObject({ commit: head, uncommitted_inputs: [] });
    expect(commitMismatch("bench", record, root)).toBeNull();
    writeFileSync(join(root, "bench/run.ts"), "// later work\n", { flag: "a" });
    gitIn(root, "commit", "-q", "-am", "later");
    expect(commitMismatch("bench", record, root)).toBeNull();
    expect(staleInputs("bench", record, root)).toContain("file changed: bench/run.ts");
  });

  it("names uncommitted inputs, inputs not as at the commit, and a commit outside the history", () => {
    const { root, head } = committed();
    writeFileSync(join(root, "bench/run.ts"), "// not committed\n", { flag: "a" });
    const dirty = inputsOf("bench", root);
    expect(commitMismatch("bench", dirty, root)).toBe(
      `bench: generated with inputs that differed from ${head}: bench/run.ts; run npm run bench in a checkout without uncommitted inputs`,
    );
    // The same record with the uncommitted list dropped: the digests still tell.
    expect(commitMismatch("bench", { ...dirty, uncommitted_inputs: [] }, root)).toBe(
      `bench: 1 recorded inputs are not as at ${head}: bench/run.ts; run npm run bench`,
    );
    expect(commitMismatch("bench", { ...dirty, commit: "f".repeat(40), uncommitted_inputs: [] }, root)).toBe(
      `bench: the recorded commit ${"f".repeat(40)} is not in this repository's history; run npm run bench`,
    );
    expect(commitMismatch("bench", { ...dirty, commit: "unknown" }, root)).toMatch(
      /^bench: the record names no commit \(unknown\)/,
    );
    expect(commitMismatch("bench", undefined, root)).toBe("bench: no inputs record; run npm run bench");
  });

  it("names a commit that is in the repository but not an ancestor of HEAD (another branch)", () => {
    const { root } = committed();
    const main = gitIn(root, "rev-parse", "--abbrev-ref", "HEAD").trim();
    gitIn(root, "checkout", "-q", "-b", "side");
    writeFileSync(join(root, "bench/run.ts"), "// on a side branch\n", { flag: "a" });
    gitIn(root, "commit", "-q", "-am", "side");
    const side = inputsOf("bench", root);
    expect(commitMismatch("bench", side, root)).toBeNull();
    gitIn(root, "checkout", "-q", main);
    expect(commitMismatch("bench", side, root)).toBe(
      `bench: the recorded commit ${side.commit} is not an ancestor of HEAD; run npm run bench`,
    );
  });
});
