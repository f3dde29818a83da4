/**
 * Step 4 of the implementer's path: migration, spec/OPERATIONS.md OP-7 (fence, checkpoint,
 * validate, bind, rehydrate, resume, and cancel as rollback), with the tokens, labels and
 * authorisations of continuity.mjs. Every operation lists its checks in the order of
 * spec/CHECKS.md (the migration lookup OP-7.c1 first for the phases after the fence), so that the
 * first failing one decides the code (D-032); only then does it change the world.
 *
 * The migration in progress is the agent's `ripa.migration` (MigrationView); while it is there,
 * the guarded operations refuse with I4 (OP-0.4, world.mjs `checkQuiescent`). The source fences,
 * the target marker and the reports of completed migrations are `ripa.fences`, `ripa.marker` and
 * `ripa.reports`. The ids of every migration started, cancelled ones included, are kept privately
 * (continuity.mjs) since no view lists them all.
 */
import { Refusal } from "../index.mjs";
import { digestOf } from "./canonical.mjs";
import { byString, providerSet } from "./world.mjs";
import {
  I1,
  I2,
  I3,
  I4,
  I5,
  advanceEpoch,
  authorised,
  bySurfaceId,
  checkLabels,
  checkTokenFresh,
  continuityOf,
} from "./continuity.mjs";

/** OP-7.c1: the named migration is the one in progress, else NOT_FOUND (G-38). */
const inProgress = (agent, migrationId) => {
  const migration = agent.ripa.migration;
  if (migration === null || migration.migration_id !== migrationId)
    throw new Refusal("NOT_FOUND", null, `migration ${migrationId} is not in progress`, ["migration_id"]);
  return migration;
};

/** A phase out of order is I4. */
const checkPhase = (migration, phase) => {
  if (migration.phase !== phase)
    throw I4(`migration ${migration.migration_id} is ${migration.phase}, not ${phase}`, ["migration_id"]);
};

const fenceOf = (agent, migrationId) => agent.ripa.fences.find((f) => f.migration_id === migrationId);

const markerEvent = (marker) => ({
  type: "migration.marker",
  migration_id: marker.migration_id,
  status: marker.status,
});

const capabilitiesOf = (providers) => new Set(providers.flatMap((p) => p.capabilities));

/** D-025: the delta from the bound providers' capabilities to the target's. */
const deltaOf = (source, target) => ({
  gained: [...target].filter((c) => !source.has(c)).sort(byString),
  lost: [...source].filter((c) => !target.has(c)).sort(byString),
  unchanged: [...source].filter((c) => target.has(c)).sort(byString),
});

/** OP-7.1 ripa.migration_fence */
export const fence = (world, cmd, agent) => {
  const { ripa } = agent;
  if (ripa.migration !== null) throw I4(`migration ${ripa.migration.migration_id} is in progress`, ["migration_id"]); // c1
  const { migrations } = continuityOf(agent);
  if (migrations.includes(cmd.migration_id))
    throw new Refusal("DUPLICATE_ID", null, `migration ${cmd.migration_id} was started before`, ["migration_id"]); // c2
  if (ripa.live_attempts.length > 0) throw I4(`task ${ripa.live_attempts[0].task_id} has a live attempt`, ["agent"]); // c3
  checkTokenFresh(agent, cmd.token); // c4

  migrations.push(cmd.migration_id);
  const generation = ripa.authority.generation + 1;
  const epoch = advanceEpoch(agent, cmd.token, generation, null); // no holder while fenced
  ripa.fences.push({
    migration_id: cmd.migration_id,
    status: "preparing",
    body_revision: agent.substrate.body.revision,
    source_generation: generation,
    bundle_digest: null,
  });
  ripa.migration = {
    migration_id: cmd.migration_id,
    phase: "fenced",
    source_execution_id: ripa.execution.execution_id,
    bundle: null,
    bundle_digest: null,
    target: null,
    delta: null,
    surfaces: [],
  };
  return [{ type: "migration.fenced", migration_id: cmd.migration_id }, epoch];
};

