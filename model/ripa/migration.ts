/**
 * RIPA authorised migration (OP-7, RIPA Section 4, D-026): fence, checkpoint, validate, bind,
 * rehydrate, resume, and cancel. I4 (epochs advance at fence and activation, phases in order),
 * I1/I2/I3 (identity, memory, body continuity), I5 (capability delta fails closed), I6 (labels).
 */
import { DOMAIN, digestOf, type BundleManifest, type CapabilityDelta, type ProviderGrant } from "../../spec/index.ts";
import { generic, no, ok, violates, type Outcome } from "../rejection.ts";
import {
  byKey,
  setAdd,
  sortedUnique,
  type Agent,
  type Migration,
  type MigrationPhase,
  type SurfaceBinding,
} from "../state.ts";
import { withAgent, authorised, type Handler } from "../step.ts";
import { identityRecordDigest } from "../advaita/identity.ts";
import { normalizedProviders } from "../advaita/mint.ts";
import { head } from "../samskara/store.ts";
import { reservedLabel, tokenFresh } from "./substrate.ts";

/** OP-0.4 (I4): an agent with a migration in progress is quiesced. */
export const quiesced = (agent: Agent): boolean => agent.ripa.migration !== null;

/** Phase commands name the migration in progress (NOT_FOUND) and come in order (I4). */
/** The clause whose first check requires each phase (OP-7.2 … OP-7.6). */
const PHASE_CHECK: { readonly [P in MigrationPhase]?: string } = {
  fenced: "OP-7.2.c1",
  checkpointed: "OP-7.3.c1",
  validated: "OP-7.4.c1",
  bound: "OP-7.5.c1",
  rehydrated: "OP-7.6.c1",
};

export const inPhase = (agent: Agent, migrationId: string, phase: MigrationPhase): Outcome<Migration> => {
  const check = PHASE_CHECK[phase];
  if (check === undefined) throw new Error(`no phase command requires phase ${phase}`);
  const m = agent.ripa.migration;
  if (m === null || m.migration_id !== migrationId)
    return no(generic("NOT_FOUND", "OP-7.c1", `migration ${migrationId} is not in progress`, ["migration_id"]));
  if (m.phase !== phase) return no(violates("I4", check, `migration is ${m.phase}; this phase needs ${phase}`));
  return ok(m);
};

const withMigration = (agent: Agent, m: Migration | null, patch: Partial<Agent["ripa"]> = {}): Agent => ({
  ...agent,
  ripa: { ...agent.ripa, ...patch, migration: m },
});

/** I5 (D-025): the capability delta between two provider sets. */
export const capabilityDelta = (
  source: readonly ProviderGrant[],
  target: readonly ProviderGrant[],
): CapabilityDelta => {
  const s = new Set(source.flatMap((p) => p.capabilities));
  const t = new Set(target.flatMap((p) => p.capabilities));
  return {
    gained: sortedUnique([...t].filter((c) => !s.has(c))),
    lost: sortedUnique([...s].filter((c) => !t.has(c))),
    unchanged: sortedUnique([...s].filter((c) => t.has(c))),
  };
};

/** OP-7.1 fence: quiesce, advance the epoch with no holder (I4). */
export const fence: Handler<"ripa.migration_fence"> = (world, agent, cmd) => {
  if (agent.ripa.migration !== null) return no(violates("I4", "OP-7.1.c1", "a migration is already in progress"));
  if (agent.ripa.migration_ids_used.has(cmd.migration_id))
    return no(
      generic("DUPLICATE_ID", "OP-7.1.c2", `migration ${cmd.migration_id} was started before`, ["migration_id"]),
    );
  if (agent.ripa.live_attempts.size > 0)
    return no(violates("I4", "OP-7.1.c3", "cannot export while a request attempt is live"));
  if (!tokenFresh(agent, cmd.token))
    return no(violates("I4", "OP-7.1.c4", "authority token was used before", ["token"]));
  const generation = agent.ripa.authority.generation + 1;
  const m: Migration = {
    migration_id: cmd.migration_id,
    phase: "fenced",
    source_execution_id: agent.ripa.execution.execution_id,
    bundle: null,
    bundle_digest: null,
    target: null,
    delta: null,
    surfaces: [],
  };
  const next = withMigration(agent, m, {
    authority: { token: cmd.token, generation, holder: null },
    tokens_used: setAdd(agent.ripa.tokens_used, cmd.token),
    migration_ids_used: setAdd(agent.ripa.migration_ids_used, cmd.migration_id),
    fences: [
      ...agent.ripa.fences,
      {
        migration_id: cmd.migration_id,
        status: "preparing",
        body_revision: agent.body.revision,
        source_generation: generation,
        bundle_digest: null,
      },
    ],
  });
  return withAgent(world, next, [
    { type: "migration.fenced", migration_id: cmd.migration_id },
    { type: "epoch.advanced", generation, holder: null },
  ]);
};

