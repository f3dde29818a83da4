/**
 * The persisted form of the world: a plain JSON document holding exactly what the
 * implementation must remember, and nothing it must forget. In particular it contains no
 * trace of a distilled life (S-1, D-029: `trace` is emptied at distillation) and no content of
 * an excised distillate (S-5: the store's retained set no longer has it). Derived structures
 * (per-key accumulators, the chain's states) are rebuilt on load by replay and checked against
 * the persisted chain (S-4).
 */
import type {
  AdvaitaIdentity, AuthorityEpoch, BundleManifest, CapabilityDelta, CustodyOutcome, Digest, ExcisionRecord,
  ExecutionBinding, InstanceState, JanmaManifest, MergeBatch, MigrationReport, ObligationKind, ProviderGrant,
  SourceFence, StoreVersion, TargetMarker, WithdrawalReason,
} from "../../spec/index.ts";
import { Agent, type BoundSurface, type Migration } from "./agent.ts";
import { Instance } from "./instance.ts";
import { Obligation } from "./obligation.ts";
import { SamskaraStore, type HeldDistillate } from "./store.ts";
import { World } from "./world.ts";

export const STATE_FORMAT = "samsara-ripa-impl/state/v1";

interface InstanceRecord {
  instance_id: string; nonce: string; manifest: JanmaManifest; manifest_digest: string; born_from: string;
  state: InstanceState; born_tick: number | null; acts: number; failures: number; consecutive_failures: number;
  tools_used: string[]; trace: string[]; grants: string[]; tools: string[];
  withdrawal: WithdrawalReason | null; withdrawn_tick: number | null; obligation_id: string | null;
}

interface ObligationRecord {
  obligation_id: string; instance_id: string; kind: ObligationKind; distillate_id: string; distillate_digest: string;
  born_from: string; created_tick: number; deadline_tick: number; max_retries: number; attempts: number;
  status: "pending" | "discharged"; outcome: CustodyOutcome | null; held: HeldDistillate | null;
}

interface MigrationRecord {
  migration_id: string; phase: Migration["phase"]; source_execution_id: string; bundle: BundleManifest | null;
  bundle_digest: string | null; target: Migration["target"]; delta: CapabilityDelta | null; surfaces: BoundSurface[];
}

interface AgentRecord {
  identity: AdvaitaIdentity; designation: string; identity_version: number; ancestry: string[]; task_ids: string[];
  body_revision: string; body_lineage: string[]; custodians: string[]; required_capabilities: string[];
  execution: ExecutionBinding; replicas: ExecutionBinding[]; surfaces: BoundSurface[]; providers: ProviderGrant[];
  authority: AuthorityEpoch; used_tokens: string[]; used_attempt_nonces: string[]; live_attempts: [string, string][];
  effects: string[]; fences: SourceFence[]; marker: TargetMarker | null; migration: MigrationRecord | null;
  migration_ids: string[]; reports: MigrationReport[]; nonces: string[]; distillate_ids: string[];
  instances: InstanceRecord[]; obligations: ObligationRecord[];
  store: {
    genesis: string; chain: StoreVersion[]; batches: MergeBatch[]; retained: HeldDistillate[];
    excisions: ExcisionRecord[]; quarantined: string[];
  };
}

export interface WorldRecord {
  format: typeof STATE_FORMAT;
  tick: number;
  roots_used: string[];
  agents: AgentRecord[];
}

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

const instanceRecord = (i: Instance): InstanceRecord => ({
  instance_id: i.instanceId, nonce: i.nonce, manifest: i.manifest, manifest_digest: i.manifestDigest, born_from: i.bornFrom,
  state: i.state, born_tick: i.bornTick, acts: i.acts, failures: i.failures, consecutive_failures: i.consecutiveFailures,
  tools_used: sorted(i.toolsUsed), trace: i.trace, grants: i.grants, tools: i.tools,
  withdrawal: i.withdrawal, withdrawn_tick: i.withdrawnTick, obligation_id: i.obligationId,
});

const obligationRecord = (o: Obligation): ObligationRecord => ({
  obligation_id: o.obligationId, instance_id: o.instanceId, kind: o.kind, distillate_id: o.distillateId,
  distillate_digest: o.distillateDigest, born_from: o.bornFrom, created_tick: o.createdTick, deadline_tick: o.deadlineTick,
  max_retries: o.maxRetries, attempts: o.attempts, status: o.status, outcome: o.outcome, held: o.held,
});

