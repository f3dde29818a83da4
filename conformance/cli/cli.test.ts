/**
 * The srk command line end to end: list, usage errors (exit 64), and a counterexample that
 * `srk replay` re-runs on any implementation — still failing on the broken one, passing on the kit's.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { certify } from "../certify.ts";
import { mutantCommandLine } from "../mutants/matrix.ts";
import { REPO_ROOT } from "../transport/local.ts";

const run = promisify(execFile);
const srk = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const r = await run(process.execPath, ["bin/srk.mjs", ...args], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
};

const KIT = `${process.execPath} --import tsx impl/main.ts`;
const tmp = mkdtempSync(join(tmpdir(), "srk-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("srk command line", () => {
  it("list: the 19 invariants, the 7 stages and the operations", async () => {
    const r = await srk("list");
    expect(r.code).toBe(0);
    for (const id of ["J-1", "S-5", "AD-3", "I6"]) expect(r.stdout).toContain(`\n${id} `);
    for (const s of ["handshake", "golden", "wire", "differential", "algebra", "crash", "forgetting"]) expect(r.stdout).toContain(`\n${s} `);
    expect(r.stdout).toContain("samskara.excise");
  });

  it("usage errors exit 64 and say what was wrong", async () => {
    writeFileSync(join(tmp, "bad-trace.json"), "{}");
    // Independent invocations, run side by side (each pays the loader's start-up).
    const [missing, only, base, trace, pipe] = await Promise.all([
      srk("certify"),
      srk("certify", "--impl", KIT, "--only", "S-9"),
      srk("certify", "--impl", KIT, "--expected-failures", join(tmp, "nope.txt")),
      srk("replay", join(tmp, "bad-trace.json"), "--impl", KIT),
      srk("golden", "--impl", "impl | tee x"),
    ]);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toMatch(/--impl/);
    expect(only.code).toBe(64);
    expect(only.stderr).toMatch(/unknown invariant "S-9"/);
    expect(base.code).toBe(64);
    expect(base.stderr).toMatch(/nope\.txt: cannot read/);
    expect(trace.code).toBe(64);
    expect(trace.stderr).toMatch(/not a portable trace/);
    expect(pipe.code).toBe(64);
    expect(pipe.stderr).toMatch(/shell construct/);
  });

  it("a failing certification writes a portable trace that srk replay re-runs on any implementation", async () => {
    const m = MUTANTS.find((x) => x.id === "S-4.replay-claim-miscounts");
    if (m === undefined) throw new Error("mutant missing");
    const broken = mutantCommandLine(m, "cli-replay");
    const out = join(tmp, "cert");
    const { certificate, traceFiles } = await certify({
      commandLine: broken, cwd: REPO_ROOT, outDir: out, seed: 1, runs: 20, timeBudgetMs: 120_000, requestTimeoutMs: 15_000,
      startupTimeoutMs: 30_000, only: [], stages: ["golden"],
    });
    const s4 = certificate.invariants.find((i) => i.invariant === "S-4");
    expect(s4?.verdict).toBe("fail");
    expect(certificate.exit_code).toBe(1);
    const trace = traceFiles[0];
    if (trace === undefined) throw new Error("no trace written");
    expect(s4?.counterexamples[0]?.replay).toContain("srk replay");
    const still = await srk("replay", trace, "--impl", broken);
    expect(still.code, still.stdout + still.stderr).toBe(1);
    expect(still.stdout).toMatch(/still fails at step \d+: .*S-4/);
    const fixed = await srk("replay", trace, "--impl", KIT);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/passes now/);
  }, 120_000);
});
