/**
 * OP-5.1 `advaita.mint` and the agent constructor shared with `ripa.descend` (OP-6.11).
 * AD-1: a root may be used once in the world, so every identity is single and fresh.
 */
import type { CommandOf, Digest, Event, ExecutionBinding, ProviderGrant } from "../../spec/index.ts";
import { generic, no, ok, violates, type Outcome } from "../rejection.ts";
import { byKey, sortedUnique, type Agent, type World } from "../state.ts";
import type { Stepped } from "../step.ts";
import { EMPTY_STATE } from "../samskara/aggregate.ts";
import { genesisVersion } from "../samskara/lineage.ts";
import { advaitaIdentityOf, memorySnapshot } from "./identity.ts";

export interface AgentSeed {
  readonly base_digest: Digest;
  readonly root: string;
  readonly designation: string;
  readonly body_revision: string;
  readonly custodians: readonly string[];
  readonly execution: ExecutionBinding;
  readonly providers: readonly ProviderGrant[];
  readonly required_capabilities: readonly string[];
  readonly authority_token: string;
}

/**
 * OP-5.1 / OP-7.3 (spec review G-33): a provider grant as stored and shown. Its capabilities are a
 * set (sorted, duplicates removed, like instance grants), and providers are kept sorted by
 * provider_id, so two systems given the same grants in another order show the same view.
 */
export const normalizedProviders = (providers: readonly ProviderGrant[]): ProviderGrant[] =>
  providers.map((p) => ({ ...p, capabilities: sortedUnique(p.capabilities) })).sort(byKey((p) => p.provider_id));

/** A freshly installed agent: genesis store, first memory snapshot, generation-1 authority. */
export const newAgent = (seed: AgentSeed): Agent => {
  const identity = advaitaIdentityOf(seed.base_digest, seed.root);
  const genesis = genesisVersion(seed.base_digest, seed.root);
  return {
    identity,
    record: { identity: identity.identity, designation: seed.designation, identity_version: 1 },
    memory: {
      ancestry: [memorySnapshot(null, "install", genesis.version_id, [])],
      store_head: genesis.version_id,
      task_ids: [],
    },
    body: { revision: seed.body_revision, lineage: [seed.body_revision] },
    store: {
      chain: [genesis],
      states: [EMPTY_STATE],
      batches: [],
      retained: new Map(),
      excisions: [],
      quarantined: [],
    },
    instances: new Map(),
    obligations: new Map(),
    distillate_ids_used: new Set(),
    ripa: {
      custodians: sortedUnique(seed.custodians),
      execution: seed.execution,
      replicas: [],
      surfaces: new Map(),
      providers: normalizedProviders(seed.providers),
      required_capabilities: sortedUnique(seed.required_capabilities),
      authority: { token: seed.authority_token, generation: 1, holder: seed.execution.execution_id },
      tokens_used: new Set([seed.authority_token]),
      live_attempts: new Map(),
      attempt_nonces_used: new Set(),
      effects: new Set(),
      fences: [],
      marker: null,
      migration: null,
      migration_ids_used: new Set(),
      reports: [],
    },
  };
};

/** Install an agent in the world and record its root (AD-1). */
export const install = (world: World, agent: Agent): World => ({
  ...world,
  roots_used: sortedUnique([...world.roots_used, agent.identity.root]),
  agents: new Map(world.agents).set(agent.identity.identity, agent),
});

export const mintedEvents = (agent: Agent): Event[] => [
  { type: "agent.minted", identity: agent.identity.identity, genesis: agent.identity.lineage_root },
  { type: "epoch.advanced", generation: agent.ripa.authority.generation, holder: agent.ripa.authority.holder },
];

/** AD-1 guard: the root was never used in this world. */
export const rootFresh = (world: World, root: string): boolean => !world.roots_used.includes(root);

/** OP-5.1. Checks: root never used (AD-1); provider ids unique (DUPLICATE_ID). */
export const mint = (world: World, cmd: CommandOf<"advaita.mint">): Outcome<Stepped> => {
  if (!rootFresh(world, cmd.root))
    return no(violates("AD-1", "OP-5.1.c1", `root ${cmd.root} was already used; an identity must be single`, ["root"]));
  const ids = cmd.providers.map((p) => p.provider_id);
  if (new Set(ids).size !== ids.length)
    return no(generic("DUPLICATE_ID", "OP-5.1.c2", "provider ids must be unique", ["providers"]));
  const agent = newAgent({ ...cmd, base_digest: cmd.base_digest as Digest });
  return ok({ world: install(world, agent), events: mintedEvents(agent) });
};
