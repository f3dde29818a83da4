/**
 * RIPA wire objects: the persistent substrate P = (I, M, B), execution and interaction bindings,
 * provider grants, authority epochs and the migration artefacts.
 * RIPA paper, Sections 2-5.
 */
import { z } from "zod";
import { listOrder } from "../list-orders.ts";
import { CapabilityId, Count, DigestText, Id, Text } from "./common.ts";

/** I: the installed identity record (D-022). `identity` is the Advaita identity digest. */
export const IdentityRecord = z
  .strictObject({
    identity: DigestText,
    designation: Text(200, 1),
    identity_version: z.int().min(1),
  })
  .meta({ id: "IdentityRecord", description: "Installed identity; changed only by a governed identity update (I1)." });
export type IdentityRecord = z.infer<typeof IdentityRecord>;

/** M: memory and continuity-relevant workflow state, with its recorded ancestry (I2, D-024). */
export const MemoryState = z
  .strictObject({
    ancestry: z.array(DigestText).min(1).describe(listOrder("MemoryState", "ancestry")),
    store_head: DigestText,
    task_ids: z.array(Id).describe(listOrder("MemoryState", "task_ids")),
  })
  .meta({ id: "MemoryState", description: "Memory snapshots (append-only ancestry), samskara store head, task ids." });
export type MemoryState = z.infer<typeof MemoryState>;

/** B: the versioned executable body (I3). */
export const BodyState = z
  .strictObject({
    revision: Id,
    lineage: z.array(Id).min(1).describe(listOrder("BodyState", "lineage")),
  })
  .meta({ id: "BodyState" });
export type BodyState = z.infer<typeof BodyState>;

export const PersistentSubstrate = z
  .strictObject({ identity: IdentityRecord, memory: MemoryState, body: BodyState })
  .meta({ id: "PersistentSubstrate", description: "P = (I, M, B), RIPA paper equation (1)." });
export type PersistentSubstrate = z.infer<typeof PersistentSubstrate>;

/** E = (R, H, D): the replaceable execution substrate. Labels only (I6). */
export const ExecutionBinding = z
  .strictObject({
    execution_id: Id,
    reasoner: Text(200),
    harness: Text(200),
    host: Text(200),
  })
  .meta({ id: "ExecutionBinding", description: "Reasoner, harness, host: environment metadata, never identity." });
export type ExecutionBinding = z.infer<typeof ExecutionBinding>;

/** An interaction surface (chat account, API, email...). */
export const InteractionSurface = z
  .strictObject({
    surface_id: Id,
    kind: Text(64),
    account: Text(200),
    session: Text(200),
  })
  .meta({ id: "InteractionSurface" });
export type InteractionSurface = z.infer<typeof InteractionSurface>;

/** Environment labels (I6, D-033). Keys naming identity fields are reserved and rejected. */
export const Labels = z.record(z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/), Text(200)).meta({ id: "Labels" });
export type Labels = z.infer<typeof Labels>;

export const RESERVED_LABEL_KEYS = ["identity", "designation", "identity_version", "agent", "self"] as const;

/** A provider's declared contract and grants (RIPA Section 3.1). */
export const ProviderGrant = z
  .strictObject({
    provider_id: Id,
    kind: z.enum(["chat", "runtime", "vcs", "review", "service", "other"]),
    contract_version: Id,
    capabilities: z.array(CapabilityId).max(64).describe(listOrder("ProviderGrant", "capabilities")),
  })
  .meta({ id: "ProviderGrant" });
export type ProviderGrant = z.infer<typeof ProviderGrant>;

/** Capability delta between source and target (I5, D-025); each list sorted. */
export const CapabilityDelta = z
  .strictObject({
    gained: z.array(CapabilityId).describe(listOrder("CapabilityDelta", "gained")),
    lost: z.array(CapabilityId).describe(listOrder("CapabilityDelta", "lost")),
    unchanged: z.array(CapabilityId).describe(listOrder("CapabilityDelta", "unchanged")),
  })
  .meta({ id: "CapabilityDelta" });
export type CapabilityDelta = z.infer<typeof CapabilityDelta>;

/** The authority epoch (I4). `holder` is the execution holding continuation authority, if any. */
export const AuthorityEpoch = z
  .strictObject({
    token: Id,
    generation: Count,
    holder: z.union([Id, z.null()]),
  })
  .meta({ id: "AuthorityEpoch" });
export type AuthorityEpoch = z.infer<typeof AuthorityEpoch>;

/** The checkpoint bundle manifest captured at phase 2 (D-026). Its digest is the bundle digest. */
export const BundleManifest = z
  .strictObject({
    migration_id: Id,
    identity: DigestText,
    identity_record_digest: DigestText,
    identity_version: z.int().min(1),
    memory_head: DigestText,
    store_head: DigestText,
    body_revision: Id,
    task_ids: z.array(Id).describe(listOrder("BundleManifest", "task_ids")),
    source_generation: Count,
    required_capabilities: z.array(CapabilityId).describe(listOrder("BundleManifest", "required_capabilities")),
  })
  .meta({ id: "BundleManifest", description: "What a migration carries: versions and digests, never secrets." });
export type BundleManifest = z.infer<typeof BundleManifest>;

/** Source fence (I4): while present the source refuses to start. */
export const SourceFence = z
  .strictObject({
    migration_id: Id,
    status: z.enum(["preparing", "exported"]),
    body_revision: Id,
    source_generation: Count,
    bundle_digest: z.union([DigestText, z.null()]),
  })
  .meta({ id: "SourceFence" });
export type SourceFence = z.infer<typeof SourceFence>;

export const TARGET_MARKER_STATES = ["importing", "imported", "activated", "verified"] as const;

/** Target marker: importing -> imported -> activated -> verified; no start before activated. */
export const TargetMarker = z
  .strictObject({
    migration_id: Id,
    status: z.enum(TARGET_MARKER_STATES),
    target_execution_id: Id,
  })
  .meta({ id: "TargetMarker" });
export type TargetMarker = z.infer<typeof TargetMarker>;

/** The migration report produced at resume (RIPA Section 4, phase 6). */
export const MigrationReport = z
  .strictObject({
    migration_id: Id,
    source_execution_id: Id,
    target_execution_id: Id,
    bundle_digest: DigestText,
    capability_delta: CapabilityDelta,
    identity_preserved: z.boolean(),
    // Named for what resume checks (review G-54, D-047): memory and store heads equal the bundle's,
    // so the ancestry is carried over unchanged; the migration itself appends nothing to memory.
    memory_ancestry_preserved: z.boolean(),
    body_preserved: z.boolean(),
    source_generation: Count,
    target_generation: Count,
  })
  .meta({ id: "MigrationReport" });
export type MigrationReport = z.infer<typeof MigrationReport>;
