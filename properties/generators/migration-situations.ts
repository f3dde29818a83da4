/**
 * The rare situations of OP-7 (see situations.ts), which mostly need a migration in progress.
 * The list order is load-bearing, as for the other situations: `c.op` indexes it.
 */
import { pick } from "./choice.ts";
import type { Situation } from "./step.ts";
import { AUTH, EVIDENCE, ROGUE, exec } from "./values.ts";

/** OP-7.2 … OP-7.6 c1: a phase command out of order. */
const outOfOrder: Situation = ({ A, tick, agent, c, id }) => {
  const m = agent.ripa.migration;
  if (m === null) return undefined;
  const mid = m.migration_id;
  const phases = ["fenced", "checkpointed", "validated", "bound", "rehydrated"] as const;
  // One of the four phases the migration is not in.
  const want = phases[(phases.indexOf(m.phase) + 1 + (c.y % 4)) % phases.length] ?? "fenced";
  switch (want) {
    case "fenced":
      return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: mid };
    case "checkpointed":
      return {
        op: "ripa.migration_validate",
        tick,
        agent: A,
        migration_id: mid,
        bundle_digest: m.bundle_digest ?? EVIDENCE,
        target: { execution: exec(id("exec-")), providers: [], body_revision: agent.substrate.body.revision },
        gain_authorization: null,
      };
    case "validated":
      return { op: "ripa.migration_bind", tick, agent: A, migration_id: mid, surfaces: [], labels: {} };
    case "bound":
      return { op: "ripa.migration_rehydrate", tick, agent: A, migration_id: mid };
    case "rehydrated":
      return { op: "ripa.migration_resume", tick, agent: A, migration_id: mid, token: id("tok-") };
  }
};

/** OP-7.3.c5 / c6 / c7: a target that is the source, with duplicate provider ids, or lacking a required capability. */
const badTarget: Situation = ({ A, tick, agent, c, id }) => {
  const m = agent.ripa.migration;
  if (m === null || m.phase !== "checkpointed") return undefined;
  const which = c.x % 3;
  const prov = (pid: string, caps: readonly string[]) => ({
    provider_id: pid,
    kind: "runtime" as const,
    contract_version: "v2",
    capabilities: [...caps],
  });
  const req = agent.ripa.required_capabilities;
  const providers =
    which === 1
      ? [prov("prov-t", req), prov("prov-t", req)]
      : which === 2
        ? [prov("prov-t", [])]
        : [prov("prov-t", req)];
  const execution = exec(which === 0 ? m.source_execution_id : id("exec-"));
  return {
    op: "ripa.migration_validate",
    tick,
    agent: A,
    migration_id: m.migration_id,
    bundle_digest: m.bundle_digest ?? EVIDENCE,
    target: { execution, providers, body_revision: agent.substrate.body.revision },
    gain_authorization: null,
  };
};

/** The situations of OP-7, which mostly need a migration in progress (the phase-dependent ones thrice: each needs one phase of five). */
export const MIGRATION_SITUATIONS: readonly Situation[] = [
  // OP-7.c1: a phase command naming a migration that is not the one in progress.
  ({ A, tick, agent }) =>
    agent.ripa.migration === null
      ? undefined
      : { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: "ghost-m" },
  // OP-7.1.c1 / c2: a fence while a migration is in progress, or reusing a fenced migration's id.
  ({ A, tick, agent, c, id }) => {
    const m = agent.ripa.migration;
    const old = pick(agent.ripa.fences, c.y)?.migration_id;
    if (m === null && old === undefined) return undefined;
    return {
      op: "ripa.migration_fence",
      tick,
      agent: A,
      migration_id: m === null ? (old ?? "m") : id("m"),
      token: id("tok-"),
    };
  },
  outOfOrder,
  outOfOrder,
  outOfOrder,
  badTarget,
  badTarget,
  badTarget,
  // OP-7.4.c3: surfaces with one id twice.
  ({ A, tick, agent }) => {
    const m = agent.ripa.migration;
    if (m === null || m.phase !== "validated") return undefined;
    const s = { surface_id: "s0", kind: "chat" as const, account: "b", session: "new" };
    return {
      op: "ripa.migration_bind",
      tick,
      agent: A,
      migration_id: m.migration_id,
      surfaces: [s, { ...s, session: "other" }],
      labels: { region: "eu" },
    };
  },
  // OP-7.7.c2 / c3: a rollback without the no-target decision, or without a custodian's authorisation.
  ({ A, tick, agent, c }) => {
    const m = agent.ripa.migration;
    if (m === null) return undefined;
    return {
      op: "ripa.migration_cancel",
      tick,
      agent: A,
      migration_id: m.migration_id,
      no_target_active: c.x % 2 === 1,
      authorization: c.x % 2 === 1 ? ROGUE : AUTH,
    };
  },
];