/** OP-7.2 ripa.migration_checkpoint */
export const checkpoint = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // OP-7.c1
  checkPhase(migration, "fenced"); // c1

  const { identity, memory, body } = agent.substrate;
  const fenced = fenceOf(agent, migration.migration_id);
  const bundle = {
    migration_id: migration.migration_id,
    identity: agent.identity.identity,
    identity_record_digest: digestOf("identityRecord", identity), // OP-1.11
    identity_version: identity.identity_version,
    memory_head: memory.ancestry[memory.ancestry.length - 1],
    store_head: agent.store.chain[agent.store.chain.length - 1].version_id,
    body_revision: body.revision,
    task_ids: [...memory.task_ids],
    source_generation: fenced.source_generation,
    required_capabilities: [...agent.ripa.required_capabilities],
  };
  const bundle_digest = digestOf("bundle", bundle);
  fenced.status = "exported";
  fenced.bundle_digest = bundle_digest;
  Object.assign(migration, { phase: "checkpointed", bundle, bundle_digest });
  return [{ type: "migration.checkpointed", migration_id: migration.migration_id, bundle_digest }];
};

/** OP-7.3 ripa.migration_validate */
export const validateTarget = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // OP-7.c1
  checkPhase(migration, "checkpointed"); // c1
  const { bundle } = migration;
  if (cmd.bundle_digest !== migration.bundle_digest)
    throw I2("the bundle digest is not the checkpoint's (corrupt artefact)", ["bundle_digest"]); // c2
  const installed = agent.substrate.identity;
  if (bundle.identity !== agent.identity.identity || bundle.identity_version !== installed.identity_version)
    throw I1("the bundle's identity is not the installed one", ["bundle_digest"]); // c3
  const { target } = cmd;
  if (target.body_revision !== bundle.body_revision)
    throw I3(`target body ${target.body_revision} is not the bundle's ${bundle.body_revision}`, [
      "target",
      "body_revision",
    ]); // c4
  if (target.execution.execution_id === migration.source_execution_id) {
    throw new Refusal("DUPLICATE_ID", null, `the target execution is the source ${migration.source_execution_id}`, [
      "target",
      "execution",
      "execution_id",
    ]); // c5
  }
  const seen = new Set();
  target.providers.forEach((p, i) => {
    // c6
    if (seen.has(p.provider_id))
      throw new Refusal("DUPLICATE_ID", null, `target provider ${p.provider_id} is listed twice`, [
        "target",
        "providers",
        i,
        "provider_id",
      ]);
    seen.add(p.provider_id);
  });
  const granted = capabilitiesOf(target.providers);
  for (const c of bundle.required_capabilities) {
    // c7: fail closed
    if (!granted.has(c)) throw I5(`no target provider grants the required capability ${c}`, ["target", "providers"]);
  }
  const delta = deltaOf(capabilitiesOf(agent.ripa.providers), granted);
  if (delta.gained.length > 0 && (cmd.gain_authorization === null || !authorised(agent, cmd.gain_authorization))) {
    // c8
    throw I5(`the target gains ${delta.gained.join(", ")} without a valid gain authorisation`, ["gain_authorization"]);
  }

  const marker = {
    migration_id: migration.migration_id,
    status: "importing",
    target_execution_id: target.execution.execution_id,
  };
  agent.ripa.marker = marker;
  Object.assign(migration, {
    phase: "validated",
    target: {
      execution: target.execution,
      providers: providerSet(target.providers),
      body_revision: target.body_revision,
    },
    delta,
  });
  return [{ type: "migration.validated", migration_id: migration.migration_id, delta }, markerEvent(marker)];
};

/** OP-7.4 ripa.migration_bind */
export const bind = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // OP-7.c1
  checkPhase(migration, "validated"); // c1
  checkLabels(cmd.labels); // c2
  const seen = new Set();
  cmd.surfaces.forEach((s, i) => {
    // c3
    if (seen.has(s.surface_id))
      throw new Refusal("DUPLICATE_ID", null, `surface ${s.surface_id} is listed twice`, ["surfaces", i, "surface_id"]);
    seen.add(s.surface_id);
  });

  migration.surfaces = cmd.surfaces.map((surface) => ({ surface, labels: { ...cmd.labels } })).sort(bySurfaceId);
  migration.phase = "bound";
  return [{ type: "migration.bound", migration_id: migration.migration_id }];
};

