/**
 * Mutation check of the kit's own checks: every mutant of the implementation (one or more per
 * invariant, properties/mutants/catalog.ts) must be killed by the golden sessions or the
 * model-versus-implementation differential, and an unpatched copy built the same way must
 * survive — otherwise a "kill" could be an artefact of copying and loading.
 *
 * Budget: MUTANT_RUNS differential runs per profile (default 150) from MUTANT_SEED (default 1),
 * the same for every mutant and for the unpatched copy (IN_PROCESS_BUDGET, harness.ts).
 * The spec-review mutants are sampled by default (conformance/mutants/sample.ts); MUTANTS=all, as
 * `npm run mutants:check` sets it, checks every one.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INVARIANT_IDS, PROTOCOLS } from "../../spec/catalog.ts";
import { familyOfInvariant } from "../oracle/families.ts";
import { MUTANTS, mutantsOf } from "../../properties/mutants/catalog.ts";
import { IN_PROCESS_BUDGET, hunt, huntDifferential, huntGolden, load, materialize } from "./harness.ts";
import { ALL_MUTANTS, notSampled, REVIEW_SAMPLE, sampled } from "./sample.ts";

const { runs: RUNS, seed: SEED } = IN_PROCESS_BUDGET;

describe("mutants of the implementation are killed (J-1 .. I6)", () => {
  it("every invariant has at least one mutant, and mutant ids are unique", () => {
    for (const id of INVARIANT_IDS) expect(mutantsOf(id).length, id).toBeGreaterThan(0);
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
  });

  it("the test files the mutant catalog and this harness point to exist", () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
    const sources = [
      "properties/mutants/catalog.ts",
      "conformance/mutants/harness.ts",
      "conformance/mutants/sample.ts",
      "conformance/mutants/in-process.test.ts",
    ];
    const named = (f: string): string[] =>
      [...readFileSync(join(root, f), "utf8").matchAll(/[\w./-]+\.test\.ts/g)].map((x) => x[0]);
    expect(named("properties/mutants/catalog.ts")).toContain("conformance/mutants/in-process.test.ts");
    expect(sources.flatMap(named).filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it("the unpatched copy survives the mutants' budget (the harness itself kills nothing)", async () => {
    const verdict = hunt(await load(materialize("unpatched", null)), RUNS, SEED);
    expect(verdict.killed, verdict.by).toBe(false);
    // the control ran exactly what a mutant gets: the golden sessions and RUNS runs per profile
    expect(verdict.by).toBe(
      `survived the golden sessions and ${IN_PROCESS_BUDGET.runs} differential runs per profile from seed ${IN_PROCESS_BUDGET.seed}`,
    );
  });

  // Wire mutants (invariant null) change only impl/wire, which neither the in-process golden replay
  // nor the differential goes through; conformance/mutants/wire.test.ts kills them over the wire.
  for (const m of MUTANTS.filter((x) => x.invariant === null)) {
    it.skip(`${m.review ?? "wire"} mutant ${m.id}: a wire mutant, checked by conformance/mutants/wire.test.ts (the wire golden session against its process), not in process`, () => {});
  }

  const review = MUTANTS.filter((x) => x.review !== undefined && x.invariant !== null);
  it(`the default sample of spec-review mutants names review mutants of all four families${ALL_MUTANTS ? " (MUTANTS=all: every one is checked)" : ""}`, () => {
    const picked = sampled(review, REVIEW_SAMPLE);
    expect(picked.map((m) => m.id).sort()).toEqual(
      ALL_MUTANTS ? review.map((m) => m.id).sort() : [...REVIEW_SAMPLE].sort(),
    );
    expect(
      new Set(REVIEW_SAMPLE.map((id) => familyOfInvariant(review.find((m) => m.id === id)?.invariant ?? "J-1"))).size,
    ).toBe(PROTOCOLS.length);
  });

  for (const m of notSampled(review, REVIEW_SAMPLE))
    it.skip(`${m.review} mutant ${m.id}: not in the default sample (MUTANTS=all, npm run mutants:check)`, () => {});

  for (const m of sampled(review, REVIEW_SAMPLE)) {
    it(`${m.review} mutant ${m.id} (${m.description}) is killed by the golden sessions and, separately, by the differential`, async () => {
      const open = await load(materialize(m.id, m));
      const golden = huntGolden(open);
      expect(golden.killed, `${m.id}: ${golden.by}`).toBe(true);
      const differential = huntDifferential(open, RUNS, SEED, m.profile);
      expect(differential.killed, `${m.id}: ${differential.by}`).toBe(true);
    });
  }

  // The field-owner mutants (D-035 rule 2) are for the kill matrix's attribution over the wire;
  // in process they are checked like the others only with MUTANTS=all, to keep npm test's budget.
  const fieldOwners = MUTANTS.filter((x) => x.fieldOwner === true);
  for (const m of notSampled(fieldOwners, []))
    it.skip(`${m.invariant} field-owner mutant ${m.id}: checked over the wire by npm run mutants, in process with MUTANTS=all`, () => {});

  for (const m of [
    ...MUTANTS.filter((x) => x.review === undefined && x.fieldOwner !== true),
    ...sampled(fieldOwners, []),
  ]) {
    it(`${m.invariant} mutant ${m.id} (${m.description}) is killed`, async () => {
      const verdict = hunt(await load(materialize(m.id, m)), RUNS, SEED);
      if (verdict.killed) console.error(`${m.id}: killed by ${verdict.by.slice(0, 200)}`);
      expect(verdict.killed, `${m.id} ${verdict.by}`).toBe(true);
    });
  }
});
