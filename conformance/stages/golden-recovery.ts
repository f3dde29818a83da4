/**
 * The golden sessions' recovery check (W-7.1): after a session agreed with its transcript to the
 * end, its world is queried, the implementation is shut down (W-2.2) and started again on the same
 * data directory, and its world is queried again. Both must be the reference model's world after
 * the session's requests: every answered command is durable, and recovery neither loses nor
 * changes anything.
 *
 * Why here and not only in the crash stage: the crash stage restarts inside one generated session
 * of a few dozen commands, which may hold no merge, no excision of an early batch and no migration;
 * the golden sessions hold every operation on purpose. A persistence bug in a part of the state the
 * crash session never wrote (a re-appended lineage step, an obligation's record, a store with
 * merged versions) was certified before this check (issue 21: generated mutants of
 * impl/core/persist.ts and impl/core/store.ts that only a restart shows).
 *
 * The expected world is the model's, computed from the transcript's own requests (commands change
 * it, `reset` empties it, queries do not), so the check needs nothing the transcript does not say.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { TraceStep } from "../../spec/certificate.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { firstDifference } from "../../properties/differential.ts";
import { normativePart } from "../core/reply.ts";
import { expect1 } from "../oracle/model.ts";
import { plannedTrace, type PlannedStep } from "../oracle/planned.ts";
import { blameWorld } from "../oracle/world-diff.ts";
import type { Reply } from "../../spec/wire/index.ts";
import type { Session } from "../driver/target.ts";
import { RESTART_EVERY } from "../golden/types.ts";
import { Undrivable } from "../core/driver-errors.ts";
import type { Finding } from "./types.ts";
import { partOf, type History, type HistoryEvent } from "../core/history.ts";
import type { Recording } from "../oracle/planned.ts";

/** The model's world after the transcript's requests, and the op of the last command (for attribution). */
export const worldAfterTranscript = (steps: readonly PlannedStep[]): { world: WorldView; lastOp: string } => {
  let world: World = initialWorld();
  let lastOp = "reset";
  for (const s of steps) {
    const r = s.request as { type: string; command?: Command };
    if (r.type === "command" && r.command !== undefined) {
      world = expect1(world, r.command).world;
      lastOp = r.command.op;
    } else if (r.type === "reset") {
      world = initialWorld();
      lastOp = "reset";
    }
  }
  return { world: view(world), lastOp };
};

/**
 * Restarts inside a transcript: every `every` lines (RESTART_EVERY, with the transcript types, since
 * the scripts that write transcripts place lines around it) a `shutdown` is inserted, after which
 * the runner starts the implementation again on the same data directory (oracle/planned.ts) and the
 * transcript goes on. None is inserted after the last line (the end is the recovery check's).
 */

export { RESTART_EVERY };

export const withRestarts = (steps: readonly PlannedStep[], every = RESTART_EVERY): PlannedStep[] => {
  const out: PlannedStep[] = [];
  for (const [i, s] of steps.entries()) {
    out.push(s);
    if ((i + 1) % every === 0 && i + 1 < steps.length) {
      out.push({
        request: { type: "shutdown", id: `restart-${(i + 1) / every}` } as PlannedStep["request"],
        expected: { ok: true, events: [] } as PlannedStep["expected"],
      });
    }
  }
  return out;
};

/** Whether the transcript leaves anything to recover (an empty world after a restart proves nothing). */
export const leavesState = (w: WorldView): boolean => w.agents.length > 0 || w.tick > 0;

const worldQuery = (id: string) => ({ type: "query", id, query: { name: "world" } }) as const;
const worldReply = (w: WorldView): TraceStep["expected"] =>
  ({ ok: true, events: [], result: w }) as unknown as TraceStep["expected"];
const step = (request: Record<string, unknown>, expected: unknown, actual: Reply | null): TraceStep => ({
  request: request as TraceStep["request"],
  expected: expected as TraceStep["expected"],
  actual: actual === null ? null : (normativePart(actual) as TraceStep["expected"]),
});

/** The world query of the recovery check, before (step 0) and after (step 1) the restart. */
const RECOVERY_QUERIES = ["world-before-restart", "world-after-restart"] as const;

/** Whether a world reply is the expected world (what the driver needs to know to go on; the checker decides). */
const worldAgrees = (expected: WorldView, r: Reply): boolean => r.ok && firstDifference(expected, r.result) === null;

/**
 * The recovery check's driver, after `steps` were all answered as the transcript says: queries the
 * world, and when it is the model's, shuts the implementation down, starts it again on the same
 * data directory and queries the world again; records each exchange and the restart (or why it
 * failed) in `recording`. Sends nothing when the transcript leaves no state (nothing to recover).
 */
