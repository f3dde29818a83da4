/**
 * The crash stage against the kit's implementation (durable, with the hook: passes with witnesses)
 * and against two faulty wrappers of it: one that acknowledges crash_after but never dies (W-7.3),
 * one that forgets everything on restart (W-7.1: after_commit and SIGKILL cuts fail).
 */
import { KIT_COMMAND_LINE, stageContext, disposedAfterAll } from "../test/stage-context.ts";
import { describe, expect, it } from "vitest";
import { INVARIANT_IDS } from "../../spec/catalog.ts";
import { initialWorld, view } from "../../model/index.ts";
import { seededSession } from "../oracle/model.ts";
import { PortableTrace } from "../../spec/certificate.ts";
import type { WorldView } from "../../spec/index.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { newHistory, type SentRequest } from "../core/history.ts";
import type { ExpectedReply } from "../core/reply.ts";
import type { ModelStep } from "../oracle/model.ts";
import { crashStage, cutInvariants, driveCrash, killMoment, ordinal, runCrashStage, sampleCuts } from "./crash.ts";
import { checkCrash, checkHookCut, type CrashEvent, type CrashHistory, MARK_HOOKS, MARK_KILLS } from "./crash-check.ts";

const target = disposedAfterAll();

const KIT = KIT_COMMAND_LINE;
const fixture = (name: string): string => `${process.execPath} conformance/test/fixtures/${name}`;

const context = stageContext;

const cutsPerAt = (notes: readonly string[]): number =>
  Number(/hook cuts: (\d+) at each/.exec(notes.join("\n"))?.[1] ?? 0);

