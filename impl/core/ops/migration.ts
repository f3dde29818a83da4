/** OP-7: the six-phase authorised migration and its rollback (I1..I6, D-026). */
import type { BundleManifest, CapabilityDelta, Event, ProviderGrant } from "../../../spec/index.ts";
import { DOMAIN, digestOf } from "../../../spec/index.ts";
import { providerGrantOf, type Agent, type Migration } from "../agent.ts";
import { refuse, violates } from "../rejection.ts";
import { requireFreshToken, requireNoReservedLabels } from "./ripa.ts";
import type { Handler } from "./context.ts";

type Phase = Migration["phase"];

/** OP-7: NOT_FOUND unless it is the migration in progress; I4 if the phase is out of order. */
const inPhase = (agent: Agent, migrationId: string, phase: Phase | null): Migration => {
  const m = agent.migration;
  if (m === null || m.migrationId !== migrationId)
    return refuse("NOT_FOUND", `migration ${migrationId} is not in progress`, ["migration_id"]);
  if (phase !== null && m.phase !== phase) violates("I4", `migration is ${m.phase}, expected ${phase}`);
  return m;
};

const capabilitySet = (providers: Iterable<ProviderGrant>): Set<string> => {
  const s = new Set<string>();
  for (const p of providers) for (const c of p.capabilities) s.add(c);
  return s;
};

/** D-025 (I5): the visible capability delta between source and target providers. */
const deltaOf = (source: Set<string>, target: Set<string>): CapabilityDelta => ({
  gained: [...target].filter((c) => !source.has(c)).sort(),
  lost: [...source].filter((c) => !target.has(c)).sort(),
  unchanged: [...source].filter((c) => target.has(c)).sort(),
});

/** OP-7.1 (I4: fence advances the epoch and leaves no holder) */
export const fence: Handler<"ripa.migration_fence"> = (_world, cmd, agent) => {
  if (agent.migration !== null) violates("I4", `migration ${agent.migration.migrationId} is already in progress`);
  if (agent.migrationIds.has(cmd.migration_id))
    refuse("DUPLICATE_ID", `migration ${cmd.migration_id} was already started`, ["migration_id"]);
  if (agent.liveAttempts.size > 0) violates("I4", "export refuses while a request attempt is live");
  requireFreshToken(agent, cmd.token);
  const generation = agent.authority.generation + 1;
  agent.authority = { token: cmd.token, generation, holder: null };
  agent.usedTokens.add(cmd.token);
  agent.migrationIds.add(cmd.migration_id);
  agent.fences.set(cmd.migration_id, {
    migration_id: cmd.migration_id,
    status: "preparing",
    body_revision: agent.bodyRevision,
    source_generation: generation,
    bundle_digest: null,
  });
  agent.migration = {
    migrationId: cmd.migration_id,
    phase: "fenced",
    sourceExecutionId: agent.execution.execution_id,
    bundle: null,
    bundleDigest: null,
    target: null,
    delta: null,
    surfaces: [],
  };
  return [
    { type: "migration.fenced", migration_id: cmd.migration_id },
    { type: "epoch.advanced", generation, holder: null },
  ];
};

const fenceOf = (agent: Agent, migrationId: string) => {
  const f = agent.fences.get(migrationId);
  if (f === undefined) throw new Error(`migration ${migrationId} has no fence`);
  return f;
};

/** OP-7.2 */
export const checkpoint: Handler<"ripa.migration_checkpoint"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, "fenced");
  const f = fenceOf(agent, m.migrationId);
  const bundle: BundleManifest = {
    migration_id: m.migrationId,
    identity: agent.identity.identity,
    identity_record_digest: agent.identityRecordDigest(),
    identity_version: agent.identityVersion,
    memory_head: agent.memoryHead,
    store_head: agent.storeHead,
    body_revision: agent.bodyRevision,
    task_ids: [...agent.taskIds],
    source_generation: f.source_generation,
    required_capabilities: [...agent.requiredCapabilities],
  };
  const bundleDigest = digestOf(DOMAIN.bundle, bundle);
  agent.fences.set(f.migration_id, { ...f, status: "exported", bundle_digest: bundleDigest }); // keeps its place
  m.bundle = bundle;
  m.bundleDigest = bundleDigest;
  m.phase = "checkpointed";
  return [{ type: "migration.checkpointed", migration_id: m.migrationId, bundle_digest: bundleDigest }];
};

