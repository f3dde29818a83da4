/**
 * The golden stage split into a driver that records a history and checkers that judge it alone
 * (issue 22): the drive of a transcript against the kit's implementation records every exchange,
 * the restarts and the recovery check; the history survives JSON; and the checkers, given a
 * history and nothing else, find a reply that differs, a world that was not recovered, a restart
 * that failed and a break of the wire protocol, at the transcript line where it is.
 */
import { describe, expect, it } from "vitest";
import { newHistory, type History, type HistoryEvent } from "../core/history.ts";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { mutantCommandLine } from "../mutants/matrix.ts";
import { runPlanned } from "../oracle/planned.ts";
import { refinedFromHistory, refineMismatch } from "../oracle/refine.ts";
import { disposedAfterAll, KIT_COMMAND_LINE } from "../test/stage-context.ts";
import { withRestarts } from "./golden-recovery.ts";
import { checkGoldenSession, driveGoldenSession, goldenSteps } from "./golden.ts";

const target = disposedAfterAll();
const NAME = "session-bounds-ops";

/** The drive of NAME's transcript (with its restarts) against the kit's implementation, once for the file. */
let driven: Promise<History> | undefined;
const history = (): Promise<History> => {
  driven ??= (async () => {
    const t = target(KIT_COMMAND_LINE);
    const session = await t.open();
    try {
      return await driveGoldenSession(session, NAME, withRestarts(goldenSteps(NAME)));
    } finally {
      await session.close();
    }
  })();
  return driven;
};
const steps = () => withRestarts(goldenSteps(NAME));
const copy = (h: History): History => JSON.parse(JSON.stringify(h)) as History;
type Exchange = Extract<HistoryEvent, { kind: "exchange" }>;

describe("the golden driver records a history", () => {
  it("every transcript step's exchange in order, the restarts inside it, and the recovery check's two queries and restart", {
    timeout: 120_000,
  }, async () => {
    const h = await history();
    const s = steps();
    const transcript = h.events.filter((e): e is Exchange => e.kind === "exchange" && e.part === "transcript");
    expect(transcript.map((e) => e.step)).toEqual(s.map((_, i) => i));
    expect(transcript.map((e) => e.request)).toEqual(s.map((x) => x.request));
    const shutdowns = s.filter((x) => x.request.type === "shutdown").length;
    expect(shutdowns).toBeGreaterThan(0);
    expect(h.events.filter((e) => e.kind === "restart" && e.part === "transcript")).toHaveLength(shutdowns);
    const recovery = h.events.filter((e) => e.part === "recovery").map((e) => e.kind);
    expect(recovery).toEqual(["exchange", "restart", "exchange"]);
    // Nothing was probed: the transcript agreed.
    expect(h.events.some((e) => e.part.startsWith("refine"))).toBe(false);
  });

  it("which its checkers judge alone, also after a trip through JSON: every reply as the file says, the world recovered", {
    timeout: 120_000,
  }, async () => {
    const h = await history();
    const v = checkGoldenSession(copy(h), NAME, null, steps());
    expect(v.finding).toBeNull();
    expect(v.agreed).toBe(steps().length);
    expect(v.checks).toBe(steps().length + 2);
  });
});

