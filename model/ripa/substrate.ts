/**
 * RIPA substrate operations (OP-6): restart, tasks, requests and replies, effects, evolve,
 * identity update, surfaces, replicas and descend. I4 (one authority, fresh tokens and
 * nonces), I5 (no silent provider substitution), I3/I1 (governed change), I6 (labels are metadata).
 */
import type { CommandOf, Labels } from "../../spec/index.ts";
import { RESERVED_LABEL_KEYS } from "../../spec/index.ts";
import { generic, no, ok, violates, type Outcome } from "../rejection.ts";
import { byKey, mapSet, setAdd, type Agent, type Ripa, type World } from "../state.ts";
import { withAgent, authorised, type Handler, type Stepped } from "../step.ts";
import { extendMemory } from "../advaita/memory.ts";
import { install, mintedEvents, newAgent, rootFresh } from "../advaita/mint.ts";
import { head } from "../samskara/store.ts";

const withRipa = (agent: Agent, patch: Partial<Ripa>): Agent => ({ ...agent, ripa: { ...agent.ripa, ...patch } });

/** I4 (D-026): an authority token may take an epoch once per agent. */
export const tokenFresh = (agent: Agent, token: string): boolean => !agent.ripa.tokens_used.has(token);

/** I6 (D-033): the first reserved label key, if any. */
export const reservedLabel = (labels: Labels): string | undefined =>
  Object.keys(labels).find((k) => (RESERVED_LABEL_KEYS as readonly string[]).includes(k));

/** OP-6.1 restart: takes a new epoch for the bound execution (I4). */
export const restart: Handler<"ripa.restart"> = (world, agent, cmd) => {
  if (cmd.execution_id !== agent.ripa.execution.execution_id)
    return no(violates("I4", "OP-6.1.c2", "only the bound execution can restart", ["execution_id"]));
  if (!tokenFresh(agent, cmd.token))
    return no(violates("I4", "OP-6.1.c3", "authority token was used before", ["token"]));
  const authority = { token: cmd.token, generation: agent.ripa.authority.generation + 1, holder: cmd.execution_id };
  return withAgent(world, withRipa(agent, { authority, tokens_used: setAdd(agent.ripa.tokens_used, cmd.token) }), [
    { type: "epoch.advanced", generation: authority.generation, holder: authority.holder },
  ]);
};

/** OP-6.2: a task id joins memory, which extends (I2). */
export const taskStart: Handler<"ripa.task_start"> = (world, agent, cmd) => {
  if (agent.memory.task_ids.includes(cmd.task_id))
    return no(generic("DUPLICATE_ID", "OP-6.2.c2", `task ${cmd.task_id} exists`, ["task_id"]));
  const withTask: Agent = { ...agent, memory: { ...agent.memory, task_ids: [...agent.memory.task_ids, cmd.task_id] } };
  const mem = extendMemory(withTask, "task_start");
  return withAgent(world, mem.agent, [{ type: "task.started", task_id: cmd.task_id }, mem.event]);
};

const taskRecorded = (agent: Agent, task: string): boolean => agent.memory.task_ids.includes(task);

/** OP-6.3: resuming an unknown task would fork workflow state (I2). */
export const taskResume: Handler<"ripa.task_resume"> = (world, agent, cmd) => {
  if (!taskRecorded(agent, cmd.task_id))
    return no(violates("I2", "OP-6.3.c2", `task ${cmd.task_id} is not in memory`, ["task_id"]));
  return withAgent(world, agent, [{ type: "task.resumed", task_id: cmd.task_id }]);
};

/** OP-6.4: the new attempt nonce becomes the only live one (I4). */
export const request: Handler<"ripa.request"> = (world, agent, cmd) => {
  if (!taskRecorded(agent, cmd.task_id))
    return no(violates("I2", "OP-6.4.c2", `task ${cmd.task_id} is not in memory`, ["task_id"]));
  if (agent.ripa.attempt_nonces_used.has(cmd.attempt_nonce))
    return no(violates("I4", "OP-6.4.c3", "attempt nonce was used before", ["attempt_nonce"]));
  return withAgent(
    world,
    withRipa(agent, {
      live_attempts: mapSet(agent.ripa.live_attempts, cmd.task_id, cmd.attempt_nonce),
      attempt_nonces_used: setAdd(agent.ripa.attempt_nonces_used, cmd.attempt_nonce),
    }),
    [{ type: "attempt.published", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce }],
  );
};

/** OP-6.5: only the live attempt's reply is accepted (I4: stale or duplicate rejected). */
export const reply: Handler<"ripa.reply"> = (world, agent, cmd) => {
  if (!taskRecorded(agent, cmd.task_id))
    return no(violates("I2", "OP-6.5.c1", `task ${cmd.task_id} is not in memory`, ["task_id"]));
  if (agent.ripa.live_attempts.get(cmd.task_id) !== cmd.attempt_nonce)
    return no(violates("I4", "OP-6.5.c2", "reply carries a stale or duplicate attempt nonce", ["attempt_nonce"]));
  const live = new Map(agent.ripa.live_attempts);
  live.delete(cmd.task_id);
  return withAgent(world, withRipa(agent, { live_attempts: live }), [
    { type: "reply.accepted", task_id: cmd.task_id, attempt_nonce: cmd.attempt_nonce },
  ]);
};