/** OP-7.2 checkpoint: capture the bundle manifest. */
export const checkpoint: Handler<"ripa.migration_checkpoint"> = (world, agent, cmd) => {
  const r = inPhase(agent, cmd.migration_id, "fenced");
  if (r._tag === "Failure") return no(r.failure);
  const fenceRec = agent.ripa.fences.find((f) => f.migration_id === cmd.migration_id);
  const bundle: BundleManifest = {
    migration_id: cmd.migration_id,
    identity: agent.identity.identity,
    identity_record_digest: identityRecordDigest(agent.record),
    identity_version: agent.record.identity_version,
    memory_head: agent.memory.ancestry[agent.memory.ancestry.length - 1] ?? agent.identity.lineage_root,
    store_head: head(agent.store).version_id,
    body_revision: agent.body.revision,
    task_ids: [...agent.memory.task_ids],
    source_generation: fenceRec?.source_generation ?? agent.ripa.authority.generation,
    required_capabilities: [...agent.ripa.required_capabilities],
  };
  const bundleDigest = digestOf(DOMAIN.bundle, bundle);
  const fences = agent.ripa.fences.map((f) =>
    f.migration_id === cmd.migration_id ? { ...f, status: "exported" as const, bundle_digest: bundleDigest } : f,
  );
  return withAgent(
    world,
    withMigration(agent, { ...r.success, phase: "checkpointed", bundle, bundle_digest: bundleDigest }, { fences }),
    [{ type: "migration.checkpointed", migration_id: cmd.migration_id, bundle_digest: bundleDigest }],
  );
};

/** OP-7.3 validate: check the artefact and the target before touching it (I2, I1, I3, I5). */
export const validate: Handler<"ripa.migration_validate"> = (world, agent, cmd) => {
  const r = inPhase(agent, cmd.migration_id, "checkpointed");
  if (r._tag === "Failure") return no(r.failure);
  const m = r.success;
  const bundle = m.bundle;
  if (bundle === null || cmd.bundle_digest !== m.bundle_digest)
    return no(
      violates("I2", "OP-7.3.c2", "bundle digest does not match the checkpoint (corrupt artefact)", ["bundle_digest"]),
    );
  if (bundle.identity !== agent.identity.identity || bundle.identity_version !== agent.record.identity_version)
    return no(violates("I1", "OP-7.3.c3", "bundle identity differs from the installed identity"));
  if (cmd.target.body_revision !== bundle.body_revision)
    return no(
      violates("I3", "OP-7.3.c4", "target body revision differs from the bundle's", ["target", "body_revision"]),
    );
  if (cmd.target.execution.execution_id === m.source_execution_id)
    return no(
      generic("DUPLICATE_ID", "OP-7.3.c5", "target execution must differ from the source", [
        "target",
        "execution",
        "execution_id",
      ]),
    );
  const pids = cmd.target.providers.map((p) => p.provider_id);
  if (new Set(pids).size !== pids.length)
    return no(generic("DUPLICATE_ID", "OP-7.3.c6", "target provider ids must be unique", ["target", "providers"]));
  const targetCaps = new Set(cmd.target.providers.flatMap((p) => p.capabilities));
  const missing = bundle.required_capabilities.find((c) => !targetCaps.has(c));
  if (missing !== undefined)
    return no(
      violates("I5", "OP-7.3.c7", `target does not grant required capability ${missing}; failing closed`, [
        "target",
        "providers",
      ]),
    );
  const delta = capabilityDelta(agent.ripa.providers, cmd.target.providers);
  if (delta.gained.length > 0 && (cmd.gain_authorization === null || !authorised(agent, cmd.gain_authorization)))
    return no(violates("I5", "OP-7.3.c8", "capability gain needs a custodian's authorisation", ["gain_authorization"]));
  const target = {
    execution: cmd.target.execution,
    providers: normalizedProviders(cmd.target.providers),
    body_revision: cmd.target.body_revision,
  };
  const marker = {
    migration_id: m.migration_id,
    status: "importing" as const,
    target_execution_id: target.execution.execution_id,
  };
  return withAgent(world, withMigration(agent, { ...m, phase: "validated", target, delta }, { marker }), [
    { type: "migration.validated", migration_id: m.migration_id, delta },
    { type: "migration.marker", migration_id: m.migration_id, status: "importing" },
  ]);
};

/** OP-7.4 bind: target surfaces; labels stay metadata (I6). */
export const bind: Handler<"ripa.migration_bind"> = (world, agent, cmd) => {
  const r = inPhase(agent, cmd.migration_id, "validated");
  if (r._tag === "Failure") return no(r.failure);
  const bad = reservedLabel(cmd.labels);
  if (bad !== undefined)
    return no(violates("I6", "OP-7.4.c2", `label key ${bad} is reserved for the identity`, ["labels", bad]));
  const ids = cmd.surfaces.map((s) => s.surface_id);
  if (new Set(ids).size !== ids.length)
    return no(generic("DUPLICATE_ID", "OP-7.4.c3", "surface ids must be unique", ["surfaces"]));
  const surfaces: SurfaceBinding[] = cmd.surfaces
    .map((s) => ({ surface: s, labels: cmd.labels }))
    .sort(byKey((s) => s.surface.surface_id));
  return withAgent(world, withMigration(agent, { ...r.success, phase: "bound", surfaces }), [
    { type: "migration.bound", migration_id: cmd.migration_id },
  ]);
};

