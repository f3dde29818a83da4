/**
 * The adapter with an EMPTY handler table, certified by `srk certify` over the wire as an
 * implementer would run it: the handshake stage (W-5), the golden stage (the lines of the wire
 * session that need no family, W-9.1) and the wire stage (the hostile-input catalog of W-1 and
 * W-4) must pass, every invariant is not applicable (the profile declares no
 * family, W-5.2), and the run ends inconclusive with exit 2 because nothing of the protocols was
 * certified (D-036) — by design, not a failure of the adapter.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const KIT = resolve(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "js-adapter-certify-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Stage {
  stage: string;
  verdict: string;
  reason: string;
  checks: number;
  findings: unknown[];
  notes: string[];
}
interface Cert {
  result: string;
  exit_code: number;
  implementation: { name: string; profile: { families: string[]; crash_hook: boolean } };
  stages: Stage[];
  invariants: { invariant: string; verdict: string; reason: string }[];
  implementation_faults: unknown[];
  harness_faults: unknown[];
}

describe("srk certify on the adapter with no handler (examples/empty.mjs)", () => {
  it("passes the handshake, golden and wire stages; every invariant not applicable; inconclusive, exit 2", async () => {
    let code = 0;
    let stdout = "";
    try {
      ({ stdout } = await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "conformance/cli/main.ts",
          "certify",
          "--impl",
          "node adapters/js/examples/empty.mjs",
          "--out",
          out,
          "--time-budget",
          "120",
        ],
        { cwd: KIT, maxBuffer: 16 << 20 },
      ));
    } catch (e) {
      const x = e as { code?: number; stdout?: string; stderr?: string };
      code = x.code ?? -1;
      stdout = `${x.stdout ?? ""}\n${x.stderr ?? ""}`;
    }
    const cert = JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")) as Cert;
    const stage = (name: string): Stage | undefined => cert.stages.find((s) => s.stage === name);
    expect(cert.implementation.name).toBe("js-adapter-empty");
    expect(cert.implementation.profile).toEqual({ families: [], crash_hook: false });
    expect(stage("handshake")?.verdict, stage("handshake")?.reason).toBe("pass");
    expect(stage("wire")?.verdict, JSON.stringify(stage("wire")?.findings.slice(0, 3))).toBe("pass");
    // The golden stage replays the wire session's lines that need no family (W-9.1, D-034).
    expect(stage("golden")?.verdict, JSON.stringify(stage("golden")?.findings.slice(0, 3))).toBe("pass");
    expect(stage("wire")?.findings).toEqual([]);
    // Every line of the catalog was checked (the stage counts one check per line, plus the batch and the after-checks).
    expect(stage("wire")?.checks ?? 0).toBeGreaterThan(100);
    for (const s of ["differential", "algebra", "crash", "forgetting"])
      expect(stage(s)?.verdict, `${s}: ${stage(s)?.reason}`).toBe("not-applicable");
    expect(cert.invariants).toHaveLength(19);
    for (const inv of cert.invariants) expect(inv.verdict, `${inv.invariant}: ${inv.reason}`).toBe("not-applicable");
    expect(cert.implementation_faults).toEqual([]);
    expect(cert.harness_faults).toEqual([]);
    expect([cert.result, cert.exit_code, code], stdout).toEqual(["inconclusive", 2, 2]);
    // The numbers README.md quotes are this run's.
    const readme = readFileSync(join(import.meta.dirname, "README.md"), "utf8");
    const lines = /^(\d+) hostile or boundary lines/.exec(stage("wire")?.reason ?? "")?.[1];
    expect(readme).toContain(
      `handshake (${stage("handshake")?.checks} checks), the golden stage (${stage("golden")?.checks} checks`,
    );
    expect(readme).toContain(`the wire stage (${lines} hostile or boundary`);
  }, 120_000);
});
