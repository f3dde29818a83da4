/** OP-6: RIPA continuity operations (I1..I6) outside migration. */
import type { Digest, Labels } from "../../../spec/index.ts";
import { RESERVED_LABEL_KEYS } from "../../../spec/index.ts";
import type { Agent } from "../agent.ts";
import { refuse, violates } from "../rejection.ts";
import { install } from "./advaita.ts";
import { requireNotQuiesced, type Handler } from "./context.ts";

/** I4 (D-026): a token that takes a new epoch must never have been used by this agent. */
export const requireFreshToken = (agent: Agent, token: string): void => {
  if (agent.usedTokens.has(token)) violates("I4", `authority token ${token} was already used`, ["token"]);
};

/** I6 (D-033): labels are metadata and may not claim identity fields. */
export const requireNoReservedLabels = (labels: Labels): void => {
  for (const key of Object.keys(labels)) {
    if ((RESERVED_LABEL_KEYS as readonly string[]).includes(key))
      violates("I6", `label key ${key} is reserved for identity`, ["labels", key]);
  }
};

/** OP-6.1 */
export const restart: Handler<"ripa.restart"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4: a fenced source cannot start
  if (cmd.execution_id !== agent.execution.execution_id)
    violates("I4", `${cmd.execution_id} is not the bound execution`, ["execution_id"]);
  requireFreshToken(agent, cmd.token);
  const generation = agent.authority.generation + 1;
  agent.authority = { token: cmd.token, generation, holder: cmd.execution_id };
  agent.usedTokens.add(cmd.token);
  return [{ type: "epoch.advanced", generation, holder: cmd.execution_id }];
};

/** OP-6.2 (I2: memory extends) */
export const taskStart: Handler<"ripa.task_start"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  if (agent.taskIds.includes(cmd.task_id)) refuse("DUPLICATE_ID", `task ${cmd.task_id} already exists`, ["task_id"]);
  agent.taskIds.push(cmd.task_id);
  return [
    { type: "task.started", task_id: cmd.task_id },
    { type: "memory.extended", snapshot: agent.extendMemory("task_start") },
  ];
};

const requireTask = (agent: Agent, taskId: string): void => {
  // I2: workflow state is never invented; only recorded tasks exist.
  if (!agent.taskIds.includes(taskId)) violates("I2", `task ${taskId} is not recorded in memory`, ["task_id"]);
};

/** OP-6.3 */
export const taskResume: Handler<"ripa.task_resume"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  requireTask(agent, cmd.task_id);
  return [{ type: "task.resumed", task_id: cmd.task_id }];
};

/** OP-6.4 (I4: attempt nonces are fresh) */
export const request: Handler<"ripa.request"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  requireTask(agent, cmd.task_id);
  if (agent.usedAttemptNonces.has(cmd.attempt_nonce))
    violates("I4", `attempt nonce ${cmd.attempt_nonce} was already used`, ["attempt_nonce"]);
  agent.usedAttemptNonces.add(cmd.attempt_nonce);
  agent.liveAttempts.set(cmd.task_id, cmd.attempt_nonce);
  return [{ type: "attempt.published", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};

/** OP-6.5 (I4: only the live attempt's reply is accepted) */
export const reply: Handler<"ripa.reply"> = (_world, cmd, agent) => {
  requireTask(agent, cmd.task_id);
  if (agent.liveAttempts.get(cmd.task_id) !== cmd.attempt_nonce) {
    violates("I4", `reply for ${cmd.attempt_nonce} is stale or duplicate`, ["attempt_nonce"]);
  }
  agent.liveAttempts.delete(cmd.task_id);
  return [{ type: "reply.accepted", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};

/** OP-6.6 (I4 current epoch; I5 fail closed, never substitute a provider) */
export const effect: Handler<"ripa.effect"> = (_world, cmd, agent) => {
  if (cmd.token !== agent.authority.token || cmd.execution_id !== agent.authority.holder) {
    violates(
      "I4",
      `token ${cmd.token} held by ${cmd.execution_id} is not the current epoch (generation ${agent.authority.generation})`,
      ["token"],
    );
  }
  const provider = agent.providers.get(cmd.provider_id);
  if (provider === undefined) violates("I5", `provider ${cmd.provider_id} is not bound`, ["provider_id"]);
  if (!provider?.capabilities.includes(cmd.capability)) {
    violates("I5", `provider ${cmd.provider_id} does not grant ${cmd.capability}`, ["capability"]);
  }
  if (agent.effects.has(cmd.effect_id)) return [{ type: "effect.duplicate", effect_id: cmd.effect_id }];
  agent.effects.add(cmd.effect_id);
  return [
    { type: "effect.performed", effect_id: cmd.effect_id, provider_id: cmd.provider_id, capability: cmd.capability },
  ];
};

/** OP-6.7 (I3: governed body evolution) */
export const evolve: Handler<"ripa.evolve"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  if (!agent.isCustodian(cmd.authorization.custodian))
    violates("I3", "body evolution needs a custodian's authorisation", ["authorization", "custodian"]);
  if (agent.bodyLineage.includes(cmd.revision))
    violates("I3", `revision ${cmd.revision} is already in the body lineage`, ["revision"]);
  agent.bodyRevision = cmd.revision;
  agent.bodyLineage.push(cmd.revision);
  return [{ type: "body.evolved", revision: cmd.revision }];
};

/** OP-6.8 (I1: governed identity update) */
export const identityUpdate: Handler<"ripa.identity_update"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  if (!agent.isCustodian(cmd.authorization.custodian))
    violates("I1", "an identity update needs a custodian's authorisation", ["authorization", "custodian"]);
  agent.designation = cmd.designation;
  agent.identityVersion += 1;
  return [{ type: "identity.updated", identity_version: agent.identityVersion }];
};

/** OP-6.9 (I6) */
export const bindSurface: Handler<"ripa.bind_surface"> = (_world, cmd, agent) => {
  requireNoReservedLabels(cmd.labels);
  agent.surfaces.set(cmd.surface.surface_id, { surface: cmd.surface, labels: cmd.labels });
  return [{ type: "surface.bound", surface_id: cmd.surface.surface_id }];
};

/** OP-6.10 (I4: a replica holds no authority) */
export const replicate: Handler<"ripa.replicate"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  const id = cmd.execution.execution_id;
  if (id === agent.execution.execution_id || agent.replicas.has(id))
    refuse("DUPLICATE_ID", `execution ${id} already exists`, ["execution", "execution_id"]);
  agent.replicas.set(id, cmd.execution);
  return [{ type: "replica.created", execution_id: id }];
};

/** OP-6.11 (J-4 no descent from a quarantined head; AD-1 fresh root; D-030 empty store) */
export const descend: Handler<"ripa.descend"> = (world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op);
  if (agent.store.quarantined.has(agent.storeHead))
    violates("J-4", `store head ${agent.storeHead} is quarantined; cannot descend`);
  if (world.rootsUsed.has(cmd.root)) violates("AD-1", `root ${cmd.root} was already used`, ["root"]);
  const { agent: child, events } = install(world, {
    baseDigest: agent.identity.base_digest as Digest,
    root: cmd.root,
    designation: cmd.designation,
    bodyRevision: agent.bodyRevision,
    custodians: agent.custodians,
    execution: cmd.execution,
    providers: [...agent.providers.values()],
    requiredCapabilities: agent.requiredCapabilities,
    authorityToken: cmd.authority_token,
  });
  events.push({ type: "agent.descended", parent: agent.identity.identity, child: child.identity.identity });
  return events;
};
