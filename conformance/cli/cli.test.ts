/**
 * The srk command line end to end: list, usage errors (exit 64), and a counterexample that
 * `srk replay` re-runs on any implementation — still failing on the broken one, passing on the kit's.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { Certificate } from "../../spec/certificate.ts";
import { portableTrace } from "../../spec/examples.ts";
import { certify } from "../certify.ts";
import { mutantCommandLine } from "../mutants/matrix.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { srk } from "../../test-support/srk.ts";

const KIT = `${process.execPath} --import tsx impl/main.ts`;
const tmp = mkdtempSync(join(tmpdir(), "srk-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("srk command line", () => {
  it("list: the 19 invariants, the 8 stages and the operations", async () => {
    const r = await srk("list");
    expect(r.code).toBe(0);
    for (const id of ["J-1", "S-5", "AD-3", "I6"]) expect(r.stdout).toContain(`\n${id} `);
    for (const s of ["handshake", "golden", "wire", "exhaustive", "differential", "algebra", "crash", "forgetting"])
      expect(r.stdout).toContain(`\n${s} `);
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
      commandLine: broken,
      cwd: REPO_ROOT,
      outDir: out,
      seed: 1,
      runs: 20,
      timeBudgetMs: 120_000,
      requestTimeoutMs: 15_000,
      startupTimeoutMs: 30_000,
      only: [],
      stages: ["golden"],
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

  it("a program that cannot be started (no such program, not executable) is a usage error: exit 64, first stderr line names it, nothing written", async () => {
    writeFileSync(join(tmp, "trace.json"), JSON.stringify(portableTrace));
    const noexec = join(tmp, "not-executable.py");
    writeFileSync(noexec, "#!/usr/bin/env python3\n");
    chmodSync(noexec, 0o644);
    // An earlier report in --out stays as it was: the run never started.
    const earlier = join(tmp, "earlier");
    mkdirSync(earlier);
    writeFileSync(join(earlier, "certificate.json"), JSON.stringify({ certificate_version: 1, earlier: true }));
    const fresh = join(tmp, "never-written");
    const [certify64, golden64, replay64, eacces, exitsAtOnce] = await Promise.all([
      srk("certify", "--impl", "pyhton3 impl.py", "--out", earlier),
      srk("golden", "--impl", "pyhton3"),
      srk("replay", join(tmp, "trace.json"), "--impl", "pyhton3"),
      srk("certify", "--impl", noexec, "--out", fresh),
      // The rule breaks for a program that starts: one that exits before hello is the implementation's fault, inconclusive with a certificate.
      srk("certify", "--impl", "python3 -c pass", "--out", join(tmp, "exits"), "--only", "AD-1"),
    ]);
    const enoent = 'srk: --impl: cannot start "pyhton3": spawn pyhton3 ENOENT (no such program on PATH)';
    for (const r of [certify64, golden64, replay64]) {
      expect(r.code, r.stderr).toBe(64);
      expect(r.stderr.split("\n")[0]).toBe(enoent);
      expect(r.stdout).toBe("");
    }
    expect(readFileSync(join(earlier, "certificate.json"), "utf8")).toContain('"earlier":true');
    expect(eacces.code, eacces.stderr).toBe(64);
    expect(eacces.stderr.split("\n")[0]).toBe(
      `srk: --impl: cannot start "${noexec}": spawn ${noexec} EACCES (the file is not executable, or a folder on its path cannot be searched)`,
    );
    expect(existsSync(fresh)).toBe(false);
    expect(exitsAtOnce.code, exitsAtOnce.stderr).toBe(2);
    expect(exitsAtOnce.stderr).not.toContain("cannot start");
    expect(existsSync(join(tmp, "exits", "certificate.json"))).toBe(true);
  }, 60_000);

  it("no reply to hello names --startup-timeout and the value used; a program that ends before hello is not told to wait longer", async () => {
    const [silent, ends] = await Promise.all([
      srk("golden", "--impl", "python3 -c 'import time; time.sleep(30)'", "--startup-timeout", "700"),
      // The program ends long before its timeout: 30 s, so a loaded machine's slow start of
      // python3 never turns its end into a timeout (the point is the message, not the limit).
      srk("golden", "--impl", "python3 -c pass", "--startup-timeout", "30000"),
    ]);
    expect(silent.code).toBe(2);
    expect(silent.stdout).toContain("no reply to hello within 700 ms (--startup-timeout 700;");
    expect(ends.code).toBe(2);
    expect(ends.stdout).toContain("ended before answering hello");
    expect(ends.stdout).not.toContain("--startup-timeout");
  }, 60_000);

  it("--only AD-1: the 18 others are not-selected, never not-applicable, and the counts line says 18 not selected", async () => {
    const out = join(tmp, "only");
    const r = await srk("certify", "--impl", "python3 docs/examples/empty_profile.py", "--only", "AD-1", "--out", out);
    const c = Certificate.parse(JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")));
    const others = c.invariants.filter((i) => i.invariant !== "AD-1");
    expect(others.map((i) => i.verdict)).toEqual(Array(18).fill("not-selected"));
    // AD-1 itself is outside the empty profile: not applicable, so nothing is certified (exit 2), and the others change nothing.
    expect(c.invariants.find((i) => i.invariant === "AD-1")?.verdict).toBe("not-applicable");
    expect([c.result, c.exit_code, r.code]).toEqual(["inconclusive", 2, 2]);
    expect(r.stdout).toContain("invariants: 0 pass, 0 fail, 1 not applicable, 18 not selected, 0 inconclusive");
    expect(r.stdout).not.toMatch(/^(J|S|AD|I)[-\d]+ +not-applicable .*--only/m);
  }, 120_000);
});
