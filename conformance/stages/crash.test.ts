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
import { crashStage, cutInvariants, killMoment, ordinal, runCrashStage, sampleCuts } from "./crash.ts";

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
