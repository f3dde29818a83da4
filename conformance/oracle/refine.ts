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
import { comparePlanned, runPlanned, type PlannedStep, type Recording } from "./planned.ts";
import { exchangesOf, markOf, type AnyHistory } from "../core/history.ts";

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

/** The plan of probe `k`: the first `k` commands, then a world query expecting the model's world after them. */
const probeSteps = (commands: readonly PlannedStep[], worlds: readonly WorldView[], k: number): PlannedStep[] => [
  ...commands.slice(0, k),
  worldStep(worlds[k] as WorldView),
];

/**
 * Judges the replies to probe `k` (a checker: reads, never sends). A reply that differs before the
 * k-th command is a finding of its own, reported as it is (the k-th command's own reply may differ:
 * that is what an events probe looks behind); else the world after the k commands against the
 * model's. Null when they agree.
 */
export const judgeProbe = (
  commands: readonly PlannedStep[],
  worlds: readonly WorldView[],
  k: number,
  replies: readonly Reply[],
): { m: Mismatch | null; steps: PlannedStep[]; replies: readonly Reply[] } => {
  const steps = probeSteps(commands, worlds, k);
  for (const [i, r] of replies.entries()) {
    const d = comparePlanned(steps, i, r);
    if (d !== null) {
      if (i < k - 1) return { m: d, steps, replies };
      break;
    }
  }
  const actual = replies.at(-1);
  if (actual === undefined || !actual.ok) return { m: null, steps, replies };
  const op = commandOf(commands[k - 1] as PlannedStep)?.op ?? "advaita.mint";
  return { m: compareWorld(op, worlds[k], actual.result), steps, replies };
};

/** The commands of a plan up to `index` and the model's world view before and after each of them. */
const modelAlong = (steps: readonly PlannedStep[], index: number): { commands: PlannedStep[]; worlds: WorldView[] } => {
  const commands = steps.slice(0, index + 1).filter((s) => commandOf(s) !== null);
  const worlds: WorldView[] = [view(initialWorld())];
  let world = initialWorld();
  for (const s of commands) {
    world = expect1(world, commandOf(s) as Command).world;
    worlds.push(view(world));
  }
  return { commands, worlds };
};

/** Which mismatches the replays can sharpen: a world view that differs, or events that do. */
const refinable = (m: Mismatch): "world" | "events" | null =>
  m.path?.in === "world" ? "world" : m.path?.in === "reply" && m.path.path[0] === "events" ? "events" : null;

/** The refined counterexample of a probe's verdict (`first` the mismatch that asked for it). */
const refinedOf = (
  first: Mismatch,
  kind: "world" | "events",
  p: { m: Mismatch | null; steps: PlannedStep[]; replies: readonly Reply[] },
): Refined | null => {
  if (p.m === null) return null;
  return {
    mismatch:
      kind === "events" ? { ...p.m, summary: `${first.summary}; the world after it differs too: ${p.m.summary}` } : p.m,
    steps: p.steps,
    replies: p.replies,
    index: p.steps.length - 1,
  };
};

/**
 * Drives the probes (a driver that asks judgeProbe where to go next, as a shrinker asks a checker):
 * each a `reset` and a pipelined replay, recorded in `recording` when given as parts
 * `<part>/probe-<n>` (the number of commands replayed marked as `commands`), and the probe the
 * bisection settled on marked as `culprit` of `<part>`. Returns the refined counterexample (also
 * readable from the history: refinedFromHistory), or null.
 */
export const refineMismatch = async (
  session: Session,
  steps: readonly PlannedStep[],
  index: number,
  m: Mismatch,
  recording?: Recording,
): Promise<Refined | null> => {
  const kind = refinable(m);
  if (kind === null) return null;
  const { commands, worlds } = modelAlong(steps, index);
  let n = 0;
  const probe = async (k: number): Promise<ReturnType<typeof judgeProbe> & { n: number }> => {
    n++;
    const part = `${recording?.part ?? ""}/probe-${n}`;
    recording?.history.events.push({ kind: "mark", part, label: "commands", value: k });
    const plan = probeSteps(commands, worlds, k);
    await session.ok({ type: "reset" });
    const { replies } = await runPlanned(
      session,
      plan,
      plan.length,
      recording === undefined ? undefined : { history: recording.history, part },
    );
    return { ...judgeProbe(commands, worlds, k, replies), n };
  };
  const settle = (p: { m: Mismatch | null; n: number } | null): void => {
    if (p !== null && p.m !== null)
      recording?.history.events.push({ kind: "mark", part: recording.part, label: "culprit", value: p.n });
  };
  if (kind === "events") {
    const p = await probe(commands.length);
    settle(p);
    return refinedOf(m, kind, p);
  }
  // Bisect for the first k with a differing world after k commands (equal at lo, differs at hi).
  let lo = 0;
  let hi = commands.length;
  let last: Awaited<ReturnType<typeof probe>> | null = null;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const p = await probe(mid);
    if (p.m === null) lo = mid;
    else {
      hi = mid;
      last = p;
    }
  }
  const culprit = last !== null && last.steps.length - 1 === hi ? last : await probe(hi);
  settle(culprit);
  return refinedOf(m, kind, culprit);
};

/**
 * The refined counterexample as a checker reads it from a history the driver above recorded: the
 * probe marked `culprit` of `part`, judged again from its recorded replies. Null when no probe
 * settled on one (the mismatch could not be sharpened).
 */
export const refinedFromHistory = (
  history: AnyHistory,
  part: string,
  steps: readonly PlannedStep[],
  index: number,
  m: Mismatch,
): Refined | null => {
  const kind = refinable(m);
  const n = markOf(history, part, "culprit");
  if (kind === null || n === undefined) return null;
  const probePart = `${part}/probe-${n}`;
  const k = markOf(history, probePart, "commands");
  if (k === undefined) throw new Error(`runner bug: probe ${probePart} has no command count`);
  const { commands, worlds } = modelAlong(steps, index);
  const replies = exchangesOf(history, probePart).map((e) => e.reply);
  return refinedOf(m, kind, judgeProbe(commands, worlds, k, replies));
};
