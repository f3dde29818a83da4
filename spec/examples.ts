/**
 * Valid and invalid examples of every wire object. They document the objects for implementers
 * in other languages (they are exported next to the JSON Schemas) and are tested: every valid
 * example parses, every invalid one fails with an issue at the stated path.
 */
import { INVARIANTS } from "./catalog.ts";
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
    {
      id: "done",
      when: {
        op: "all",
        of: [
          { op: "tool_used", tool: "fare_search" },
          { op: "acts_at_least", n: 5 },
        ],
      },
    },
  ],
  distillation_policy: { deadline_ticks: 10, max_retries: 2, satisfaction_model: null },
};

const action = {
  tool: "fare_search",
  capability: "fare.search",
  outcome: "ok",
  tick: 5,
  trace: ["called fare_search"],
};
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

// --- Conformance: what `srk certify` writes (spec/certificate.ts) ------------------------------

const IMPL_COMMAND = "python3 -m agentd --wire";
const mintRequest = {
  type: "command",
  id: "c1",
  command: {
    op: "advaita.mint",
    tick: 1,
    base_digest: DA,
    root: "root-0",
    designation: "agent",
    body_revision: "rev-0",
    custodians: ["custodian-1"],
    execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host" },
    providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    required_capabilities: ["fare.search"],
    authority_token: "tok-1",
  },
};
const mintReply = {
  ok: true,
  events: [
    { type: "agent.minted", identity: DB, genesis: DC },
    { type: "epoch.advanced", generation: 1, holder: "exec-1" },
  ],
};

/** One step of a portable trace: a birth with no tool bound, which J-1 requires to be rejected. */
export const traceStep = {
  request: {
    type: "command",
    id: "c3",
    command: {
      op: "janma.birth",
      tick: 2,
      agent: DB,
      instance_id: "i-1",
      environment: { tools: [], grantable: ["fare.*"] },
    },
  },
  expected: { ok: false, error: { code: "JANMA_INCOMPLETE_AT_BIRTH", invariant: "J-1", definite: true } },
  actual: { ok: true, events: [{ type: "instance.born", instance_id: "i-1" }] },
};

/** A shrunk counterexample of the differential campaign: the implementation births an instance J-1 forbids. */
export const portableTrace = {
  trace_version: 1,
  invariant: "J-1",
  stage: "differential",
  check: "differential/step",
  summary: "the model rejected janma.birth with JANMA_INCOMPLETE_AT_BIRTH (J-1), the implementation accepted it",
  seed: 1,
  path: "3:1:0",
  steps: [
    { request: mintRequest, expected: mintReply, actual: mintReply },
    {
      request: {
        type: "command",
        id: "c2",
        command: { op: "janma.conceive", tick: 1, agent: DB, instance_id: "i-1", nonce: "n-1", manifest },
      },
      expected: { ok: true, events: [{ type: "instance.conceived", instance_id: "i-1" }] },
      actual: { ok: true, events: [{ type: "instance.conceived", instance_id: "i-1" }] },
    },
    traceStep,
  ],
  failing_step: 2,
  difference: null,
  shrink: { attempts: 41, original_length: 27, interrupted: false },
};

const TRACE_FILE = "traces/differential-J-1-1.json";
export const counterexampleRef = {
  invariant: "J-1",
  stage: "differential",
  check: "differential/step",
  summary: portableTrace.summary,
  steps: portableTrace.steps.length,
  trace_file: TRACE_FILE,
  replay: `npx srk replay certificates/agentd/${TRACE_FILE} --impl '${IMPL_COMMAND}'`,
};

const noWitness = { accepted: 0, rejected: 0, crash_cuts: 0, algebra: 0, forgetting: 0 };

/**
 * The 19 verdicts of the example certificate, one per catalog invariant in catalog order, as
 * `conformance/verdicts/decide.ts` decides them: the profile leaves ripa out (I1-I6 not
 * applicable), J-1 failed with one counterexample, every other invariant passed with witnesses.
 */
