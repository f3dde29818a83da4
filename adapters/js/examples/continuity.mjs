/**
 * Step 4 of the implementer's path: the continuity operations of RIPA, spec/OPERATIONS.md OP-6
 * (restart, tasks, attempts, effects, body evolution, identity updates, surfaces and labels,
 * replicas, descent, pause), on the world of step 1 (world.mjs). Every operation lists its checks
 * in the order of spec/CHECKS.md, each with its clause, so that the first failing one decides the
 * code (D-032); only then does it change the world. Migration (OP-7) is migration.mjs.
 *
 * The agent's RipaView (`agent.ripa`) and its substrate are what the views show. What they do not
 * show is kept beside them in `agent.continuity`: the authority tokens the agent has used (D-026),
 * the attempt nonces it has published (OP-6.4) and the migration ids it has started (OP-7).
 */
import { readFileSync } from "node:fs";
import { Refusal } from "../index.mjs";
import { byString, checkQuiescent, mint } from "./world.mjs";
import { extendMemory } from "./lineage.mjs";

/** TAB-2, from the adapter's copy of tables.json. */
const { reserved_label_keys: RESERVED_LABEL_KEYS } = JSON.parse(
  readFileSync(new URL("../spec-copy/tables.json", import.meta.url), "utf8"),
);

export const I1 = (message, path) => new Refusal("RIPA_IDENTITY_DISCONTINUOUS", "I1", message, path);
export const I2 = (message, path) => new Refusal("RIPA_MEMORY_ANCESTRY_BROKEN", "I2", message, path);
export const I3 = (message, path) => new Refusal("RIPA_BODY_MISMATCH", "I3", message, path);
export const I4 = (message, path) => new Refusal("RIPA_AUTHORITY_CONFLICT", "I4", message, path);
export const I5 = (message, path) => new Refusal("RIPA_CAPABILITY_UNDECLARED", "I5", message, path);
export const I6 = (message, path) => new Refusal("RIPA_LABEL_OVERWRITES_IDENTITY", "I6", message, path);

// ---------------------------------------------------------------------------------------------
// What an agent keeps for continuity

/**
 * The private part: used tokens, used attempt nonces, started migration ids. The first used token
 * is the one the agent was minted with (OP-5.1); only this module and migration.mjs change the
 * authority token, and each records the old one here before, so the lazy start is exact.
 */
export const continuityOf = (agent) =>
  (agent.continuity ??= { tokens: [agent.ripa.authority.token], nonces: [], migrations: [] });

/** D-026: a token the agent has used before is refused with I4. */
export const checkTokenFresh = (agent, token) => {
  if (continuityOf(agent).tokens.includes(token))
    throw I4(`authority token ${token} was used before by this agent`, ["token"]);
};

/** A new authority epoch `{ token, generation, holder }`, its token used from now on. */
export const advanceEpoch = (agent, token, generation, holder) => {
  continuityOf(agent).tokens.push(token);
  agent.ripa.authority = { token, generation, holder };
  return { type: "epoch.advanced", generation, holder };
};

/** OP-0.5 (D-022): the authorisation's custodian is one of the agent's. */
export const authorised = (agent, authorization) => agent.ripa.custodians.includes(authorization.custodian);

/** OP-6.9, OP-7.4: a label key reserved by TAB-2 is refused with I6 (D-033). */
export const checkLabels = (labels) => {
  for (const key of Object.keys(labels)) {
    if (RESERVED_LABEL_KEYS.includes(key)) throw I6(`label key ${key} names an identity field`, ["labels", key]);
  }
};

/** OP-0.6: surfaces sorted by surface.surface_id. */
export const bySurfaceId = (a, b) => byString(a.surface.surface_id, b.surface.surface_id);

const byExecutionId = (a, b) => byString(a.execution_id, b.execution_id);

const taskRecorded = (agent, taskId) => {
  if (!agent.substrate.memory.task_ids.includes(taskId))
    throw I2(`task ${taskId} is not recorded in memory`, ["task_id"]);
};

