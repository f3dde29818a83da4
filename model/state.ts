/**
 * The model's internal state. It is the observable view plus what a view never exposes but the
 * rules need: manifests, trace text, held and retained distillate content, and the sets of ids,
 * nonces and tokens ever used (freshness checks). Everything is immutable: operations build new
 * values, so a rejection can never leave a half-changed world behind (OP-0.3).
 */
import type {
  AdvaitaIdentity,
  AuthorityEpoch,
  BodyState,
  BundleManifest,
  CapabilityDelta,
  Digest,
  DistillationObligation,
  ExcisionRecord,
  ExecutionBinding,
  IdentityRecord,
  InstanceView,
  InteractionSurface,
  JanmaManifest,
  Labels,
  MemoryState,
  MergeBatch,
  MigrationReport,
  ProviderGrant,
  SamskaraDistillate,
  SourceFence,
  StoreState,
  StoreVersion,
  TargetMarker,
} from "../spec/index.ts";

/** One life: its public view plus the manifest and the episode trace (D-029). */
export interface Instance {
  readonly view: InstanceView;
  readonly manifest: JanmaManifest;
  /** Trace entries, in act order; emptied when the distillate is accepted (S-1). */
  readonly trace: readonly string[];
}

/** An obligation and the distillate it carries until merged or discharged (J-4). */
export interface Obligation {
  readonly view: DistillationObligation;
  readonly held: SamskaraDistillate | null;
}

export interface Retained {
  readonly distillate: SamskaraDistillate;
  readonly digest: Digest;
}

export interface Store {
  /** Genesis first; `states[i]` is the store state at `chain[i]`. */
  readonly chain: readonly StoreVersion[];
  readonly states: readonly StoreState[];
  /** `batches[i]` produced `chain[i + 1]`. */
  readonly batches: readonly MergeBatch[];
  /** Content of every distillate the store retains, by distillate id. */
  readonly retained: ReadonlyMap<string, Retained>;
  readonly excisions: readonly ExcisionRecord[];
  /** Sorted. */
  readonly quarantined: readonly string[];
}

export interface SurfaceBinding {
  readonly surface: InteractionSurface;
  readonly labels: Labels;
}

export type MigrationPhase = "fenced" | "checkpointed" | "validated" | "bound" | "rehydrated";

export interface Migration {
  readonly migration_id: string;
  readonly phase: MigrationPhase;
  readonly source_execution_id: string;
  readonly bundle: BundleManifest | null;
  readonly bundle_digest: Digest | null;
  readonly target: {
    readonly execution: ExecutionBinding;
    readonly providers: readonly ProviderGrant[];
    readonly body_revision: string;
  } | null;
  readonly delta: CapabilityDelta | null;
  /** Sorted by surface id. */
  readonly surfaces: readonly SurfaceBinding[];
}

export interface Ripa {
  /** Sorted, de-duplicated. */
  readonly custodians: readonly string[];
  readonly execution: ExecutionBinding;
  readonly replicas: readonly ExecutionBinding[];
  readonly surfaces: ReadonlyMap<string, SurfaceBinding>;
  readonly providers: readonly ProviderGrant[];
  readonly required_capabilities: readonly string[];
  readonly authority: AuthorityEpoch;
  /** Every authority token this agent ever took an epoch with (D-026: single use). */
  readonly tokens_used: ReadonlySet<string>;
  /** task id -> live attempt nonce. */
  readonly live_attempts: ReadonlyMap<string, string>;
  readonly attempt_nonces_used: ReadonlySet<string>;
  readonly effects: ReadonlySet<string>;
  readonly fences: readonly SourceFence[];
  readonly marker: TargetMarker | null;
  readonly migration: Migration | null;
  readonly migration_ids_used: ReadonlySet<string>;
  readonly reports: readonly MigrationReport[];
}

export interface Agent {
  readonly identity: AdvaitaIdentity;
  readonly record: IdentityRecord;
  readonly memory: MemoryState;
  readonly body: BodyState;
  readonly store: Store;
  readonly instances: ReadonlyMap<string, Instance>;
  readonly obligations: ReadonlyMap<string, Obligation>;
  /** Every distillate id ever distilled in this agent: pending, merged, excised (AD-3, D-008). */
  readonly distillate_ids_used: ReadonlySet<string>;
  readonly ripa: Ripa;
}

export interface World {
  readonly tick: number;
  /** Sorted. */
  readonly roots_used: readonly string[];
  /** Keyed by identity digest. */
  readonly agents: ReadonlyMap<string, Agent>;
}

/** Immutable map update. */
export const mapSet = <K, V>(m: ReadonlyMap<K, V>, k: K, v: V): ReadonlyMap<K, V> => new Map(m).set(k, v);
export const setAdd = <T>(s: ReadonlySet<T>, v: T): ReadonlySet<T> => new Set(s).add(v);

/** Ascending by UTF-16 code units (OP-0.6). */
export const sortStrings = (xs: Iterable<string>): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
export const sortedUnique = (xs: Iterable<string>): string[] => sortStrings(new Set(xs));
export const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
