/**
 * The schema of the model's complete internal state (`World`, state.ts), so that a world can be
 * serialised, stored, generated and replayed, not only its observable view.
 *
 * Encoded form: plain JSON. Maps become `[key, value]` entries and Sets become arrays, both in
 * ascending key order; struct keys come out in schema order and wire objects in the spec's key
 * order (state-schema-leaves.ts). So encoding equal worlds gives identical JSON, whatever order
 * the model happened to insert map entries in. Decoding is strict: unknown keys, unsorted or
 * duplicated keys and anything the spec's wire schemas refuse fail with the path of the fault.
 */
import { Data, Result, Schema, SchemaIssue } from "effect";
import {
  AdvaitaIdentity,
  AuthorityEpoch,
  BodyState,
  BundleManifest,
  CapabilityDelta,
  CapabilityId,
  DigestText,
  DistillationObligation,
  ExcisionRecord,
  ExecutionBinding,
  Id,
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
  Tick,
} from "../spec/index.ts";
import type { World } from "./state.ts";
import { DigestSchema, SortedMap, SortedSet, SortedStrings, fromZod } from "./state-schema-leaves.ts";

const IdS = fromZod("Id", Id);
/** Digest fields the model types as plain strings (typed `Digest` fields use `DigestSchema`). */
const DigestTextS = fromZod("Digest", DigestText);
const Distillate = fromZod("SamskaraDistillate", SamskaraDistillate);
const Execution = fromZod("ExecutionBinding", ExecutionBinding);
const Provider = fromZod("ProviderGrant", ProviderGrant);

const InstanceSchema = Schema.Struct({
  view: fromZod("InstanceView", InstanceView),
  manifest: fromZod("JanmaManifest", JanmaManifest),
  trace: Schema.Array(Schema.String),
});

const ObligationSchema = Schema.Struct({
  view: fromZod("DistillationObligation", DistillationObligation),
  held: Schema.NullOr(Distillate),
});

const StoreSchema = Schema.Struct({
  chain: Schema.Array(fromZod("StoreVersion", StoreVersion)),
  states: Schema.Array(fromZod("StoreState", StoreState)),
  batches: Schema.Array(fromZod("MergeBatch", MergeBatch)),
  retained: SortedMap(IdS, Schema.Struct({ distillate: Distillate, digest: DigestSchema }), {
    field: "distillate.distillate_id",
    of: (r) => r.distillate.distillate_id,
  }),
  excisions: Schema.Array(fromZod("ExcisionRecord", ExcisionRecord)),
  quarantined: SortedStrings(DigestTextS),
});

const SurfaceBindingSchema = Schema.Struct({
  surface: fromZod("InteractionSurface", InteractionSurface),
  labels: fromZod("Labels", Labels, { sortKeys: true }),
});

const MigrationSchema = Schema.Struct({
  migration_id: IdS,
  phase: Schema.Literals(["fenced", "checkpointed", "validated", "bound", "rehydrated"]),
  source_execution_id: IdS,
  bundle: Schema.NullOr(fromZod("BundleManifest", BundleManifest)),
  bundle_digest: Schema.NullOr(DigestSchema),
  target: Schema.NullOr(Schema.Struct({ execution: Execution, providers: Schema.Array(Provider), body_revision: IdS })),
  delta: Schema.NullOr(fromZod("CapabilityDelta", CapabilityDelta)),
  surfaces: Schema.Array(SurfaceBindingSchema),
});

const RipaSchema = Schema.Struct({
  custodians: SortedStrings(IdS),
  execution: Execution,
  replicas: Schema.Array(Execution),
  surfaces: SortedMap(IdS, SurfaceBindingSchema, { field: "surface.surface_id", of: (b) => b.surface.surface_id }),
  providers: Schema.Array(Provider),
  required_capabilities: Schema.Array(fromZod("CapabilityId", CapabilityId)),
  authority: fromZod("AuthorityEpoch", AuthorityEpoch),
  tokens_used: SortedSet(IdS),
  live_attempts: SortedMap(IdS, IdS),
  attempt_nonces_used: SortedSet(IdS),
  effects: SortedSet(IdS),
  fences: Schema.Array(fromZod("SourceFence", SourceFence)),
  marker: Schema.NullOr(fromZod("TargetMarker", TargetMarker)),
  migration: Schema.NullOr(MigrationSchema),
  migration_ids_used: SortedSet(IdS),
  reports: Schema.Array(fromZod("MigrationReport", MigrationReport)),
});

const AgentSchema = Schema.Struct({
  identity: fromZod("AdvaitaIdentity", AdvaitaIdentity),
  record: fromZod("IdentityRecord", IdentityRecord),
  memory: fromZod("MemoryState", MemoryState),
  body: fromZod("BodyState", BodyState),
  store: StoreSchema,
  instances: SortedMap(IdS, InstanceSchema, { field: "view.instance_id", of: (i) => i.view.instance_id }),
  obligations: SortedMap(IdS, ObligationSchema, { field: "view.obligation_id", of: (o) => o.view.obligation_id }),
  distillate_ids_used: SortedSet(IdS),
  ripa: RipaSchema,
});

/** The complete model state: decodes canonical JSON to a `World`, encodes a `World` to it. */
export const WorldSchema = Schema.Struct({
  tick: fromZod("Tick", Tick),
  roots_used: SortedStrings(IdS),
  agents: SortedMap(DigestTextS, AgentSchema, { field: "identity.identity", of: (a) => a.identity.identity }),
});

/** The JSON shape `encodeWorld` produces. */
export type WorldEncoded = typeof WorldSchema.Encoded;

// Compile-time proof that the schema describes exactly the model's `World`, in both directions:
// a field added to state.ts and forgotten here (or the reverse) breaks the typecheck.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const describesWorld: Exact<typeof WorldSchema.Type, World> = true;
void describesWorld;

/** One failure of `decodeWorld`: where (a `$`-rooted path into the JSON) and what. */
export interface WorldIssue {
  readonly path: string;
  readonly message: string;
}

/** Why a JSON value is not an encoded world. `message` lists every issue with its path. */
export class WorldDecodeError extends Data.TaggedError("WorldDecodeError")<{
  readonly message: string;
  readonly issues: readonly WorldIssue[];
}> {}

const renderPath = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string =>
  (path ?? [])
    .map((seg) => (typeof seg === "object" ? seg.key : seg))
    .reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : `${acc}.${String(k)}`), "$");

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1();

// Strict: an unknown key is an error, not silently dropped (a typo must not lose state).
const STRICT = { onExcessProperty: "error", errors: "all" } as const;
const decode = Schema.decodeUnknownResult(WorldSchema, STRICT);
const encode = Schema.encodeSync(WorldSchema);

/**
 * Encode a world as canonical plain JSON. Throws only if the world itself breaks the schema
 * (a model bug), never for a world the model built through `transition`.
 */
export const encodeWorld = (world: World): unknown => encode(world);

/** Decode canonical JSON back to a `World`, or say which path is wrong and why. */
export const decodeWorld = (json: unknown): Result.Result<World, WorldDecodeError> =>
  Result.mapError(decode(json), (e) => {
    const issues = formatIssues(e.issue).issues.map((i) => ({ path: renderPath(i.path), message: i.message }));
    const message = `not an encoded world: ${issues.map((i) => `at ${i.path}: ${i.message}`).join("; ")}`;
    return new WorldDecodeError({ message, issues });
  });
