/**
 * Command builders for the scripted sessions: valid manifests, correctly signed actions and
 * attributed distillates, so each test step differs from a valid command in one deliberate way.
 */
import type { Command, Digest, Disposition, JanmaManifest, TerminationCondition } from "../../spec/index.ts";
import { DOMAIN, digestOf, genesisVersionOf, identityOf } from "../../spec/index.ts";

export const BASE = digestOf(DOMAIN.manifest, { fixture: "base-model" });
export const OTHER_BASE = digestOf(DOMAIN.manifest, { fixture: "other-model" });
export const EVIDENCE = digestOf(DOMAIN.trace, { fixture: "evidence" });

export const exec = (id: string) => ({
  execution_id: id,
  reasoner: "reasoner-a",
  harness: "harness-a",
  host: `host-${id}`,
});

export const PROVIDERS = [
  {
    provider_id: "prov-1",
    kind: "service" as const,
    contract_version: "v1",
    capabilities: ["fare.search", "mail.send"],
  },
];

export const mint = (tick: number, root: string, token = "tok-1"): Command => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation: `agent ${root}`,
  body_revision: "body-1",
  custodians: ["alice", "bob"],
  execution: exec("exec-1"),
  providers: PROVIDERS,
  required_capabilities: ["fare.search"],
  authority_token: token,
});

export const genesisOf = (root: string): Digest => genesisVersionOf(BASE, root);
export const identityOfRoot = (root: string): Digest => identityOf(BASE, genesisOf(root));

export const manifest = (
  pin: string,
  opts: { ttl?: number; conditions?: TerminationCondition[]; base?: string } = {},
): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: opts.base ?? BASE, store_version: pin },
  mission: "book a flight for the principal",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
  consent_scope: {
    grant_id: "grant-1",
    principal: "principal-1",
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
    category_defaults: [{ category: "financial", sensitivity: "medium" }],
    persist_ceiling: "medium",
  },
  ttl_ticks: opts.ttl ?? 100,
  termination_conditions: opts.conditions ?? [],
  distillation_policy: { deadline_ticks: 20, max_retries: 1, satisfaction_model: null },
});

export const ENV = { tools: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }], grantable: ["fare.*"] };

export interface Life {
  agent: string;
  instance_id: string;
  nonce: string;
  manifest: JanmaManifest;
}

export const conceive = (tick: number, life: Life): Command => ({
  op: "janma.conceive",
  tick,
  agent: life.agent,
  instance_id: life.instance_id,
  nonce: life.nonce,
  manifest: life.manifest,
});
export const birth = (tick: number, life: Life): Command => ({
  op: "janma.birth",
  tick,
  agent: life.agent,
  instance_id: life.instance_id,
  environment: ENV,
});

export const act = (
  tick: number,
  life: Life,
  opts: { tool?: string; capability?: string; outcome?: "ok" | "failed"; trace?: string[]; tamper?: boolean } = {},
): Command => {
  const identity = identityOfLife(life);
  const action = {
    tool: opts.tool ?? "search",
    capability: opts.capability ?? "fare.search",
    outcome: opts.outcome ?? "ok",
    tick,
    trace: opts.trace ?? [],
  };
  const manifest_digest = digestOf(DOMAIN.manifest, life.manifest);
  const signature = digestOf(DOMAIN.action, { identity, nonce: life.nonce, manifest_digest, action });
  return {
    op: "janma.act",
    tick,
    agent: life.agent,
    instance_id: life.instance_id,
    signed: { identity, nonce: opts.tamper === true ? "forged" : life.nonce, manifest_digest, action, signature },
  };
};

const identityOfLife = (life: Life): string => life.agent;

export const disposition = (
  key: string,
  weight: number,
  guidance = `prefer ${key}`,
  category: Disposition["category"] = "behavioral",
): Disposition => ({
  key,
  guidance,
  weight,
  evidence_digest: EVIDENCE,
  category,
});

export const distillate = (
  life: Life,
  distillateId: string,
  valence: number,
  dispositions: Disposition[],
  confidence = 900_000,
): Record<string, unknown> => ({
  distillate_id: distillateId,
  source: { identity: life.agent, nonce: life.nonce, instance_id: life.instance_id },
  born_from: life.manifest.substrate.store_version,
  signal: { valence, confidence, model_version: null, explicit: true },
  dispositions,
});

export const distil = (tick: number, life: Life, obligationId: string, d: unknown): Command => ({
  op: "janma.distil",
  tick,
  agent: life.agent,
  instance_id: life.instance_id,
  obligation_id: obligationId,
  distillate: d,
});
