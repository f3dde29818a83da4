/**
 * Generated mutants certified over the wire, as `npm run mutants:wire-generated` does (long: each
 * certification starts processes and runs every stage). The control certifies; a generated
 * mutant that flips the attribution comparison of `janma.distil` (AD-4: the distillate's
 * `born_from` must be the projection's) is killed, under AD-4, with the time it took; and the row
 * of a mutant TypeScript rejects is counted apart without being started.
 */
import { describe, expect, it } from "vitest";
import { certifyGenerated, didNotCompile } from "./certify-one.ts";
import { generateMutants } from "./source.ts";

const OPTIONS = { seed: 1, runs: 60, timeBudgetMs: 120_000 } as const;

describe("generated mutants over the wire", () => {
  it("the control certifies, and a mutant of the AD-4 attribution check is killed under AD-4", async () => {
    const control = await certifyGenerated(null, OPTIONS);
    expect(control.outcome, control.summary ?? control.fault ?? "").toBe("survived");
    expect(control.exitCode).toBe(0);
    const all = await generateMutants(["impl/core/ops/distil.ts"]);
    const m = all.find(
      (x) =>
        x.mutator === "EqualityOperator" &&
        x.original === "d.born_from !== inst.bornFrom" &&
        x.replacement === "d.born_from === inst.bornFrom",
    );
    expect(m, "the generator makes the AD-4 comparison's mutant").toBeDefined();
    if (m === undefined) return;
    const r = await certifyGenerated(m, OPTIONS);
    expect(r.outcome).toBe("killed");
    expect(r.exitCode).toBe(1);
    expect(r.reported).toContain("AD-4");
    expect(r.secondsToKill).toBeGreaterThan(0);
    expect(r.secondsToKill as number).toBeLessThanOrEqual(r.seconds);
    const c = didNotCompile(m, "1:1 TS2322 x");
    expect(c).toMatchObject({ outcome: "did-not-compile", exitCode: null, seconds: 0, fault: "1:1 TS2322 x" });
  }, 600_000);
});
