/**
 * Command builders for tests and generators. Depends on the spec only (never on model
 * internals), so the same builders can drive the implementation: they produce plain `Command`
 * objects with valid signatures (AD-4, D-021) and distillates that pass S-1/S-2 by default.
 */
import {
  DOMAIN,
  digestOf,
  genesisVersionOf,
  identityOf,
  type Action,
  type CommandOf,
  type ConsentGrant,
  type Digest,
  type Disposition,
  type JanmaManifest,
} from "../spec/index.ts";

export const BASE: Digest = `sha256:${"ab".repeat(32)}`;
export const EVIDENCE: Digest = `sha256:${"cd".repeat(32)}`;
export const CUSTODIAN = "custodian-1";
export const AUTH = { custodian: CUSTODIAN, decision_id: "dec-1" } as const;

export const exec = (id: string) => ({ execution_id: id, reasoner: "r1", harness: "h1", host: "host1" });

/** The identity a mint with (base, root) produces (AD-1), computed from the spec digests only. */
export const identityFor = (root: string, base: Digest = BASE): Digest =>
  identityOf(base, genesisVersionOf(base, root));
export const genesisFor = (root: string, base: Digest = BASE): Digest => genesisVersionOf(base, root);

export const mintCmd = (
  tick: number,
  root: string,
  over: Partial<CommandOf<"advaita.mint">> = {},
): CommandOf<"advaita.mint"> => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation: "agent",
  body_revision: "rev-1",
  custodians: [CUSTODIAN],
  execution: exec("exec-1"),
  providers: [
    { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
  ],
  required_capabilities: ["fare.search"],
  authority_token: `tok-${root}`,
  ...over,
});

export const CONSENT: ConsentGrant = {
  grant_id: "g1",
  principal: "p1",
  cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
  category_defaults: [{ category: "financial", sensitivity: "medium" }],
  persist_ceiling: "low",
};

export const manifest = (pin: string, over: Partial<JanmaManifest> = {}): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "book a fare",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
  consent_scope: CONSENT,
  ttl_ticks: 100,
  termination_conditions: [],
  distillation_policy: { deadline_ticks: 50, max_retries: 1, satisfaction_model: null },
  ...over,
});

export const ENV = { tools: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }], grantable: ["fare.*"] };

export const manifestDigest = (m: JanmaManifest): Digest => digestOf(DOMAIN.manifest, m);

/** A validly signed act (D-021). */
export const actCmd = (
  tick: number,
  agent: string,
  instanceId: string,
  nonce: string,
  m: JanmaManifest,
  over: Partial<Action> = {},
): CommandOf<"janma.act"> => {
  const action: Action = { tool: "search", capability: "fare.search", outcome: "ok", tick, trace: [], ...over };
  const md = manifestDigest(m);
  return {
    op: "janma.act",
    tick,
    agent,
    instance_id: instanceId,
    signed: {
      identity: agent,
      nonce,
      manifest_digest: md,
      action,
      signature: digestOf(DOMAIN.action, { identity: agent, nonce, manifest_digest: md, action }),
    },
  };
};

export const disposition = (key: string, weight: number, over: Partial<Disposition> = {}): Disposition => ({
  key,
  guidance: `prefer ${key}`,
  weight,
  evidence_digest: EVIDENCE,
  category: "operational",
  ...over,
});

export interface DistillateSpec {
  readonly id: string;
  readonly agent: string;
  readonly nonce: string;
  readonly instanceId: string;
  readonly bornFrom: string;
  readonly valence: number;
  readonly confidence: number;
  readonly dispositions: readonly Disposition[];
}

export const distillate = (s: DistillateSpec) => ({
  distillate_id: s.id,
  source: { identity: s.agent, nonce: s.nonce, instance_id: s.instanceId },
  born_from: s.bornFrom,
  signal: { valence: s.valence, confidence: s.confidence, model_version: null, explicit: true },
  dispositions: [...s.dispositions],
});
