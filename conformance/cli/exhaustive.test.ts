/**
 * `srk certify --exhaustive <scope>` (D-074), end to end through bin/srk.mjs: the exhaustive stage
 * runs in the default campaign on the quick scope, `--exhaustive` names another, the certificate
 * names the scope in its settings, and a scope that does not load is refused with exit 64 before
 * anything starts. The implementation is the
 * empty-profile example (no family, so the stage sends nothing and a certification takes seconds);
 * the stage's own behaviour on a real implementation is conformance/stages/exhaustive.test.ts.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Certificate } from "../../spec/certificate.ts";
import { STAGES } from "../../spec/names.ts";
import { KIT_ROOT } from "../kit-root.ts";

/** A usage error; main.ts runs srk when imported, so not read from there. */
const EXIT_USAGE = 64;
const SRK = join(KIT_ROOT, "bin", "srk.mjs");
const EMPTY = `python3 ${join(KIT_ROOT, "docs", "examples", "empty_profile.py")}`;
const FAST = ["--runs", "5", "--time-budget", "60"];
/** The empty profile's result: nothing applies, so nothing is certified (inconclusive, exit 2). */
const NOTHING_CERTIFIED = 2;

const root = mkdtempSync(join(tmpdir(), "srk-exhaustive-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const srk = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [SRK, ...args],
      { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 110_000 },
      (err, stdout, stderr) => {
        const code =
          err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });

const certificateIn = (dir: string): Certificate =>
  JSON.parse(readFileSync(join(dir, "certificate.json"), "utf8")) as Certificate;

describe("srk certify --exhaustive", () => {
  it("by default the stage runs on the quick scope, between the wire and differential stages, and the settings say so", async () => {
    const out = join(root, "default");
    const r = await srk("certify", "--impl", EMPTY, ...FAST, "--out", out);
    expect(r.code, r.stderr).toBe(NOTHING_CERTIFIED);
    const c = certificateIn(out);
    expect(c.settings.stages).toEqual([...STAGES]);
    expect(STAGES.indexOf("exhaustive")).toBe(STAGES.indexOf("wire") + 1);
    expect(c.settings.exhaustive_scope).toBe("quick");
    const stage = c.stages.find((s) => s.stage === "exhaustive");
    // The empty profile declares no family: no command of the scope may be sent to it (W-5.2).
    expect(stage?.verdict).toBe("not-applicable");
    expect(stage?.reason).toBe("the profile's operations make no step in scope quick");
  }, 120_000);

  it("--exhaustive names another scope, a file here, and the certificate names it", async () => {
    const out = join(root, "named");
    const file = join(root, "tiny.json");
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(join(KIT_ROOT, "conformance", "explore", "scopes", "quick.json"), "utf8")),
        name: "tiny",
        max_depth: 1,
        parts: undefined,
      }),
    );
    const r = await srk("certify", "--impl", EMPTY, ...FAST, "--exhaustive", file, "--out", out);
    expect(r.code, r.stderr).toBe(NOTHING_CERTIFIED);
    const c = certificateIn(out);
    expect(c.settings.exhaustive_scope).toBe(file);
    expect(c.stages.find((s) => s.stage === "exhaustive")?.reason).toBe(
      `the profile's operations make no step in scope ${file}`,
    );
  }, 120_000);

  it("a scope that does not load is refused with exit 64, naming it, before anything runs", async () => {
    const out = join(root, "refused");
    const missing = await srk("certify", "--impl", EMPTY, "--exhaustive", "no-such-scope", "--out", out);
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.stderr).toContain("--exhaustive: no scope named or at no-such-scope");
    const bad = join(root, "bad.json");
    writeFileSync(bad, JSON.stringify({ name: "bad", max_depth: -1 }));
    const malformed = await srk("certify", "--impl", EMPTY, "--exhaustive", bad, "--out", out);
    expect(malformed.code).toBe(EXIT_USAGE);
    expect(malformed.stderr).toMatch(/--exhaustive: .*bad\.json: .*max_depth/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