export const invariantVerdicts = INVARIANTS.map((inv, i) => {
  const base = { invariant: inv.id, family: inv.protocol, counterexamples: [] as unknown[], expected_failure: false };
  if (inv.protocol === "ripa") {
    return {
      ...base,
      verdict: "not-applicable",
      reason: `family ${inv.protocol} is not in the declared profile (W-5.2)`,
      witnesses: noWitness,
    };
  }
  const witnesses = {
    accepted: 30 + 7 * i,
    rejected: 2 + i,
    crash_cuts: 12 + i,
    algebra: ["AD-3", "S-4", "S-5"].includes(inv.id) ? 20 : 0,
    forgetting: ["S-1", "S-5"].includes(inv.id) ? 6 : 0,
  };
  if (inv.id === "J-1")
    return {
      ...base,
      verdict: "fail",
      reason: counterexampleRef.summary,
      witnesses,
      counterexamples: [counterexampleRef],
    };
  const total = Object.values(witnesses).reduce((a, b) => a + b, 0);
  return { ...base, verdict: "pass", reason: `${total} witness(es), no violation`, witnesses };
});

const stageResult = {
  stage: "algebra",
  verdict: "pass",
  reason: "merge order-independence, excision and replay agreed with the model",
  checks: 60,
  duration_ms: 8_412,
  findings: [],
  notes: [
    "AD-3 over 3 distillates: 10 schedules compared on store.state, store.head (the fields the model's schedules agree on)",
  ],
};

/** A certificate with one violation: J-1 failed (not in the baseline), so the result is `violations`, exit 1. */
export const certificate = {
  certificate_version: 1,
  kit: { name: "samsara-ripa-kit", version: "0.1.0", spec_digest: DE },
  protocol_version: "1",
  implementation: {
    name: "agentd",
    version: "0.4.2",
    command_line: IMPL_COMMAND,
    profile: { families: ["janma", "samskara", "advaita"], crash_hook: true },
  },
  settings: {
    seed: 1,
    runs: 100,
    time_budget_ms: 600_000,
    request_timeout_ms: 15_000,
    only: [],
    stages: ["handshake", "golden", "wire", "exhaustive", "differential", "algebra", "crash", "forgetting"],
    exhaustive_scope: "quick",
  },
  started_at: "2025-01-15T09:30:00.000Z",
  duration_ms: 95_208,
  stages: [
    {
      stage: "handshake",
      verdict: "pass",
      reason: "version negotiation and profile as W-5 requires",
      checks: 4,
      duration_ms: 310,
      findings: [],
      notes: ["agentd 0.4.2, families [janma, samskara, advaita], crash hook yes"],
    },
    {
      stage: "golden",
      verdict: "not-applicable",
      reason: "no golden session uses only the declared families",
      checks: 0,
      duration_ms: 2,
      findings: [],
      notes: ["session-1: not applicable, it uses operations outside the profile (ripa.migration_fence, ripa.effect)"],
    },
    {
      stage: "wire",
      verdict: "pass",
      reason: "framing, ids and error replies as the protocol requires",
      checks: 38,
      duration_ms: 4_120,
      findings: [],
      notes: [],
    },
    {
      stage: "exhaustive",
      verdict: "pass",
      reason: "every edge of scope quick driven in 148 sessions, every reply and world view as the model's",
      checks: 2_031,
      duration_ms: 2_870,
      findings: [],
      notes: [
        "scope quick: 1240 edges of 164 states (depth ≤ 6), driven by 148 sessions of 2031 requests in all",
        "sent 2179 requests (resets included) in 148 sessions",
      ],
    },
    {
      stage: "differential",
      verdict: "fail",
      reason: counterexampleRef.summary,
      checks: 100,
      duration_ms: 61_944,
      findings: [counterexampleRef],
      notes: ["shrunk from 27 to 3 steps in 41 attempts"],
    },
    stageResult,
    {
      stage: "crash",
      verdict: "pass",
      reason: "48 crash cuts recovered to the model's world",
      checks: 48,
      duration_ms: 14_530,
      findings: [],
      notes: ["hook cuts: 20 at each of before_commit, after_commit (of 64 durable writes), plus 8 at reset"],
    },
    {
      stage: "forgetting",
      verdict: "pass",
      reason: "12 byte scans of the data directory found no trace or excised content",
      checks: 12,
      duration_ms: 5_870,
      findings: [],
      notes: [],
    },
  ],
  invariants: invariantVerdicts,
  baseline: { file: null, expected: [], unexpected_failures: ["J-1"], stale: [] },
  implementation_faults: [],
  harness_faults: [],
  result: "violations",
  exit_code: 1,
  shards: { count: 1, indices: [1] },
  coverage: {
    transitions: [
      { machine: "janma", from: "avyakrta", to: "conceived", op: "janma.conceive", count: 212 },
      { machine: "janma", from: "conceived", to: "ready", op: "janma.birth", count: 187 },
      { machine: "janma", from: "ready", to: "active", op: "janma.act", count: 96 },
      { machine: "janma", from: "active", to: "withdrawn", op: "janma.withdraw", count: 41 },
      { machine: "janma", from: "withdrawn", to: "dissolved", op: "janma.dissolve", count: 9 },
    ],
  },
};