describe("the golden checkers read only the history", () => {
  it("a recorded reply that differs from the transcript is a finding at its line, with the trace up to it", {
    timeout: 120_000,
  }, async () => {
    const h = copy(await history());
    const s = steps();
    const k = s.findIndex((x, i) => i > 3 && x.request.type === "command" && x.expected.ok);
    const e = h.events.find((x): x is Exchange => x.kind === "exchange" && x.part === "transcript" && x.step === k);
    if (e === undefined || !e.reply.ok)
      throw new Error("the test's transcript changed: no accepted command after line 4");
    (e as { reply: unknown }).reply = { ...e.reply, events: [] };
    const v = checkGoldenSession(h, NAME, null, s);
    expect(v.agreed).toBe(k);
    expect(v.finding?.check).toBe(`golden/${NAME}`);
    expect(v.finding?.summary).toMatch(new RegExp(`^${NAME} line ${k + 1}\\b`));
    expect(v.finding?.trace?.failing_step).toBe(k);
    expect(v.finding?.trace?.difference).toMatch(/^\$reply\.events/);
  });

  it("a world after the restart that is not the model's is a recovery finding; a restart that failed is one too", {
    timeout: 120_000,
  }, async () => {
    const s = steps();
    const lost = copy(await history());
    const after = lost.events.find(
      (x): x is Exchange => x.kind === "exchange" && x.part === "recovery" && x.step === 1,
    );
    if (after === undefined) throw new Error("no recovery query after the restart");
    (after as { reply: unknown }).reply = { ...after.reply, result: { tick: 0, roots_used: [], agents: [] } };
    const v = checkGoldenSession(lost, NAME, null, s);
    expect(v.finding?.check).toBe(`golden/${NAME}/recovery`);
    expect(v.finding?.summary).toMatch(/the recovered world differs from the one before/);
    expect(v.finding?.invariant).not.toBeNull();

    const failed = copy(await history());
    const i = failed.events.findIndex((x) => x.kind === "restart" && x.part === "recovery");
    const r = failed.events[i] as Extract<HistoryEvent, { kind: "restart" }>;
    failed.events.splice(i, 2, {
      kind: "restart-failed",
      part: "recovery",
      reason: "it exited with code 3",
      ...(r.stop === undefined ? {} : { stop: r.stop }),
    });
    const w = checkGoldenSession(failed, NAME, null, s);
    expect(w.finding?.summary).toMatch(/could not recover it \(W-7\.1.*it exited with code 3$/);
    expect(w.finding?.invariant).toBeNull();
  });

  it("a break of the wire protocol ends the session's judgement there: a wire finding, the steps before it agreed", {
    timeout: 120_000,
  }, async () => {
    const s = steps();
    const all = copy(await history());
    const k = 5;
    const h: History = {
      unit: all.unit,
      events: all.events.filter(
        (e) => !(e.part === "transcript" && "step" in e && e.step >= k) && e.part !== "recovery",
      ),
    };
    h.events.push({
      kind: "break",
      part: "transcript",
      step: k,
      rule: "W-3",
      message: "the reply is not JSON",
      raw: "{oops",
    });
    const v = checkGoldenSession(h, NAME, null, s);
    expect(v).toMatchObject({ agreed: k, checks: k + 1, coverage: false });
    expect(v.finding).toMatchObject({ invariant: null, check: `golden/${NAME}` });
    expect(v.finding?.summary).toContain("W-3: the reply is not JSON; raw: {oops");
    expect(v.finding?.trace?.failing_step).toBe(k);
  });
});

describe("a session that diverges: the driver probes, the checker reads the probe it settled on", () => {
  it("against an implementation that forgets its data directory at every start, the finding comes from the history alone", {
    timeout: 180_000,
  }, async () => {
    const impl = `${process.execPath} --import tsx impl/main.ts`;
    const forgetful = `sh -c "rm -rf {data_dir}/* && exec ${impl} --data-dir {data_dir}"`;
    const name = "session-decisions-samsara";
    const s = withRestarts(goldenSteps(name));
    const t = target(forgetful);
    const session = await t.open();
    let h: History;
    try {
      h = await driveGoldenSession(session, name, s);
    } finally {
      await session.close();
    }
    const v = checkGoldenSession(copy(h), name, null, s);
    expect(v.finding).not.toBeNull();
    // The first restart is where it forgets: nothing before it differs.
    expect(v.agreed).toBeGreaterThanOrEqual(s.findIndex((x) => x.request.type === "shutdown"));
    expect(v.finding?.summary).toMatch(/after a restart on the same data directory/);
    const culprit = h.events.find((e) => e.kind === "mark" && e.label === "culprit");
    if (culprit !== undefined && culprit.kind === "mark") {
      // The probe the driver settled on is in the history, and the trace the checker wrote ends with its world query.
      expect(h.events.some((e) => e.part === `refine/probe-${culprit.value}` && e.kind === "exchange")).toBe(true);
      expect(v.finding?.trace?.steps.at(-1)?.request).toMatchObject({ type: "query", query: { name: "world" } });
    }
  });
});

describe("refinement read back from the history", () => {
  it("the probe the driver settled on, judged again from its recorded replies, is the refined counterexample the driver returned", {
    timeout: 240_000,
  }, async () => {
    // A mutant whose merge keeps the wrong aggregate: its events differ (the version id digests the
    // state), which the driver sharpens by probing the world after the merge.
    const mutant = MUTANTS.find((m) => m.id === "AD-3.lowest-weighted-leader");
    if (mutant === undefined) throw new Error("the catalog has no AD-3.lowest-weighted-leader");
    const t = target(mutantCommandLine(mutant, "golden-history-ad3"));
    let seen = 0;
    for (const name of ["session-3-store", "session-decisions-samsara", "session-algebra-edges"]) {
      const s = withRestarts(goldenSteps(name));
      const session = await t.open();
      try {
        const h = newHistory(name);
        const planned = await runPlanned(session, s, undefined, { history: h, part: "transcript" });
        if (planned.mismatch === null) continue;
        const { index, mismatch } = planned.mismatch;
        const returned = await refineMismatch(session, s, index, mismatch, { history: h, part: "refine" });
        const read = refinedFromHistory(copy(h), "refine", s, index, mismatch);
        expect(read).toEqual(returned);
        if (returned !== null) seen++;
      } finally {
        await session.close();
      }
    }
    expect(seen, "no session's difference was refined").toBeGreaterThan(0);
  });
});
