/**
 * D-062 against the implementation: the drain of properties/liveness.ts, run in process after
 * generated histories (each command made against the implementation's own world view, as the
 * differential makes it), must leave every obligation discharged and every born instance
 * dissolved. It passes on the implementation and on an unpatched copy built like a mutant, and it
 * fails on the catalog mutant S-2.no-feedback-distillate-refused (properties/mutants/catalog.ts), which
 * refuses D-057's no-feedback distillate: the drain reports the refused distillation and the life
 * stranded withdrawn. The same mutant is killed by the golden sessions in
 * conformance/mutants/in-process.test.ts (line D-057.142 of session-decisions-samsara).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { openImplementation, type Implementation } from "../impl/api.ts";
import { load, materialize } from "../conformance/mutants/harness.ts";
import { MUTANTS } from "./mutants/catalog.ts";
import { choicesArb, newMemory } from "./generators/commands.ts";
import {
  describeViolations,
  drainLives,
  modelsFromMemory,
  runHistory,
  systemStepper,
  type DrainViolation,
} from "./liveness.ts";

const MUTANT_ID = "S-2.no-feedback-distillate-refused";
const RUNS = 50;
const SEED = 62;

interface Outcome {
  readonly histories: number;
  readonly distilled: number;
  readonly expiredFromHistory: number;
  readonly expiredCorrective: number;
  /** The first history whose drain reported a violation, with the violations. */
  readonly failed: { readonly run: number; readonly violations: readonly DrainViolation[] } | null;
}

/** The drain after RUNS generated histories, each on a fresh implementation from `open`. */
const drainAfterHistories = (open: () => Implementation, runs = RUNS): Outcome => {
  const stepper = systemStepper<Implementation>();
  let distilled = 0;
  let expiredFromHistory = 0;
  let expiredCorrective = 0;
  let histories = 0;
  for (const [run, cs] of fc.sample(choicesArb(60, 200), { seed: SEED, numRuns: runs }).entries()) {
    const impl = open();
    try {
      const mem = newMemory("mixed");
      const reached = runHistory(impl, stepper, mem, cs);
      const r = drainLives(reached, stepper, modelsFromMemory(mem));
      histories++;
      distilled += r.counts.distilled;
      expiredFromHistory += r.counts.expiredFromHistory.corrective + r.counts.expiredFromHistory.reinforcing;
      expiredCorrective += r.counts.expiredCorrective;
      if (r.violations.length > 0)
        return {
          histories,
          distilled,
          expiredFromHistory,
          expiredCorrective,
          failed: { run, violations: r.violations },
        };
    } finally {
      impl.close();
    }
  }
  return { histories, distilled, expiredFromHistory, expiredCorrective, failed: null };
};

describe("D-062 on the implementation: after generated histories the drain ends every life and obligation", () => {
  it("passes on the implementation", () => {
    const o = drainAfterHistories(() => openImplementation({}));
    console.error(
      `D-062 drain on impl over ${o.histories} histories: ${o.distilled} lives distilled, ${o.expiredFromHistory} of the history's obligations expired (${o.expiredCorrective} corrective)`,
    );
    expect(o.failed === null ? "" : describeViolations(o.failed.violations)).toBe("");
    expect(o.histories).toBe(RUNS);
    expect(o.distilled).toBeGreaterThanOrEqual(80);
    expect(o.expiredFromHistory).toBeGreaterThanOrEqual(20);
    expect(o.expiredCorrective).toBeGreaterThanOrEqual(3);
  });

  it(`passes on an unpatched copy and fails on the mutant ${MUTANT_ID}: the drain finds the life stranded`, async () => {
    const m = MUTANTS.find((x) => x.id === MUTANT_ID);
    expect(m, `${MUTANT_ID} is in the catalog`).toBeDefined();
    if (m === undefined) return;
    // Own directory names, so that a concurrent in-process mutation run does not rebuild these copies.
    const control = drainAfterHistories(await load(materialize("liveness-unpatched", null)), 5);
    expect(control.failed === null ? "" : describeViolations(control.failed.violations)).toBe("");
    const mutant = drainAfterHistories(await load(materialize(`liveness-${m.id}`, m)));
    expect(mutant.failed, `${MUTANT_ID} survived the drain`).not.toBeNull();
    const vs = mutant.failed?.violations ?? [];
    console.error(
      `${MUTANT_ID}: killed by the drain after history ${mutant.failed?.run}:\n${describeViolations(vs).split("\n").slice(0, 4).join("\n")}`,
    );
    expect(
      vs.some((v) => v.kind === "rejected" && v.command.op === "janma.distil" && v.rejection.invariant === "S-2"),
    ).toBe(true);
    expect(vs.some((v) => v.kind === "life-stranded" && v.state === "withdrawn")).toBe(true);
  });
});