describe("cut planning", () => {
  it("cuts at every write when few, else spreads the cuts from the first write to the last", () => {
    expect(sampleCuts(3, 12)).toEqual([1, 2, 3]);
    expect(sampleCuts(23, 12)).toHaveLength(12);
    expect(sampleCuts(23, 12)[0]).toBe(1);
    expect(sampleCuts(23, 12).at(-1)).toBe(23);
    expect(sampleCuts(0, 12)).toEqual([]);
  });

  it("credits a cut to the op's guards and to the profile's invariants whose state the command changes", () => {
    const all = ["janma", "samskara", "advaita", "ripa"] as const;
    // 60 steps: the generator's rare situations (properties/generators/situations.ts) take some of
    // seed 1's first 40 steps, and its first accepted act now comes at step 58.
    const steps = seededSession(1, 60, { families: all });
    const mint = steps[0];
    expect(mint?.command.op).toBe("advaita.mint");
    if (mint === undefined) return;
    expect(cutInvariants("advaita.mint", view(initialWorld()), mint.worldAfter, all)).toEqual(["AD-1"]);
    const at = steps.findIndex((s) => s.command.op === "janma.act" && s.expected.ok);
    const act = steps[at];
    const before = steps[at - 1];
    if (act === undefined || before === undefined) throw new Error("seed 1 has no accepted act");
    // An act adds a trace entry: S-1 state (samskara), credited only when samskara is in the profile.
    expect(cutInvariants("janma.act", before.worldAfter, act.worldAfter, all)).toContain("S-1");
    expect(cutInvariants("janma.act", before.worldAfter, act.worldAfter, ["janma"])).not.toContain("S-1");
  });

  it("names write numbers as ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "111th",
    ]);
  });

  it("derives kill moments from the seed, alternating both kinds", () => {
    expect(killMoment(7, 0, 30)).toEqual(killMoment(7, 0, 30));
    expect(killMoment(7, 0, 30).kind).toBe("after_reply");
    const delay = killMoment(7, 1, 30);
    expect(delay.kind === "delay" && delay.ms >= 2 && delay.ms <= 100).toBe(true);
    expect([0, 2, 4, 6].map((j) => killMoment(7, j, 30)).some((m) => m.kind === "after_reply" && m.index > 0)).toBe(
      true,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The checkers on hand-built histories: what a perfect implementation would have answered, then edited.

const ALL = ["janma", "samskara", "advaita", "ripa"] as const;
const STEPS: readonly ModelStep[] = seededSession(1, 60, { families: ALL }).slice(0, 6);
const EMPTY = view(initialWorld());
const worldAfter = (p: number): WorldView => (p === 0 ? EMPTY : (STEPS[p - 1]?.worldAfter ?? EMPTY));
const WRITES = STEPS.flatMap((s, i) => (s.expected.ok ? [i] : []));
const OK: ExpectedReply = { ok: true, events: [] };
const replyOf = (id: string, e: ExpectedReply): Reply => ({ id, ...e }) as unknown as Reply;
const worldOf = (w: WorldView): ExpectedReply => ({ ok: true, events: [], result: w });
const command = (id: string, i: number): SentRequest => ({ type: "command", id, command: STEPS[i]?.command });

/** Records an exchange answered as the model expects, or with `reply` instead. */
const exchange = (part: string, step: number, request: SentRequest, expected: ExpectedReply, reply?: Reply) =>
  ({
    kind: "exchange",
    part,
    step,
    request,
    expected,
    reply: reply ?? replyOf(String(request.id), expected),
  }) as const;

const exit = (part: string, step: number, request: SentRequest, expected: ExpectedReply): CrashEvent => ({
  kind: "crash-exit",
  part,
  step,
  request,
  expected,
  exit: { code: null, signal: "SIGKILL" },
  stderrTail: "",
});

/** A hook cut at the k-th write (step `index`); the process dies at step `dies`, recovers to `recovered`. */
const hookPart = (k: number, dies: number, recovered: WorldView | "unrecoverable"): CrashHistory["events"] => {
  const part = `hook-after_commit-${k}`;
  const index = WRITES[k - 1] ?? -1;
  const cut = STEPS[index];
  if (cut === undefined) throw new Error("no such write");
  const events: CrashHistory["events"] = [
    {
      kind: "crash-hook",
      part,
      at: "after_commit",
      k,
      index,
      op: cut.command.op,
      before: worldAfter(index),
      after: cut.worldAfter,
    },
    exchange(part, 0, { type: "reset", id: `ac${k}-reset` }, OK),
    exchange(part, 1, { type: "crash_after", id: `ac${k}-arm`, writes: k, at: "after_commit" }, OK),
  ];
  for (let i = 0; i <= dies; i++) {
    const s = STEPS[i];
    if (s === undefined) break;
    const msg = command(`ac${k}-c${i}`, i);
    events.push(i === dies ? exit(part, i + 2, msg, s.expected) : exchange(part, i + 2, msg, s.expected));
  }
  if (recovered === "unrecoverable") {
    events.push({ kind: "restart-failed", part, reason: "the implementation exited with code 3" });
    return events;
  }
  events.push({ kind: "restart", part });
  if (dies === index)
    events.push(
      exchange(
        part,
        dies + 3,
        { type: "query", id: `ac${k}-world`, query: { name: "world" } },
        worldOf(cut.worldAfter),
        replyOf(`ac${k}-world`, worldOf(recovered)),
      ),
    );
  return events;
};

/** A kill after the reply to command `answered`; the process recovers to `recovered`. */
const killPart = (answered: number, recovered: WorldView): CrashHistory["events"] => {
  const part = "kill-0";
  const events: CrashHistory["events"] = [
    {
      kind: "crash-kill",
      part,
      j: 0,
      moment: { kind: "after_reply", index: answered - 1 },
      ops: STEPS.map((s) => s.command.op),
      prefixes: Array.from({ length: STEPS.length + 1 }, (_, p) => worldAfter(p)),
    },
    exchange(part, 0, { type: "reset", id: "kill0-reset" }, OK),
    { kind: "crash-sigkill", part },
  ];
  STEPS.forEach((s, i) => {
    const msg = command(`kill0-c${i}`, i);
    events.push(i < answered ? exchange(part, i + 1, msg, s.expected) : exit(part, i + 1, msg, s.expected));
  });
  events.push({ kind: "restart", part });
  events.push(
    exchange(
      part,
      STEPS.length + 1,
      { type: "query", id: "kill0-world", query: { name: "world" } },
      worldOf(worldAfter(answered)),
      replyOf("kill0-world", worldOf(recovered)),
    ),
  );
  return events;
};

/** A whole run: plan, a baseline that agrees throughout, the given cut parts, the driver's marks, its end. */
const historyOf = (hooks: CrashHistory["events"], kill: CrashHistory["events"]): CrashHistory => {
  const h = newHistory<CrashEvent>("test");
  h.events.push({
    kind: "crash-plan",
    part: "plan",
    seed: 1,
    length: 60,
    commands: STEPS.length,
    families: [...ALL],
    crashHook: true,
    kills: 1,
  });
  h.events.push(exchange("baseline", 0, { type: "reset", id: "base-reset" }, OK));
  STEPS.forEach((s, i) => {
    h.events.push(exchange("baseline", 2 * i + 1, command(`base-c${i}`, i), s.expected));
    h.events.push(
      exchange(
        "baseline",
        2 * i + 2,
        { type: "query", id: `base-${i}-world`, query: { name: "world" } },
        worldOf(s.worldAfter),
      ),
    );
  });
  h.events.push({ kind: "crash-cuts", part: "plan", writes: WRITES.length, cuts: [1] });
  h.events.push(...hooks, { kind: "mark", part: "plan", label: MARK_HOOKS, value: 0 });
  h.events.push(...kill, { kind: "mark", part: "plan", label: MARK_KILLS, value: 1 });
  h.events.push({ kind: "crash-end", part: "plan", units: 2, sharded: false });
  return h;
};

const firstCut = STEPS[WRITES[0] ?? -1]?.worldAfter ?? EMPTY;

describe("crash checkers", () => {
  it("pass a run whose cuts recover to the model's worlds, with witnesses for the cut commands", () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(2);
    const v = checkCrash(historyOf(hookPart(1, WRITES[0] ?? 0, firstCut), killPart(2, worldAfter(2))));
    expect(v.outcome.findings).toEqual([]);
    expect(v.outcome.verdict, v.outcome.reason).toBe("pass");
    expect(v.outcome.checks).toBe(2);
    expect(v.witnessed).toContain("AD-1");
    expect(v.outcome.notes).toEqual([
      `session: seed 1, 60 generated choices, ${STEPS.length} commands in the profile`,
      `the session has ${WRITES.length} durable writes; hook cuts sampled evenly at writes 1 for each of before_commit, after_commit`,
      `hook cuts: 1 at each of before_commit, after_commit (of ${WRITES.length} durable writes), plus 0 at reset`,
      `black-box kills: 1 (seed 1), each with ${STEPS.length} commands pipelined`,
    ]);
    // A kill may recover to a later prefix than the answered one (the unanswered commands may be durable).
    expect(checkCrash(historyOf([], killPart(2, worldAfter(4)))).outcome.verdict).toBe("pass");
  });

  it("find a recovered world that is not the model's, after a hook cut and after a SIGKILL", () => {
    const v = checkCrash(historyOf(hookPart(1, WRITES[0] ?? 0, EMPTY), killPart(2, EMPTY)));
    expect(v.outcome.verdict).toBe("fail");
    expect(v.outcome.checks).toBe(0);
    expect(v.witnessed).toEqual([]);
    expect(v.outcome.findings.map((f) => f.check)).toEqual(["crash/after_commit", "crash/sigkill"]);
    for (const f of v.outcome.findings) {
      expect(f.invariant).not.toBeNull();
      const trace = PortableTrace.parse(f.trace);
      expect(trace.failing_step).toBe(trace.steps.length - 1);
      expect(trace.difference).toMatch(/^\$world/);
    }
    expect(v.outcome.findings[1]?.summary).toMatch(
      /^after a SIGKILL \(seed 1, kill 1: SIGKILL right after the reply to command 2\) with 6 commands pipelined and 2 answered/,
    );
  });

  it("find a death before the armed write, and a restart that fails (which ends the run)", () => {
    const early = checkHookCut(hookPart(2, WRITES[0] ?? 0, EMPTY), { seed: 1, families: ALL });
    expect(early.findings.map((f) => f.check)).toEqual(["crash/hook"]);
    expect(early.findings[0]?.summary).toMatch(/died at step \d+ \(.*\), before the 2nd durable write/);
    expect(early.checks).toBe(0);
    const v = checkCrash(historyOf(hookPart(1, WRITES[0] ?? 0, "unrecoverable"), []));
    expect(v.outcome.findings.map((f) => f.check)).toEqual(["crash/recovery"]);
    expect(v.outcome.findings[0]?.summary).toMatch(/^after the crash at step \d+ \(advaita.mint\) under crash_after/);
    expect(v.outcome.reason).toMatch(/no further cut was made$/);
  });
});

describe("crash stage", () => {
  it("passes the kit's implementation, with crash-cut witnesses for several invariants", async () => {
    // A smaller plan than crashStage's: each cut restarts the implementation (about a second).
    const ctx = context(target(KIT));
    const out = await runCrashStage(ctx, { length: 40, maxCutsPerAt: 3, kills: 2 });
    expect(out.findings).toEqual([]);
    expect(out.verdict, out.reason).toBe("pass");
    expect(cutsPerAt(out.notes)).toBe(3);
    expect(out.notes.join("\n")).toMatch(/sampled evenly/);
    // 3 cuts at each `at`, one at reset each, two kills.
    expect(out.checks).toBe(2 * 3 + 2 + 2);
    const witnessed = INVARIANT_IDS.filter((id) => ctx.witnesses.get(id).crash_cuts > 0);
    expect(witnessed.length).toBeGreaterThanOrEqual(3);
  });

  it("without the hook runs only black-box kills and says the hook cuts are not applicable", async () => {
    const out = await runCrashStage(context(target(KIT), { crashHook: false }), {
      length: 20,
      maxCutsPerAt: 12,
      kills: 1,
    });
    expect(out.verdict, out.reason).toBe("pass");
    expect(out.checks).toBe(1);
    expect(out.notes.join("\n")).toMatch(/not applicable/);
  });

  it("stops inconclusive when the time budget is already spent", async () => {
    const out = await crashStage(context(target(KIT), { deadline: Date.now() }));
    expect(out.verdict).toBe("inconclusive");
    expect(out.reason).toMatch(/time budget ended after 0 crash cuts/);
  });

  it("reports a hook that is acknowledged but never fires (W-7.3)", async () => {
    const out = await runCrashStage(context(target(fixture("crash-ignore-hook.mjs"))), {
      length: 40,
      maxCutsPerAt: 1,
      kills: 0,
    });
    expect(out.verdict).toBe("fail");
    // One cut at each `at`, and one at reset each: the hook fires at none of them.
    expect(out.findings.map((f) => [f.invariant, f.check])).toEqual(
      Array.from({ length: 4 }, () => [null, "crash/hook"]),
    );
    expect(
      out.findings.filter((f) => /its \d+(st|nd|rd|th) durable write, instead of dying/.test(f.summary)),
    ).toHaveLength(2);
    expect(out.findings.filter((f) => /answered reset instead of dying/.test(f.summary))).toHaveLength(2);
  });

  it("reports an implementation that cannot be restarted after a crash (W-7.1) and stops", async () => {
    const out = await runCrashStage(context(target(fixture("crash-unrecoverable.mjs"))), {
      length: 40,
      maxCutsPerAt: 3,
      kills: 2,
    });
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f) => [f.invariant, f.check])).toEqual([[null, "crash/recovery"]]);
    expect(out.findings[0]?.summary).toMatch(/could not be restarted.*exited with code 3/s);
    expect(out.reason).toMatch(/no further cut/);
  });

  it("records a history that is judged the same after a JSON round trip", async () => {
    const ctx = context(target(fixture("crash-amnesia.mjs")));
    const session = await ctx.target.open();
    const h = newHistory<CrashEvent>("round trip");
    try {
      await driveCrash(ctx, session, { length: 40, maxCutsPerAt: 1, kills: 1 }, h);
    } finally {
      await session.close();
    }
    const v = checkCrash(h);
    expect(v.outcome.verdict).toBe("fail");
    expect(h.events.some((e) => e.kind === "crash-exit")).toBe(true);
    expect(checkCrash(JSON.parse(JSON.stringify(h)) as CrashHistory)).toEqual(v);
  });

  it("reports acknowledged commands lost on restart, after a hook cut and after a SIGKILL", async () => {
    const out = await runCrashStage(context(target(fixture("crash-amnesia.mjs"))), {
      length: 40,
      maxCutsPerAt: 1,
      kills: 1,
    });
    expect(out.verdict).toBe("fail");
    const checks = out.findings.map((f) => f.check);
    expect(checks).toContain("crash/after_commit");
    expect(checks).toContain("crash/sigkill");
    for (const f of out.findings) {
      // A cut at a command is attributed to an invariant; the cut at reset has no operation (W-7.1).
      expect(f.invariant === null).toBe(f.summary.includes("at reset"));
      const trace = PortableTrace.parse(f.trace);
      expect(trace.failing_step).toBe(trace.steps.length - 1);
      expect(trace.steps.at(-1)?.request["type"]).toBe("query");
      expect(trace.difference).toMatch(/^\$world/);
    }
    expect(out.findings.find((f) => f.check === "crash/sigkill")?.summary).toMatch(
      /seed 1, kill 1: SIGKILL right after the reply to command \d+/,
    );
  });
});
