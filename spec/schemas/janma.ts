/**
 * Janma wire objects: the manifest, termination predicates, lifecycle states and the
 * distillation obligation with its custody outcome.
 * Samsara paper, "Janma: Turnkey Instantiation" and "Bounded Lifetimes".
 */
import { z } from "zod";
import { CapabilityGrant, CapabilityId, Count, DigestText, Id, Text, Tick } from "./common.ts";
import { ConsentGrant } from "./samskara.ts";

/** A tool the instance is born with, and the capabilities it exercises (D-016). */
export const ToolBinding = z
  .strictObject({
    tool: Id,
    capabilities: z.array(CapabilityId).min(1).max(32),
  })
  .meta({ id: "ToolBinding" });
export type ToolBinding = z.infer<typeof ToolBinding>;

/**
 * The termination-predicate language (D-015): a small, total, side-effect-free JSON language over
 * the instance's act counters, evaluated after every act.
 */
export type TerminationPredicate =
  | { readonly op: "acts_at_least"; readonly n: number }
  | { readonly op: "failures_at_least"; readonly n: number }
  | { readonly op: "consecutive_failures_at_least"; readonly n: number }
  | { readonly op: "ticks_since_birth_at_least"; readonly n: number }
  | { readonly op: "tool_used"; readonly tool: string }
  | { readonly op: "all"; readonly of: readonly TerminationPredicate[] }
  | { readonly op: "any"; readonly of: readonly TerminationPredicate[] }
  | { readonly op: "not"; readonly of: TerminationPredicate };

const PositiveCount = z.int({ error: "expected a positive integer" }).min(1).max(1_000_000_000);

export const TerminationPredicate: z.ZodType<TerminationPredicate> = z
  .lazy(() =>
    z.discriminatedUnion("op", [
      z.strictObject({ op: z.literal("acts_at_least"), n: PositiveCount }),
      z.strictObject({ op: z.literal("failures_at_least"), n: PositiveCount }),
      z.strictObject({ op: z.literal("consecutive_failures_at_least"), n: PositiveCount }),
      z.strictObject({ op: z.literal("ticks_since_birth_at_least"), n: PositiveCount }),
      z.strictObject({ op: z.literal("tool_used"), tool: Id }),
      z.strictObject({ op: z.literal("all"), of: z.array(TerminationPredicate).min(1).max(16) }),
      z.strictObject({ op: z.literal("any"), of: z.array(TerminationPredicate).min(1).max(16) }),
      z.strictObject({ op: z.literal("not"), of: TerminationPredicate }),
    ]),
  )
  .meta({ id: "TerminationPredicate", description: "Declarative termination predicate over act counters (D-015)." });

export const TerminationCondition = z
  .strictObject({ id: Id, when: TerminationPredicate })
  .meta({ id: "TerminationCondition" });
export type TerminationCondition = z.infer<typeof TerminationCondition>;

/** Custody parameters for the life's distillation obligation (D-018). */
export const DistillationPolicy = z
  .strictObject({
    deadline_ticks: PositiveCount,
    max_retries: z.int().min(0).max(100),
    /** The principal's satisfaction model every signal of the life must be computed under; null = the reference formula (D-053). */
    satisfaction_model: z.union([Text(128), z.null()]),
  })
  .meta({ id: "DistillationPolicy" });
export type DistillationPolicy = z.infer<typeof DistillationPolicy>;

/** The substrate an instance is born on: base-model digest plus a pinned store version. */
export const Substrate = z.strictObject({
  base_digest: DigestText,
  store_version: DigestText,
});

/** JanmaManifest: everything an instance is born with, declared up front (J-1). */
export const JanmaManifest = z
  .strictObject({
    manifest_version: z.literal(1),
    substrate: Substrate,
    mission: Text(4000, 1, "mission must not be empty"),
    capability_grants: z.array(CapabilityGrant).max(64),
    tool_bindings: z.array(ToolBinding).max(64),
    consent_scope: ConsentGrant,
    ttl_ticks: PositiveCount,
    termination_conditions: z.array(TerminationCondition).max(16),
    distillation_policy: DistillationPolicy,
  })
  .superRefine((m, ctx) => {
    const tools = new Set<string>();
    m.tool_bindings.forEach((b, i) => {
      if (tools.has(b.tool))
        ctx.addIssue({
          code: "custom",
          path: ["tool_bindings", i, "tool"],
          message: `tool ${b.tool} bound twice`,
          params: { rule: "JanmaManifest.unique-tool-bindings" },
        });
      tools.add(b.tool);
    });
    const conds = new Set<string>();
    m.termination_conditions.forEach((c, i) => {
      if (conds.has(c.id))
        ctx.addIssue({
          code: "custom",
          path: ["termination_conditions", i, "id"],
          message: `duplicate condition id ${c.id}`,
          params: { rule: "JanmaManifest.unique-termination-condition-ids" },
        });
      conds.add(c.id);
    });
  })
  .meta({
    id: "JanmaManifest",
    description: "Declarative instantiation manifest of one life.",
    "x-rules": ["JanmaManifest.unique-tool-bindings", "JanmaManifest.unique-termination-condition-ids"],
  });