const liveAttempt = (agent, taskId) => agent.ripa.live_attempts.find((a) => a.task_id === taskId);

/** The task's live attempt is `nonce`, else I4 (OP-6.5, OP-6.12). */
const checkLive = (agent, taskId, nonce) => {
  if (liveAttempt(agent, taskId)?.attempt_nonce !== nonce)
    throw I4(`attempt ${nonce} is not task ${taskId}'s live attempt`, ["attempt_nonce"]);
};

const clearAttempt = (agent, taskId) => {
  agent.ripa.live_attempts = agent.ripa.live_attempts.filter((a) => a.task_id !== taskId);
};

// ---------------------------------------------------------------------------------------------
// OP-6.1 … OP-6.12

/** OP-6.1 ripa.restart */
export const restart = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  if (cmd.execution_id !== agent.ripa.execution.execution_id)
    throw I4(`${cmd.execution_id} is not the bound execution`, ["execution_id"]); // c2
  checkTokenFresh(agent, cmd.token); // c3
  return [advanceEpoch(agent, cmd.token, agent.ripa.authority.generation + 1, cmd.execution_id)];
};

/** OP-6.2 ripa.task_start */
export const taskStart = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  if (agent.substrate.memory.task_ids.includes(cmd.task_id))
    throw new Refusal("DUPLICATE_ID", null, `task ${cmd.task_id} was started before`, ["task_id"]); // c2
  agent.substrate.memory.task_ids.push(cmd.task_id);
  return [{ type: "task.started", task_id: cmd.task_id }, extendMemory(agent, "task_start")]; // the snapshot holds the new task id
};

/** OP-6.3 ripa.task_resume */
export const taskResume = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  taskRecorded(agent, cmd.task_id); // c2
  return [{ type: "task.resumed", task_id: cmd.task_id }];
};

/** OP-6.4 ripa.request */
export const request = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  taskRecorded(agent, cmd.task_id); // c2
  const { nonces } = continuityOf(agent);
  if (nonces.includes(cmd.attempt_nonce))
    throw I4(`attempt nonce ${cmd.attempt_nonce} was used before by this agent`, ["attempt_nonce"]); // c3
  nonces.push(cmd.attempt_nonce);
  clearAttempt(agent, cmd.task_id); // the task's only live attempt from now on
  agent.ripa.live_attempts = [
    ...agent.ripa.live_attempts,
    { task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce },
  ].sort((a, b) => byString(a.task_id, b.task_id));
  return [{ type: "attempt.published", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};

/** OP-6.5 ripa.reply */
export const reply = (world, cmd, agent) => {
  taskRecorded(agent, cmd.task_id); // c1
  checkLive(agent, cmd.task_id, cmd.attempt_nonce); // c2: stale or duplicate
  clearAttempt(agent, cmd.task_id);
  return [{ type: "reply.accepted", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};

/** OP-6.6 ripa.effect */
export const effect = (world, cmd, agent) => {
  const { authority, providers, effects } = agent.ripa;
  if (cmd.token !== authority.token || cmd.execution_id !== authority.holder)
    throw I4("the effect does not carry the current epoch's token and holder", ["token"]); // c1
  const provider = providers.find((p) => p.provider_id === cmd.provider_id);
  if (provider === undefined) throw I5(`provider ${cmd.provider_id} is not bound`, ["provider_id"]); // c2
  if (!provider.capabilities.includes(cmd.capability))
    throw I5(`provider ${cmd.provider_id} does not grant ${cmd.capability}`, ["capability"]); // c3: never substitute
  if (effects.includes(cmd.effect_id)) return [{ type: "effect.duplicate", effect_id: cmd.effect_id }]; // c4: idempotent
  agent.ripa.effects = [...effects, cmd.effect_id].sort(byString);
  return [
    { type: "effect.performed", effect_id: cmd.effect_id, provider_id: cmd.provider_id, capability: cmd.capability },
  ];
};

/** OP-6.7 ripa.evolve */
export const evolve = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  if (!authorised(agent, cmd.authorization))
    throw I3(`${cmd.authorization.custodian} is not a custodian of the agent`, ["authorization", "custodian"]); // c2
  const body = agent.substrate.body;
  if (body.lineage.includes(cmd.revision))
    throw I3(`revision ${cmd.revision} is already in the body lineage`, ["revision"]); // c3
  body.revision = cmd.revision;
  body.lineage.push(cmd.revision);
  return [{ type: "body.evolved", revision: cmd.revision }];
};

/** OP-6.8 ripa.identity_update */
export const identityUpdate = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  if (!authorised(agent, cmd.authorization))
    throw I1(`${cmd.authorization.custodian} is not a custodian of the agent`, ["authorization", "custodian"]); // c2
  const record = agent.substrate.identity;
  record.designation = cmd.designation;
  record.identity_version += 1;
  return [{ type: "identity.updated", identity_version: record.identity_version }];
};

/** OP-6.9 ripa.bind_surface */
export const bindSurface = (world, cmd, agent) => {
  checkLabels(cmd.labels); // c1
  const others = agent.ripa.surfaces.filter((s) => s.surface.surface_id !== cmd.surface.surface_id); // replaced whole, labels too (G-40)
  agent.ripa.surfaces = [...others, { surface: cmd.surface, labels: cmd.labels }].sort(bySurfaceId);
  return [{ type: "surface.bound", surface_id: cmd.surface.surface_id }];
};

/** OP-6.10 ripa.replicate */
export const replicate = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const id = cmd.execution.execution_id;
  if (id === agent.ripa.execution.execution_id || agent.ripa.replicas.some((r) => r.execution_id === id)) {
    throw new Refusal("DUPLICATE_ID", null, `execution ${id} is already bound to the agent`, [
      "execution",
      "execution_id",
    ]); // c2
  }
  agent.ripa.replicas = [...agent.ripa.replicas, cmd.execution].sort(byExecutionId); // holds no authority
  return [{ type: "replica.created", execution_id: id }];
};

