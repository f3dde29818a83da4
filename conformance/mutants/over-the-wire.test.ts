/**
 * The kill matrix over the wire, sampled for the default test run: one mutant per family, each
 * run as its own process and certified by `srk`'s certify; each must be failed under the invariant
 * it breaks (D-035). The whole matrix is `npm run mutants`, which writes reports/mutants.md; this
 * file also checks that report covers the whole catalog and records every mutant as killed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROTOCOLS } from "../../spec/catalog.ts";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { familyOfInvariant } from "../oracle/families.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { certifyMutant } from "./matrix.ts";

/** One per family: found by the golden sessions, the algebra stage and the differential campaign. */
const SAMPLE = ["J-2.act-without-covering-grant", "S-5.excised-content-retained", "AD-3.round-half-up", "I4.stale-token-effect"];

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
      expect(row.reported, `${id}: ${row.summary ?? "no finding"}`).toContain(m.invariant);
      expect(row.exitCode).toBe(1);
      expect(row.shrunkSteps ?? 0).toBeGreaterThan(0);
    }, 180_000);
  }

  it("reports/mutants.md covers the whole catalog, every mutant killed under its own invariant", () => {
    const md = readFileSync(join(REPO_ROOT, "reports", "mutants.md"), "utf8");
    for (const m of MUTANTS) expect(md, `${m.id} missing from reports/mutants.md: run npm run mutants`).toContain(`| \`${m.id}\` | ${m.invariant ?? "wire"} |`);
    expect(md).toContain(`**${MUTANTS.length} of ${MUTANTS.length} mutants killed under their own invariant.**`);
  });
});
