/**
 * The algebra stage (AD-3, S-4, S-5 over the wire): its schedules and the model's view of what
 * must be order-independent; the kit's implementation passes with witnesses; mutants of it fail
 * under the right invariant: rounding and leader mutants (AD-3), an order-dependent tie-break
 * (AD-3, the cross-schedule check), a miscounted replay claim (S-4), excisions that keep empty
 * batches or the forgotten content (S-5). The checkers judge hand-built histories (an
 * implementation that answers exactly as the model, then edited replies), and a recorded history
 * survives JSON and is judged the same.
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
import type { Reply } from "../../spec/wire/index.ts";
import { newHistory } from "../core/history.ts";
import { algebraStage, driveAlgebra } from "./algebra.ts";
import { checkAlgebra } from "./algebra-check.ts";
import type { AlgebraEvent, AlgebraHistory } from "./algebra-history.ts";
import { agreedFields, modelOutcome, modelSide } from "./algebra-outcome.ts";
import { batchingsOf4, excisionCases, exhaustiveOrders, sampledSchedules } from "./algebra-schedules.ts";
import { buildPrefix, type Script } from "./algebra-script.ts";
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

/** A run as the driver records it, for an implementation that replies exactly as the model (then edited by a test). */
const recordAsModel = (h: AlgebraHistory, part: string, script: Script): void => {
  h.events.push({ kind: "algebra-run", part, label: script.label });
  h.events.push({
    kind: "exchange",
    part,
    step: -2,
    request: { type: "reset", id: `${part}-reset` },
    expected: { ok: true, events: [] },
    reply: { type: "reply", id: `${part}-reset`, ok: true, events: [] },
  });
  h.events.push({
    kind: "exchange",
    part,
    step: -1,
    request: { type: "query", id: `${part}-empty`, query: { name: "world" } },
    expected: null,
    reply: {
      type: "reply",
      id: `${part}-empty`,
      ok: true,
      events: [],
      result: { tick: 0, roots_used: [], agents: [] },
    },
  });
  for (const [k, s] of script.steps.entries()) {
    const id = `${part}-${k + 1}`;
    const reply = { type: "reply", id, ...s.expected } as Reply;
    h.events.push({
      kind: "algebra-step",
      part,
      step: k,
      phase: s.phase,
      request: { ...s.request, id },
      expected: s.expected,
      reply,
    });
  }
};

/** A history of the 6 orders of 3 lives and one excision case, every reply the model's. */
const modelHistory = (): AlgebraHistory => {
  const h = newHistory<AlgebraEvent>("test");
  const prefix = buildPrefix(3);
  const scripts = exhaustiveOrders(3).map((s) => {
    const b = prefix.fork();
    for (const m of s.merges) b.merge(m);
    return b.replay().build(s.label);
  });
  h.events.push({ kind: "algebra-plan", part: "algebra", seed: 7, runs: scripts.length + 2 });
  const runs = scripts.map((_, k) => `algebra-n3-${k + 1}`);
  h.events.push({ kind: "algebra-group", part: "algebra-n3", n: 3, runs, models: scripts.map(modelSide) });
  for (const [k, s] of scripts.entries()) recordAsModel(h, runs[k] ?? "", s);
  const p4 = buildPrefix(4);
  const a = p4.fork().merge([0]).merge([1, 2]).merge([3]).excise("excision-1", [0]).replay().build("excise ob-1");
  const never = p4.fork().merge([1, 2]).merge([3]).replay().build("never ob-1");
  h.events.push({
    kind: "algebra-excision",
    part: "algebra-x1",
    excising: "algebra-x1-a",
    never: "algebra-x1-b",
    models: [modelSide(a), modelSide(never)],
  });
  recordAsModel(h, "algebra-x1-a", a);
  recordAsModel(h, "algebra-x1-b", never);
  h.events.push({ kind: "algebra-violations", part: "algebra", violations: [] });
  return h;
};

type Step = Extract<AlgebraEvent, { kind: "algebra-step" }>;
const stepsOf = (h: AlgebraHistory, part: string): Step[] =>
  h.events.filter((e): e is Step => e.kind === "algebra-step" && e.part === part);

/** Replaces the implementation's `state` in the store replies of `part` from step `from` on (a wrong aggregate). */
const corruptState = (h: AlgebraHistory, part: string, from: number): void => {
  for (const e of stepsOf(h, part))
    if (e.step >= from && e.request.type === "query" && e.request.query.name === "store" && e.reply.ok) {
      const result = e.reply.result as Record<string, unknown>;
      (e as { reply: Reply }).reply = { ...e.reply, result: { ...result, state: { entries: [] } } };
    }
};

