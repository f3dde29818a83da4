/**
 * One agent: Advaita identity, RIPA persistent substrate (identity record, memory, body),
 * its samskara store, lives, obligations, and the RIPA execution/authority/migration state.
 * Plain mutable fields; the ops/ handlers are the only writers. Collections that grow with the
 * agent's history are tracked (impl/core/tracked.ts) or append-only arrays, so the store writes
 * only what a command changed (impl/core/persist.ts).
 */
import type {
  AdvaitaIdentity,
  AuthorityEpoch,
  BundleManifest,
  CapabilityDelta,
  Digest,
  ExecutionBinding,
  InteractionSurface,
  Labels,
  MigrationReport,
  ProviderGrant,
  SourceFence,
  TargetMarker,
} from "../../spec/index.ts";
import { DOMAIN, digestOf } from "../../spec/index.ts";
import type { Instance } from "./instance.ts";
import type { Obligation } from "./obligation.ts";
import type { SamskaraStore } from "./store.ts";
import { TrackedMap, TrackedSet } from "./tracked.ts";

export interface BoundSurface {
  surface: InteractionSurface;
  labels: Labels;
}

export interface Migration {
  readonly migrationId: string;
  phase: "fenced" | "checkpointed" | "validated" | "bound" | "rehydrated";
  readonly sourceExecutionId: string;
  bundle: BundleManifest | null;
  bundleDigest: string | null;
  target: { execution: ExecutionBinding; providers: ProviderGrant[]; body_revision: string } | null;
  delta: CapabilityDelta | null;
  surfaces: BoundSurface[];
}

/**
 * OP-5.1 / OP-7.3 (spec review G-33): a provider grant as the agent holds it. Its capabilities are
 * a set: sorted ascending, duplicates removed (like instance grants), so the view does not depend
 * on the order in which a command listed them.
 */
export const providerGrantOf = (p: ProviderGrant): ProviderGrant => ({
  ...p,
  capabilities: [...new Set(p.capabilities)].sort(),
});

export type MemoryCause = "install" | "merge" | "excise" | "task_start";

/** What a new agent is installed with (OP-5.1): the substrate's starting point and its first epoch. */
export interface AgentInit {
  readonly designation: string;
  readonly bodyRevision: string;
  readonly custodians: readonly string[];
  readonly execution: ExecutionBinding;
  readonly providers: readonly ProviderGrant[];
  readonly requiredCapabilities: readonly string[];
  readonly authority: AuthorityEpoch;
}

export class Agent {
  designation: string;
  identityVersion = 1;
  /** Memory M (D-024): append-only snapshot ancestry, store head, task ids in start order. */
  readonly ancestry: string[] = [];
  readonly taskIds: string[] = [];
  bodyRevision: string;
  readonly bodyLineage: string[];

  readonly instances = new TrackedMap<string, Instance>();
  readonly nonces = new TrackedSet<string>();
  readonly obligations = new TrackedMap<string, Obligation>();
  /** AD-3: every distillate id ever used by this agent (pending, discharged, retained, excised). */
  readonly distillateIds = new TrackedSet<string>();

  execution: ExecutionBinding;
  readonly replicas = new TrackedMap<string, ExecutionBinding>();
  readonly surfaces = new TrackedMap<string, BoundSurface>();
  providers: Map<string, ProviderGrant>;
  authority: AuthorityEpoch;
  /** I4 (D-026): authority tokens are single-use per agent. */
  readonly usedTokens = new TrackedSet<string>();
  /** I4: attempt nonces ever published. */
  readonly usedAttemptNonces = new TrackedSet<string>();
  readonly liveAttempts = new TrackedMap<string, string>();
  readonly effects = new TrackedSet<string>();
  /** Source fences by migration id, in the order they were raised (a replaced fence keeps its place). */
  readonly fences = new TrackedMap<string, SourceFence>();
  marker: TargetMarker | null = null;
  migration: Migration | null = null;
  readonly migrationIds = new TrackedSet<string>();
  readonly reports: MigrationReport[] = [];

  constructor(
    readonly identity: AdvaitaIdentity,
    readonly store: SamskaraStore,
    init: AgentInit,
    readonly custodians: readonly string[] = [...new Set(init.custodians)].sort(),
    readonly requiredCapabilities: readonly string[] = [...new Set(init.requiredCapabilities)].sort(),
  ) {
    this.designation = init.designation;
    this.bodyRevision = init.bodyRevision;
    this.bodyLineage = [init.bodyRevision];
    this.execution = init.execution;
    this.providers = new Map(init.providers.map((p) => [p.provider_id, providerGrantOf(p)]));
    this.authority = init.authority;
  }

  get storeHead(): string {
    return this.store.head().version_id;
  }

  get memoryHead(): string {
    const h = this.ancestry[this.ancestry.length - 1];
    if (h === undefined) throw new Error("memory ancestry is empty");
    return h;
  }

  identityRecord(): { identity: string; designation: string; identity_version: number } {
    return { identity: this.identity.identity, designation: this.designation, identity_version: this.identityVersion };
  }

  /** OP-1.11 */
  identityRecordDigest(): Digest {
    return digestOf(DOMAIN.identityRecord, this.identityRecord());
  }

  /** OP-1.10 (I2): memory extends by one snapshot; the ancestry is never rewritten. */
  extendMemory(cause: MemoryCause): string {
    const prev = this.ancestry.length === 0 ? null : this.memoryHead;
    const snapshot = digestOf(DOMAIN.memorySnapshot, {
      prev,
      cause,
      store_head: this.storeHead,
      task_ids: [...this.taskIds],
    });
    this.ancestry.push(snapshot);
    return snapshot;
  }

  /** OP-0.5 (D-022): an authorisation is valid iff its custodian is declared. */
  isCustodian(custodian: string): boolean {
    return this.custodians.includes(custodian);
  }

  /** OP-0.4 (I4): a migration is in progress. */
  get quiesced(): boolean {
    return this.migration !== null;
  }
}
