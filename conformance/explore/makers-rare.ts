/**
 * Commands refused at a check that neither the explorer's own makers (well-formed, valid
 * commands for the agents that exist, ticks that advance) nor the generator's makers
 * (makers-gen.ts) fail in the explored states. Each is one of the generator's rare situations
 * (properties/generators/situations.ts, not exported there) made for every state where it
 * applies, with everything before its check valid so that exactly that check fails:
 *
 * - `generic`: OP-0.2: a command failing its schema (a negative tick, c1), a tick one below the
 *   world's (c2, once the world has moved past tick 0), an agent that does not exist (c3);
 * - `rare_samsara`: the Janma, custody and Samskara refusals (OP-2.1 … OP-5.1) listed at each
 *   command below;
 * - `rare_ripa`: a restart by an execution that is not the bound one (OP-6.1.c2), a request
 *   reusing the live attempt's nonce (OP-6.4.c3), an effect through a provider that is not bound
 *   (OP-6.6.c2), a descent while the store head is quarantined (OP-6.11.c2).
 *
 * All are refused, so they add steps but never states.
 */
import type { Command, JanmaManifest } from "../../spec/index.ts";
import { DOMAIN, digestOf } from "../../spec/index.ts";
import type { Agent, World } from "../../model/index.ts";
import { AUTH, BASE, EVIDENCE, ROGUE, exec } from "../../properties/generators/values.ts";

/** What the rare commands are built from: the scope's own manifest and distillate (commands.ts). */
export interface Builders {
  readonly manifest: (head: string) => JanmaManifest;
  readonly distillate: (
    agent: string,
    instance: string,
    nonce: string,
    bornFrom: string,
  ) => Record<string, unknown> & { readonly distillate_id: string };
}

const byRoot = (world: World): Agent[] =>
  [...world.agents.values()].sort((a, b) => (a.identity.root < b.identity.root ? -1 : 1));
const headOf = (a: Agent): string => a.store.chain[a.store.chain.length - 1]?.version_id ?? BASE;

/** The OP-0.2 failures, for the first agent (the checks do not depend on which). */
export const genericCommands = (world: World, tick: number): Command[] => {
  const agent = byRoot(world)[0]?.identity.identity;
  const out: Command[] = [{ op: "samskara.replay", tick: -1, agent: agent ?? EVIDENCE } as unknown as Command];
  if (world.tick > 0 && agent !== undefined) out.push({ op: "samskara.replay", tick: world.tick - 1, agent });
  out.push({ op: "samskara.replay", tick, agent: EVIDENCE });
  return out;
};

/** A correctly signed act (D-021) of a life, with the given action. */
const signedAct = (
  A: string,
  nonce: string,
  manifest: JanmaManifest,
  action: { tool: string; capability: string; outcome: "ok"; tick: number; trace: string[] },
) => {
  const manifest_digest = digestOf(DOMAIN.manifest, manifest);
  return {
    identity: A,
    nonce,
    manifest_digest,
    action,
    signature: digestOf(DOMAIN.action, { identity: A, nonce, manifest_digest, action }),
  };
};

