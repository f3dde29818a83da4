/**
 * Native recovery (OP-6.12, review G-53): pausing the attempt of a dead worker, and the late reply
 * that worker sends afterwards (which a conforming system rejects as stale, I4).
 */
import type { AgentView, Command, WorldView } from "../../spec/index.ts";
import { pick, type Choice } from "./choice.ts";
import type { GenMemory } from "./memory.ts";

/**
 * Native recovery (OP-6.12, review G-53): the worker of a live attempt has died, so the attempt is
 * revoked by naming it; the generator remembers it to send the dead worker's late reply later.
 * Invalid on purpose: a nonce that is not live (an older attempt, as a stale recovery would name).
 */
export const taskPause = (
  v: WorldView,
  chosen: AgentView,
  mem: GenMemory,
  c: Choice,
  bad: boolean,
  tick: number,
): Command => {
  // Recovery goes to an agent whose worker left an attempt live, when the chosen one has none.
  const agent =
    chosen.ripa.live_attempts.length > 0 ? chosen : (v.agents.find((a) => a.ripa.live_attempts.length > 0) ?? chosen);
  const A = agent.identity.identity;
  const live = pick(agent.ripa.live_attempts, c.y);
  const task_id = live?.task_id ?? pick(agent.substrate.memory.task_ids, c.y) ?? "ghost";
  // Nothing live to recover: the dead worker's late reply arrives instead, when one is owed, or
  // else a worker publishes an attempt (that may die) for a recorded task.
  const late = bad || live !== undefined ? undefined : lateReply(mem, c, tick);
  if (late !== undefined) return late;
  const recorded = pick(agent.substrate.memory.task_ids, c.y);
  if (!bad && live === undefined && recorded !== undefined && agent.ripa.migration === null)
    return { op: "ripa.request", tick, agent: A, task_id: recorded, attempt_nonce: `a${mem.seq++}` };
  if (bad || live === undefined)
    return {
      op: "ripa.task_pause",
      tick,
      agent: A,
      task_id,
      attempt_nonce: pick(mem.revoked, c.x)?.attempt_nonce ?? "stale",
    };
  mem.revoked.push({ agent: A, task_id, attempt_nonce: live.attempt_nonce });
  return { op: "ripa.task_pause", tick, agent: A, task_id, attempt_nonce: live.attempt_nonce };
};

/**
 * The late reply of a worker whose attempt was revoked (OP-6.5 must reject it, I4), oldest first,
 * to the agent that revoked it; each is sent once. Two replies in three are late while any is owed.
 */
export const lateReply = (mem: GenMemory, c: Choice, tick: number): Command | undefined => {
  if (c.y % 3 === 0) return undefined;
  const r = mem.revoked.shift();
  return r === undefined
    ? undefined
    : { op: "ripa.reply", tick, agent: r.agent, task_id: r.task_id, attempt_nonce: r.attempt_nonce };
};
