/**
 * RIPA native recovery (OP-6.12, review G-53, D-046): pausing a task whose worker has exited
 * revokes the task's live attempt. Before this operation only a reply could end an attempt, so a
 * worker killed mid-request left an attempt that blocked the fence (OP-7.1) forever.
 *
 * Kept apart from substrate.ts so the recovery rule reads on its own: the revoked nonce stays in
 * `attempt_nonces_used`, which is what makes a late reply stale (OP-6.5, I4) and forbids
 * republishing it (OP-6.4, I4) without any further state.
 */
import { no, violates } from "../rejection.ts";
import type { Agent } from "../state.ts";
import { withAgent, type Handler } from "../step.ts";

/** OP-6.12: revoke the named live attempt (I2 for an unknown task, I4 for a stale attempt). */
export const taskPause: Handler<"ripa.task_pause"> = (world, agent, cmd) => {
  if (!agent.memory.task_ids.includes(cmd.task_id))
    return no(violates("I2", "OP-6.12.c1", `task ${cmd.task_id} is not in memory`, ["task_id"]));
  // Attempt-local like the reply check: a recovery decided about an older attempt must not
  // revoke the attempt a newer worker has published since.
  if (agent.ripa.live_attempts.get(cmd.task_id) !== cmd.attempt_nonce)
    return no(
      violates("I4", "OP-6.12.c2", `attempt ${cmd.attempt_nonce} is not the live attempt of task ${cmd.task_id}`, [
        "attempt_nonce",
      ]),
    );
  const live = new Map(agent.ripa.live_attempts);
  live.delete(cmd.task_id);
  const paused: Agent = { ...agent, ripa: { ...agent.ripa, live_attempts: live } };
  return withAgent(world, paused, [{ type: "task.paused", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }]);
};
