/**
 * A violation found in a log as a portable trace (spec/certificate.ts PortableTrace, stage "log"):
 * the commands and world queries of the session that leads to it — from the log's start or its
 * last reset to the failing request — each with the model's normative reply and the logged one,
 * so `srk replay` runs it against any implementation on an empty data directory (D-050).
 *
 * The checker keeps no copy of the log; the trace is built by reading the violation's lines a
 * second time, so memory stays bounded by the session, not the file, and only for the violations
 * asked for.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { normativePart, type ExpectedReply } from "../core/reply.ts";
import { expect1 } from "../oracle/model.ts";
import type { LogViolation } from "./check.ts";
import type { Explanation } from "./search.ts";
import { openLog } from "./read.ts";

const obj = (x: unknown): Record<string, unknown> | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;

/**
 * The trace of `v`, read from `file` again. The commands of the explanations the check kept
 * (L-2.4) are inserted before the logged request each explains from, as steps without a logged
 * reply (`actual` null, id `unlogged-<line>.<k>`): the model's state at the violation was reached
 * through them, so a replay without them would not reach it.
 */
export const traceOfViolation = async (
  file: string,
  v: LogViolation,
  explanations: readonly Explanation[] = [],
): Promise<PortableTrace> => {
  const { entries } = await openLog(file);
  const requests: { line: number; msg: Record<string, unknown> }[] = [];
  const replies = new Map<string, unknown>();
  for await (const { line, entry } of entries) {
    if (line > v.line) break;
    if (line <= v.context.from_line || "exit" in entry || entry.msg === undefined) continue;
    const msg = obj(entry.msg);
    if (msg === null) continue;
    if (entry.dir === "request" && line <= v.request_line) {
      const q = obj(msg["query"]);
      if (msg["type"] === "command" || (msg["type"] === "query" && q?.["name"] === "world"))
        requests.push({ line, msg });
    } else if (entry.dir === "reply") replies.set(JSON.stringify(msg["id"]), msg);
  }
  const before = new Map<number, readonly Command[]>();
  for (const x of explanations)
    if (x.line > v.context.from_line && x.line <= v.request_line) before.set(x.line, x.inserted);
  const withUnlogged = requests.flatMap(({ line, msg }) => [
    ...(before.get(line) ?? []).map((command, k) => ({
      line,
      msg: { type: "command", id: `unlogged-${line}.${k + 1}`, command } as Record<string, unknown>,
    })),
    { line, msg },
  ]);
  let world: World = initialWorld();
  const steps: TraceStep[] = withUnlogged.map(({ msg }) => {
    const logged = replies.get(JSON.stringify(msg["id"]));
    const actual = logged === undefined ? null : (normativePart(logged as never) as TraceStep["actual"]);
    if (msg["type"] === "query") {
      const expected: ExpectedReply = { ok: true, events: [], result: view(world) as WorldView };
      return { request: msg as TraceStep["request"], expected: expected as unknown as TraceStep["expected"], actual };
    }
    const e = expect1(world, msg["command"] as Command);
    world = e.world;
    const step: TraceStep = {
      request: msg as TraceStep["request"],
      expected: e.reply as unknown as TraceStep["expected"],
      actual,
    };
    return e.rejectedAt === undefined ? step : { ...step, model: { ...e.rejectedAt } };
  });
  return {
    trace_version: 1,
    invariant: v.invariant,
    stage: "log",
    check: `log/line-${v.line}`,
    summary: `${file} line ${v.line}: ${v.summary}`,
    seed: null,
    path: null,
    steps,
    failing_step: steps.length === 0 ? null : steps.length - 1,
    difference: null,
    shrink: null,
  };
};
