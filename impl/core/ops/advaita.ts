/** OP-5 (mint), OP-4.4 (project_write) and the installation shared with OP-6.11 (descend). */
import type { Digest, Event } from "../../../spec/index.ts";
import { genesisVersionOf, identityOf } from "../../../spec/index.ts";
import { Agent, type AgentInit } from "../agent.ts";
import { refuse, violates } from "../rejection.ts";
import { SamskaraStore } from "../store.ts";
import type { World } from "../world.ts";
import { instanceOf, type Handler, type WorldHandler } from "./context.ts";

/** An installation: the agent's starting point, its lineage root and its first authority token. */
export interface Installation extends Omit<AgentInit, "authority"> {
  readonly baseDigest: Digest;
  readonly root: string;
  readonly authorityToken: string;
}

/** OP-5.1 effects: a new agent at its own genesis (AD-1: identity = H(base || genesis)). */
export const install = (world: World, x: Installation): { agent: Agent; events: Event[] } => {
  const genesis = genesisVersionOf(x.baseDigest, x.root);
  const identity = identityOf(x.baseDigest, genesis);
  const agent = new Agent(
    { identity, base_digest: x.baseDigest, lineage_root: genesis, root: x.root },
    new SamskaraStore(genesis),
    { ...x, authority: { token: x.authorityToken, generation: 1, holder: x.execution.execution_id } },
  );
  agent.usedTokens.add(x.authorityToken);
  agent.extendMemory("install");
  world.agents.set(identity, agent);
  world.rootsUsed.add(x.root);
  return {
    agent,
    events: [
      { type: "agent.minted", identity, genesis },
      { type: "epoch.advanced", generation: 1, holder: x.execution.execution_id },
    ],
  };
};

export const mint: WorldHandler<"advaita.mint"> = (world, cmd) => {
  // AD-1: a lineage root may be used once in the world.
  if (world.rootsUsed.has(cmd.root)) violates("AD-1", `root ${cmd.root} was already used`, ["root"]);
  const ids = new Set<string>();
  for (const [i, p] of cmd.providers.entries()) {
    if (ids.has(p.provider_id))
      refuse("DUPLICATE_ID", `provider ${p.provider_id} listed twice`, ["providers", i, "provider_id"]);
    ids.add(p.provider_id);
  }
  return install(world, {
    baseDigest: cmd.base_digest as Digest,
    root: cmd.root,
    designation: cmd.designation,
    bodyRevision: cmd.body_revision,
    custodians: cmd.custodians,
    execution: cmd.execution,
    providers: cmd.providers,
    requiredCapabilities: cmd.required_capabilities,
    authorityToken: cmd.authority_token,
  }).events;
};

/** OP-4.4 (AD-2): a projection never writes the store directly. */
export const projectWrite: Handler<"advaita.project_write"> = (_world, cmd, agent) => {
  instanceOf(agent, cmd.instance_id);
  return violates("AD-2", `instance ${cmd.instance_id} may not write the store: projections are stateless`);
};