/** OP-7.5 rehydrate: marker imported. */
export const rehydrate: Handler<"ripa.migration_rehydrate"> = (world, agent, cmd) => {
  const r = inPhase(agent, cmd.migration_id, "bound");
  if (r._tag === "Failure") return no(r.failure);
  const m = r.success;
  const marker = agent.ripa.marker === null ? null : { ...agent.ripa.marker, status: "imported" as const };
  return withAgent(world, withMigration(agent, { ...m, phase: "rehydrated" }, { marker }), [
    { type: "migration.marker", migration_id: m.migration_id, status: "imported" },
  ]);
};

/** OP-7.6 resume: verify continuity (I1, I2, I3), activate the target with a new epoch (I4). */
export const resume: Handler<"ripa.migration_resume"> = (world, agent, cmd) => {
  const r = inPhase(agent, cmd.migration_id, "rehydrated");
  if (r._tag === "Failure") return no(r.failure);
  const m = r.success;
  if (!tokenFresh(agent, cmd.token))
    return no(violates("I4", "OP-7.6.c2", "authority token was used before", ["token"]));
  const bundle = m.bundle;
  const target = m.target;
  if (bundle === null || target === null || m.bundle_digest === null || m.delta === null)
    throw new Error("a rehydrated migration has a bundle, a target and a delta");
  if (identityRecordDigest(agent.record) !== bundle.identity_record_digest)
    return no(violates("I1", "OP-7.6.c3", "installed identity record differs from the bundle's"));
  const memoryHead = agent.memory.ancestry[agent.memory.ancestry.length - 1];
  if (memoryHead !== bundle.memory_head || head(agent.store).version_id !== bundle.store_head)
    return no(violates("I2", "OP-7.6.c4", "memory or store head differs from the bundle's"));
  if (agent.body.revision !== bundle.body_revision)
    return no(violates("I3", "OP-7.6.c5", "body revision differs from the bundle's"));
  const generation = Math.max(agent.ripa.authority.generation, bundle.source_generation) + 1;
  const targetId = target.execution.execution_id;
  const report = {
    migration_id: m.migration_id,
    source_execution_id: m.source_execution_id,
    target_execution_id: targetId,
    bundle_digest: m.bundle_digest,
    capability_delta: m.delta,
    identity_preserved: true,
    memory_ancestry_preserved: true,
    body_preserved: true,
    source_generation: bundle.source_generation,
    target_generation: generation,
  };
  const next = withMigration(agent, null, {
    authority: { token: cmd.token, generation, holder: targetId },
    tokens_used: setAdd(agent.ripa.tokens_used, cmd.token),
    execution: target.execution,
    // G-36: a replica promoted to be the target holds the authority now, so it is no longer a replica.
    replicas: agent.ripa.replicas.filter((x) => x.execution_id !== targetId),
    providers: target.providers,
    surfaces: new Map(m.surfaces.map((s) => [s.surface.surface_id, s])),
    marker: { migration_id: m.migration_id, status: "verified", target_execution_id: targetId },
    reports: [...agent.ripa.reports, report],
  });
  return withAgent(world, next, [
    { type: "migration.marker", migration_id: m.migration_id, status: "activated" },
    { type: "epoch.advanced", generation, holder: targetId },
    { type: "migration.marker", migration_id: m.migration_id, status: "verified" },
    { type: "migration.resumed", report },
  ]);
};

/** OP-7.7 cancel (rollback): only by an explicit, authorised decision that no target is active (I4). */
export const cancel: Handler<"ripa.migration_cancel"> = (world, agent, cmd) => {
  const m = agent.ripa.migration;
  if (m === null || m.migration_id !== cmd.migration_id)
    return no(generic("NOT_FOUND", "OP-7.7.c1", `migration ${cmd.migration_id} is not in progress`, ["migration_id"]));
  if (!cmd.no_target_active)
    return no(
      violates("I4", "OP-7.7.c2", "rollback needs the decision that no target is active", ["no_target_active"]),
    );
  if (!authorised(agent, cmd.authorization))
    return no(violates("I4", "OP-7.7.c3", "rollback needs a custodian's authorisation", ["authorization"]));
  const marker =
    agent.ripa.marker !== null && agent.ripa.marker.migration_id === m.migration_id ? null : agent.ripa.marker;
  const next = withMigration(agent, null, {
    fences: agent.ripa.fences.filter((f) => f.migration_id !== m.migration_id),
    marker,
  });
  return withAgent(world, next, [{ type: "migration.cancelled", migration_id: m.migration_id }]);
};