/** OP-6.6: an effect under the current epoch, through the named provider only (I4, I5). */
export const effect: Handler<"ripa.effect"> = (world, agent, cmd) => {
  const auth = agent.ripa.authority;
  if (cmd.token !== auth.token || auth.holder === null || cmd.execution_id !== auth.holder)
    return no(violates("I4", "OP-6.6.c1", "effect under a stale epoch or by a non-holder", ["token"]));
  const provider = agent.ripa.providers.find((p) => p.provider_id === cmd.provider_id);
  if (provider === undefined)
    return no(violates("I5", "OP-6.6.c2", `provider ${cmd.provider_id} is not bound`, ["provider_id"]));
  if (!provider.capabilities.includes(cmd.capability))
    return no(
      violates("I5", "OP-6.6.c3", `provider ${cmd.provider_id} does not grant ${cmd.capability}; no substitution`, [
        "capability",
      ]),
    );
  if (agent.ripa.effects.has(cmd.effect_id))
    return withAgent(world, agent, [{ type: "effect.duplicate", effect_id: cmd.effect_id }]);
  return withAgent(world, withRipa(agent, { effects: setAdd(agent.ripa.effects, cmd.effect_id) }), [
    { type: "effect.performed", effect_id: cmd.effect_id, provider_id: cmd.provider_id, capability: cmd.capability },
  ]);
};

/** OP-6.7: governed body evolution (I3). */
export const evolve: Handler<"ripa.evolve"> = (world, agent, cmd) => {
  if (!authorised(agent, cmd.authorization))
    return no(violates("I3", "OP-6.7.c2", "body evolution needs a custodian's authorisation", ["authorization"]));
  if (agent.body.lineage.includes(cmd.revision))
    return no(violates("I3", "OP-6.7.c3", `revision ${cmd.revision} is already in the body lineage`, ["revision"]));
  return withAgent(
    world,
    { ...agent, body: { revision: cmd.revision, lineage: [...agent.body.lineage, cmd.revision] } },
    [{ type: "body.evolved", revision: cmd.revision }],
  );
};

/** OP-6.8: governed identity update (I1): same identity digest, next identity version. */
export const identityUpdate: Handler<"ripa.identity_update"> = (world, agent, cmd) => {
  if (!authorised(agent, cmd.authorization))
    return no(violates("I1", "OP-6.8.c2", "identity update needs a custodian's authorisation", ["authorization"]));
  const record = { ...agent.record, designation: cmd.designation, identity_version: agent.record.identity_version + 1 };
  return withAgent(world, { ...agent, record }, [
    { type: "identity.updated", identity_version: record.identity_version },
  ]);
};

/** OP-6.9: labels are metadata; reserved keys would stand in for the identity (I6). */
export const bindSurface: Handler<"ripa.bind_surface"> = (world, agent, cmd) => {
  const bad = reservedLabel(cmd.labels);
  if (bad !== undefined)
    return no(violates("I6", "OP-6.9.c1", `label key ${bad} is reserved for the identity`, ["labels", bad]));
  return withAgent(
    world,
    withRipa(agent, {
      surfaces: mapSet(agent.ripa.surfaces, cmd.surface.surface_id, { surface: cmd.surface, labels: cmd.labels }),
    }),
    [{ type: "surface.bound", surface_id: cmd.surface.surface_id }],
  );
};

/** OP-6.10: a replica shares the substrate but holds no authority (I4). */
export const replicate: Handler<"ripa.replicate"> = (world, agent, cmd) => {
  const id = cmd.execution.execution_id;
  if (id === agent.ripa.execution.execution_id || agent.ripa.replicas.some((r) => r.execution_id === id))
    return no(generic("DUPLICATE_ID", "OP-6.10.c2", `execution ${id} is already bound`, ["execution", "execution_id"]));
  const replicas = [...agent.ripa.replicas, cmd.execution].sort(byKey((r) => r.execution_id));
  return withAgent(world, withRipa(agent, { replicas }), [{ type: "replica.created", execution_id: id }]);
};

/** OP-6.11 descend: a new agent with a new identity (AD-1), never from a quarantined head (J-4). */
export const descend = (world: World, agent: Agent, cmd: CommandOf<"ripa.descend">): Outcome<Stepped> => {
  if (agent.store.quarantined.includes(head(agent.store).version_id))
    return no(violates("J-4", "OP-6.11.c2", "refusing to descend from a quarantined store head"));
  if (!rootFresh(world, cmd.root))
    return no(violates("AD-1", "OP-6.11.c3", `root ${cmd.root} was already used`, ["root"]));
  const child = newAgent({
    base_digest: agent.identity.base_digest as `sha256:${string}`,
    root: cmd.root,
    designation: cmd.designation,
    body_revision: agent.body.revision,
    custodians: agent.ripa.custodians,
    execution: cmd.execution,
    providers: agent.ripa.providers,
    required_capabilities: agent.ripa.required_capabilities,
    authority_token: cmd.authority_token,
  });
  return ok({
    world: install(world, child),
    events: [
      ...mintedEvents(child),
      { type: "agent.descended", parent: agent.identity.identity, child: child.identity.identity },
    ],
  });
};
