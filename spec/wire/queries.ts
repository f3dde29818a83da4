/**
 * Read-only queries (spec/wire/PROTOCOL.md, section "Queries").
 *
 * A query never changes state and never advances the tick. Every query except `world` names an
 * agent by its identity digest; an unknown agent is a definite `NOT_FOUND` error. Results are
 * slices of the `WorldView` of spec/schemas/views.ts, with the same list orders, so a runner can
 * check that every finer query agrees with the corresponding part of `world`.
 */
import { z } from "zod";
import { DigestText, Id } from "../schemas/common.ts";
import { AdvaitaIdentity } from "../schemas/advaita.ts";
import { DistillationObligation, InstanceState } from "../schemas/janma.ts";
import {
  AuthorityEpoch,
  ExecutionBinding,
  IdentityRecord,
  MigrationReport,
  PersistentSubstrate,
  SourceFence,
  TargetMarker,
} from "../schemas/ripa.ts";
import { AgentView, InstanceView, MigrationView, StoreView, WorldView } from "../schemas/views.ts";

const q = <N extends string, S extends z.ZodRawShape>(name: N, shape: S, description: string) =>
  z.strictObject({ name: z.literal(name), ...shape }).meta({ id: `Query.${name}`, description });

const agent = { agent: DigestText };

/** Every query, discriminated by `name`. */
export const Query = z
  .discriminatedUnion("name", [
    q("world", {}, "The whole WorldView."),
    q("agent", agent, "One AgentView."),
    q(
      "store",
      agent,
      "The agent's StoreView: head, chain, batches, state, retained distillates, excisions, quarantine, momentum.",
    ),
    q("lineage", agent, "Genesis, head, chain, batches and excision records."),
    q("instances", agent, "Every InstanceView of the agent, sorted by instance_id."),
    q(
      "instance_state",
      { ...agent, instance_id: Id },
      "The lifecycle state of one instance id; 'avyakrta' if it was never conceived (D-017).",
    ),
    q("obligations", agent, "Every distillation obligation, sorted by obligation_id."),
    q("identity", agent, "The Advaita identity, the installed identity record and its digest."),
    q("substrate", agent, "The persistent substrate P = (I, M, B)."),
    q("authority", agent, "The authority epoch, bound execution and replicas."),
    q("migration", agent, "Source fences, target marker, the migration in progress and completed reports."),
  ])
  .meta({ id: "Query", description: "A read-only query, discriminated by name." });
export type Query = z.infer<typeof Query>;
export type QueryName = Query["name"];

export const QUERY_NAMES: readonly QueryName[] = Query.options.map((o) => o.shape.name.value);

/** The lineage slice of the store view (same fields, same orders), with the identity and genesis. */
export const LineageResult = z
  .strictObject({
    identity: DigestText,
    genesis: DigestText,
    head: DigestText,
    ...StoreView.pick({ chain: true, batches: true, excisions: true }).shape,
  })
  .meta({ id: "LineageResult" });

export const InstanceStateResult = z
  .strictObject({ instance_id: Id, state: InstanceState })
  .meta({ id: "InstanceStateResult" });

export const IdentityResult = z
  .strictObject({ identity: AdvaitaIdentity, record: IdentityRecord, record_digest: DigestText })
  .meta({ id: "IdentityResult" });

export const AuthorityResult = z
  .strictObject({
    authority: AuthorityEpoch,
    execution: ExecutionBinding,
    replicas: z.array(ExecutionBinding).describe("sorted by execution_id"),
  })
  .meta({ id: "AuthorityResult" });

export const MigrationResult = z
  .strictObject({
    fences: z.array(SourceFence),
    marker: z.union([TargetMarker, z.null()]),
    migration: z.union([MigrationView, z.null()]),
    reports: z.array(MigrationReport),
  })
  .meta({ id: "MigrationResult" });

/** The result schema of each query, by name. */
export const QUERY_RESULTS = {
  world: WorldView,
  agent: AgentView,
  store: StoreView,
  lineage: LineageResult,
  instances: z.array(InstanceView),
  instance_state: InstanceStateResult,
  obligations: z.array(DistillationObligation),
  identity: IdentityResult,
  substrate: PersistentSubstrate,
  authority: AuthorityResult,
  migration: MigrationResult,
} as const satisfies Record<QueryName, z.ZodType>;

export type QueryResult<N extends QueryName> = z.infer<(typeof QUERY_RESULTS)[N]>;
