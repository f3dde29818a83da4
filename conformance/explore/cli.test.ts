import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadScope } from "./scope.ts";

const SRK = fileURLToPath(new URL("../../bin/srk.mjs", import.meta.url));
const srk = (args: string[]) => spawnSync(process.execPath, [SRK, ...args], { encoding: "utf8", timeout: 60_000 });

describe("srk explore", () => {
  it("writes explore.json and explore.md for a scope file, with progress on stderr", () => {
    const dir = mkdtempSync(join(tmpdir(), "srk-explore-"));
    const scope = join(dir, "tiny.json");
    writeFileSync(
      scope,
      JSON.stringify({
        ...loadScope("default"),
        parts: undefined,
        name: "tiny",
        instances: ["i1"],
        makers: ["mint", "conceive", "birth"],
        max_depth: 3,
      }),
    );
    const out = join(dir, "out");
    const r = srk(["explore", "--scope", scope, "--out", out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/explore tiny: 7 states generated, 4 distinct, depth 3, \d+ states\/s/);
    const json = JSON.parse(readFileSync(join(out, "explore.json"), "utf8"));
    expect(json.distinct).toBe(4);
    expect(json.perDepth).toEqual([1, 1, 1, 1]);
    const md = readFileSync(join(out, "explore.md"), "utf8");
    expect(md).toContain("| distinct states | 4 |");
    // Three makers reach three operations: the rest are listed as not reached, by the scope's limit.
    expect(md).toMatch(/\| operations tried \/ accepted \| 3 \/ 3 of \d+ \|/);
    expect(md).toMatch(/\| janma\.act \| tried \| no: the scope's limit \|/);
    expect(md).toMatch(/\| visited set \| [\d.]+ MB \([\d.]+ MB per million states\) \|/);
    expect(json.reach.operationsAccepted).toBe(3);
  }, 60_000);
  it("refuses a malformed scope with the usage exit code, naming the field", () => {
    const dir = mkdtempSync(join(tmpdir(), "srk-explore-"));
    const scope = join(dir, "bad.json");
    writeFileSync(scope, JSON.stringify({ ...loadScope("default"), tick_step: -1 }));
    const r = srk(["explore", "--scope", scope]);
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/tick_step/);
  }, 60_000);
});
