/**
 * Valid and invalid examples of every wire object. They document the objects for implementers
 * in other languages (they are exported next to the JSON Schemas) and are tested: every valid
 * example parses, every invalid one fails with an issue at the stated path.
 */
import type { Digest } from "./digest.ts";

export interface InvalidExample {
  readonly value: unknown;
  /** The zod issue path the rejection must name (joined with '.'; '' for the root). */
  readonly path: string;
  readonly why: string;
}

export interface Examples {
  readonly valid: readonly unknown[];
  readonly invalid: readonly InvalidExample[];
}

const d = (c: string): Digest => `sha256:${c.repeat(64)}`;
export const EXAMPLE_DIGESTS = { a: d("a"), b: d("b"), c: d("c"), e: d("e"), f: d("f") } as const;
const { a: DA, b: DB, c: DC, e: DE, f: DF } = EXAMPLE_DIGESTS;

export const consentGrant = {
  grant_id: "grant-1",
  principal: "principal-1",
  cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
  category_defaults: [{ category: "financial", sensitivity: "medium" }],
  persist_ceiling: "low",
};

export const disposition = {
  key: "tool.fare_search",
  guidance: "prefer: indexed fare lookup",
  weight: 900_000,
  evidence_digest: DA,
  category: "operational",
};

export const signal = { valence: 900_000, confidence: 800_000, model_version: null, explicit: true };

export const distillate = {
  distillate_id: "d-1",
  source: { identity: DB, nonce: "n-1", instance_id: "i-1" },
  born_from: DC,
  signal,
  dispositions: [disposition],
};

export const manifest = {
  manifest_version: 1,
  substrate: { base_digest: DA, store_version: DC },
  mission: "Book the cheapest fare.",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "fare_search", capabilities: ["fare.search"] }],
  consent_scope: consentGrant,
  ttl_ticks: 100,
  termination_conditions: [
    { id: "three-failures", when: { op: "consecutive_failures_at_least", n: 3 } },
    { id: "done", when: { op: "all", of: [{ op: "tool_used", tool: "fare_search" }, { op: "acts_at_least", n: 5 }] } },
  ],
  distillation_policy: { deadline_ticks: 10, max_retries: 2 },
};

const action = { tool: "fare_search", capability: "fare.search", outcome: "ok", tick: 5, trace: ["called fare_search"] };
const execution = { execution_id: "exec-1", reasoner: "model-x", harness: "harness-y", host: "host-z" };
const provider = { provider_id: "chat-1", kind: "chat", contract_version: "1", capabilities: ["chat.send"] };
const authorization = { custodian: "alice", decision_id: "dec-1" };
const bundle = {
  migration_id: "m-1",
  identity: DB,
  identity_record_digest: DE,
  identity_version: 1,
  memory_head: DF,
  store_head: DC,
  body_revision: "rev-1",
  task_ids: ["t-1"],
  source_generation: 2,
  required_capabilities: ["chat.send"],
};
const delta = { gained: [], lost: [], unchanged: ["chat.send"] };

