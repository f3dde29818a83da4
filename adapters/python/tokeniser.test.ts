/**
 * The Python reader of the D-045 tokeniser table (adapters/python/srk_adapter/tokeniser.py,
 * standard library only) against the table's vectors: every vector, every code point (the
 * everyCodePoint digest), a missing and a malformed table. It must read only the table: no
 * unicodedata, str.lower or normalize. Needs python3 3.10 or later (skipped with one line without
 * it, failing under CI).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { readVectors, TABLE_PATH } from "../../spec/unicode/table.ts";
import { needs, PYTHON3 } from "../../test-support/needs.ts";

const READER = fileURLToPath(new URL("./srk_adapter/tokeniser.py", import.meta.url));
const vectors = readVectors();
const cases = vectors.groups.flatMap((g) => g.cases.map((c) => ({ group: g.name, ...c })));
const tmp = mkdtempSync(join(tmpdir(), "srk-python-tokeniser-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The reader run as a file, alone (it imports nothing of the adapter), with no bytecode written. */
const python = (args: string[], input = "", env: NodeJS.ProcessEnv = {}) => {
  const r = spawnSync("python3", [READER, ...args], {
    input,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { PATH: process.env["PATH"], PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8", ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const py = needs(PYTHON3);

py.describe("adapters/python/srk_adapter/tokeniser.py reads the D-045 table as the vectors say", () => {
  it(`gives every vector's tokens (${cases.length} strings)`, () => {
    expect(cases.length).toBe(3381);
    const r = python(["tokens"], JSON.stringify(cases.map((c) => c.input)));
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as string[][];
    expect(got).toHaveLength(cases.length);
    const wrong = cases
      .filter((c, i) => JSON.stringify(got[i]) !== JSON.stringify(c.tokens))
      .map((c) => `${c.group}: ${JSON.stringify(c.input)}`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it("gives the everyCodePoint digest: the tokens of all 1,112,064 one-code-point strings", () => {
    const r = python(["digest"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      codePoints: vectors.everyCodePoint.codePoints,
      sha256: vectors.everyCodePoint.sha256,
    });
  }, 600_000);

  it("follows the table it is given, and names the member of a malformed one and the path of a missing one", () => {
    const table = JSON.parse(readFileSync(TABLE_PATH, "utf8")) as Record<string, unknown> & {
      lowercase: Record<string, string>;
    };
    const changed = join(tmp, "changed.json");
    writeFileSync(changed, JSON.stringify({ ...table, lowercase: { ...table.lowercase, "0041": "0062" } }));
    const r = python(["tokens", changed], JSON.stringify(["Abc"]));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([["bbc"]]);

    const bad = join(tmp, "bad.json");
    writeFileSync(bad, JSON.stringify({ ...table, combiningClassRanks: [["0300..02FF"]] }));
    const b = python(["tokens", bad], "[]");
    expect(b.code).not.toBe(0);
    expect(b.stderr).toMatch(
      /ValueError: .*bad\.json\.combiningClassRanks\[0\]\[0\]: range 0300..02FF ends before it starts/,
    );

    const m = python(["tokens", join(tmp, "none.json")], "[]");
    expect(m.code).not.toBe(0);
    expect(m.stderr).toMatch(/FileNotFoundError: the tokeniser table was not found at .*none\.json/);
    expect(python(["tokenise"]).code).toBe(64);
  });

  it("uses no Unicode data of its interpreter: no unicodedata, str.lower, casefold or normalize", () => {
    // The code, without its docstrings and comments (which name what it avoids).
    const code = readFileSync(READER, "utf8")
      .replace(/"""[\s\S]*?"""/g, "")
      .replace(/#.*$/gm, "");
    expect(code).toContain("class Tokeniser");
    expect(code.match(/unicodedata|\.lower\(|\.casefold\(|normalize\(|re\.IGNORECASE|re\.I\b|\\w/g)).toBeNull();
  });
});
