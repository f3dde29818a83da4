/**
 * The algebra stage (AD-3, S-4, S-5 over the wire): its schedules and the model's view of what
 * must be order-independent; the kit's implementation passes with witnesses; mutants of it fail
 * under the right invariant: rounding and leader mutants (AD-3), an order-dependent tie-break
 * (AD-3, the cross-schedule check), a miscounted replay claim (S-4), excisions that keep empty
 * batches or the forgotten content (S-5).
 */
import { KIT_COMMAND_LINE, stageContext, disposedAfterAll } from "../test/stage-context.ts";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InvariantId } from "../../spec/catalog.ts";
import { PortableTrace } from "../../spec/certificate.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { replayTrace } from "../replay.ts";
import { materialize } from "../mutants/harness.ts";
import { MUTANTS, type Mutant } from "../../properties/mutants/catalog.ts";
import { algebraStage } from "./algebra.ts";
import { agreedFields, modelOutcome } from "./algebra-outcome.ts";
import { batchingsOf4, excisionCases, exhaustiveOrders, sampledSchedules } from "./algebra-schedules.ts";
import { buildPrefix } from "./algebra-script.ts";
import type { StageOutcome } from "./types.ts";

const target = disposedAfterAll();

const KIT = KIT_COMMAND_LINE;

const context = stageContext;

const merged = (merges: readonly (readonly number[])[]): number[] => [...new Set(merges.flat())].sort((a, b) => a - b);

describe("schedules", () => {
  it("AD-3 orders are exhaustive for 3 and 4 lives, batchings redeliver, samples follow the seed and merge every life", () => {
    expect(exhaustiveOrders(3)).toHaveLength(6);
    expect(new Set(exhaustiveOrders(4).map((s) => s.label)).size).toBe(24);
    const batchings = batchingsOf4();
    expect(batchings.map((s) => s.merges.length)).toContain(1);
    // D-008: an obligation listed twice in one command, and a command of only applied ones
    expect(batchings.some((s) => s.merges.some((m) => new Set(m).size < m.length))).toBe(true);
    expect(
      batchings.some((s) =>
        s.merges.some((m, k) => m.length > 0 && m.every((i) => s.merges.slice(0, k).flat().includes(i))),
      ),
    ).toBe(true);
    const a = sampledSchedules(7, 10, 1);
    expect(a).toEqual(sampledSchedules(7, 10, 1));
    expect(a.map((s) => s.label)).not.toEqual(sampledSchedules(7, 10, 2).map((s) => s.label));
    for (const s of a) expect(merged(s.merges)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const s of batchings) expect(merged(s.merges)).toEqual([0, 1, 2, 3]);
  });

  it("S-5 cases excise something, and one empties a whole batch (D-009)", () => {
    const cases = excisionCases(4, 2, 1);
    expect(cases).toHaveLength(5);
    for (const c of cases) expect(c.excised.length).toBeGreaterThan(0);
    expect(cases.some((c) => c.batches.some((b) => b.every((i) => c.excised.includes(i))))).toBe(true);
  });
});

