/**
 * A small driver for scripted golden sessions about one "travel" agent: ticks advance by one per
 * command, lives are numbered i1, i2, … with nonces n1, n2, …, and every life is conceived on the
 * current head of its agent's store. Shared by the scripted sessions so that each one states only
 * the situation it builds (the commands it sends are exactly what the inline helpers sent).
 */
import type { Command, Disposition, JanmaManifest, WorldView } from "../../../spec/index.ts";
import { DOMAIN, digestOf } from "../../../spec/index.ts";
import type { ScriptContext } from "../types.ts";

export const BASE = `sha256:${"ab".repeat(32)}`;
export const EVIDENCE = `sha256:${"cd".repeat(32)}`;
export const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });

/** One life of an agent, as the script needs it to sign acts and build distillates. */
export interface Life {
  readonly agent: string;
  readonly instance_id: string;
  readonly nonce: string;
  readonly manifest: JanmaManifest;
}

/** The tools every life is born into: one search tool, fare.* grantable. */
const ENV = { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["fare.*"] };

export const travelDriver = (ctx: ScriptContext) => {
  let tick = 0;
  let seq = 0;
  const send = (cmd: (t: number) => Command, pins?: string) => ctx.send(cmd(++tick), pins);
  const agentView = (root: string): WorldView["agents"][number] => {
    const a = ctx.view().agents.find((x) => x.identity.root === root);
    if (a === undefined) throw new Error(`script: no agent minted from ${root}`);
    return a;
  };
  /** Mints an agent from `root` (token `tok-<root>`, execution `exec-<root>`); returns its identity. */
  const mint = (root: string, providers: { provider_id: string; capabilities: string[] }[]): string => {
    send((t) => ({
      op: "advaita.mint",
      tick: t,
      base_digest: BASE,
      root,
      designation: root,
      body_revision: "rev-0",
      custodians: ["custodian-1"],
      execution: exec(`exec-${root}`),
      providers: providers.map((p) => ({ ...p, kind: "service", contract_version: "v1" })),
      required_capabilities: ["fare.search"],
      authority_token: `tok-${root}`,
    }));
    return agentView(root).identity.identity;
  };
  const headOf = (root: string): string => agentView(root).store.head;
  const conceive = (agent: string, root: string): Life => {
    const manifest: JanmaManifest = {
      manifest_version: 1,
      substrate: { base_digest: BASE, store_version: headOf(root) },
      mission: "travel",
      capability_grants: ["fare.*"],
      tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
      consent_scope: { grant_id: "g", principal: "p", cells: [], category_defaults: [], persist_ceiling: "low" },
      ttl_ticks: 1000,
      termination_conditions: [],
      distillation_policy: { deadline_ticks: 1000, max_retries: 1, satisfaction_model: null },
    };
    const life = { agent, instance_id: `i${++seq}`, nonce: `n${seq}`, manifest };
    send((t) => ({ op: "janma.conceive", tick: t, agent, instance_id: life.instance_id, nonce: life.nonce, manifest }));
    return life;
  };
  const birth = (life: Life, pins?: string) =>
    send(
      (t) => ({ op: "janma.birth", tick: t, agent: life.agent, instance_id: life.instance_id, environment: ENV }),
      pins,
    );
  /** A validly signed search act of `life` at the current tick, carrying `trace` (its episode entries). */
  const act = (life: Life, pins?: string, trace: readonly string[] = ["looked up fares"]) =>
    send((t) => {
      const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick: t, trace: [...trace] };
      const manifest_digest = digestOf(DOMAIN.manifest, life.manifest);
      const signature = digestOf(DOMAIN.action, { identity: life.agent, nonce: life.nonce, manifest_digest, action });
      return {
        op: "janma.act",
        tick: t,
        agent: life.agent,
        instance_id: life.instance_id,
        signed: { identity: life.agent, nonce: life.nonce, manifest_digest, action, signature },
      };
    }, pins);
  /** A life born, acted once (with `trace`, when given) and withdrawn: ready to distil. */
  const lived = (agent: string, root: string, trace?: readonly string[]): Life => {
    const life = conceive(agent, root);
    birth(life);
    act(life, undefined, trace);
    send((t) => ({ op: "janma.withdraw", tick: t, agent, instance_id: life.instance_id, reason: "principal" }));
    return life;
  };
  const disposition = (key: string, guidance: string, weight: number): Disposition => ({
    key,
    guidance,
    weight,
    evidence_digest: EVIDENCE,
    category: "operational",
  });
  const distillate = (
    life: Life,
    distillate_id: string,
    dispositions: readonly Disposition[],
    valence: number,
    confidence: number,
  ) => ({
    distillate_id,
    source: { identity: life.agent, nonce: life.nonce, instance_id: life.instance_id },
    born_from: life.manifest.substrate.store_version,
    signal: { valence, confidence, model_version: null, explicit: true },
    dispositions,
  });
  const distil = (life: Life, obligation_id: string, d: unknown, pins?: string) =>
    send(
      (t) => ({
        op: "janma.distil",
        tick: t,
        agent: life.agent,
        instance_id: life.instance_id,
        obligation_id,
        distillate: d,
      }),
      pins,
    );
  return { send, agentView, mint, headOf, conceive, birth, act, lived, disposition, distillate, distil };
};

/**
 * The script's context, counting the lines it records, so that a line can be placed right after a
 * restart of the golden stage (every RESTART_EVERY lines, D-069): state no world view shows (used
 * nonces, ids) must survive it.
 */
export const counting = (ctx: ScriptContext): ScriptContext & { readonly lines: () => number } => {
  let n = 0;
  return {
    send: (command, pins) => {
      n++;
      return ctx.send(command, pins);
    },
    query: (pins) => {
      n++;
      return ctx.query(pins);
    },
    view: () => ctx.view(),
    lines: () => n,
  };
};