/** Distillation refusals OP-2.7.c3 … c10 for a withdrawn life not yet distilled. */
const distilRefusals = (a: Agent, instance: string, tick: number, b: Builders): Command[] => {
  const A = a.identity.identity;
  const life = a.instances.get(instance);
  if (life === undefined) return [];
  const d = b.distillate(A, instance, life.view.nonce, life.view.born_from);
  const disp = (d["dispositions"] as Array<Record<string, unknown>>)[0] ?? {};
  const signal = d["signal"] as Record<string, unknown>;
  const fresh = `ob-rare-${tick}`;
  const cmd = (distillate: unknown, obligation_id = fresh): Command =>
    ({ op: "janma.distil", tick, agent: A, instance_id: instance, obligation_id, distillate }) as Command;
  const out: Command[] = [];
  const usedOb = [...a.obligations.keys()].sort()[0];
  if (usedOb !== undefined) out.push(cmd(d, usedOb)); // c3: an obligation id in use
  out.push(cmd({ ...d, extra: 1 })); // c4: not a strict SamskaraDistillate
  out.push(cmd({ ...d, source: { ...(d["source"] as object), nonce: `${life.view.nonce}-other` } })); // c5: another projection
  out.push(cmd({ ...d, signal: { ...signal, model_version: "psm-forged" } })); // c6: not the principal's satisfaction model
  out.push(cmd({ ...d, dispositions: [{ ...disp, weight: -Number(disp["weight"] ?? 1) }] })); // c7: a weight against the valence
  out.push(cmd({ ...d, dispositions: [{ ...disp, category: "health" }] })); // c8: a category the consent grant does not authorise
  const words = life.trace
    .find((e) => e.split(" ").length >= 4)
    ?.split(" ")
    .slice(0, 4)
    .join(" ");
  if (words !== undefined) out.push(cmd({ ...d, dispositions: [{ ...disp, guidance: `so ${words}` }] })); // c9: a leak of 4 trace tokens
  const usedId = [...a.distillate_ids_used].sort()[0];
  if (usedId !== undefined) out.push(cmd({ ...d, distillate_id: usedId })); // c10: a distillate id used before
  return out;
};

/** The Janma, custody and Samskara refusals no valid maker reaches, for every agent. */
export const rareSamsaraCommands = (world: World, tick: number, b: Builders): Command[] => {
  const out: Command[] = [];
  // OP-5.1.c2: a fresh root, one provider id twice.
  const prov = {
    provider_id: "prov-a",
    kind: "service" as const,
    contract_version: "v1",
    capabilities: ["fare.search"],
  };
  out.push({
    op: "advaita.mint",
    tick,
    base_digest: BASE,
    root: `root-rare-${tick}`,
    designation: "agent",
    body_revision: "rev-0",
    custodians: ["custodian-1"],
    execution: exec(`exec-rare-${tick}`),
    providers: [prov, prov],
    required_capabilities: ["fare.search"],
    authority_token: `tok-rare-${tick}`,
  });
  for (const a of byRoot(world)) {
    const A = a.identity.identity;
    const head = headOf(a);
    const m = b.manifest(head);
    const fresh = `i-rare-${tick}`;
    const lives = [...a.instances.values()].sort((x, y) => (x.view.instance_id < y.view.instance_id ? -1 : 1));
    const first = lives[0];
    // OP-2.1.c3: a life's nonce again; c4: a manifest for another base digest.
    if (first !== undefined)
      out.push({ op: "janma.conceive", tick, agent: A, instance_id: fresh, nonce: first.view.nonce, manifest: m });
    out.push({
      op: "janma.conceive",
      tick,
      agent: A,
      instance_id: fresh,
      nonce: `n-rare-${tick}`,
      manifest: { ...m, substrate: { ...m.substrate, base_digest: EVIDENCE } },
    });
    const conceived = lives.find((x) => x.view.state === "conceived");
    if (conceived !== undefined) {
      const id = conceived.view.instance_id;
      out.push({
        op: "janma.birth",
        tick,
        agent: A,
        instance_id: id,
        environment: { tools: [], grantable: ["fare.*"] },
      }); // OP-2.2.c6: the bound tool is not offered
      out.push({
        op: "janma.birth",
        tick,
        agent: A,
        instance_id: id,
        environment: { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["far.*"] },
      }); // c7: "far.*" grants no fare.*
    }
    const living = lives.find((x) => x.view.state === "ready" || x.view.state === "active");
    if (living !== undefined) {
      const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["x"] };
      const s = signedAct(A, living.view.nonce, living.manifest, action);
      out.push({
        op: "janma.act",
        tick,
        agent: A,
        instance_id: living.view.instance_id,
        signed: { ...s, signature: EVIDENCE },
      }); // OP-2.3.c5: a forged signature
      const book = signedAct(A, living.view.nonce, living.manifest, { ...action, capability: "fare.book" });
      out.push({ op: "janma.act", tick, agent: A, instance_id: living.view.instance_id, signed: book }); // c7: fare.book is not the binding's
    }
    const undistilled = lives.find((x) => x.view.state === "withdrawn" && x.view.obligation_id === null);
    if (undistilled !== undefined) out.push(...distilRefusals(a, undistilled.view.instance_id, tick, b));
    // OP-3.1.c1 / OP-3.2.c1 / OP-4.1.c2: no such obligation.
    out.push({ op: "custody.attempt", tick, agent: A, obligation_id: "ghost", ack: "lost" });
    out.push({ op: "custody.expire", tick, agent: A, obligation_id: "ghost" });
    out.push({ op: "samskara.merge", tick, agent: A, obligation_ids: ["ghost"] });
    const discharged = [...a.obligations.values()]
      .filter((o) => o.view.status === "discharged")
      .map((o) => o.view)
      .sort((x, y) => (x.obligation_id < y.obligation_id ? -1 : 1));
    const done = discharged[0];
    if (done !== undefined) {
      out.push({ op: "custody.attempt", tick, agent: A, obligation_id: done.obligation_id, ack: "lost" }); // OP-3.1.c2
      out.push({ op: "custody.expire", tick, agent: A, obligation_id: done.obligation_id }); // OP-3.2.c2
    }
    const unapplied = discharged.find((o) => o.outcome !== "applied");
    if (unapplied !== undefined)
      out.push({ op: "samskara.merge", tick, agent: A, obligation_ids: [unapplied.obligation_id] }); // OP-4.1.c3
    // OP-4.2.c2: an excision id used before; c3: a non-custodian; c4: a distillate not retained.
    const used = a.store.excisions[0]?.excision_id;
    const retained = [...a.store.retained.keys()].sort()[0] ?? "ghost";
    if (used !== undefined)
      out.push({
        op: "samskara.excise",
        tick,
        agent: A,
        excision_id: used,
        distillate_ids: [retained],
        authorization: AUTH,
      });
    out.push({
      op: "samskara.excise",
      tick,
      agent: A,
      excision_id: `x-rare-${tick}`,
      distillate_ids: [retained],
      authorization: ROGUE,
    });
    out.push({
      op: "samskara.excise",
      tick,
      agent: A,
      excision_id: `x-rare-${tick}`,
      distillate_ids: ["ghost"],
      authorization: AUTH,
    });
  }
  return out;
};

