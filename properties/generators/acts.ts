/**
 * Validly signed acts that only one check refuses: an act outside a narrower wildcard, an act
 * after the end of its life. Used by the ordinary act, the situations, the chase and the edges.
 */
import { DOMAIN, digestOf, type AgentView, type Command } from "../../spec/index.ts";
import type { GenMemory } from "./memory.ts";
import { instancesIn } from "./views.ts";

/**
 * A validly signed act using `fare.search` by a live life that holds the narrower wildcard
 * `fare.search.*` (manifests.ts edgeManifest), which does not cover it (OP-2.3.c7, D-016), or undefined.
 */
export const narrowAct = (agent: AgentView, mem: GenMemory, tick: number): Command | undefined => {
  const A = agent.identity.identity;
  const withinTtl = (x: { instance_id: string; born_tick: number | null }) => {
    const ttl = mem.lives.get(`${A}/${x.instance_id}`)?.manifest.ttl_ticks;
    return x.born_tick !== null && ttl !== undefined && tick < x.born_tick + ttl;
  };
  const narrow = instancesIn(agent, ["ready", "active"]).find(
    (x) => x.grants.includes("fare.search.*") && withinTtl(x),
  );
  const life = narrow === undefined ? undefined : mem.lives.get(`${A}/${narrow.instance_id}`);
  if (narrow === undefined || life === undefined) return undefined;
  const action = {
    tool: "search",
    capability: "fare.search",
    outcome: "ok" as const,
    tick,
    trace: ["narrow wildcard"],
  };
  const signature = digestOf(DOMAIN.action, {
    identity: A,
    nonce: life.nonce,
    manifest_digest: narrow.manifest_digest,
    action,
  });
  return {
    op: "janma.act",
    tick,
    agent: A,
    instance_id: narrow.instance_id,
    signed: { identity: A, nonce: life.nonce, manifest_digest: narrow.manifest_digest, action, signature },
  };
};

/** A validly signed act of a life that is over (dissolved): only its state may refuse it (OP-2.3.c4). */
export const actAfterTheEnd = (
  A: string,
  instance_id: string,
  nonce: string,
  manifest_digest: string,
  tick: number,
): Command => {
  const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["after the end"] };
  const signature = digestOf(DOMAIN.action, { identity: A, nonce, manifest_digest, action });
  return {
    op: "janma.act",
    tick,
    agent: A,
    instance_id,
    signed: { identity: A, nonce, manifest_digest, action, signature },
  };
};