describe("what the model shows to be order-independent", () => {
  it("AD-3 the model's schedules agree on the state and retained distillates, not on the chain", () => {
    const prefix = buildPrefix(4);
    const outcomes = [...exhaustiveOrders(4).slice(0, 8), ...batchingsOf4()].map((s) => {
      const b = prefix.fork();
      for (const m of s.merges) b.merge(m);
      return modelOutcome(b.replay().build(s.label));
    });
    const fields = agreedFields(outcomes);
    expect(fields).toEqual(
      expect.arrayContaining([
        "store.state",
        "store.distillates",
        "store.head_state_digest",
        "claim.identity",
        "claim.state_digest",
      ]),
    );
    expect(fields).not.toContain("store.head");
    expect(fields).not.toContain("store.chain");
    expect(fields).not.toContain("store.batches");
  });

  it("AD-3 the lives carry a full tie broken by id, a contested key and a mean of exactly one half (D-002, D-007)", () => {
    const b = buildPrefix(3).fork();
    b.merge([1, 0, 2]);
    const state = modelOutcome(b.replay().build("all"))["store.state"] as {
      entries: { key: string; guidance: string; weight: number; contested: boolean }[];
    };
    const entry = (k: string) => state.entries.find((e) => e.key === k);
    expect(entry("k.a")).toMatchObject({ guidance: "a from life 1", contested: true });
    expect(entry("k.r")).toMatchObject({ weight: 0, contested: true });
    expect(entry("k.b")?.guidance).toBe("b from life 3");
  });

  it("a scripted command the model rejects is a runner bug, not a finding", () => {
    expect(() => buildPrefix(3).fork().merge([5])).toThrow(/runner bug.*samskara\.merge with NOT_FOUND/);
    expect(() => buildPrefix(3).fork().excise("x", [0])).toThrow(/runner bug.*samskara\.excise with NOT_FOUND/);
  });

  it("S-5 excising equals never merging on chain, batches and state; the excision record differs", () => {
    const prefix = buildPrefix(4);
    const a = prefix.fork();
    a.merge([0]).merge([1, 2]).merge([3]);
    const excised = modelOutcome(a.excise("x", [0]).replay().build("excise"));
    const never = modelOutcome(prefix.fork().merge([1, 2]).merge([3]).replay().build("never"));
    const fields = agreedFields([excised, never]);
    expect(fields).toEqual(
      expect.arrayContaining(["store.head", "store.chain", "store.batches", "store.state", "store.distillates"]),
    );
    expect(fields).not.toContain("store.excisions");
  });
});

describe("profiles and undrivable implementations", () => {
  it("is not applicable without janma and samskara, and honours --only", async () => {
    const t = target(`${process.execPath} -e "process.exit(3)"`);
    const none = await algebraStage(context(t, { families: ["advaita", "ripa"] }));
    expect(none.verdict).toBe("not-applicable");
    expect(none.reason).toContain("janma and samskara");
    // --only naming none of its invariants: the stage is left out, not outside the profile (D-036).
    const only = await algebraStage(context(t, {}, { only: ["I1"] }));
    expect(only.verdict).toBe("not-selected");
  });

  it("is inconclusive when the implementation cannot be started", async () => {
    const out = await algebraStage(context(target(`${process.execPath} -e "process.exit(3)"`)));
    expect(out.verdict).toBe("inconclusive");
    expect(out.reason).toContain("could not be driven");
  });
});