export const driveRecovery = async (
  session: Session,
  steps: readonly PlannedStep[],
  recording: Recording,
): Promise<void> => {
  const { world: expected } = worldAfterTranscript(steps);
  if (!leavesState(expected)) return;
  const { history, part } = recording;
  const prefix = session.nextIdPrefix();
  const ask = async (step: 0 | 1): Promise<Reply> => {
    const request = worldQuery(`${prefix}${RECOVERY_QUERIES[step]}`);
    const reply = await session.reply(request);
    history.events.push({ kind: "exchange", part, step, request, expected: worldReply(expected) as never, reply });
    return reply;
  };
  if (!worldAgrees(expected, await ask(0))) return;
  const stop = { type: "shutdown", id: `${prefix}shutdown` };
  await session.client.shutdown();
  try {
    await session.restart();
  } catch (e) {
    if (!(e instanceof Undrivable)) throw e;
    history.events.push({ kind: "restart-failed", part, reason: e.message, stop });
    return;
  }
  history.events.push({ kind: "restart", part, stop });
  await ask(1);
};

/**
 * The recovery check's checker: reads what driveRecovery recorded in `part` of `history` after the
 * transcript `steps` answered with `replies`. Returns the finding, or null when both worlds are
 * the model's; `checked` (2 checks) when there was anything to recover.
 */
export const checkRecovery = (
  history: History,
  part: string,
  name: string,
  seed: number | null,
  steps: readonly PlannedStep[],
  replies: readonly Reply[],
): { finding: Finding | null; checked: boolean } => {
  const { world: expected, lastOp } = worldAfterTranscript(steps);
  if (!leavesState(expected)) return { finding: null, checked: false };
  const events = partOf(history, part);
  const trace: TraceStep[] = plannedTrace(steps, replies, steps.length - 1);
  const check = `golden/${name}/recovery`;
  const finding = (summary: string, difference: string | null, actual: unknown): Finding => ({
    invariant: difference === null ? null : blameWorld(lastOp, expected, actual),
    stage: "golden",
    check,
    summary: `${name}: ${summary}`,
    trace: {
      trace_version: 1,
      invariant: difference === null ? null : blameWorld(lastOp, expected, actual),
      stage: "golden",
      check,
      summary,
      seed,
      path: null,
      steps: trace,
      failing_step: trace.length - 1,
      difference,
      shrink: null,
    },
  });
  const exchange = (step: 0 | 1) =>
    events.find((e): e is Extract<HistoryEvent, { kind: "exchange" }> => e.kind === "exchange" && e.step === step);
  const first = exchange(0);
  if (first === undefined) throw new Error(`runner bug: the recovery of ${name} recorded no world query`);
  const before = first.reply;
  trace.push(step(first.request, worldReply(expected), before));
  const d1 = before.ok
    ? firstDifference(expected, before.result, "$world")
    : `$world: refused with ${before.error.code}`;
  if (d1 !== null)
    return {
      finding: finding(
        `at the end of the transcript the world differs from the model's (${d1})`,
        d1,
        before.ok ? before.result : null,
      ),
      checked: true,
    };
  const restart = events.find(
    (e): e is Extract<HistoryEvent, { kind: "restart" | "restart-failed" }> =>
      e.kind === "restart" || e.kind === "restart-failed",
  );
  if (restart?.stop === undefined) throw new Error(`runner bug: the recovery of ${name} recorded no restart`);
  trace.push(step(restart.stop, { ok: true, events: [] }, null));
  const failed = restart.kind === "restart-failed" ? restart : undefined;
  if (failed !== undefined)
    return {
      finding: finding(
        `shut down after the transcript and started again on the same data directory, the implementation could not recover it (W-7.1: it MUST recover every answered command before answering hello): ${failed.reason}`,
        null,
        null,
      ),
      checked: true,
    };
  const second = exchange(1);
  if (second === undefined) throw new Error(`runner bug: the recovery of ${name} recorded no second world query`);
  const after = second.reply;
  trace.push(step(second.request, worldReply(expected), after));
  const d2 = after.ok ? firstDifference(expected, after.result, "$world") : `$world: refused with ${after.error.code}`;
  if (d2 !== null)
    return {
      finding: finding(
        `shut down after the transcript and started again on the same data directory, the recovered world differs from the one before (W-7.1): ${d2}`,
        d2,
        after.ok ? after.result : null,
      ),
      checked: true,
    };
  return { finding: null, checked: true };
};