/** OP-7.5 ripa.migration_rehydrate */
export const rehydrate = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // OP-7.c1
  checkPhase(migration, "bound"); // c1
  agent.ripa.marker.status = "imported";
  migration.phase = "rehydrated";
  return [markerEvent(agent.ripa.marker)];
};

/** OP-7.6 ripa.migration_resume */
export const resume = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // OP-7.c1
  checkPhase(migration, "rehydrated"); // c1
  checkTokenFresh(agent, cmd.token); // c2
  const { bundle } = migration;
  const { identity, memory, body } = agent.substrate;
  if (digestOf("identityRecord", identity) !== bundle.identity_record_digest)
    throw I1("the installed identity record is not the bundle's"); // c3
  const storeHead = agent.store.chain[agent.store.chain.length - 1].version_id;
  if (memory.ancestry[memory.ancestry.length - 1] !== bundle.memory_head || storeHead !== bundle.store_head)
    throw I2("memory or store head is not the bundle's"); // c4
  if (body.revision !== bundle.body_revision) throw I3("the body revision is not the bundle's"); // c5

  const { ripa } = agent;
  const { target } = migration;
  const marker = ripa.marker;
  marker.status = "activated";
  const events = [markerEvent(marker)];
  const generation = Math.max(ripa.authority.generation, bundle.source_generation) + 1; // G-41
  events.push(advanceEpoch(agent, cmd.token, generation, target.execution.execution_id));
  ripa.execution = target.execution;
  ripa.providers = target.providers;
  ripa.surfaces = migration.surfaces; // replaced wholesale (G-37)
  ripa.replicas = ripa.replicas.filter((r) => r.execution_id !== target.execution.execution_id); // a promoted replica holds the authority now (G-36)
  marker.status = "verified";
  events.push(markerEvent(marker));
  const report = {
    migration_id: migration.migration_id,
    source_execution_id: migration.source_execution_id,
    target_execution_id: target.execution.execution_id,
    bundle_digest: migration.bundle_digest,
    capability_delta: migration.delta,
    identity_preserved: true,
    memory_ancestry_preserved: true, // carried over, not extended (D-047)
    body_preserved: true,
    source_generation: bundle.source_generation,
    target_generation: generation,
  };
  ripa.reports.push(report);
  ripa.migration = null; // the source fence stays
  events.push({ type: "migration.resumed", report });
  return events;
};

/** OP-7.7 ripa.migration_cancel */
export const cancel = (world, cmd, agent) => {
  const migration = inProgress(agent, cmd.migration_id); // c1
  if (!cmd.no_target_active)
    throw I4("a target may be active; rollback needs the decision that none is", ["no_target_active"]); // c2
  if (!authorised(agent, cmd.authorization))
    throw I4(`${cmd.authorization.custodian} is not a custodian of the agent`, ["authorization", "custodian"]); // c3

  const { ripa } = agent;
  ripa.fences = ripa.fences.filter((f) => f.migration_id !== migration.migration_id);
  if (ripa.marker?.migration_id === migration.migration_id) ripa.marker = null; // an earlier migration's marker stays (G-42)
  ripa.migration = null; // the epoch stays as the fence left it: no holder until a restart
  return [{ type: "migration.cancelled", migration_id: migration.migration_id }];
};

/** The operations OP-7 adds, by op. */
export const migrationOperations = {
  "ripa.migration_fence": fence,
  "ripa.migration_checkpoint": checkpoint,
  "ripa.migration_validate": validateTarget,
  "ripa.migration_bind": bind,
  "ripa.migration_rehydrate": rehydrate,
  "ripa.migration_resume": resume,
  "ripa.migration_cancel": cancel,
};
