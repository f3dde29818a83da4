/**
 * Real portable traces and histories for the ITF tests, built from the golden sessions
 * (conformance/golden/*.jsonl: every request with the reference model's reply): each session
 * becomes one trace whose last reply disagrees, as a counterexample's does, and one model history.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Result } from "effect";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { initialWorld, transition, type HistoryStep, type World } from "../../model/index.ts";
import type { GoldenLine } from "../golden/types.ts";
import { goldenPath, GOLDEN_SESSIONS } from "../golden/session.ts";
import { REPO_ROOT } from "../transport/local.ts";

const lines = (name: string): GoldenLine[] => {
  const g = GOLDEN_SESSIONS.find((x) => x.name === name);
  if (g === undefined) throw new Error(`no golden session ${name}`);
  return readFileSync(join(REPO_ROOT, goldenPath(g)), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as GoldenLine);
};

export const SESSION_NAMES: readonly string[] = GOLDEN_SESSIONS.map((g) => g.name);

/** Session `name` as a counterexample: every reply as the model gives it, but the last one missing. */
export const goldenTrace = (name: string): PortableTrace => {
  const steps = lines(name).map((l, i, all): TraceStep => {
    const step = {
      request: l.request as unknown as TraceStep["request"],
      expected: l.reply as unknown as TraceStep["expected"],
      actual: i === all.length - 1 ? null : (l.reply as unknown as TraceStep["actual"]),
    };
    return l.model === undefined ? step : { ...step, model: { ...l.model } };
  });
  return {
    trace_version: 1,
    invariant: null,
    stage: "golden",
    check: `golden/${name}`,
    summary: `no reply to the last request of ${name}`,
    seed: null,
    path: null,
    steps,
    failing_step: steps.length - 1,
    difference: null,
    shrink: null,
  };
};

/** The model's history over the commands of session `name` (world queries left out). */
export const goldenHistory = (name: string): { initial: World; history: HistoryStep[] } => {
  const initial = initialWorld();
  let w = initial;
  const history: HistoryStep[] = [];
  for (const l of lines(name)) {
    if (l.request.type !== "command") continue;
    const c = l.request.command;
    const r = transition(w, c);
    const h: HistoryStep = Result.isSuccess(r)
      ? { prev: w, next: r.success.world, command: c, events: r.success.events, accepted: true }
      : { prev: w, next: w, command: c, events: [], accepted: false };
    history.push(h);
    w = h.next;
  }
  return { initial, history };
};