export const EXAMPLES: Readonly<Record<string, Examples>> = {
  Authorization: {
    valid: [authorization],
    invalid: [{ value: { custodian: "alice" }, path: "decision_id", why: "a decision id is required" }],
  },
  ConsentGrant: {
    valid: [consentGrant],
    invalid: [
      {
        value: { ...consentGrant, cells: [...consentGrant.cells, ...consentGrant.cells] },
        path: "cells.1",
        why: "duplicate (category, dimension) cells are invalid",
      },
      { value: { ...consentGrant, persist_ceiling: "high" }, path: "persist_ceiling", why: "'high' never persists" },
    ],
  },
  Disposition: {
    valid: [disposition, { ...disposition, weight: -1_000_000 }],
    invalid: [
      { value: { ...disposition, weight: 0.9 }, path: "weight", why: "weights are integers in millionths (D-001)" },
      { value: { ...disposition, weight: 1_000_001 }, path: "weight", why: "weights lie in [-1, 1]" },
      { value: { ...disposition, evidence_digest: "dfde43976886" }, path: "evidence_digest", why: "full-length digests only (D-004)" },
      { value: { ...disposition, key: "Tool Fare" }, path: "key", why: "keys are lowercase ASCII (D-003)" },
      { value: { ...disposition, episode: "called fare_search" }, path: "", why: "strict: unknown fields are rejected (S-1)" },
    ],
  },
  SatisfactionSignal: {
    valid: [signal, { ...signal, confidence: 0 }],
    invalid: [
      { value: { ...signal, valence: -2_000_000 }, path: "valence", why: "valence lies in [-1, 1]" },
      { value: { ...signal, confidence: -1 }, path: "confidence", why: "confidence lies in [0, 1]" },
    ],
  },
  SamskaraDistillate: {
    valid: [distillate, { ...distillate, dispositions: [] }],
    invalid: [
      { value: { ...distillate, trace: ["called fare_search"] }, path: "", why: "a distillate carries no trace (S-1)" },
      {
        value: { ...distillate, dispositions: [disposition, disposition] },
        path: "dispositions.1.key",
        why: "one disposition per key",
      },
      { value: { ...distillate, signal: undefined }, path: "signal", why: "the principal's signal is required" },
    ],
  },
  StoreEntry: {
    valid: [{ key: "tool.fare_search", guidance: "prefer: indexed", weight: 450_000, category: "operational", contested: true, contributors: ["d-1", "d-2"] }],
    invalid: [{ value: { key: "tool.fare_search", guidance: "x", weight: 1, category: "operational", contributors: [] }, path: "contested", why: "contested flag is required" }],
  },
  StoreState: {
    valid: [{ entries: [] }],
    invalid: [{ value: { entries: [{}] }, path: "entries.0.key", why: "entries are StoreEntry objects" }],
  },
  MergeBatch: {
    valid: [{ batch_digest: DA, members: [{ distillate_id: "d-1", digest: DB }] }],
    invalid: [{ value: { batch_digest: DA, members: [] }, path: "members", why: "a recorded batch is never empty (D-009)" }],
  },
  StoreVersion: {
    valid: [
      { version_id: DA, seq: 0, parent: null, batch_digest: null, state_digest: DB },
      { version_id: DC, seq: 1, parent: DA, batch_digest: DE, state_digest: DF },
    ],
    invalid: [{ value: { version_id: DA, seq: -1, parent: null, batch_digest: null, state_digest: DB }, path: "seq", why: "seq is a count" }],
  },
  ExcisionRecord: {
    valid: [{ excision_id: "x-1", tick: 9, excised: [{ distillate_id: "d-1", digest: DB }], prior_head: DA, new_head: DC, authorization }],
    invalid: [
      {
        value: { excision_id: "x-1", tick: 9, excised: [{ distillate_id: "d-1", digest: DB, guidance: "secret" }], prior_head: DA, new_head: DC, authorization },
        path: "excised.0",
        why: "identifiers and digests only, never content (S-5)",
      },
    ],
  },
  LineageReplayClaim: {
    valid: [{ claim_type: "samskara.lineage_replay/v1", identity: DA, genesis: DB, head: DC, versions: 2, batch_digests: [DE], state_digest: DF, excisions: 0 }],
    invalid: [{ value: { claim_type: "replay", identity: DA, genesis: DB, head: DC, versions: 2, batch_digests: [], state_digest: DF, excisions: 0 }, path: "claim_type", why: "the claim is typed" }],
  },
  ToolBinding: {
    valid: [{ tool: "fare_search", capabilities: ["fare.search"] }],
    invalid: [{ value: { tool: "fare_search", capabilities: ["fare.*"] }, path: "capabilities.0", why: "a binding names exact capabilities, not wildcards" }],
  },
  TerminationPredicate: {
    valid: [{ op: "not", of: { op: "any", of: [{ op: "acts_at_least", n: 3 }, { op: "ticks_since_birth_at_least", n: 10 }] } }],
    invalid: [
      { value: { op: "eval", code: "1+1" }, path: "op", why: "the predicate language is closed (D-015)" },
      { value: { op: "acts_at_least", n: 0 }, path: "n", why: "counts are positive" },
    ],
  },
  TerminationCondition: {
    valid: [{ id: "fail3", when: { op: "failures_at_least", n: 3 } }],
    invalid: [{ value: { id: "fail3" }, path: "when", why: "a condition needs a predicate" }],
  },
  DistillationPolicy: {
    valid: [{ deadline_ticks: 10, max_retries: 0 }],
    invalid: [{ value: { deadline_ticks: 0, max_retries: 0 }, path: "deadline_ticks", why: "a deadline is in the future" }],
  },
  JanmaManifest: {
    valid: [manifest],
    invalid: [
      { value: { ...manifest, ttl_ticks: 0 }, path: "ttl_ticks", why: "lifetimes are bounded and positive (J-3)" },
      { value: { ...manifest, ttl_ticks: 1.5 }, path: "ttl_ticks", why: "ticks are integers" },
      {
        value: { ...manifest, tool_bindings: [manifest.tool_bindings[0], manifest.tool_bindings[0]] },
        path: "tool_bindings.1.tool",
        why: "a tool is bound once",
      },
      { value: { ...manifest, substrate: { base_digest: DA } }, path: "substrate.store_version", why: "the store version is pinned" },
    ],
  },
  InstanceState: {
    valid: ["avyakrta", "conceived", "ready", "active", "withdrawn", "dissolved"],
    invalid: [{ value: "running", path: "", why: "states are the lifecycle's" }],
  },
  WithdrawalReason: {
    valid: [{ kind: "ttl" }, { kind: "termination_condition", condition_id: "fail3" }],
    invalid: [{ value: { kind: "termination_condition" }, path: "condition_id", why: "the condition that fired is named" }],
  },
  BirthEnvironment: {
    valid: [{ tools: [{ tool: "fare_search", capabilities: ["fare.search"] }], grantable: ["fare.*"] }],
    invalid: [{ value: { tools: [] }, path: "grantable", why: "the environment states what is grantable" }],
  },
  ObligationKind: { valid: ["corrective", "reinforcing"], invalid: [{ value: "urgent", path: "", why: "two kinds only (D-013)" }] },
  CustodyOutcome: {
    valid: ["applied", "declined", "escalated", "best_effort"],
    invalid: [{ value: "lost", path: "", why: "nothing ends silently" }],
  },
  CustodyAck: { valid: ["declined", "deferred", "lost"], invalid: [{ value: "applied", path: "", why: "applied comes only from a merge (D-018)" }] },
  DistillationObligation: {
    valid: [
      {
        obligation_id: "o-1", instance_id: "i-1", kind: "corrective", distillate_id: "d-1", distillate_digest: DA,
        born_from: DC, created_tick: 10, deadline_tick: 20, max_retries: 2, attempts: 0, status: "pending", outcome: null,
        fail_safe: { action: "quarantine", store_version: DC },
      },
    ],
    invalid: [
      {
        value: {
          obligation_id: "o-1", instance_id: "i-1", kind: "corrective", distillate_id: "d-1", distillate_digest: DA,
          born_from: DC, created_tick: 10, deadline_tick: 20, max_retries: 2, attempts: 0, status: "pending", outcome: null,
        },
        path: "fail_safe",
        why: "an obligation must declare its fail-safe (D-019)",
      },
    ],
  },
  AdvaitaIdentity: {
    valid: [{ identity: DA, base_digest: DB, lineage_root: DC, root: "0b7c6d0e-1111-4222-8333-944455556666" }],
    invalid: [{ value: { identity: DA, base_digest: DB, root: "r" }, path: "lineage_root", why: "identity is computed from the lineage root" }],
  },
  Projection: {
    valid: [{ identity: DA, nonce: "n-1", manifest_digest: DB, instance_id: "i-1" }],
    invalid: [{ value: { identity: DA, nonce: "", manifest_digest: DB, instance_id: "i-1" }, path: "nonce", why: "nonces are non-empty ids" }],
  },
  Action: {
    valid: [action],
    invalid: [{ value: { ...action, outcome: "maybe" }, path: "outcome", why: "ok or failed" }],
  },
  SignedAction: {
    valid: [{ identity: DA, nonce: "n-1", manifest_digest: DB, action, signature: DC }],
    invalid: [{ value: { identity: DA, nonce: "n-1", manifest_digest: DB, action }, path: "signature", why: "actions are signed (AD-4)" }],
  },
  IdentityRecord: {
    valid: [{ identity: DA, designation: "Enoch", identity_version: 1 }],
    invalid: [{ value: { identity: DA, designation: "Enoch", identity_version: 0 }, path: "identity_version", why: "versions start at 1" }],
  },
  MemoryState: {
    valid: [{ ancestry: [DA, DB], store_head: DC, task_ids: ["t-1"] }],
    invalid: [{ value: { ancestry: [], store_head: DC, task_ids: [] }, path: "ancestry", why: "memory always has an ancestry" }],
  },
  BodyState: {
    valid: [{ revision: "rev-2", lineage: ["rev-1", "rev-2"] }],
    invalid: [{ value: { revision: "rev-2", lineage: [] }, path: "lineage", why: "the body has a lineage" }],
  },
  PersistentSubstrate: {
    valid: [{ identity: { identity: DA, designation: "Enoch", identity_version: 1 }, memory: { ancestry: [DA], store_head: DC, task_ids: [] }, body: { revision: "rev-1", lineage: ["rev-1"] } }],
    invalid: [{ value: { identity: { identity: DA, designation: "Enoch", identity_version: 1 }, memory: { ancestry: [DA], store_head: DC, task_ids: [] } }, path: "body", why: "P = (I, M, B)" }],
  },
  ExecutionBinding: { valid: [execution], invalid: [{ value: { ...execution, execution_id: undefined }, path: "execution_id", why: "executions are named" }] },
  InteractionSurface: {
    valid: [{ surface_id: "s-1", kind: "chat", account: "acct", session: "sess" }],
    invalid: [{ value: { surface_id: "s-1", kind: "chat", account: "acct" }, path: "session", why: "a surface has a session" }],
  },
  Labels: { valid: [{ "runtime.model": "model-x" }], invalid: [{ value: { "Bad Key": "x" }, path: "Bad Key", why: "label keys are lowercase" }] },
  ProviderGrant: {
    valid: [provider],
    invalid: [{ value: { ...provider, kind: "magic" }, path: "kind", why: "provider kinds are the RIPA contracts" }],
  },
  CapabilityDelta: { valid: [delta], invalid: [{ value: { gained: [], lost: [] }, path: "unchanged", why: "the full delta is reported" }] },
  AuthorityEpoch: {
    valid: [{ token: "tok-1", generation: 1, holder: "exec-1" }, { token: "tok-2", generation: 2, holder: null }],
    invalid: [{ value: { token: "tok-1", generation: 1 }, path: "holder", why: "the holder (or null) is explicit" }],
  },
  BundleManifest: {
    valid: [bundle],
    invalid: [{ value: { ...bundle, credentials: "secret" }, path: "", why: "bundles carry no secrets; strict" }],
  },
  SourceFence: {
    valid: [{ migration_id: "m-1", status: "exported", body_revision: "rev-1", source_generation: 2, bundle_digest: DA }],
    invalid: [{ value: { migration_id: "m-1", status: "done", body_revision: "rev-1", source_generation: 2, bundle_digest: null }, path: "status", why: "preparing or exported" }],
  },
  TargetMarker: {
    valid: [{ migration_id: "m-1", status: "importing", target_execution_id: "exec-2" }],
    invalid: [{ value: { migration_id: "m-1", status: "running", target_execution_id: "exec-2" }, path: "status", why: "importing, imported, activated, verified" }],
  },
  MigrationReport: {
    valid: [
      {
        migration_id: "m-1", source_execution_id: "exec-1", target_execution_id: "exec-2", bundle_digest: DA,
        capability_delta: delta, identity_preserved: true, memory_extended: true, body_preserved: true,
        source_generation: 2, target_generation: 3,
      },
    ],
    invalid: [
      {
        value: { migration_id: "m-1", source_execution_id: "exec-1", target_execution_id: "exec-2", bundle_digest: DA, identity_preserved: true, memory_extended: true, body_preserved: true, source_generation: 2, target_generation: 3 },
        path: "capability_delta",
        why: "the capability delta is always reported (I5)",
      },
    ],
  },
  Command: {
    valid: [
      { op: "janma.withdraw", tick: 3, agent: DA, instance_id: "i-1", reason: "principal" },
      { op: "samskara.merge", tick: 4, agent: DA, obligation_ids: ["o-1", "o-2"] },
      { op: "janma.distil", tick: 4, agent: DA, instance_id: "i-1", obligation_id: "o-1", distillate: { anything: "parsed by the operation (D-028)" } },
    ],
    invalid: [
      { value: { op: "janma.teleport", tick: 1 }, path: "op", why: "unknown operation" },
      { value: { op: "janma.withdraw", tick: -1, agent: DA, instance_id: "i-1", reason: "principal" }, path: "tick", why: "ticks are non-negative" },
      { value: { op: "samskara.merge", tick: 4, agent: DA, obligation_ids: [] }, path: "obligation_ids", why: "a merge names at least one obligation" },
    ],
  },
  Event: {
    valid: [{ type: "obligation.emitted", obligation_id: "o-1", kind: "corrective" }],
    invalid: [{ value: { type: "obligation.emitted", obligation_id: "o-1", kind: "corrective", trace: "x" }, path: "", why: "events are strict" }],
  },
  WorldView: {
    valid: [
      { tick: 0, roots_used: [], agents: [] },
      {
        tick: 1,
        roots_used: ["root-1"],
        agents: [
          {
            identity: { identity: DB, base_digest: DA, lineage_root: DC, root: "root-1" },
            substrate: {
              identity: { identity: DB, designation: "Enoch", identity_version: 1 },
              memory: { ancestry: [DF], store_head: DC, task_ids: [] },
              body: { revision: "rev-1", lineage: ["rev-1"] },
            },
            store: {
              head: DC,
              chain: [{ version_id: DC, seq: 0, parent: null, batch_digest: null, state_digest: DE }],
              batches: [],
              state: { entries: [] },
              distillates: [],
              excisions: [],
              quarantined: [],
              momentum: [],
            },
            instances: [],
            obligations: [],
            ripa: {
              custodians: ["alice"],
              execution,
              replicas: [],
              surfaces: [],
              providers: [provider],
              required_capabilities: ["chat.send"],
              authority: { token: "tok-1", generation: 1, holder: "exec-1" },
              live_attempts: [],
              effects: [],
              fences: [],
              marker: null,
              migration: null,
              reports: [],
            },
          },
        ],
      },
    ],
    invalid: [{ value: { tick: 0, agents: [] }, path: "roots_used", why: "the roots ever used are part of the world (AD-1)" }],
  },
  Rejection: {
    valid: [{ code: "JANMA_INCOMPLETE_AT_BIRTH", invariant: "J-1", message: "tool fare_search is not offered" }],
    invalid: [{ value: { code: "OOPS", invariant: null, message: "x" }, path: "code", why: "codes come from the error-code table" }],
  },
};