/** The RIPA refusals no generator maker reaches with the scope's choices, for every agent. */
export const rareRipaCommands = (world: World, tick: number): Command[] => {
  const out: Command[] = [];
  for (const a of byRoot(world)) {
    const A = a.identity.identity;
    out.push({ op: "ripa.restart", tick, agent: A, execution_id: `exec-other-${tick}`, token: `tok-${tick}` }); // OP-6.1.c2
    const live = [...a.ripa.live_attempts.entries()].sort()[0];
    if (live !== undefined) out.push({ op: "ripa.request", tick, agent: A, task_id: live[0], attempt_nonce: live[1] }); // OP-6.4.c3
    out.push({
      op: "ripa.effect",
      tick,
      agent: A,
      execution_id: a.ripa.authority.holder ?? a.ripa.execution.execution_id,
      token: a.ripa.authority.token,
      provider_id: "prov-ghost",
      capability: "fare.search",
      effect_id: "e0",
    }); // OP-6.6.c2
    if (a.store.quarantined.includes(headOf(a)))
      out.push({
        op: "ripa.descend",
        tick,
        agent: A,
        root: `root-rare-${tick}`,
        designation: "child",
        execution: exec(`exec-rare-${tick}`),
        authority_token: `tok-rare-${tick}`,
      }); // OP-6.11.c2
  }
  return out;
};