describe("the kit's implementation", () => {
  it("AD-3 S-4 S-5 passes with witnesses", async () => {
    const ctx = context(target(KIT));
    const out = await algebraStage(ctx);
    expect(out.findings).toEqual([]);
    expect(out.verdict).toBe("pass");
    expect(ctx.witnesses.get("AD-3").algebra).toBeGreaterThanOrEqual(30);
    expect(ctx.witnesses.get("S-4").algebra).toBeGreaterThanOrEqual(40);
    expect(ctx.witnesses.get("S-5").algebra).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it("is inconclusive when the time budget is already spent", async () => {
    const out = await algebraStage(context(target(KIT), { deadline: Date.now() - 1 }));
    expect(out.verdict).toBe("inconclusive");
    expect(out.reason).toContain("time budget");
  });
});

/** A full tie keeps the contributor seen first instead of the smallest id: order-dependent (D-007). */
const FIRST_SEEN_TIE: Mutant = {
  id: "AD-3.first-seen-tie-leader",
  invariant: "AD-3",
  description: "a full tie keeps the leader merged first instead of the smallest distillate id",
  file: "impl/core/accumulator.ts",
  find: "return compareCodeUnits(a.distillateId, b.distillateId) < 0;",
  replace: "return false;",
};

const mutant = (id: string): Mutant => {
  const m = MUTANTS.find((x) => x.id === id) ?? (id === FIRST_SEEN_TIE.id ? FIRST_SEEN_TIE : undefined);
  if (m === undefined) throw new Error(`no mutant ${id}`);
  return m;
};

/** Runs the stage on a mutant copy, limited to `only` and a short budget (a fault shows in the first runs). */
const onMutant = async (id: string, only: InvariantId[], budgetMs: number): Promise<StageOutcome> => {
  const api = materialize(`algebra-${id}`, mutant(id));
  const main = api.replace(/api\.ts$/, "main.ts");
  return algebraStage(
    context(target(`${process.execPath} --import tsx ${main}`), { deadline: Date.now() + budgetMs }, { only }),
  );
};

const expectFailure = (out: StageOutcome, invariant: InvariantId, check: string): void => {
  expect(out.verdict).toBe("fail");
  const f = out.findings.find((x) => x.check === check);
  expect(f, JSON.stringify(out.findings.map((x) => [x.invariant, x.check, x.summary]))).toBeDefined();
  expect(f?.invariant).toBe(invariant);
  expect(out.findings.every((x) => x.invariant === invariant)).toBe(true);
  const trace = PortableTrace.parse(f?.trace);
  expect(trace.invariant).toBe(invariant);
  expect(trace.steps.length).toBeGreaterThan(20);
  expect(trace.failing_step).not.toBeNull();
  expect(trace.steps[0]?.request["type"]).toBe("command");
};

// Concurrent: each test drives its own mutant process, mostly waiting on its durable writes.
describe.concurrent("mutants fail under the right invariant", () => {
  it("AD-3 round half up (D-002) and the lowest-weighted leader (D-007) differ from the model after a merge", async () => {
    const [a, b] = await Promise.all([
      onMutant("AD-3.round-half-up", ["AD-3"], 12_000),
      onMutant("AD-3.lowest-weighted-leader", ["AD-3"], 12_000),
    ]);
    for (const out of [a, b]) {
      expectFailure(out as StageOutcome, "AD-3", "algebra/AD-3-merge");
      expect((out as StageOutcome).findings[0]?.summary).toMatch(
        /store right after it: \$world\.agents\.0\.store\.state/,
      );
    }
  }, 40_000);

  it("AD-3 an order-dependent tie-break gives different states under different schedules", async () => {
    const out = await onMutant(FIRST_SEEN_TIE.id, ["AD-3"], 12_000);
    expectFailure(out, "AD-3", "algebra/AD-3-order");
    expect(out.findings.find((f) => f.check === "algebra/AD-3-order")?.summary).toMatch(
      /"n3 merges ob-1 \| ob-2 \| ob-3" and "n3 merges ob-2 \| ob-1 \| ob-3".*store\.state/,
    );
  }, 40_000);

  it("S-4 a replay claim that miscounts the versions; its trace replays portably", async () => {
    const out = await onMutant("S-4.replay-claim-miscounts", ["S-4"], 12_000);
    expectFailure(out, "S-4", "algebra/S-4-replay");
    expect(out.findings[0]?.summary).toContain("contradicts the implementation's own store");
    // `srk replay` on a fresh directory: the mutant still fails at the same step, the kit passes.
    const trace = PortableTrace.parse(out.findings[0]?.trace);
    const main = join(REPO_ROOT, ".tmp", "mutants", "algebra-S-4.replay-claim-miscounts", "impl", "main.ts");
    const [again, kit] = await Promise.all([
      replayTrace(trace, { commandLine: `${process.execPath} --import tsx ${main}`, cwd: REPO_ROOT }),
      replayTrace(trace, { commandLine: KIT, cwd: REPO_ROOT }),
    ]);
    expect(again).toMatchObject({ kind: "still-fails", step: (trace.failing_step ?? 0) + 1 });
    expect(kit).toEqual({ kind: "passes", steps: trace.steps.length });
  }, 40_000);

  it("S-5 excisions that keep empty batches or the forgotten content", async () => {
    const [a, b] = await Promise.all([
      onMutant("S-5.excision-keeps-empty-batches", ["S-5"], 30_000),
      onMutant("S-5.excised-content-retained", ["S-5"], 30_000),
    ]);
    expectFailure(a, "S-5", "algebra/S-5-excision");
    expectFailure(b, "S-5", "algebra/S-5-excision");
  }, 60_000);
});
