/** The makers of a migration's commands: the next phase of the one in progress (or a new fence), and its cancellation. */
import { pick } from "./choice.ts";
import { taskPause } from "./recovery.ts";
import type { Maker } from "./step.ts";
import { AUTH, EVIDENCE, exec } from "./values.ts";
import type { OpKind } from "./weights.ts";

export const MIGRATION_MAKERS = {
  migrate: ({ v, mem, c, agent, A, tick, id, bad }) => {
    // The next phase of the migration in progress, or a new fence (the kind a quiesced agent mostly takes).
    const m = agent.ripa.migration;
    // An operator about to export a task whose worker died first pauses it (review G-53): half
    // the time; the other half the fence meets the live attempt and is refused (OP-7.1).
    if (m === null && agent.ripa.live_attempts.length > 0 && c.y % 2 === 0 && !mem.disabled.has("task_pause"))
      return taskPause(v, agent, mem, c, false, tick);
    if (m === null)
      return {
        op: "ripa.migration_fence",
        tick,
        agent: A,
        migration_id: id("m"),
        token: bad ? agent.ripa.authority.token : id("tok-"),
      };
    const mid = m.migration_id;
    switch (m.phase) {
      case "fenced":
        return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: mid };
      case "checkpointed": {
        const gain = c.y % 4 === 0;
        const caps = [...agent.ripa.required_capabilities, ...(gain ? ["vcs.push"] : [])];
        // Unsorted, with a duplicate, on odd choices (spec review G-33: capabilities are a set).
        const providers = [
          {
            provider_id: "prov-t",
            kind: "runtime" as const,
            contract_version: "v2",
            capabilities: c.x % 2 === 1 ? [...caps].reverse().concat(caps.slice(0, 1)) : caps,
          },
        ];
        // A replica may be promoted to be the target (spec review G-36).
        const replica = c.x % 3 === 1 ? pick(agent.ripa.replicas, c.y) : undefined;
        return {
          op: "ripa.migration_validate",
          tick,
          agent: A,
          migration_id: mid,
          bundle_digest: bad && c.y % 2 === 0 ? EVIDENCE : (m.bundle_digest ?? EVIDENCE),
          target: {
            execution: replica ?? exec(id("exec-")),
            providers,
            body_revision: bad && c.y % 2 === 1 ? "rev-other" : agent.substrate.body.revision,
          },
          gain_authorization: gain && c.x % 3 !== 0 ? AUTH : null,
        };
      }
      case "validated":
        return {
          op: "ripa.migration_bind",
          tick,
          agent: A,
          migration_id: mid,
          surfaces: [{ surface_id: `s${c.x % 2}`, kind: "chat", account: "b", session: "new" }],
          labels: bad ? { self: "x" } : { region: "eu" },
        };
      case "bound":
        return { op: "ripa.migration_rehydrate", tick, agent: A, migration_id: mid };
      case "rehydrated":
        return {
          op: "ripa.migration_resume",
          tick,
          agent: A,
          migration_id: mid,
          token: bad ? agent.ripa.authority.token : id("tok-"),
        };
    }
  },
  cancel: ({ c, agent, A, tick, bad }) => {
    const m = agent.ripa.migration;
    // A phase command naming a migration that is no longer in progress: NOT_FOUND (spec review G-38).
    const done = agent.ripa.reports.at(-1);
    if (m === null && done !== undefined && c.y % 2 === 0)
      return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: done.migration_id };
    return {
      op: "ripa.migration_cancel",
      tick,
      agent: A,
      migration_id: m?.migration_id ?? "ghost",
      no_target_active: !bad,
      authorization: AUTH,
    };
  },
} satisfies Partial<Record<OpKind, Maker>>;
