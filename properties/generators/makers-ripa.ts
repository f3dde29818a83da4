/** The makers of RIPA's commands outside migrations: tasks, attempts, effects, the body, surfaces, replicas, descent. */
import { pick } from "./choice.ts";
import { lateReply, taskPause } from "./recovery.ts";
import type { Maker } from "./step.ts";
import { AUTH, ROGUE, exec } from "./values.ts";
import type { OpKind } from "./weights.ts";

export const RIPA_MAKERS = {
  task_start: ({ c, agent, A, tick, id, bad }) => ({
    op: "ripa.task_start",
    tick,
    agent: A,
    task_id: bad ? (pick(agent.substrate.memory.task_ids, c.y) ?? "t") : id("t"),
  }),
  task_resume: ({ c, agent, A, tick, bad }) => ({
    op: "ripa.task_resume",
    tick,
    agent: A,
    task_id: bad ? "ghost" : (pick(agent.substrate.memory.task_ids, c.y) ?? "ghost"),
  }),
  request: ({ c, agent, A, tick, id }) => ({
    op: "ripa.request",
    tick,
    agent: A,
    task_id: pick(agent.substrate.memory.task_ids, c.y) ?? "ghost",
    attempt_nonce: id("a"),
  }),
  task_pause: ({ v, mem, c, agent, tick, bad }) => taskPause(v, agent, mem, c, bad, tick),
  reply: ({ mem, c, agent, A, tick, bad }) => {
    const late = lateReply(mem, c, tick);
    if (late !== undefined) return late;
    const live = pick(agent.ripa.live_attempts, c.y);
    return {
      op: "ripa.reply",
      tick,
      agent: A,
      task_id: live?.task_id ?? pick(agent.substrate.memory.task_ids, c.y) ?? "ghost",
      attempt_nonce: bad || live === undefined ? "stale" : live.attempt_nonce,
    };
  },
  effect: ({ c, agent, A, tick, bad }) => {
    const p = pick(agent.ripa.providers, c.x);
    return {
      op: "ripa.effect",
      tick,
      agent: A,
      execution_id: agent.ripa.authority.holder ?? agent.ripa.execution.execution_id,
      token: bad && c.y % 2 === 0 ? "stale-token" : agent.ripa.authority.token,
      provider_id: p?.provider_id ?? "none",
      capability: bad && c.y % 2 === 1 ? "vcs.push" : (pick(p?.capabilities ?? [], c.y) ?? "fare.search"),
      effect_id: `e${c.x % 6}`,
    };
  },
  evolve: ({ c, agent, A, tick, id, bad }) => ({
    op: "ripa.evolve",
    tick,
    agent: A,
    revision: bad ? agent.substrate.body.revision : id("rev-"),
    authorization: c.bad === 3 ? ROGUE : AUTH,
  }),
  identity_update: ({ c, A, tick, bad }) => ({
    op: "ripa.identity_update",
    tick,
    agent: A,
    designation: `name-${c.x % 5}`,
    authorization: bad ? ROGUE : AUTH,
  }),
  bind_surface: ({ c, A, tick, bad }) => ({
    op: "ripa.bind_surface",
    tick,
    agent: A,
    surface: { surface_id: `s${c.x % 3}`, kind: "chat", account: "a", session: `${c.y}` },
    labels: bad ? { identity: "me" } : c.y % 2 === 0 ? { team: `t${c.y % 3}` } : { zone: `z${c.x % 2}` },
  }),
  replicate: ({ agent, A, tick, id, bad }) => ({
    op: "ripa.replicate",
    tick,
    agent: A,
    execution: exec(bad ? agent.ripa.execution.execution_id : id("rep-")),
  }),
  descend: ({ v, c, agent, A, tick, id, bad }) => {
    return {
      op: "ripa.descend",
      tick,
      agent: A,
      root: bad ? (pick(v.roots_used, c.y) ?? "r") : id("root-"),
      designation: "child",
      execution: exec(id("exec-")),
      // The parent's current token is fresh for the child: tokens are per agent (spec review G-35).
      authority_token: c.y % 3 === 1 ? agent.ripa.authority.token : id("tok-"),
    };
  },
  restart: ({ agent, A, tick, id, bad }) => ({
    op: "ripa.restart",
    tick,
    agent: A,
    execution_id: agent.ripa.execution.execution_id,
    token: bad ? agent.ripa.authority.token : id("tok-"),
  }),
} satisfies Partial<Record<OpKind, Maker>>;
