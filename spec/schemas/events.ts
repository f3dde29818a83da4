/**
 * Events: what an accepted command did, as data. OPERATIONS.md lists, per operation, which
 * events it emits and in what order; the model and implementations emit exactly those.
 */
import { z } from "zod";
import { listOrder } from "../list-orders.ts";
import { CapabilityId, Count, DigestText, Id } from "./common.ts";
import { CustodyAck, CustodyOutcome, ObligationKind, WithdrawalReason } from "./janma.ts";
import { CapabilityDelta, MigrationReport, TargetMarker } from "./ripa.ts";
import { LineageReplayClaim } from "./samskara.ts";

const ev = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...shape });

export const Event = z
  .discriminatedUnion("type", [
    ev("agent.minted", { identity: DigestText, genesis: DigestText }),
    ev("instance.conceived", { instance_id: Id }),
    ev("instance.born", { instance_id: Id }),
    ev("instance.acted", { instance_id: Id, tool: Id, capability: CapabilityId, outcome: z.enum(["ok", "failed"]) }),
    ev("instance.withdrawn", { instance_id: Id, reason: WithdrawalReason }),
    ev("trace.destroyed", { instance_id: Id, entries: Count }),
    ev("obligation.emitted", { obligation_id: Id, kind: ObligationKind }),
    ev("custody.attempted", { obligation_id: Id, ack: CustodyAck, attempts: Count }),
    ev("custody.discharged", { obligation_id: Id, outcome: CustodyOutcome }),
    ev("version.quarantined", { store_version: DigestText }),
    ev("store.merged", {
      version_id: DigestText,
      batch_digest: DigestText,
      added: z.array(Id).describe(listOrder("event store.merged", "added")),
    }),
    ev("store.merge_noop", {
      obligation_ids: z.array(Id).describe(listOrder("event store.merge_noop", "obligation_ids")),
    }),
    ev("store.excised", { excision_id: Id, new_head: DigestText }),
    ev("memory.extended", { snapshot: DigestText }),
    ev("instance.dissolved", { instance_id: Id }),
    ev("lineage.replayed", { claim: LineageReplayClaim }),
    ev("epoch.advanced", { generation: Count, holder: z.union([Id, z.null()]) }),
    ev("task.started", { task_id: Id }),
    ev("task.resumed", { task_id: Id }),
    ev("task.paused", { task_id: Id, attempt_nonce: Id }),
    ev("attempt.published", { task_id: Id, attempt_nonce: Id }),
    ev("reply.accepted", { task_id: Id, attempt_nonce: Id }),
    ev("effect.performed", { effect_id: Id, provider_id: Id, capability: CapabilityId }),
    ev("effect.duplicate", { effect_id: Id }),
    ev("body.evolved", { revision: Id }),
    ev("identity.updated", { identity_version: z.int().min(1) }),
    ev("surface.bound", { surface_id: Id }),
    ev("replica.created", { execution_id: Id }),
    ev("agent.descended", { parent: DigestText, child: DigestText }),
    ev("migration.fenced", { migration_id: Id }),
    ev("migration.checkpointed", { migration_id: Id, bundle_digest: DigestText }),
    ev("migration.validated", { migration_id: Id, delta: CapabilityDelta }),
    ev("migration.bound", { migration_id: Id }),
    ev("migration.marker", { migration_id: Id, status: TargetMarker.shape.status }),
    ev("migration.resumed", { report: MigrationReport }),
    ev("migration.cancelled", { migration_id: Id }),
  ])
  .meta({ id: "Event", description: "What an accepted operation did." });
export type Event = z.infer<typeof Event>;
export type EventType = Event["type"];