export type JanmaManifest = z.infer<typeof JanmaManifest>;

/**
 * Lifecycle states (D-017). `avyakrta` (unmanifest) is the state of an instance id that was never
 * conceived; `dissolved` is terminal.
 */
export const INSTANCE_STATES = ["avyakrta", "conceived", "ready", "active", "withdrawn", "dissolved"] as const;
export const InstanceState = z.enum(INSTANCE_STATES).meta({ id: "InstanceState" });
export type InstanceState = z.infer<typeof InstanceState>;

/** Why an instance was withdrawn (D-014, D-015). */
export const WithdrawalReason = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("ttl") }),
    z.strictObject({ kind: z.literal("termination_condition"), condition_id: Id }),
    z.strictObject({ kind: z.literal("principal") }),
    z.strictObject({ kind: z.literal("forced") }),
  ])
  .meta({ id: "WithdrawalReason" });
export type WithdrawalReason = z.infer<typeof WithdrawalReason>;

/** What the environment offers at birth: resolvable tools and grantable capabilities (D-017). */
export const BirthEnvironment = z
  .strictObject({
    tools: z.array(ToolBinding).max(256),
    grantable: z.array(CapabilityGrant).max(256),
  })
  .meta({ id: "BirthEnvironment" });
export type BirthEnvironment = z.infer<typeof BirthEnvironment>;

/** Corrective when the principal rejected the life (valence < 0), reinforcing otherwise (D-013). */
export const ObligationKind = z.enum(["corrective", "reinforcing"]).meta({ id: "ObligationKind" });
export type ObligationKind = z.infer<typeof ObligationKind>;

/** Terminal custody outcomes (D-018). */
export const CustodyOutcome = z
  .enum(["applied", "declined", "escalated", "best_effort"])
  .meta({ id: "CustodyOutcome" });
export type CustodyOutcome = z.infer<typeof CustodyOutcome>;

/** What a delivery attempt observed, as scripted by the runner (D-018). `applied` comes only from a merge. */
export const CustodyAck = z.enum(["declined", "deferred", "lost"]).meta({ id: "CustodyAck" });
export type CustodyAck = z.infer<typeof CustodyAck>;

/** The fail-safe a corrective obligation declares: quarantine the version its life was born from (D-019, D-055). */
export const FailSafe = z
  .strictObject({ action: z.literal("quarantine"), store_version: DigestText })
  .meta({ id: "FailSafe" });
export type FailSafe = z.infer<typeof FailSafe>;

/**
 * The obligation emitted when a withdrawn instance is distilled (J-4, D-018, D-019). One shape per
 * kind (D-063): a corrective obligation declares its fail-safe (the custody protocol's admissible),
 * a reinforcing one declares none (`fail_safe: null`), so the JSON Schema states the rule too.
 */
const obligationFields = {
  obligation_id: Id,
  instance_id: Id,
  distillate_id: Id,
  distillate_digest: DigestText,
  born_from: DigestText,
  created_tick: Tick,
  deadline_tick: Tick,
  max_retries: Count,
  attempts: Count,
  status: z.enum(["pending", "discharged"]),
  outcome: z.union([CustodyOutcome, z.null()]),
};
export const DistillationObligation = z
  .discriminatedUnion("kind", [
    z.strictObject({ ...obligationFields, kind: z.literal("corrective"), fail_safe: FailSafe }),
    z.strictObject({ ...obligationFields, kind: z.literal("reinforcing"), fail_safe: z.null() }),
  ])
  .meta({
    id: "DistillationObligation",
    description: "Exactly one per withdrawn life (J-4); only a corrective one declares a fail-safe (D-063).",
  });
export type DistillationObligation = z.infer<typeof DistillationObligation>;