describe("the checkers, on a history", () => {
  it("an implementation that replies as the model passes, with the witnesses, checks and notes of its runs", () => {
    const v = checkAlgebra(modelHistory());
    expect(v.outcome.verdict).toBe("pass");
    expect(v.outcome.reason).toBe(
      "6 merge schedules agreed with the model and with each other (AD-3), 8 replays agreed (S-4), 1 excisions equalled never merging (S-5)",
    );
    // 8 runs against the model, 5 comparisons within the group, 1 of the excision case
    expect(v.outcome.checks).toBe(14);
    expect(v.outcome.notes[0]).toMatch(/^AD-3 over 3 distillates: 6 schedules compared on store\.state, /);
    expect(v.witnessed.filter((x) => x === "S-4")).toHaveLength(8);
  });

  it("AD-3 a run whose store after a merge differs from the model's: a merge finding, and the order finding on it", () => {
    const h = modelHistory();
    const merge = stepsOf(h, "algebra-n3-2").find((e) => e.phase === "merge" && e.request.type === "query");
    corruptState(h, "algebra-n3-2", merge?.step ?? 0);
    const v = checkAlgebra(h);
    expect(v.outcome.verdict).toBe("fail");
    expect(v.outcome.findings.map((f) => [f.invariant, f.check])).toEqual([
      ["AD-3", "algebra/AD-3-merge"],
      ["AD-3", "algebra/AD-3-order"],
    ]);
    const [m, order] = v.outcome.findings;
    expect(m?.summary).toMatch(
      /^n3 merges ob-1 \| ob-3 \| ob-2: step \d+ \(samskara\.merge\) differs from the model: \$world\.agents\.0\.store\.state/,
    );
    expect(order?.summary).toMatch(
      /^merging the same 3 distillates under "n3 merges ob-1 \| ob-2 \| ob-3" and "n3 merges ob-1 \| ob-3 \| ob-2" gives different results: store\.state/,
    );
    // the order finding shows the run that deviates from the model, failing where it first did
    expect(order?.trace?.failing_step).toBe(merge?.step);
    expect(v.witnessed.filter((x) => x === "AD-3")).toHaveLength(5);
  });

  it("S-5 an excision that differs from never merging is a finding; a broken reset ends the stage", () => {
    const h = modelHistory();
    corruptState(h, "algebra-x1-a", 0);
    const v = checkAlgebra(h);
    expect(v.outcome.findings.map((f) => f.check)).toEqual(["algebra/AD-3-merge", "algebra/S-5-excision"]);
    expect(v.outcome.findings[1]?.summary).toMatch(
      /^"excise ob-1" differs from "never ob-1" \(the lineage that never had them\): /,
    );
    const r = modelHistory();
    const reset = r.events.find((e) => e.kind === "exchange" && e.part === "algebra-n3-3" && e.step === -2);
    if (reset?.kind === "exchange")
      (reset as { reply: Reply }).reply = {
        type: "reply",
        id: "algebra-n3-3-reset",
        ok: false,
        error: { code: "INTERNAL", invariant: null, message: "no", definite: true },
      };
    const w = checkAlgebra(r);
    expect(w.outcome.findings.map((f) => [f.check, f.summary])).toEqual([
      ["wire/W-2.4", "reset was refused with INTERNAL/-"],
    ]);
    expect(w.done).toBe(2);
  });

  it("a spent budget and an undrivable run are inconclusive, with the runs done", () => {
    const h = modelHistory();
    const cut = h.events.findIndex((e) => e.part === "algebra-n3-4");
    const budget = newHistory<AlgebraEvent>("test");
    budget.events.push(...h.events.slice(0, cut), { kind: "algebra-budget", part: "algebra" });
    const v = checkAlgebra(budget);
    expect(v.outcome.verdict).toBe("inconclusive");
    expect(v.outcome.reason).toBe("the time budget ran out after 3 of 8 runs");
    const stopped = newHistory<AlgebraEvent>("test");
    stopped.events.push(...h.events.slice(0, cut + 3), { kind: "stopped", part: "algebra-n3-4", reason: "it exited" });
    expect(checkAlgebra(stopped).outcome.reason).toBe("the implementation could not be driven: it exited");
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

  it("a recorded history survives JSON and is judged the same", async () => {
    const ctx = context(target(KIT));
    const h = newHistory<AlgebraEvent>("json");
    const cases = excisionCases(4, 0, 1)
      .slice(0, 1)
      .map((c, k) => ({ c, k }));
    await driveAlgebra(ctx, { groups: [{ n: 3, schedules: exhaustiveOrders(3) }], cases }, h);
    const v = checkAlgebra(h);
    expect(v.outcome.verdict).toBe("pass");
    expect(v.witnessed).toHaveLength(6 + 6 + 2 + 1);
    expect(checkAlgebra(JSON.parse(JSON.stringify(h)) as AlgebraHistory)).toEqual(v);
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
