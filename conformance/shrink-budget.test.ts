/**
 * The shrink budget (D-064): its arithmetic at the boundaries, the ledger summed over shrinks, and
 * the differential stage against a mutant whose failure it would shrink longer, stopping at the
 * bound (a fake clock) with the counterexample marked not fully shrunk.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../properties/mutants/catalog.ts";
import { PortableTrace } from "../spec/certificate.ts";
import { Target } from "./driver/target.ts";
import { mutantCommandLine } from "./mutants/matrix.ts";
import { SHRINK_BUDGET_REASON, SHRINK_SHARE, ShrinkLedger, shrinkLedgerOf, shrinkLimit } from "./shrink-budget.ts";
import { differentialStage } from "./stages/differential.ts";
import { stageContext } from "./test/stage-context.ts";
import { REPO_ROOT } from "./transport/local.ts";

describe("shrinkLimit", () => {
  it("is the whole share when nothing is used", () => {
    expect(SHRINK_SHARE).toBe(0.2);
    expect(shrinkLimit(600_000, 0)).toBe(120_000);
  });
  it("is what is left of the share while some is used", () => {
    expect(shrinkLimit(600_000, 100_000)).toBe(20_000);
    expect(shrinkLimit(600_000, 119_999)).toBe(1);
  });
  it("is 0 exactly at the share and over it, never negative", () => {
    expect(shrinkLimit(600_000, 120_000)).toBe(0);
    expect(shrinkLimit(600_000, 120_001)).toBe(0);
    expect(shrinkLimit(600_000, 10_000_000)).toBe(0);
  });
  it("is 0 for a zero (or nonsensical) budget", () => {
    expect(shrinkLimit(0, 0)).toBe(0);
    expect(shrinkLimit(-1, 0)).toBe(0);
    expect(shrinkLimit(Number.NaN, 0)).toBe(0);
  });
  it("counts negative use as none", () => {
    expect(shrinkLimit(1_000, -500)).toBe(200);
  });
});

describe("ShrinkLedger", () => {
  it("sums the shrinks of a run: each is allowed what the earlier ones left", () => {
    let t = 0;
    const ledger = new ShrinkLedger(10_000, () => t);
    const a = ledger.begin();
    expect(a.over()).toBe(false); // not started: the first failure starts it
    a.start();
    t += 1_500;
    expect(a.over()).toBe(false);
    t += 500;
    expect(a.over()).toBe(true); // allowed 2000 ms (20% of 10 s), used 2000: at the bound
    expect(a.end()).toBe(2_000);
    expect(ledger.usedMs).toBe(2_000);
    expect(ledger.remainingMs()).toBe(0);
    // A later shrink gets nothing: over as soon as it starts.
    const b = ledger.begin();
    b.start();
    expect(b.over()).toBe(true);
    expect(b.end()).toBe(0);
    // A shrink that never started (the run did not fail again) costs nothing.
    const c = new ShrinkLedger(10_000, () => t).begin();
    expect(c.end()).toBe(0);
  });

  it("is at the bound exactly when the clock reaches the allowance", () => {
    let t = 0;
    const ledger = new ShrinkLedger(10_000, () => t);
    const a = ledger.begin();
    a.start();
    t = 1_999;
    expect(a.over()).toBe(false);
    t = 2_000;
    expect(a.over()).toBe(true);
  });

  it("is the context's own when certify passes one, else a fresh one over the stage's time budget", () => {
    const settings = { timeBudgetMs: 600_000 } as never;
    const own = new ShrinkLedger(1);
    expect(shrinkLedgerOf({ settings, shrinkLedger: own })).toBe(own);
    const fresh = shrinkLedgerOf({ settings });
    expect(fresh.budgetMs).toBe(600_000);
    expect(fresh.usedMs).toBe(0);
  });
});

describe("differential stage at the shrink bound", () => {
  const name = "shrink-budget-I1";
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const f of cleanup) await f();
  });

  it("stops shrinking at the bound, keeps the smallest failing case so far and says it is not fully shrunk", async () => {
    const m = MUTANTS.find((x) => x.id === "I1.custodians-as-given");
    if (m === undefined) throw new Error("no mutant I1.custodians-as-given");
    const commandLine = mutantCommandLine(m, name);
    cleanup.push(() =>
      rmSync(dirname(dirname(commandLine.split(" ").at(-1) ?? join(REPO_ROOT, "none"))), {
        recursive: true,
        force: true,
      }),
    );
    const target = new Target({ commandLine, cwd: REPO_ROOT, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000 });
    cleanup.push(() => target.dispose());
    // A fake clock for the shrink budget: every reading is a second later. A 10 s budget allows
    // 2 s of shrinking: the clock starts at the first failure, the first candidate is tried (1 s),
    // the second finds the bound reached (2 s), so the shrink stops after at most one step.
    let t = 0;
    const ledger = new ShrinkLedger(10_000, () => (t += 1_000));
    const ctx = stageContext(target, { shrinkLedger: ledger, failFast: true }, { seed: 1, runs: 20 });
    const out = await differentialStage(ctx);
    expect(out.verdict, out.reason).toBe("fail");
    const f = out.findings[0];
    expect(f?.invariant).toBe("I1");
    const trace = PortableTrace.parse(f?.trace);
    expect(trace.shrink).not.toBeNull();
    expect(trace.shrink?.interrupted).toBe(true);
    expect(trace.shrink?.reason).toBe(SHRINK_BUDGET_REASON);
    expect(trace.shrink?.attempts ?? 99).toBeLessThanOrEqual(1);
    // Unbounded, this failure shrinks to 2 commands and a world query (reports/mutants.md); cut
    // after one step, the run kept is longer, yet a counterexample all the same.
    expect(trace.shrink?.original_length).toBeGreaterThan(trace.steps.length);
    expect(trace.steps.length).toBeGreaterThan(3);
    expect(f?.summary).toContain(`not fully shrunk, ${SHRINK_BUDGET_REASON}: `);
    expect(f?.summary).not.toContain("did not reproduce");
    expect(out.notes.join("\n")).toContain("not fully");
    expect(ledger.usedMs).toBeGreaterThanOrEqual(2_000);
    expect(ledger.remainingMs()).toBe(0);
  }, 240_000);
});