/** OP-6.11 ripa.descend: a new agent as OP-5.1 mints it, from the parent's base, body and bindings. */
export const descend = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const head = agent.store.chain[agent.store.chain.length - 1].version_id;
  if (agent.store.quarantined.includes(head))
    throw new Refusal("JANMA_DISTILLATION_OBLIGATION", "J-4", "the store head is quarantined", ["agent"]); // c2
  const { ripa } = agent;
  const events = mint(world, {
    // c3 (root never used, AD-1) is mint's first check; the parent's providers are unique
    root: cmd.root,
    base_digest: agent.identity.base_digest,
    designation: cmd.designation,
    body_revision: agent.substrate.body.revision, // the child's lineage starts here (G-35 a)
    custodians: ripa.custodians,
    execution: cmd.execution,
    providers: ripa.providers,
    required_capabilities: ripa.required_capabilities,
    authority_token: cmd.authority_token, // fresh for the child whatever the parent used (G-35 c)
  });
  // mint gives the child no surfaces and no replicas (G-35 b)
  return [...events, { type: "agent.descended", parent: agent.identity.identity, child: events[0].identity }];
};

/** OP-6.12 ripa.task_pause */
export const taskPause = (world, cmd, agent) => {
  taskRecorded(agent, cmd.task_id); // c1
  checkLive(agent, cmd.task_id, cmd.attempt_nonce); // c2: a stale recovery must not revoke a newer attempt
  clearAttempt(agent, cmd.task_id); // the nonce stays used (continuityOf(agent).nonces)
  return [{ type: "task.paused", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }];
};

/** The operations OP-6 adds, by op. */
export const continuityOperations = {
  "ripa.restart": restart,
  "ripa.task_start": taskStart,
  "ripa.task_resume": taskResume,
  "ripa.request": request,
  "ripa.reply": reply,
  "ripa.effect": effect,
  "ripa.evolve": evolve,
  "ripa.identity_update": identityUpdate,
  "ripa.bind_surface": bindSurface,
  "ripa.replicate": replicate,
  "ripa.descend": descend,
  "ripa.task_pause": taskPause,
};
