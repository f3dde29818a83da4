/**
 * D-049 against a real implementation: the kit's own, started with `--families`, is certified
 * under profiles of every shape (each family alone, janma with each other family, a profile
 * without janma) and must reach exit 0 in each, with exactly the invariants spec/profiles.ts says
 * the profile certifies passing and every other one not applicable. This is what makes the rule
 * honest in both directions: an applicable invariant the campaign cannot witness would come out
 * inconclusive here (the rule too generous), and a runner that sends an operation of an
 * undeclared family fails against this implementation (it refuses such commands, UNSUPPORTED).
 * {samskara} alone certifies nothing and must say so (inconclusive, exit 2).
 *
 * A long test (vitest.config.ts LONG_TESTS): about ten to thirty seconds per profile on 2 cores.
 * The crash stage is left out (the full profile's crash cuts are certified by npm start).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INVARIANTS } from "../../spec/catalog.ts";
import type { StageName } from "../../spec/certificate.ts";
import { certifiedBy, type Family } from "../../spec/profiles.ts";
import { certify } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";

const STAGES: readonly StageName[] = ["handshake", "golden", "wire", "differential", "algebra", "forgetting"];
const PROFILES: readonly (readonly Family[])[] = [
  ["janma"],
  ["advaita"],
  ["ripa"],
  ["janma", "samskara"],
  ["janma", "advaita"],
  ["advaita", "ripa"],
  ["janma", "samskara", "advaita"],
];
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const certifyAs = async (families: readonly Family[]) => {
  const out = mkdtempSync(join(tmpdir(), "srk-profile-"));
  made.push(out);
  const { certificate } = await certify({
    commandLine: `${process.execPath} --import tsx impl/main.ts --families=${families.join(",")}`,
    cwd: REPO_ROOT,
    outDir: out,
    seed: 1,
    runs: 60,
    timeBudgetMs: 240_000,
    requestTimeoutMs: 15_000,
    startupTimeoutMs: 30_000,
    only: [],
    stages: STAGES,
    failFast: false,
    graceMs: 10_000,
  });
  return certificate;
};

describe("every profile of D-049 certifies what it promises, against the kit's implementation", () => {
  for (const families of PROFILES) {
    it(`${families.join(" + ")}: exit 0, exactly ${certifiedBy(families).length} invariant(s) pass, the rest not applicable`, async () => {
      const c = await certifyAs(families);
      const expected = certifiedBy(families);
      const report = c.invariants.map((i) => `${i.invariant} ${i.verdict}: ${i.reason}`).join("\n");
      const stages = c.stages.map((s) => `${s.stage} ${s.verdict}: ${s.reason}`).join("\n");
      expect(
        c.stages.filter((s) => s.verdict === "fail" || s.verdict === "inconclusive"),
        stages,
      ).toEqual([]);
      expect(
        c.invariants.filter((i) => i.verdict === "pass").map((i) => i.invariant),
        report,
      ).toEqual(expected);
      expect(
        c.invariants.filter((i) => i.verdict !== "pass").every((i) => i.verdict === "not-applicable"),
        report,
      ).toBe(true);
      expect([c.result, c.exit_code], `${c.result}\n${stages}`).toEqual(["certified", 0]);
    }, 300_000);
  }

  it("samskara alone certifies nothing: every invariant not applicable (the store's need janma), inconclusive with exit 2", async () => {
    const c = await certifyAs(["samskara"]);
    expect(c.invariants.every((i) => i.verdict === "not-applicable")).toBe(true);
    for (const i of c.invariants.filter((x) => INVARIANTS.find((y) => y.id === x.invariant)?.protocol === "samskara"))
      expect(i.reason, i.invariant).toMatch(/^needs janma: /);
    expect([c.result, c.exit_code]).toEqual(["inconclusive", 2]);
  }, 300_000);
});