/** No handshake succeeded: every invariant is inconclusive, the result is `inconclusive`, exit 2. */
export const undrivenCertificate = {
  ...certificate,
  protocol_version: null,
  implementation: { name: null, version: null, command_line: IMPL_COMMAND, profile: null },
  settings: { ...certificate.settings, stages: ["handshake"] },
  duration_ms: 30_114,
  stages: [
    {
      stage: "handshake",
      verdict: "inconclusive",
      reason: "the first handshake failed: no reply to hello within 30000 ms",
      checks: 1,
      duration_ms: 30_109,
      findings: [],
      notes: [],
    },
  ],
  invariants: INVARIANTS.map((inv) => ({
    invariant: inv.id,
    family: inv.protocol,
    verdict: "inconclusive",
    reason: "no handshake succeeded: the implementation could not be driven",
    witnesses: noWitness,
    counterexamples: [],
    expected_failure: false,
  })),
  baseline: { file: null, expected: [], unexpected_failures: [], stale: [] },
  implementation_faults: ["no reply to hello within 30000 ms; stderr: agentd: cannot open data directory"],
  coverage: { transitions: [] },
  result: "inconclusive",
  exit_code: 2,
};

const logHeader = {
  srk_log: 1,
  recorder: "srk record 0.1.0",
  impl: "python3 -m my_impl --data-dir /tmp/d",
  started_at: "2026-05-04T09:30:00.000Z",
};

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
      {
        value: {
          ...consentGrant,
          category_defaults: [...consentGrant.category_defaults, { category: "financial", sensitivity: "low" }],
        },
        path: "category_defaults.1",
        why: "one default row per category (D-042)",
      },
    ],
  },
  Disposition: {
    valid: [disposition, { ...disposition, weight: -1_000_000 }],
    invalid: [
      { value: { ...disposition, weight: 0.9 }, path: "weight", why: "weights are integers in millionths (D-001)" },
      { value: { ...disposition, weight: 1_000_001 }, path: "weight", why: "weights lie in [-1, 1]" },
      {
        value: { ...disposition, evidence_digest: "dfde43976886" },
        path: "evidence_digest",
        why: "full-length digests only (D-004)",
      },
      { value: { ...disposition, key: "Tool Fare" }, path: "key", why: "keys are lowercase ASCII (D-003)" },
      {
        value: { ...disposition, episode: "called fare_search" },
        path: "",
        why: "strict: unknown fields are rejected (S-1)",
      },
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
    valid: [
      {
        key: "tool.fare_search",
        guidance: "prefer: indexed",
        weight: 450_000,
        category: "operational",
        contested: true,
        contributors: ["d-1", "d-2"],
      },
    ],
    invalid: [
      {
        value: { key: "tool.fare_search", guidance: "x", weight: 1, category: "operational", contributors: [] },
        path: "contested",
        why: "contested flag is required",
      },
    ],
  },
  StoreState: {
    valid: [{ entries: [] }],
    invalid: [{ value: { entries: [{}] }, path: "entries.0.key", why: "entries are StoreEntry objects" }],
  },
  MergeBatch: {
    valid: [{ batch_digest: DA, members: [{ distillate_id: "d-1", digest: DB }] }],
    invalid: [
      { value: { batch_digest: DA, members: [] }, path: "members", why: "a recorded batch is never empty (D-009)" },
    ],
  },
  StoreVersion: {
    valid: [
      { version_id: DA, seq: 0, parent: null, batch_digest: null, state_digest: DB },
      { version_id: DC, seq: 1, parent: DA, batch_digest: DE, state_digest: DF },
    ],
    invalid: [
      {
        value: { version_id: DA, seq: -1, parent: null, batch_digest: null, state_digest: DB },
        path: "seq",
        why: "seq is a count",
      },
    ],
  },
  ExcisionRecord: {
    valid: [
      {
        excision_id: "x-1",
        tick: 9,
        excised: [{ distillate_id: "d-1", digest: DB }],
        prior_head: DA,
        new_head: DC,
        authorization,
      },
    ],
    invalid: [
      {
        value: {
          excision_id: "x-1",
          tick: 9,
          excised: [{ distillate_id: "d-1", digest: DB, guidance: "secret" }],
          prior_head: DA,
          new_head: DC,
          authorization,
        },
        path: "excised.0",
        why: "identifiers and digests only, never content (S-5)",
      },
    ],
  },
  LineageReplayClaim: {
    valid: [
      {
        claim_type: "samskara.lineage_replay/v1",
        identity: DA,
        genesis: DB,
        head: DC,
        versions: 2,
        batch_digests: [DE],
        state_digest: DF,
        excisions: 0,
      },
    ],
    invalid: [
      {
        value: {
          claim_type: "replay",
          identity: DA,
          genesis: DB,
          head: DC,
          versions: 2,
          batch_digests: [],
          state_digest: DF,
          excisions: 0,
        },
        path: "claim_type",
        why: "the claim is typed",
      },
    ],
  },
  ToolBinding: {
    valid: [{ tool: "fare_search", capabilities: ["fare.search"] }],
    invalid: [
      {
        value: { tool: "fare_search", capabilities: ["fare.*"] },
        path: "capabilities.0",
        why: "a binding names exact capabilities, not wildcards",
      },
    ],
  },
  TerminationPredicate: {
    valid: [
      {
        op: "not",
        of: {
          op: "any",
          of: [
            { op: "acts_at_least", n: 3 },
            { op: "ticks_since_birth_at_least", n: 10 },
          ],
        },
      },
    ],
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
    valid: [
      { deadline_ticks: 10, max_retries: 0, satisfaction_model: null },
      { deadline_ticks: 10, max_retries: 0, satisfaction_model: "psm-2026-03" },
    ],
    invalid: [
      {
        value: { deadline_ticks: 0, max_retries: 0, satisfaction_model: null },
        path: "deadline_ticks",
        why: "a deadline is in the future",
      },
      {
        value: { deadline_ticks: 10, max_retries: 0 },
        path: "satisfaction_model",
        why: "the principal declares the satisfaction model, null for the reference formula (D-053)",
      },
    ],
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
      {
        value: { ...manifest, substrate: { base_digest: DA } },
        path: "substrate.store_version",
        why: "the store version is pinned",
      },
      {
        value: {
          ...manifest,
          termination_conditions: [manifest.termination_conditions[0], manifest.termination_conditions[0]],
        },
        path: "termination_conditions.1.id",
        why: "a withdrawal names its condition by a unique id",
      },
    ],
  },
  InstanceState: {
    valid: ["avyakrta", "conceived", "ready", "active", "withdrawn", "dissolved"],
    invalid: [{ value: "running", path: "", why: "states are the lifecycle's" }],
  },
  WithdrawalReason: {
    valid: [{ kind: "ttl" }, { kind: "termination_condition", condition_id: "fail3" }],
    invalid: [
      { value: { kind: "termination_condition" }, path: "condition_id", why: "the condition that fired is named" },
    ],
  },
  BirthEnvironment: {
    valid: [{ tools: [{ tool: "fare_search", capabilities: ["fare.search"] }], grantable: ["fare.*"] }],
    invalid: [{ value: { tools: [] }, path: "grantable", why: "the environment states what is grantable" }],
  },
  ObligationKind: {
    valid: ["corrective", "reinforcing"],
    invalid: [{ value: "urgent", path: "", why: "two kinds only (D-013)" }],
  },
  CustodyOutcome: {
    valid: ["applied", "declined", "escalated", "best_effort"],
    invalid: [{ value: "lost", path: "", why: "nothing ends silently" }],
  },
  CustodyAck: {
    valid: ["declined", "deferred", "lost"],
    invalid: [{ value: "applied", path: "", why: "applied comes only from a merge (D-018)" }],
  },
  DistillationObligation: {
    valid: [
      {
        obligation_id: "o-1",
        instance_id: "i-1",
        kind: "corrective",
        distillate_id: "d-1",
        distillate_digest: DA,
        born_from: DC,
        created_tick: 10,
        deadline_tick: 20,
        max_retries: 2,
        attempts: 0,
        status: "pending",
        outcome: null,
        fail_safe: { action: "quarantine", store_version: DC },
      },
      {
        obligation_id: "o-2",
        instance_id: "i-2",
        kind: "reinforcing",
        distillate_id: "d-2",
        distillate_digest: DA,
        born_from: DC,
        created_tick: 10,
        deadline_tick: 20,
        max_retries: 2,
        attempts: 1,
        status: "discharged",
        outcome: "best_effort",
        fail_safe: null,
      },
    ],
    invalid: [
      {
        value: {
          obligation_id: "o-1",
          instance_id: "i-1",
          kind: "corrective",
          distillate_id: "d-1",
          distillate_digest: DA,
          born_from: DC,
          created_tick: 10,
          deadline_tick: 20,
          max_retries: 2,
          attempts: 0,
          status: "pending",
          outcome: null,
        },
        path: "fail_safe",
        why: "an obligation must declare its fail-safe (D-019)",
      },
      {
        value: {
          obligation_id: "o-1",
          instance_id: "i-1",
          kind: "corrective",
          distillate_id: "d-1",
          distillate_digest: DA,
          born_from: DC,
          created_tick: 10,
          deadline_tick: 20,
          max_retries: 2,
          attempts: 0,
          status: "pending",
          outcome: null,
          fail_safe: null,
        },
        path: "fail_safe",
        why: "a corrective obligation declares the quarantine fail-safe (D-063)",
      },
      {
        value: {
          obligation_id: "o-2",
          instance_id: "i-2",
          kind: "reinforcing",
          distillate_id: "d-2",
          distillate_digest: DA,
          born_from: DC,
          created_tick: 10,
          deadline_tick: 20,
          max_retries: 2,
          attempts: 0,
          status: "pending",
          outcome: null,
          fail_safe: { action: "quarantine", store_version: DC },
        },
        path: "fail_safe",
        why: "a reinforcing obligation declares no fail-safe (D-063)",
      },
    ],
  },
  AdvaitaIdentity: {
    valid: [{ identity: DA, base_digest: DB, lineage_root: DC, root: "0b7c6d0e-1111-4222-8333-944455556666" }],
    invalid: [
      {
        value: { identity: DA, base_digest: DB, root: "r" },
        path: "lineage_root",
        why: "identity is computed from the lineage root",
      },
    ],
  },
  Projection: {
    valid: [{ identity: DA, nonce: "n-1", manifest_digest: DB, instance_id: "i-1" }],
    invalid: [
      {
        value: { identity: DA, nonce: "", manifest_digest: DB, instance_id: "i-1" },
        path: "nonce",
        why: "nonces are non-empty ids",
      },
    ],
  },
  Action: {
    valid: [action],
    invalid: [{ value: { ...action, outcome: "maybe" }, path: "outcome", why: "ok or failed" }],
  },
  SignedAction: {
    valid: [{ identity: DA, nonce: "n-1", manifest_digest: DB, action, signature: DC }],
    invalid: [
      {
        value: { identity: DA, nonce: "n-1", manifest_digest: DB, action },
        path: "signature",
        why: "actions are signed (AD-4)",
      },
    ],
  },
  IdentityRecord: {
    valid: [
      { identity: DA, designation: "Enoch", identity_version: 1 },
      // 200 code points (400 UTF-16 code units): the bound counts code points (D-041).
      { identity: DA, designation: "\u{1F680}".repeat(200), identity_version: 1 },
    ],
    invalid: [
      {
        value: { identity: DA, designation: "Enoch", identity_version: 0 },
        path: "identity_version",
        why: "versions start at 1",
      },
      {
        value: { identity: DA, designation: "\u{1F680}".repeat(201), identity_version: 1 },
        path: "designation",
        why: "at most 200 code points (D-041)",
      },
    ],
  },
  MemoryState: {
    valid: [{ ancestry: [DA, DB], store_head: DC, task_ids: ["t-1"] }],
    invalid: [
      { value: { ancestry: [], store_head: DC, task_ids: [] }, path: "ancestry", why: "memory always has an ancestry" },
    ],
  },
  BodyState: {
    valid: [{ revision: "rev-2", lineage: ["rev-1", "rev-2"] }],
    invalid: [{ value: { revision: "rev-2", lineage: [] }, path: "lineage", why: "the body has a lineage" }],
  },
  PersistentSubstrate: {
    valid: [
      {
        identity: { identity: DA, designation: "Enoch", identity_version: 1 },
        memory: { ancestry: [DA], store_head: DC, task_ids: [] },
        body: { revision: "rev-1", lineage: ["rev-1"] },
      },
    ],
    invalid: [
      {
        value: {
          identity: { identity: DA, designation: "Enoch", identity_version: 1 },
          memory: { ancestry: [DA], store_head: DC, task_ids: [] },
        },
        path: "body",
        why: "P = (I, M, B)",
      },
    ],
  },
  ExecutionBinding: {
    valid: [execution],
    invalid: [{ value: { ...execution, execution_id: undefined }, path: "execution_id", why: "executions are named" }],
  },
  InteractionSurface: {
    valid: [{ surface_id: "s-1", kind: "chat", account: "acct", session: "sess" }],
    invalid: [
      { value: { surface_id: "s-1", kind: "chat", account: "acct" }, path: "session", why: "a surface has a session" },
    ],
  },
  Labels: {
    valid: [{ "runtime.model": "model-x" }],
    invalid: [{ value: { "Bad Key": "x" }, path: "Bad Key", why: "label keys are lowercase" }],
  },
  ProviderGrant: {
    valid: [provider],
    invalid: [{ value: { ...provider, kind: "magic" }, path: "kind", why: "provider kinds are the RIPA contracts" }],
  },
  CapabilityDelta: {
    valid: [delta],
    invalid: [{ value: { gained: [], lost: [] }, path: "unchanged", why: "the full delta is reported" }],
  },
  AuthorityEpoch: {
    valid: [
      { token: "tok-1", generation: 1, holder: "exec-1" },
      { token: "tok-2", generation: 2, holder: null },
    ],
    invalid: [{ value: { token: "tok-1", generation: 1 }, path: "holder", why: "the holder (or null) is explicit" }],
  },
  BundleManifest: {
    valid: [bundle],
    invalid: [{ value: { ...bundle, credentials: "secret" }, path: "", why: "bundles carry no secrets; strict" }],
  },
  SourceFence: {
    valid: [
      { migration_id: "m-1", status: "exported", body_revision: "rev-1", source_generation: 2, bundle_digest: DA },
    ],
    invalid: [
      {
        value: {
          migration_id: "m-1",
          status: "done",
          body_revision: "rev-1",
          source_generation: 2,
          bundle_digest: null,
        },
        path: "status",
        why: "preparing or exported",
      },
    ],
  },
  TargetMarker: {
    valid: [{ migration_id: "m-1", status: "importing", target_execution_id: "exec-2" }],
    invalid: [
      {
        value: { migration_id: "m-1", status: "running", target_execution_id: "exec-2" },
        path: "status",
        why: "importing, imported, activated, verified",
      },
    ],
  },
  MigrationReport: {
    valid: [
      {
        migration_id: "m-1",
        source_execution_id: "exec-1",
        target_execution_id: "exec-2",
        bundle_digest: DA,
        capability_delta: delta,
        identity_preserved: true,
        memory_ancestry_preserved: true,
        body_preserved: true,
        source_generation: 2,
        target_generation: 3,
      },
    ],
    invalid: [
      {
        value: {
          migration_id: "m-1",
          source_execution_id: "exec-1",
          target_execution_id: "exec-2",
          bundle_digest: DA,
          identity_preserved: true,
          memory_ancestry_preserved: true,
          body_preserved: true,
          source_generation: 2,
          target_generation: 3,
        },
        path: "capability_delta",
        why: "the capability delta is always reported (I5)",
      },
      {
        value: {
          migration_id: "m-1",
          source_execution_id: "exec-1",
          target_execution_id: "exec-2",
          bundle_digest: DA,
          capability_delta: delta,
          identity_preserved: true,
          memory_extended: true,
          body_preserved: true,
          source_generation: 2,
          target_generation: 3,
        },
        path: "",
        why: "the migration appends nothing to memory, so the flag is memory_ancestry_preserved, not memory_extended (review G-54, D-047)",
      },
    ],
  },
  Command: {
    valid: [
      { op: "janma.withdraw", tick: 3, agent: DA, instance_id: "i-1", reason: "principal" },
      { op: "samskara.merge", tick: 4, agent: DA, obligation_ids: ["o-1", "o-2"] },
      {
        op: "janma.distil",
        tick: 4,
        agent: DA,
        instance_id: "i-1",
        obligation_id: "o-1",
        distillate: { anything: "parsed by the operation (D-028)" },
      },
      { op: "ripa.task_pause", tick: 5, agent: DA, task_id: "t-1", attempt_nonce: "a-1" },
    ],
    invalid: [
      { value: { op: "janma.teleport", tick: 1 }, path: "op", why: "unknown operation" },
      {
        value: { op: "janma.withdraw", tick: -1, agent: DA, instance_id: "i-1", reason: "principal" },
        path: "tick",
        why: "ticks are non-negative",
      },
      {
        value: { op: "samskara.merge", tick: 4, agent: DA, obligation_ids: [] },
        path: "obligation_ids",
        why: "a merge names at least one obligation",
      },
      {
        value: { op: "ripa.task_pause", tick: 5, agent: DA, task_id: "t-1" },
        path: "attempt_nonce",
        why: "a pause names the attempt it revokes, so a stale recovery cannot revoke a newer attempt (review G-53, D-046)",
      },
    ],
  },
  Event: {
    valid: [{ type: "obligation.emitted", obligation_id: "o-1", kind: "corrective" }],
    invalid: [
      {
        value: { type: "obligation.emitted", obligation_id: "o-1", kind: "corrective", trace: "x" },
        path: "",
        why: "events are strict",
      },
    ],
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
    invalid: [
      { value: { tick: 0, agents: [] }, path: "roots_used", why: "the roots ever used are part of the world (AD-1)" },
    ],
  },
  Rejection: {
    valid: [{ code: "JANMA_INCOMPLETE_AT_BIRTH", invariant: "J-1", message: "tool fare_search is not offered" }],
    invalid: [
      {
        value: { code: "OOPS", invariant: null, message: "x" },
        path: "code",
        why: "codes come from the error-code table",
      },
    ],
  },
  Witnesses: {
    valid: [noWitness, { accepted: 52, rejected: 4, crash_cuts: 14, algebra: 20, forgetting: 6 }],
    invalid: [
      { value: { ...noWitness, crash_cuts: -1 }, path: "crash_cuts", why: "witnesses are counts" },
      {
        value: { accepted: 1, rejected: 0, crash_cuts: 0, algebra: 0 },
        path: "forgetting",
        why: "every kind of witness is reported, zero included",
      },
    ],
  },
  TraceStep: {
    valid: [traceStep, { ...traceStep, actual: null }],
    invalid: [
      {
        value: { request: traceStep.request, expected: traceStep.expected },
        path: "actual",
        why: "the actual reply is explicit: null when none came",
      },
      {
        value: { ...traceStep, message: "instance born" },
        path: "",
        why: "strict: informative parts of a reply are not normative (W-9)",
      },
    ],
  },
  PortableTrace: {
    valid: [
      portableTrace,
      {
        ...portableTrace,
        invariant: null,
        check: "wire/W-3.1",
        summary: "the reply to c1 echoed a different id",
        path: null,
        seed: null,
        steps: [{ request: mintRequest, expected: mintReply, actual: null }],
        failing_step: 0,
        shrink: null,
      },
    ],
    invalid: [
      {
        value: { ...portableTrace, trace_version: 2 },
        path: "trace_version",
        why: "this kit reads trace version 1 only",
      },
      { value: { ...portableTrace, stage: "fuzz" }, path: "stage", why: "stages are the runner's seven" },
      { value: { ...portableTrace, failing_step: -1 }, path: "failing_step", why: "an index into steps, or null" },
      { value: { ...portableTrace, replay: "npx srk replay" }, path: "", why: "strict: unknown fields are rejected" },
    ],
  },
  CounterexampleRef: {
    valid: [
      counterexampleRef,
      {
        ...counterexampleRef,
        invariant: null,
        stage: "wire",
        check: "wire/W-2.1",
        steps: 0,
        trace_file: null,
        replay: null,
      },
    ],
    invalid: [
      {
        value: { ...counterexampleRef, invariant: "J-5" },
        path: "invariant",
        why: "an invariant of the catalog, or null for a wire failure",
      },
      {
        value: { ...counterexampleRef, trace_file: undefined },
        path: "trace_file",
        why: "the trace file (or null) is explicit",
      },
    ],
  },
  InvariantVerdict: {
    valid: invariantVerdicts.slice(0, 1).concat(invariantVerdicts.slice(-1)),
    invalid: [
      {
        value: { ...invariantVerdicts[1], verdict: "skipped" },
        path: "verdict",
        why: "pass, fail, not-applicable, not-selected or inconclusive",
      },
      {
        value: { ...invariantVerdicts[1], family: "operations" },
        path: "family",
        why: "families are the profile's four",
      },
    ],
  },
  StageResult: {
    valid: [stageResult, ...certificate.stages.slice(3, 4)],
    invalid: [
      { value: { ...stageResult, checks: 1.5 }, path: "checks", why: "checks are counted" },
      {
        value: { ...stageResult, findings: [{ ...counterexampleRef, steps: -1 }] },
        path: "findings.0.steps",
        why: "a trace has a non-negative number of steps",
      },
    ],
  },
  LogHeader: {
    valid: [logHeader, { srk_log: 1, recorder: "my-adapter 2.1", impl: null, started_at: null }],
    invalid: [
      { value: { ...logHeader, srk_log: 2 }, path: "srk_log", why: "this kit reads log format 1 only (L-1.1)" },
      {
        value: { ...logHeader, started_at: "yesterday" },
        path: "started_at",
        why: "the start is an RFC 3339 time, or null",
      },
      { value: { ...logHeader, host: "ci-1" }, path: "", why: "strict: unknown fields are rejected" },
    ],
  },
  LogLine: {
    valid: [
      { seq: 1, t_us: 412, dir: "request", msg: { type: "hello", id: "h", protocol_versions: ["1"], settings: {} } },
      { seq: 2, t_us: 1_873, dir: "reply", msg: { type: "reply", id: "h", ok: true, events: [] } },
      { seq: 3, t_us: 2_040, dir: "request", raw: "not json" },
      { seq: 4, t_us: 2_101, dir: "reply", raw: "\uFFFDpartial", raw_bytes: 70_000, invalid_utf8: true },
    ],
    invalid: [
      {
        value: { seq: 3, t_us: 2_040, dir: "request", msg: null, raw: "null" },
        path: "",
        why: "exactly one of msg and raw (L-1.2)",
      },
      { value: { seq: 3, t_us: 2_040, dir: "request" }, path: "", why: "exactly one of msg and raw (L-1.2)" },
      {
        value: { seq: 0, t_us: 2_040, dir: "request", raw: "x" },
        path: "seq",
        why: "seq starts at 1 for the first entry after the header",
      },
      {
        value: { seq: 3, t_us: 2_040, dir: "stderr", raw: "x" },
        path: "dir",
        why: "request (the implementation's stdin) or reply (its stdout)",
      },
      {
        value: { seq: 3, t_us: 2_040, dir: "reply", raw: "x", invalid_utf8: false },
        path: "invalid_utf8",
        why: "present only when true",
      },
    ],
  },
  LogExit: {
    valid: [
      { seq: 5, t_us: 9_310, exit: { code: 0, signal: null } },
      { seq: 5, t_us: 9_310, exit: { code: null, signal: "SIGKILL" } },
    ],
    invalid: [
      {
        value: { seq: 5, t_us: 9_310, exit: { code: 0 } },
        path: "exit.signal",
        why: "the signal (or null) is explicit",
      },
      {
        value: { seq: 5, t_us: -1, exit: { code: 0, signal: null } },
        path: "t_us",
        why: "microseconds since the recorder started, a count",
      },
    ],
  },
  Certificate: {
    valid: [certificate, undrivenCertificate],
    invalid: [
      {
        value: { ...certificate, invariants: invariantVerdicts.slice(1) },
        path: "invariants",
        why: "exactly one verdict per invariant of the catalog (19)",
      },
      {
        value: {
          ...certificate,
          invariants: [{ ...invariantVerdicts[0], verdict: "errored" }, ...invariantVerdicts.slice(1)],
        },
        path: "invariants.0.verdict",
        why: "verdicts are pass, fail, not-applicable, not-selected or inconclusive",
      },
      {
        value: { ...certificate, exit_code: 3 },
        path: "exit_code",
        why: "exit codes are 0 (certified), 1 (violations) or 2 (inconclusive)",
      },
      {
        value: { ...certificate, certificate_version: 2 },
        path: "certificate_version",
        why: "this kit reads certificate version 1 only",
      },
      {
        value: { ...certificate, settings: { ...certificate.settings, only: ["J-9"] } },
        path: "settings.only.0",
        why: "--only names invariants of the catalog",
      },
      { value: { ...certificate, signature: DA }, path: "", why: "strict: unknown fields are rejected" },
      {
        value: {
          ...certificate,
          coverage: {
            transitions: [
              { machine: "janma", from: "fenced", to: "checkpointed", op: "ripa.migration_checkpoint", count: 1 },
            ],
          },
        },
        path: "coverage.transitions.0.from",
        why: "a transition's states are those of its machine (fenced is a migration phase, not an instance state)",
      },
      {
        value: { ...certificate, coverage: { transitions: [{ ...certificate.coverage.transitions[0], count: 0 }] } },
        path: "coverage.transitions.0.count",
        why: "only transitions driven at least once are listed",
      },
    ],
  },
};
