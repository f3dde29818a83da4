/**
 * OP-6.12 `ripa.task_pause`: native recovery (review G-53, D-046). After the recorded worker has
 * exited, the task is paused by revoking the attempt it left live; otherwise nothing but a reply
 * could ever end that attempt and the fence (OP-7.1) would refuse the agent forever.
 */
import { violates } from "../rejection.ts";
import type { Handler } from "./context.ts";

export const taskPause: Handler<"ripa.task_pause"> = (_world, cmd, agent) => {
  // Not refused while quiesced (OP-0.4): cancelling in-flight work is part of quiescing.
  if (!agent.taskIds.includes(cmd.task_id))
    violates("I2", `task ${cmd.task_id} is not recorded in memory`, ["task_id"]);
  // The pause names the attempt it revokes, so a recovery decided about an older worker cannot
  // revoke an attempt published since (I4, attempt-local like the reply check).
  const live = agent.liveAttempts.get(cmd.task_id);
  if (live !== cmd.attempt_nonce)
    violates("I4", `${cmd.attempt_nonce} is not the live attempt of task ${cmd.task_id} (live: ${live ?? "none"})`, [
      "attempt_nonce",
    ]);
  // The nonce stays in usedAttemptNonces: a late reply carrying it is now stale (OP-6.5) and it
  // can never be published again (OP-6.4).
  agent.liveAttempts.delete(cmd.task_id);
  return [{ type: "task.paused", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};
