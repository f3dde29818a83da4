/**
 * Sharper attribution (D-035 rule 2), by replaying on the implementation:
 *
 * - A reply whose outcome agrees but whose events differ: an event such as `store.merged
 *   { version_id }` digests several fields at once, so it cannot tell a wrong parent link (S-3)
 *   from a wrong aggregate (AD-3). The runner replays the commands up to the diverging one and
 *   compares the world views there: the first differing field names the invariant.
 * - A world view that differs at a checkpoint: the command that caused it may lie many steps
 *   back. The runner bisects: it replays prefixes and compares the world after each (the model's
 *   world after every command is known), to find the first command after which they differ, and
 *   attributes by that command and field.
 *
 * Every probe is a `reset` and a pipelined replay. The result is also a shorter counterexample:
 * the commands up to the culprit and one world query.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { initialWorld, view } from "../../model/index.ts";
import type { Session } from "../driver/target.ts";
import { compareWorld, type Mismatch } from "./compare.ts";
import { expect1 } from "./model.ts";
import { runPlanned, type PlannedStep } from "./planned.ts";

export interface Refined {
  readonly mismatch: Mismatch;
  /** The counterexample's plan and the replies to it, and the index of the failing step in it. */
  readonly steps: readonly PlannedStep[];
  readonly replies: readonly Reply[];
  readonly index: number;
}

const commandOf = (s: PlannedStep): Command | null =>
  s.request.type === "command" ? (s.request["command"] as Command) : null;

const worldStep = (w: WorldView): PlannedStep => ({
  request: { type: "query", id: "w-probe", query: { name: "world" } },
  expected: { ok: true, events: [], result: w },
});

/** Replays the first `k` commands and compares the world after them; null when equal. */
const probe = async (
  session: Session,
  commands: readonly PlannedStep[],
  worlds: readonly WorldView[],
  k: number,
): Promise<{ m: Mismatch | null; steps: PlannedStep[]; replies: readonly Reply[] }> => {
  const steps = [...commands.slice(0, k), worldStep(worlds[k] as WorldView)];
  await session.ok({ type: "reset" });
  const { replies, mismatch } = await runPlanned(session, steps, steps.length);
  const actual = replies.at(-1);
  // A reply that differs before the k-th command is a finding of its own: report it as it is.
  // (The k-th command's own reply may differ — that is what an events probe looks behind.)
  if (mismatch !== null && mismatch.index < k - 1) return { m: mismatch.mismatch, steps, replies };
  if (actual === undefined || !actual.ok) return { m: null, steps, replies };
  const op = commandOf(commands[k - 1] as PlannedStep)?.op ?? "advaita.mint";
  return { m: compareWorld(op, worlds[k], actual.result), steps, replies };
};

export const refineMismatch = async (
  session: Session,
  steps: readonly PlannedStep[],
  index: number,
  m: Mismatch,
): Promise<Refined | null> => {
  const isWorld = m.path?.in === "world";
  const isEvents = m.path?.in === "reply" && m.path.path[0] === "events";
  if (!isWorld && !isEvents) return null;
  const commands = steps.slice(0, index + 1).filter((s) => commandOf(s) !== null);
  const worlds: WorldView[] = [view(initialWorld())];
  let world = initialWorld();
  for (const s of commands) {
    world = expect1(world, commandOf(s) as Command).world;
    worlds.push(view(world));
  }
  if (isEvents) {
    const p = await probe(session, commands, worlds, commands.length);
    if (p.m === null) return null;
    return {
      mismatch: { ...p.m, summary: `${m.summary}; the world after it differs too: ${p.m.summary}` },
      steps: p.steps,
      replies: p.replies,
      index: p.steps.length - 1,
    };
  }
  // Bisect for the first k with a differing world after k commands (equal at lo, differs at hi).
  let lo = 0;
  let hi = commands.length;
  let last: Awaited<ReturnType<typeof probe>> | null = null;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const p = await probe(session, commands, worlds, mid);
    if (p.m === null) lo = mid;
    else {
      hi = mid;
      last = p;
    }
  }
  const culprit = last !== null && last.steps.length - 1 === hi ? last : await probe(session, commands, worlds, hi);
  if (culprit.m === null) return null;
  return { mismatch: culprit.m, steps: culprit.steps, replies: culprit.replies, index: culprit.steps.length - 1 };
};
