/**
 * I2 memory ancestry (D-024): memory only ever extends by appending a snapshot; the store head
 * and task ids it records are taken from the agent at the moment of extension.
 */
import type { Event } from "../../spec/index.ts";
import type { Agent } from "../state.ts";
import { memorySnapshot, type SnapshotCause } from "./identity.ts";

/** Append a snapshot (I2); returns the agent and the `memory.extended` event. */
export const extendMemory = (agent: Agent, cause: SnapshotCause): { agent: Agent; event: Event } => {
  const prev = agent.memory.ancestry[agent.memory.ancestry.length - 1] ?? null;
  const head = agent.store.chain[agent.store.chain.length - 1]?.version_id ?? agent.identity.lineage_root;
  const snapshot = memorySnapshot(prev, cause, head, agent.memory.task_ids);
  return {
    agent: {
      ...agent,
      memory: { ancestry: [...agent.memory.ancestry, snapshot], store_head: head, task_ids: agent.memory.task_ids },
    },
    event: { type: "memory.extended", snapshot },
  };
};
