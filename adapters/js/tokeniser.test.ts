/**
 * The JavaScript reader of the D-045 tokeniser table (tokeniser.mjs) against the table's vectors:
 * run as a plain Node program (no loader, no dependency) on every vector and on every code point
 * (the everyCodePoint digest), and in process on the ways a table can be missing or malformed. It
 * must read only the table: its source calls no normalize, toLowerCase or \p{} escape.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readVectors, TABLE_PATH } from "../../spec/unicode/table.ts";
import { createTokeniser, loadTokeniser, tablePath } from "./tokeniser.mjs";

const READER = fileURLToPath(new URL("./tokeniser.mjs", import.meta.url));
const vectors = readVectors();
const cases = vectors.groups.flatMap((g) => g.cases.map((c) => ({ group: g.name, ...c })));
const tmp = mkdtempSync(join(tmpdir(), "srk-js-tokeniser-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The reader as a program: plain `node`, the kit's table unless one is named. */
const program = (args: string[], input = "", env: NodeJS.ProcessEnv = {}) => {
  const r = spawnSync(process.execPath, [READER, ...args], {
    input,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { PATH: process.env["PATH"], ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("adapters/js/tokeniser.mjs reads the D-045 table as the vectors say", () => {
  it(`as a plain Node program, gives every vector's tokens (${cases.length} strings)`, () => {
    expect(cases.length).toBe(3381);
    const r = program(["tokens"], JSON.stringify(cases.map((c) => c.input)));
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as string[][];
    expect(got).toHaveLength(cases.length);
    const wrong = cases
      .filter((c, i) => JSON.stringify(got[i]) !== JSON.stringify(c.tokens))
      .map((c) => `${c.group}: ${JSON.stringify(c.input)}`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it("gives the everyCodePoint digest: the tokens of all 1,112,064 one-code-point strings", () => {
    const r = program(["digest"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      codePoints: vectors.everyCodePoint.codePoints,
      sha256: vectors.everyCodePoint.sha256,
    });
  }, 300_000);

  it("finds the table where it is told: the argument, then $SRK_SPEC_DIR, then the kit", () => {
    expect(tablePath("/x/t.json")).toBe("/x/t.json");
    expect(tablePath(undefined)).toBe(TABLE_PATH);
    const spec = join(tmp, "spec");
    mkdirSync(join(spec, "unicode"), { recursive: true });
    // A table whose only change is U+0041's lower-case form: the reader follows the table it reads.
    const table = JSON.parse(readFileSync(TABLE_PATH, "utf8")) as { lowercase: Record<string, string> };
    table.lowercase["0041"] = "0062";
    writeFileSync(join(spec, "unicode", "tokeniser-17.0.json"), JSON.stringify(table));
    const r = program(["tokens"], JSON.stringify(["Abc"]), { SRK_SPEC_DIR: spec });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([["bbc"]]);
    expect(JSON.parse(program(["tokens"], JSON.stringify(["Abc"])).stdout)).toEqual([["abc"]]);
  });

  it("refuses a missing or malformed table with the path or member named, and a wrong command with exit 64", () => {
    expect(() => loadTokeniser(join(tmp, "none.json"))).toThrow(
      /tokeniser table was not found at .*none\.json \(pass its path, or set SRK_SPEC_DIR/,
    );
    const table = JSON.parse(readFileSync(TABLE_PATH, "utf8")) as Record<string, unknown>;
    expect(() => createTokeniser({ ...table, tokenCharacters: ["0041..005a"] })).toThrow(
      /tokeniser table.tokenCharacters\[0\]: "005a" is not a code point/,
    );
    expect(() => createTokeniser({ ...table, compositions: { "0041": "00C0" } })).toThrow(
      /compositions: key "0041" is not two code points/,
    );
    expect(() => createTokeniser({ ...table, hangul: { ...(table["hangul"] as object), VCount: -1 } })).toThrow(
      /hangul.VCount: not a positive integer/,
    );
    expect(() => createTokeniser({ ...table, lowercase: [] })).toThrow(/lowercase: not an object/);
    const r = program(["tokenise"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/^usage: node tokeniser\.mjs tokens\|digest/);
  });

  it("uses no Unicode data of the runtime: no normalize, toLowerCase or property escape in its source", () => {
    // The code, without its comments (which name what it avoids).
    const code = readFileSync(READER, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    expect(code).toContain("createTokeniser");
    expect(code.match(/\.normalize\(|\.toLowerCase\(|\.toLocaleLowerCase\(|\\p\{|\\P\{|Intl\./g)).toBeNull();
    // U+16EA0 (assigned in Unicode 17.0) lower-cases by the table, which a runtime with older data could not.
    expect(loadTokeniser().tokens("\u{16ea0}")).toEqual(["\u{16ebb}"]);
  });
});
