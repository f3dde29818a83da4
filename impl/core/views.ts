/**
 * Projection of the implementation's state onto the observable views of spec/schemas/views.ts,
 * with every list in the order views.ts states (OP-0.6).
 */
import type {
  AgentView,
  DistillationObligation,
  InstanceView,
  RipaView,
  StoreView,
  WorldView,
} from "../../spec/index.ts";
import { compareCodeUnits } from "../../spec/index.ts";
import type { Agent } from "./agent.ts";
import type { Instance } from "./instance.ts";
import type { Obligation } from "./obligation.ts";
import type { World } from "./world.ts";

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number =>
    compareCodeUnits(key(a), key(b));

export const instanceView = (i: Instance): InstanceView => ({
  instance_id: i.instanceId,
  nonce: i.nonce,
  manifest_digest: i.manifestDigest,
  state: i.state,
  born_from: i.bornFrom,
  born_tick: i.bornTick,
  acts: i.acts,
  failures: i.failures,
  consecutive_failures: i.consecutiveFailures,
  tools_used: [...i.toolsUsed].sort(compareCodeUnits),
  trace_entries: i.trace.length,
  grants: [...i.grants],
  tools: [...i.tools],
  withdrawal: i.withdrawal,
  withdrawn_tick: i.withdrawnTick,
  obligation_id: i.obligationId,
});

export const obligationView = (o: Obligation): DistillationObligation => {
  const common = {
    obligation_id: o.obligationId,
    instance_id: o.instanceId,
    distillate_id: o.distillateId,
    distillate_digest: o.distillateDigest,
    born_from: o.bornFrom,
    created_tick: o.createdTick,
    deadline_tick: o.deadlineTick,
    max_retries: o.maxRetries,
    attempts: o.attempts,
    status: o.status,
    outcome: o.outcome,
  };
  // Only a corrective obligation declares the quarantine fail-safe (D-019, D-063).
  return o.kind === "corrective"
    ? { ...common, kind: "corrective", fail_safe: { action: "quarantine", store_version: o.bornFrom } }
    : { ...common, kind: "reinforcing", fail_safe: null };
};

export const storeView = (a: Agent): StoreView => ({
  head: a.storeHead,
  chain: a.store.chain().map((v) => ({ ...v })),
  batches: a.store.batches().map((b) => ({ batch_digest: b.batch_digest, members: b.members.map((m) => ({ ...m })) })),
  state: a.store.state(),
  distillates: a.store
    .retainedDistillates()
    .map((h) => ({ distillate_id: h.distillate.distillate_id, digest: h.digest }))
    .sort(byKey((m) => m.distillate_id)),
  excisions: a.store.excisions.map((e) => ({ ...e, excised: e.excised.map((m) => ({ ...m })) })),
  quarantined: [...a.store.quarantined].sort(compareCodeUnits),
  momentum: [...a.store.momentum()],
});

export const ripaView = (a: Agent): RipaView => ({
  custodians: [...a.custodians],
  execution: a.execution,
  replicas: [...a.replicas.values()].sort(byKey((e) => e.execution_id)),
  surfaces: [...a.surfaces.values()].sort(byKey((s) => s.surface.surface_id)),
  providers: [...a.providers.values()].sort(byKey((p) => p.provider_id)),
  required_capabilities: [...a.requiredCapabilities],
  authority: { ...a.authority },
  live_attempts: [...a.liveAttempts.entries()]
    .map(([task_id, attempt_nonce]) => ({ task_id, attempt_nonce }))
    .sort(byKey((x) => x.task_id)),
  effects: [...a.effects].sort(compareCodeUnits),
  fences: [...a.fences.values()].map((f) => ({ ...f })),
  marker: a.marker,
  migration:
    a.migration === null
      ? null
      : {
          migration_id: a.migration.migrationId,
          phase: a.migration.phase,
          source_execution_id: a.migration.sourceExecutionId,
          bundle: a.migration.bundle,
          bundle_digest: a.migration.bundleDigest,
          target:
            a.migration.target === null
              ? null
              : {
                  ...a.migration.target,
                  providers: [...a.migration.target.providers].sort(byKey((p) => p.provider_id)),
                },
          delta: a.migration.delta,
          surfaces: [...a.migration.surfaces].sort(byKey((s) => s.surface.surface_id)),
        },
  reports: [...a.reports],
});

export const agentView = (a: Agent): AgentView => ({
  identity: { ...a.identity },
  substrate: {
    identity: a.identityRecord(),
    memory: { ancestry: [...a.ancestry], store_head: a.storeHead, task_ids: [...a.taskIds] },
    body: { revision: a.bodyRevision, lineage: [...a.bodyLineage] },
  },
  store: storeView(a),
  instances: [...a.instances.values()].sort(byKey((i) => i.instanceId)).map(instanceView),
  obligations: [...a.obligations.values()].sort(byKey((o) => o.obligationId)).map(obligationView),
  ripa: ripaView(a),
});

export const worldView = (w: World): WorldView => ({
  tick: w.tick,
  roots_used: [...w.rootsUsed].sort(compareCodeUnits),
  agents: [...w.agents.values()].sort(byKey((a) => a.identity.identity)).map(agentView),
});
