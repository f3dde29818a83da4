/**
 * The kill matrix over the wire, sampled for the long test run: one mutant per family, each run as
 * its own process and certified by `srk`'s certify. Two remove a check whose code names their
 * invariant (J-2, I4: D-035 rule (1) puts the failure there), two change the store without any
 * rejection (S-5's retained content, AD-3's contested flag: rule (2), the field's owner; AD-3's rounding mutant is first seen at an excision since the generator's boundary work and is decided apart, conformance/mutants/decisions.json), so each row
 * must be "own": failed under the label the catalog gives from the spec. The whole matrix is `npm run mutants`,
 * which writes reports/mutants.json and .md; that they cover the catalog with its current labels,
 * and that every mutant killed under another invariant is decided, is reports/evidence.test.ts's
 * and matrix-report.test.ts's concern.
 */
import { describe, expect, it } from "vitest";
import { PROTOCOLS } from "../../spec/catalog.ts";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { familyOfInvariant } from "../oracle/families.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certify } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { certifyMutant, mutantCommandLine } from "./matrix.ts";

/** One per family: found by the golden sessions, the algebra stage and the differential campaign. */
const SAMPLE = [
  "J-2.act-without-covering-grant",
  "S-5.excised-content-retained",
  "AD-3.contested-needs-two-negatives",
  "I4.stale-token-effect",
];

describe("kill matrix over the wire (sample; npm run mutants runs all)", () => {
  it("the sample spans all four families", () => {
    const fams = new Set(SAMPLE.map((id) => familyOfInvariant(MUTANTS.find((m) => m.id === id)?.invariant ?? "J-1")));
    expect([...fams].sort()).toEqual([...PROTOCOLS].sort());
  });

  for (const id of SAMPLE) {
    it(`${id} is certified fail under its own invariant`, async () => {
      const m = MUTANTS.find((x) => x.id === id);
      if (m === undefined) throw new Error(`no mutant ${id}`);
      const row = await certifyMutant(m, { seed: 1, runs: 300, timeBudgetMs: 120_000 });
      expect(row.attribution, `${id}: ${row.summary ?? "no finding"}`).toBe("own");
      expect(row.reported).toContain(m.invariant);
      expect(row.killed && row.own).toBe(true);
      expect(row.exitCode).toBe(1);
      expect(row.shrunkSteps ?? 0).toBeGreaterThan(0);
    }, 180_000);
  }

  it("a wire mutant's wire-session finding has no trace (raw lines fit none) and names srk golden as its replay", async () => {
    const m = MUTANTS.find((x) => x.id === "G-15.cr-not-counted");
    if (m === undefined) throw new Error("no mutant G-15.cr-not-counted");
    const commandLine = mutantCommandLine(m, "otw-rerun-G-15");
    const out = mkdtempSync(join(tmpdir(), "srk-rerun-"));
    try {
      const { certificate } = await certify({
        commandLine,
        cwd: REPO_ROOT,
        outDir: join(out, "report"),
        dataRoot: mkdtempSync(join(out, "data-")),
        seed: 1,
        runs: 1,
        timeBudgetMs: 60_000,
        requestTimeoutMs: 15_000,
        startupTimeoutMs: 30_000,
        only: [],
        stages: ["golden"],
        failFast: true,
        graceMs: 10_000,
      });
      const f = certificate.stages.flatMap((s) => s.findings).find((x) => x.check === "golden/wire-session");
      expect(f, JSON.stringify(certificate.stages.map((s) => s.reason))).toBeDefined();
      expect(f?.trace_file).toBeNull();
      expect(f?.replay).toBe(`npx srk golden --impl '${commandLine}'`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
