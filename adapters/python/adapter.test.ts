/**
 * The Python wire adapter (adapters/python, issue 20 item 3): its own unit tests (Python's unittest,
 * standard library only), then `srk certify` on the adapter with an empty handler table. The empty
 * profile certifies no invariant, so the run ends inconclusive (exit 2, D-036) by design; what must
 * hold is that the handshake and the wire stages pass on the adapter alone, with every other stage and
 * every invariant not applicable, and no fault of the implementation.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { INVARIANT_IDS } from "../../spec/catalog.ts";
import { Certificate } from "../../spec/certificate.ts";
import { needs, PYTHON3 } from "../../test-support/needs.ts";
import { REPO_ROOT } from "../../conformance/transport/local.ts";

const run = promisify(execFile);
const EXAMPLE = "adapters/python/examples/empty.py";

/** Exit code and output of a process that may fail (execFile rejects on a non-zero exit). */
const outcome = async (file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const r = await run(file, args, { cwd: REPO_ROOT, maxBuffer: 16 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? -1, stdout: x.stdout ?? "", stderr: x.stderr ?? "" };
  }
};

const out = mkdtempSync(join(tmpdir(), "srk-python-adapter-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const python = needs(PYTHON3);

python.describe("the Python wire adapter", () => {
  it("passes its own unit tests (strict JSON, patterns, schemas, rules, the W-4 order, handlers, the process)", async () => {
    const r = await outcome("python3", [
      "-m",
      "unittest",
      "discover",
      "-s",
      "adapters/python/tests",
      "-t",
      "adapters/python",
    ]);
    // unittest writes its summary on stderr: "Ran N tests in …s", then "OK" or "FAILED (…)".
    const ran = /^Ran (\d+) tests? in /m.exec(r.stderr);
    expect(r.code, r.stderr.slice(-4000)).toBe(0);
    expect(Number(ran?.[1] ?? 0)).toBeGreaterThan(100);
    expect(r.stderr).toMatch(/^OK$/m);
    expect(r.stderr).not.toMatch(/skipped/);
  }, 120_000);

  it("with an empty handler table, srk certify passes the handshake and wire stages and ends inconclusive (exit 2)", async () => {
    const r = await outcome(process.execPath, [
      "bin/srk.mjs",
      "certify",
      "--impl",
      `python3 ${EXAMPLE}`,
      "--out",
      out,
      "--time-budget",
      "120",
    ]);
    const certificate = Certificate.parse(JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")));
    const stage = (name: string) => certificate.stages.find((s) => s.stage === name);
    expect(certificate.implementation.name).toBe("python-adapter-empty");
    expect(certificate.implementation.profile).toEqual({ families: [], crash_hook: false });
    expect(certificate.protocol_version).toBe("1");
    for (const name of ["handshake", "wire"]) {
      const s = stage(name);
      expect(s?.verdict, `${name}: ${s?.reason} ${JSON.stringify(s?.findings.slice(0, 3))}`).toBe("pass");
      expect(s?.findings).toEqual([]);
      expect(s?.checks ?? 0).toBeGreaterThan(0);
    }
    // The wire stage's hostile catalog is far larger than the handshake's few checks.
    expect(stage("wire")?.checks ?? 0).toBeGreaterThan(70);
    // The golden stage replays, for the empty profile, the golden lines that need no family, if any
    // (issue 20 item 1): whatever it replays must pass; it never fails or is inconclusive here.
    expect(["pass", "not-applicable"], `golden: ${stage("golden")?.reason}`).toContain(stage("golden")?.verdict);
    expect(stage("golden")?.findings).toEqual([]);
    for (const name of ["differential", "algebra", "crash", "forgetting"])
      expect(stage(name)?.verdict, `${name}: ${stage(name)?.reason}`).toBe("not-applicable");
    expect(certificate.invariants.map((i) => i.invariant)).toEqual([...INVARIANT_IDS]);
    for (const inv of certificate.invariants)
      expect(inv.verdict, `${inv.invariant}: ${inv.reason}`).toBe("not-applicable");
    expect(certificate.implementation_faults).toEqual([]);
    expect(certificate.harness_faults).toEqual([]);
    expect(certificate.result).toBe("inconclusive");
    expect(certificate.exit_code).toBe(2);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toMatch(/^handshake +pass /m);
    expect(r.stdout).toMatch(/^wire +pass /m);
  }, 180_000);
});
