/**
 * The differential campaign's checkers (issue 22), on a history the driver recorded against the
 * kit's implementation (every run agrees: a pass) and on copies of it edited by hand: a run whose
 * reply breaks the wire protocol (a finding per W rule, with the trace up to it), a run whose world
 * view differs and whose shrink is recorded (the finding of the shrunk case, said not to reproduce
 * when its replay is missing), a later run failing the same way (counted, not reported again), a
 * campaign ended by a fault. A recorded history read back from JSON is judged the same.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { PortableTrace } from "../../spec/certificate.ts";
import { eventsOf, exchangesOf } from "../core/history.ts";
import { disposedAfterAll, stageContext } from "../test/stage-context.ts";
import { KIT_COMMAND_LINE } from "../test/stage-context.ts";
import { driveDifferential } from "./differential.ts";
import {
  checkDifferential,
  judgeRunPart,
  MAX_DIFFERENTIAL_FINDINGS,
  type DifferentialEvent,
  type DifferentialHistory,
} from "./differential-check.ts";

const target = disposedAfterAll();
const RUNS = 3;
let recorded: DifferentialHistory;

beforeAll(async () => {
  recorded = await driveDifferential(stageContext(target(KIT_COMMAND_LINE), {}, { seed: 5, runs: RUNS }));
}, 120_000);

const copy = (h: DifferentialHistory): DifferentialHistory => structuredClone(h);

/** Run `part`'s reply to its last step (the final world query) made to differ from the model's. */
const spoilWorld = (h: DifferentialHistory, part: string): void => {
  const last = exchangesOf(h, part).at(-1);
  if (last === undefined || !last.reply.ok) throw new Error(`no world query in ${part}`);
  const i = h.events.indexOf(last);
  h.events[i] = { ...last, reply: { ...last.reply, result: { tick: 424242, roots_used: [], agents: [] } } as never };
};

const shrunk = (part: string): DifferentialEvent => ({
  kind: "differential-shrunk",
  part: `${part}/shrink`,
  failed: true,
  original: part,
  seed: 5,
  path: "0",
  numShrinks: 0,
  interrupted: false,
  budgetCut: false,
});