/** OP-7.3 (I2 artefact hash, I1 identity, I3 body, I5 fail-closed capabilities) */
export const validate: Handler<"ripa.migration_validate"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, "checkpointed");
  const bundle = m.bundle as BundleManifest;
  if (cmd.bundle_digest !== m.bundleDigest)
    violates("I2", "bundle digest does not match the checkpoint (corrupt artefact)", ["bundle_digest"]);
  if (bundle.identity !== agent.identity.identity || bundle.identity_version !== agent.identityVersion) {
    violates("I1", "bundle identity differs from the installed identity");
  }
  const t = cmd.target;
  if (t.body_revision !== bundle.body_revision)
    violates("I3", `target body ${t.body_revision} differs from ${bundle.body_revision}`, ["target", "body_revision"]);
  if (t.execution.execution_id === m.sourceExecutionId) {
    refuse("DUPLICATE_ID", "target execution id equals the source's", ["target", "execution", "execution_id"]);
  }
  const seen = new Set<string>();
  for (const [i, p] of t.providers.entries()) {
    if (seen.has(p.provider_id))
      refuse("DUPLICATE_ID", `target provider ${p.provider_id} listed twice`, [
        "target",
        "providers",
        i,
        "provider_id",
      ]);
    seen.add(p.provider_id);
  }
  const targetCaps = capabilitySet(t.providers);
  for (const c of bundle.required_capabilities) {
    if (!targetCaps.has(c))
      violates("I5", `required capability ${c} is not granted by the target (fail closed)`, ["target", "providers"]);
  }
  const delta = deltaOf(capabilitySet(agent.providers.values()), targetCaps);
  if (
    delta.gained.length > 0 &&
    (cmd.gain_authorization === null || !agent.isCustodian(cmd.gain_authorization.custodian))
  ) {
    violates("I5", `capability gain ${delta.gained.join(", ")} needs a custodian's authorisation`, [
      "gain_authorization",
    ]);
  }
  m.target = { execution: t.execution, providers: t.providers.map(providerGrantOf), body_revision: t.body_revision };
  m.delta = delta;
  m.phase = "validated";
  agent.marker = { migration_id: m.migrationId, status: "importing", target_execution_id: t.execution.execution_id };
  return [
    { type: "migration.validated", migration_id: m.migrationId, delta },
    { type: "migration.marker", migration_id: m.migrationId, status: "importing" },
  ];
};

/** OP-7.4 (I6) */
export const bind: Handler<"ripa.migration_bind"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, "validated");
  requireNoReservedLabels(cmd.labels);
  const seen = new Set<string>();
  for (const [i, s] of cmd.surfaces.entries()) {
    if (seen.has(s.surface_id))
      refuse("DUPLICATE_ID", `surface ${s.surface_id} listed twice`, ["surfaces", i, "surface_id"]);
    seen.add(s.surface_id);
  }
  m.surfaces = cmd.surfaces.map((surface) => ({ surface, labels: cmd.labels }));
  m.phase = "bound";
  return [{ type: "migration.bound", migration_id: m.migrationId }];
};

/** OP-7.5 */
export const rehydrate: Handler<"ripa.migration_rehydrate"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, "bound");
  m.phase = "rehydrated";
  if (agent.marker !== null) agent.marker = { ...agent.marker, status: "imported" };
  return [{ type: "migration.marker", migration_id: m.migrationId, status: "imported" }];
};

/** OP-7.6 (I1..I4 continuity, new epoch for the target) */
export const resume: Handler<"ripa.migration_resume"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, "rehydrated");
  requireFreshToken(agent, cmd.token);
  const bundle = m.bundle as BundleManifest;
  if (agent.identityRecordDigest() !== bundle.identity_record_digest)
    violates("I1", "installed identity record differs from the bundle's");
  if (agent.memoryHead !== bundle.memory_head || agent.storeHead !== bundle.store_head)
    violates("I2", "memory or store head differs from the bundle's");
  if (agent.bodyRevision !== bundle.body_revision) violates("I3", "body revision differs from the bundle's");
  const target = m.target;
  const delta = m.delta;
  if (target === null || delta === null || m.bundleDigest === null)
    throw new Error("rehydrated migration without target");

  const generation = Math.max(agent.authority.generation, bundle.source_generation) + 1;
  const holder = target.execution.execution_id;
  agent.authority = { token: cmd.token, generation, holder };
  agent.usedTokens.add(cmd.token);
  agent.execution = target.execution;
  // G-36: a promoted replica now holds the authority, so it leaves the replicas (which hold none).
  agent.replicas.delete(holder);
  agent.providers = new Map(target.providers.map((p) => [p.provider_id, p]));
  agent.surfaces.clear();
  for (const s of m.surfaces) agent.surfaces.set(s.surface.surface_id, s);
  agent.marker = { migration_id: m.migrationId, status: "verified", target_execution_id: holder };
  const report = {
    migration_id: m.migrationId,
    source_execution_id: m.sourceExecutionId,
    target_execution_id: holder,
    bundle_digest: m.bundleDigest,
    capability_delta: delta,
    identity_preserved: true,
    memory_ancestry_preserved: true,
    body_preserved: true,
    source_generation: bundle.source_generation,
    target_generation: generation,
  };
  agent.reports.push(report);
  agent.migration = null;
  const events: Event[] = [
    { type: "migration.marker", migration_id: m.migrationId, status: "activated" },
    { type: "epoch.advanced", generation, holder },
    { type: "migration.marker", migration_id: m.migrationId, status: "verified" },
    { type: "migration.resumed", report },
  ];
  return events;
};

/** OP-7.7 (I4: rollback only by explicit decision that no target is active) */
export const cancel: Handler<"ripa.migration_cancel"> = (_world, cmd, agent) => {
  const m = inPhase(agent, cmd.migration_id, null);
  if (!cmd.no_target_active)
    violates("I4", "rollback needs an explicit decision that no target is active", ["no_target_active"]);
  if (!agent.isCustodian(cmd.authorization.custodian))
    violates("I4", "rollback needs a custodian's authorisation", ["authorization", "custodian"]);
  agent.fences.delete(m.migrationId);
  if (agent.marker?.migration_id === m.migrationId) agent.marker = null;
  agent.migration = null;
  return [{ type: "migration.cancelled", migration_id: m.migrationId }];
};
