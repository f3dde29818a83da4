/**
 * An explore violation as a portable trace (spec/certificate.ts PortableTrace), so that
 * `srk replay <trace> --impl "<command line>"` runs the shortest path over the wire against any
 * implementation: one command request per command of the path, each with the normative reply of
 * the model that explored (the model of this tree), then a world query whose expected result is
 * that model's world view at the violating state. An implementation that agrees with the model
 * at every step passes the replay; one that disagrees (the correct implementation, when the model
 * explored was a planted mutant) still fails at the first step it disagrees.
 *
 * The world query is there because a violation is often in the state, not in a reply: a mutant
 * model that keeps excised content replies to the excision exactly as the correct one does, and
 * only the world view after it shows the difference.
 *
 * The stage is "differential": PortableTrace has no stage of its own for the explorer, and a
 * model-planned session compared reply by reply with an implementation is what the differential
 * stage replays (helperA-decisions: "the stage of an explore trace").
 */
import { join } from "node:path";
import type { Command, WorldView } from "../../spec/index.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import type { ExpectedReply } from "../core/reply.ts";
import { expect1 } from "../oracle/model.ts";
import { writeJsonAtomic } from "../trace/trace.ts";
import { writeItfTrace } from "../itf/file.ts";
import type { Violation } from "./explore.ts";

/** The check a trace of `v` names: the explorer, the scope and the predicate. */
export const exploreCheck = (scope: string, v: Pick<Violation, "predicate">): string =>
  `explore/${scope}/${v.predicate}`;

/** The portable trace of violation `v` found exploring `scope` (the scope's name). */
export const traceOfViolation = (scope: string, v: Violation): PortableTrace => {
  let world: World = initialWorld();
  const steps: TraceStep[] = v.path.map((command: Command, k) => {
    const e = expect1(world, command);
    world = e.world;
    const step: TraceStep = {
      request: { type: "command", id: `explore-${k + 1}`, command } as unknown as TraceStep["request"],
      expected: e.reply as unknown as TraceStep["expected"],
      actual: null,
    };
    return e.rejectedAt === undefined ? step : { ...step, model: { ...e.rejectedAt } };
  });
  const expectedWorld: ExpectedReply = { ok: true, events: [], result: view(world) as WorldView };
  steps.push({
    request: { type: "query", id: "explore-world", query: { name: "world" } },
    expected: expectedWorld as unknown as TraceStep["expected"],
    actual: null,
  });
  return {
    trace_version: 1,
    invariant: v.predicate,
    stage: "differential",
    check: exploreCheck(scope, v),
    summary: `srk explore, scope ${scope}: ${v.predicate} violated after ${v.path.length} commands (shortest path): ${v.violation}`,
    seed: null,
    path: null,
    steps,
    // The violating step: the path's last command (the transition that broke it, or reached the state).
    failing_step: v.path.length === 0 ? null : v.path.length - 1,
    difference: null,
    shrink: null,
  };
};

/** A written trace: the predicate, and its files relative to the output folder. */
export interface TraceFiles {
  readonly predicate: Violation["predicate"];
  readonly depth: number;
  readonly json: string;
  readonly itf: string;
}

/**
 * Writes every violation's trace into `<outDir>/traces/` as `explore-<predicate>.json` and
 * `explore-<predicate>.itf.json` (ITF, Apalache ADR-015); returns the paths relative to `outDir`.
 */
export const writeViolationTraces = (outDir: string, scope: string, violations: readonly Violation[]): TraceFiles[] =>
  violations.map((v) => {
    const trace = traceOfViolation(scope, v);
    const json = join("traces", `explore-${v.predicate}.json`);
    const itf = join("traces", `explore-${v.predicate}.itf.json`);
    writeJsonAtomic(join(outDir, json), trace);
    writeItfTrace(join(outDir, itf), trace);
    return { predicate: v.predicate, depth: v.depth, json, itf };
  });