const agentRecord = (a: Agent): AgentRecord => ({
  identity: a.identity, designation: a.designation, identity_version: a.identityVersion, ancestry: a.ancestry,
  task_ids: a.taskIds, body_revision: a.bodyRevision, body_lineage: a.bodyLineage, custodians: [...a.custodians],
  required_capabilities: [...a.requiredCapabilities], execution: a.execution, replicas: [...a.replicas.values()],
  surfaces: [...a.surfaces.values()], providers: [...a.providers.values()], authority: a.authority,
  used_tokens: sorted(a.usedTokens), used_attempt_nonces: sorted(a.usedAttemptNonces), live_attempts: [...a.liveAttempts.entries()],
  effects: sorted(a.effects), fences: a.fences, marker: a.marker,
  migration: a.migration === null ? null : {
    migration_id: a.migration.migrationId, phase: a.migration.phase, source_execution_id: a.migration.sourceExecutionId,
    bundle: a.migration.bundle, bundle_digest: a.migration.bundleDigest, target: a.migration.target,
    delta: a.migration.delta, surfaces: a.migration.surfaces,
  },
  migration_ids: sorted(a.migrationIds), reports: a.reports, nonces: sorted(a.nonces), distillate_ids: sorted(a.distillateIds),
  instances: [...a.instances.values()].map(instanceRecord),
  obligations: [...a.obligations.values()].map(obligationRecord),
  store: {
    genesis: a.store.genesis, chain: [...a.store.chain()], batches: [...a.store.batches()],
    retained: [...a.store.retainedDistillates()], excisions: a.store.excisions, quarantined: sorted(a.store.quarantined),
  },
});

export const worldRecord = (w: World): WorldRecord => ({
  format: STATE_FORMAT,
  tick: w.tick,
  roots_used: sorted(w.rootsUsed),
  agents: [...w.agents.values()].map(agentRecord),
});

const restoreAgent = (r: AgentRecord): Agent => {
  const store = SamskaraStore.restore({
    genesis: r.store.genesis as Digest, chain: r.store.chain, batches: r.store.batches, retained: r.store.retained,
    excisions: r.store.excisions, quarantined: r.store.quarantined,
  });
  const a = new Agent(r.identity, store, {
    designation: r.designation, bodyRevision: r.body_revision, custodians: r.custodians, execution: r.execution,
    providers: r.providers, requiredCapabilities: r.required_capabilities, authority: r.authority,
  });
  a.identityVersion = r.identity_version;
  a.ancestry.push(...r.ancestry);
  a.taskIds.push(...r.task_ids);
  a.bodyLineage.splice(0, a.bodyLineage.length, ...r.body_lineage);
  for (const x of r.replicas) a.replicas.set(x.execution_id, x);
  for (const s of r.surfaces) a.surfaces.set(s.surface.surface_id, s);
  for (const t of r.used_tokens) a.usedTokens.add(t);
  for (const n of r.used_attempt_nonces) a.usedAttemptNonces.add(n);
  for (const [task, nonce] of r.live_attempts) a.liveAttempts.set(task, nonce);
  for (const e of r.effects) a.effects.add(e);
  a.fences.push(...r.fences);
  a.marker = r.marker;
  a.migration = r.migration === null ? null : {
    migrationId: r.migration.migration_id, phase: r.migration.phase, sourceExecutionId: r.migration.source_execution_id,
    bundle: r.migration.bundle, bundleDigest: r.migration.bundle_digest, target: r.migration.target,
    delta: r.migration.delta, surfaces: r.migration.surfaces,
  };
  for (const m of r.migration_ids) a.migrationIds.add(m);
  a.reports.push(...r.reports);
  for (const n of r.nonces) a.nonces.add(n);
  for (const d of r.distillate_ids) a.distillateIds.add(d);
  for (const ir of r.instances) {
    const i = new Instance(ir.instance_id, ir.nonce, ir.manifest, ir.manifest_digest, ir.born_from);
    Object.assign(i, {
      state: ir.state, bornTick: ir.born_tick, acts: ir.acts, failures: ir.failures, consecutiveFailures: ir.consecutive_failures,
      trace: [...ir.trace], grants: ir.grants, tools: ir.tools, withdrawal: ir.withdrawal, withdrawnTick: ir.withdrawn_tick,
      obligationId: ir.obligation_id,
    });
    for (const t of ir.tools_used) i.toolsUsed.add(t);
    a.instances.set(i.instanceId, i);
  }
  for (const or of r.obligations) {
    const o = new Obligation(
      or.obligation_id, or.instance_id, or.kind, or.distillate_id, or.distillate_digest, or.born_from,
      or.created_tick, or.deadline_tick, or.max_retries, or.held,
    );
    o.attempts = or.attempts;
    o.status = or.status;
    o.outcome = or.outcome;
    a.obligations.set(o.obligationId, o);
  }
  return a;
};

export const restoreWorld = (r: WorldRecord): World => {
  if (r.format !== STATE_FORMAT) throw new Error(`unknown state format ${String(r.format)}`);
  const w = new World();
  w.tick = r.tick;
  for (const root of r.roots_used) w.rootsUsed.add(root);
  for (const ar of r.agents) {
    const a = restoreAgent(ar);
    w.agents.set(a.identity.identity, a);
  }
  return w;
};
