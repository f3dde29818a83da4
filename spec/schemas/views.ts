/**
 * Observable state: what a query returns and what differential testing compares.
 *
 * The model and every implementation project their internal state onto these views; two
 * systems agree on a run when every step has the same outcome (accepted with the same events,
 * or rejected with the same error code) and the same world view afterwards. Every list in a
 * view has a defined order (spec/list-orders.ts, the one source of each `describe()` below and of
 * the list-order table) so that views compare with plain equality.
 */
import { z } from "zod";
import { listOrder } from "../list-orders.ts";
import { CapabilityGrant, CapabilityId, Count, DigestText, Id, Tick } from "./common.ts";
import { DistillationObligation, InstanceState, WithdrawalReason } from "./janma.ts";
import { AdvaitaIdentity } from "./advaita.ts";
import { BatchMember, ExcisionRecord, MergeBatch, StoreState, StoreVersion } from "./samskara.ts";
import {
  AuthorityEpoch,
  BundleManifest,
  CapabilityDelta,
  ExecutionBinding,
  InteractionSurface,
  Labels,
  MigrationReport,
  PersistentSubstrate,
  ProviderGrant,
  SourceFence,
  TargetMarker,
} from "./ripa.ts";

/** One life as observed from outside. Trace content is never exposed, only its length. */
export const InstanceView = z
  .strictObject({
    instance_id: Id,
    nonce: Id,
    manifest_digest: DigestText,
    state: InstanceState,
    born_from: DigestText,
    born_tick: z.union([Tick, z.null()]),
    acts: Count,
    failures: Count,
    consecutive_failures: Count,
    tools_used: z.array(Id).describe(listOrder("InstanceView", "tools_used")),
    trace_entries: Count.describe("episode entries still held; 0 once distilled (S-1)"),
    grants: z.array(CapabilityGrant).describe(listOrder("InstanceView", "grants")),
    tools: z.array(Id).describe(listOrder("InstanceView", "tools")),
    withdrawal: z.union([WithdrawalReason, z.null()]),
    withdrawn_tick: z.union([Tick, z.null()]),
    obligation_id: z.union([Id, z.null()]),
  })
  .meta({ id: "InstanceView" });
export type InstanceView = z.infer<typeof InstanceView>;

export const StoreView = z
  .strictObject({
    head: DigestText,
    chain: z.array(StoreVersion).describe(listOrder("StoreView", "chain")),
    batches: z.array(MergeBatch).describe(listOrder("StoreView", "batches")),
    state: StoreState,
    distillates: z.array(BatchMember).describe(listOrder("StoreView", "distillates")),
    excisions: z.array(ExcisionRecord).describe(listOrder("StoreView", "excisions")),
    quarantined: z.array(DigestText).describe(listOrder("StoreView", "quarantined")),
    momentum: z.array(z.int()).describe(listOrder("StoreView", "momentum")),
  })
  .meta({ id: "StoreView" });
export type StoreView = z.infer<typeof StoreView>;

export const SurfaceView = z.strictObject({ surface: InteractionSurface, labels: Labels });

export const MigrationView = z
  .strictObject({
    migration_id: Id,
    phase: z.enum(["fenced", "checkpointed", "validated", "bound", "rehydrated"]),
    source_execution_id: Id,
    bundle: z.union([BundleManifest, z.null()]),
    bundle_digest: z.union([DigestText, z.null()]),
    target: z.union([
      z.strictObject({
        execution: ExecutionBinding,
        providers: z.array(ProviderGrant).describe(listOrder("MigrationView", "target.providers")),
        body_revision: Id,
      }),
      z.null(),
    ]),
    delta: z.union([CapabilityDelta, z.null()]),
    surfaces: z.array(SurfaceView).describe(listOrder("MigrationView", "surfaces")),
  })
  .meta({ id: "MigrationView" });
export type MigrationView = z.infer<typeof MigrationView>;

export const RipaView = z
  .strictObject({
    custodians: z.array(Id).describe(listOrder("RipaView", "custodians")),
    execution: ExecutionBinding,
    replicas: z.array(ExecutionBinding).describe(listOrder("RipaView", "replicas")),
    surfaces: z.array(SurfaceView).describe(listOrder("RipaView", "surfaces")),
    providers: z.array(ProviderGrant).describe(listOrder("RipaView", "providers")),
    required_capabilities: z.array(CapabilityId).describe(listOrder("RipaView", "required_capabilities")),
    authority: AuthorityEpoch,
    live_attempts: z
      .array(z.strictObject({ task_id: Id, attempt_nonce: Id }))
      .describe(listOrder("RipaView", "live_attempts")),
    effects: z.array(Id).describe(listOrder("RipaView", "effects")),
    fences: z.array(SourceFence).describe(listOrder("RipaView", "fences")),
    marker: z.union([TargetMarker, z.null()]),
    migration: z.union([MigrationView, z.null()]).describe("the migration in progress, if any"),
    reports: z.array(MigrationReport).describe(listOrder("RipaView", "reports")),
  })
  .meta({ id: "RipaView" });
export type RipaView = z.infer<typeof RipaView>;

export const AgentView = z
  .strictObject({
    identity: AdvaitaIdentity,
    substrate: PersistentSubstrate,
    store: StoreView,
    instances: z.array(InstanceView).describe(listOrder("AgentView", "instances")),
    obligations: z.array(DistillationObligation).describe(listOrder("AgentView", "obligations")),
    ripa: RipaView,
  })
  .meta({ id: "AgentView" });
export type AgentView = z.infer<typeof AgentView>;

export const WorldView = z
  .strictObject({
    tick: Tick.describe("the latest tick any accepted command carried"),
    roots_used: z.array(Id).describe(listOrder("WorldView", "roots_used")),
    agents: z.array(AgentView).describe(listOrder("WorldView", "agents")),
  })
  .meta({ id: "WorldView", description: "Everything observable; what differential testing compares." });
export type WorldView = z.infer<typeof WorldView>;