describe("the differential checkers", () => {
  it("judge a recorded campaign where every run agreed: a pass, its runs witnessed", () => {
    const v = checkDifferential(recorded);
    expect(v.outcome.verdict, v.outcome.reason).toBe("pass");
    expect(v.outcome.reason).toBe(`${RUNS} generated run(s) agreed with the model`);
    expect(v.outcome.checks).toBe(RUNS);
    expect(v.agreed).toHaveLength(RUNS);
    expect(v.outcome.notes[0]).toMatch(/^coverage guidance: /);
    const requests = v.agreed.reduce((n, r) => n + r.steps.length, 0);
    expect(v.outcome.notes.at(-1)).toMatch(new RegExp(`^${RUNS} run\\(s\\), ${requests} request\\(s\\) agreed`));
    for (const r of eventsOf(recorded, "differential-run")) expect(judgeRunPart(recorded, r.part).kind).toBe("agreed");
  });

  it("judge a history read back from JSON the same", () => {
    const back = JSON.parse(JSON.stringify(recorded)) as DifferentialHistory;
    expect(checkDifferential(back)).toEqual(checkDifferential(recorded));
  });

  it("report a break of the wire protocol with the trace up to the unanswered step", () => {
    const h = copy(recorded);
    const cut = exchangesOf(h, "run-2")[3];
    if (cut === undefined) throw new Error("run 2 is too short");
    const kept = h.events.filter((e) => !(e.kind === "exchange" && e.part === "run-2" && e.step >= 3));
    h.events.splice(0, h.events.length, ...kept);
    h.events.push(
      { kind: "break", part: "run-2", step: 3, rule: "W-4", message: "not JSON", raw: "{oops" },
      {
        kind: "differential-unanswered",
        part: "run-2",
        step: 3,
        request: cut.request,
        expected: cut.expected as never,
      },
    );
    const v = checkDifferential(h);
    expect(v.outcome.verdict).toBe("fail");
    expect(v.outcome.checks).toBe(RUNS - 1);
    const f = v.outcome.findings[0];
    expect(f?.check).toBe("wire/W-4");
    expect(f?.summary).toBe("step 4 of run 2: not JSON; raw: {oops");
    const trace = PortableTrace.parse(f?.trace);
    expect(trace.failing_step).toBe(3);
    expect(trace.steps).toHaveLength(4);
    expect(trace.steps[3]?.actual).toBeNull();
    expect(v.outcome.reason).toBe(f?.summary);
  });

  it("report a differing run by its shrunk case, and count a later run failing the same way", () => {
    const h = copy(recorded);
    spoilWorld(h, "run-1");
    h.events.push(shrunk("run-1"));
    spoilWorld(h, "run-3");
    const v = checkDifferential(h);
    expect(v.outcome.verdict).toBe("fail");
    expect(v.outcome.checks).toBe(RUNS - 2);
    expect(v.outcome.findings).toHaveLength(1);
    const f = v.outcome.findings[0];
    expect(f?.check).toBe("differential/step");
    expect(f?.summary).toMatch(/^step \d+ of a shrunk run of \d+ command\(s\): /);
    expect(f?.summary).toContain("424242");
    // No replay was recorded: the trace is the original failing run's, said not to reproduce.
    expect(f?.summary).toMatch(/ \(did not reproduce on a second replay\)$/);
    const key = f?.invariant ?? "wire";
    expect(v.outcome.notes).toContain(
      `run 1 of ${RUNS} failed (${key}); shrunk over the wire in 0 step(s) and 0 replay(s); run seed 5, path 0`,
    );
    expect(v.outcome.notes).toContain(`1 more failing run(s) of ${key}, not shrunk (already reported)`);
    expect(MAX_DIFFERENTIAL_FINDINGS).toBe(4);
  });

  it("say a failure that passed when replayed to shrink it was flaky, and count the replay as a run", () => {
    const h = copy(recorded);
    spoilWorld(h, "run-1");
    h.events.push({
      ...(shrunk("run-1") as Extract<DifferentialEvent, { kind: "differential-shrunk" }>),
      failed: false,
      original: null,
    });
    const again = h.events.filter(
      (e) => (e.part === "run-1" || e.part === "run-1/reset") && e.kind !== "differential-run",
    );
    h.events.push(...structuredClone(again).map((e) => ({ ...e, part: e.part.replace("run-1", "run-1/again") })));
    // The replay as recorded agrees: restore it from the original run's record.
    const orig = exchangesOf(recorded, "run-1").at(-1);
    const last = exchangesOf(h, "run-1/again").at(-1);
    if (orig === undefined || last === undefined) throw new Error("no world query");
    h.events[h.events.indexOf(last)] = { ...last, reply: orig.reply };
    const v = checkDifferential(h);
    expect(v.outcome.verdict).toBe("pass");
    expect(v.outcome.checks).toBe(RUNS);
    expect(v.outcome.notes).toContain(
      "run 1 failed once and passed when run again to shrink it (a flaky implementation?)",
    );
  });

  it("end inconclusive when the implementation could not be driven", () => {
    const h = copy(recorded);
    const kept = h.events.filter((e) => !e.part.startsWith("run-3"));
    h.events.splice(0, h.events.length, ...kept);
    h.events.push({ kind: "differential-fault", part: "campaign", reason: "no reply to reset within 5 ms" });
    const v = checkDifferential(h);
    expect(v.outcome.verdict).toBe("inconclusive");
    expect(v.outcome.reason).toBe(
      `the implementation could not be driven after ${RUNS - 1} run(s): no reply to reset within 5 ms`,
    );
  });

  it("say a profile without families is not applicable", () => {
    const c = eventsOf(recorded, "differential-campaign")[0];
    if (c === undefined) throw new Error("no campaign");
    const v = checkDifferential({ unit: "x", events: [{ ...c, families: [] }] });
    expect(v.outcome.verdict).toBe("not-applicable");
    expect(v.agreed).toHaveLength(0);
  });
});
