/**
 * The scope's command makers: every command a scope tries in a given world. The explorer's own
 * makers are concrete, small, well-formed commands in the manner of
 * conformance/golden/scripts/travel-driver.ts (one "travel" tool, fare.* grantable); values known
 * only in the state (identity, store head, manifest digest, signature) are read or computed from
 * the world. The other makers are dispatched to makers-gen.ts (the property generator's builders),
 * makers-rare.ts and makers-quiesced.ts (refusals no valid command meets).
 */
import type { Command, JanmaManifest } from "../../spec/index.ts";
import { DOMAIN, digestOf } from "../../spec/index.ts";
import type { World } from "../../model/index.ts";
import { genCommands, lazyView } from "./makers-gen.ts";
import { quiescedCommands } from "./makers-quiesced.ts";
import { genericCommands, rareRipaCommands, rareSamsaraCommands, type Builders } from "./makers-rare.ts";
import { GEN_MAKER_NAMES, type DistillateShape, type GenMakerName, type MakerName, type Scope } from "./scope.ts";

export const BASE = `sha256:${"ab".repeat(32)}`;
export const EVIDENCE = `sha256:${"cd".repeat(32)}`;
const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };
const ENV = { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["fare.*"] };

/** A command the explorer tries, with the maker that built it (for per-maker counts). */
export interface Tried {
  readonly maker: MakerName;
  readonly command: Command;
}

const manifestOf = (scope: Scope, head: string): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: head },
  mission: "travel",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
  // Health lessons are not consented for training (D-058), so a distillate of one is refused (OP-2.7.c8).
  consent_scope: {
    grant_id: "g",
    principal: "p",
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
    category_defaults: [],
    persist_ceiling: "low",
  },
  ttl_ticks: scope.ttl_ticks,
  termination_conditions: [],
  distillation_policy: {
    deadline_ticks: scope.deadline_ticks,
    max_retries: scope.max_retries,
    satisfaction_model: null,
  },
});

const nonceOf = (instance: string) => `n-${instance}`;

const distillateOf = (agent: string, instance: string, bornFrom: string, shape: DistillateShape) => ({
  distillate_id: `d-${instance}-${shape.id}`,
  source: { identity: agent, nonce: nonceOf(instance), instance_id: instance },
  born_from: bornFrom,
  signal: { valence: shape.valence, confidence: shape.confidence, model_version: null, explicit: true },
  dispositions: shape.dispositions.map((d) => ({ ...d, evidence_digest: EVIDENCE, category: "operational" })),
});

/** The scope's manifest and first distillate shape, for the rare refusals (makers-rare.ts). */
const buildersOf = (scope: Scope): Builders => ({
  manifest: (head) => manifestOf(scope, head),
  distillate: (agent, instance, nonce, bornFrom) => {
    const shape = scope.distillates[0] ?? {
      id: "rare",
      valence: 500_000,
      confidence: 900_000,
      dispositions: [{ key: "fares", guidance: "prefer direct fares", weight: 500_000 }],
    };
    const d = distillateOf(agent, instance, bornFrom, shape);
    return { ...d, source: { ...d.source, nonce } };
  },
});

const isGen = (m: MakerName): m is GenMakerName => (GEN_MAKER_NAMES as readonly string[]).includes(m);

/** Every command of the scope in `world`, in a fixed order (makers in scope order). */
export const commandsAt = (scope: Scope, world: World): Tried[] => {
  const tick = world.tick + scope.tick_step;
  const out: Tried[] = [];
  const agents = [...world.agents.values()].sort((a, b) => (a.identity.root < b.identity.root ? -1 : 1));
  const v = lazyView(world);
  for (const maker of scope.makers) {
    const push = (command: unknown) => out.push({ maker, command: command as Command });
    if (isGen(maker)) {
      for (const c of genCommands(scope, maker, v, tick)) push(c);
      continue;
    }
    if (maker === "generic") {
      for (const c of genericCommands(world, tick)) push(c);
      continue;
    }
    if (maker === "rare_samsara") {
      for (const c of rareSamsaraCommands(world, tick, buildersOf(scope))) push(c);
      continue;
    }
    if (maker === "quiesced") {
      for (const c of quiescedCommands(scope, world, v, tick, (head) => manifestOf(scope, head))) push(c);
      continue;
    }
    if (maker === "rare_ripa") {
      for (const c of rareRipaCommands(world, tick)) push(c);
      continue;
    }
    if (maker === "mint") {
      for (const root of scope.roots)
        push({
          op: "advaita.mint",
          tick,
          base_digest: BASE,
          root,
          designation: root,
          body_revision: "rev-0",
          custodians: ["custodian-1"],
          execution: { execution_id: `exec-${root}`, reasoner: "r", harness: "h", host: "host" },
          providers: [{ provider_id: "p", capabilities: ["fare.search"], kind: "service", contract_version: "v1" }],
          required_capabilities: ["fare.search"],
          authority_token: `tok-${root}`,
        });
      continue;
    }
    for (const a of agents) {
      const agent = a.identity.identity;
      const head = a.store.chain[a.store.chain.length - 1]?.version_id ?? BASE;
      if (maker === "attempt") {
        for (const o of a.obligations.values())
          if (o.view.status === "pending")
            for (const ack of scope.acks)
              push({ op: "custody.attempt", tick, agent, obligation_id: o.view.obligation_id, ack });
        continue;
      }
      if (maker === "custody_expire") {
        for (const o of a.obligations.values())
          if (o.view.status === "pending")
            push({ op: "custody.expire", tick, agent, obligation_id: o.view.obligation_id });
        continue;
      }
      if (maker === "replay") {
        push({ op: "samskara.replay", tick, agent });
        continue;
      }
      if (maker === "excise") {
        // One excision per retained distillate, by the agent's custodian (OP-4.2): the explorer
        // forgets one at a time; the order of forgetting is what the search varies.
        for (const id of [...a.store.retained.keys()].sort())
          push({
            op: "samskara.excise",
            tick,
            agent,
            excision_id: `x-${id}`,
            distillate_ids: [id],
            authorization: AUTH,
          });
        continue;
      }
      if (maker === "merge") {
        const pending = [...a.obligations.values()]
          .filter((o) => o.view.status === "pending")
          .map((o) => o.view.obligation_id);
        if (pending.length > 0) push({ op: "samskara.merge", tick, agent, obligation_ids: pending });
        continue;
      }
      let freshTaken = false;
      for (const instance_id of scope.instances) {
        const life = a.instances.get(instance_id);
        switch (maker) {
          case "conceive":
            if (scope.fresh_ids_in_order && life === undefined) {
              if (freshTaken) break;
              freshTaken = true;
            }
            push({
              op: "janma.conceive",
              tick,
              agent,
              instance_id,
              nonce: nonceOf(instance_id),
              manifest: manifestOf(scope, head),
            });
            break;
          case "birth":
            push({ op: "janma.birth", tick, agent, instance_id, environment: ENV });
            break;
          case "act": {
            const manifest = life?.manifest ?? manifestOf(scope, head);
            // Five words: a distillate quoting four of them leaks the trace (OP-2.7.c9, makers-rare.ts).
            const action = {
              tool: "search",
              capability: "fare.search",
              outcome: "ok" as const,
              tick,
              trace: ["looked up cheap direct fares"],
            };
            const manifest_digest = digestOf(DOMAIN.manifest, manifest);
            const nonce = nonceOf(instance_id);
            const signature = digestOf(DOMAIN.action, { identity: agent, nonce, manifest_digest, action });
            push({
              op: "janma.act",
              tick,
              agent,
              instance_id,
              signed: { identity: agent, nonce, manifest_digest, action, signature },
            });
            break;
          }
          case "withdraw":
            push({ op: "janma.withdraw", tick, agent, instance_id, reason: "principal" });
            break;
          case "dissolve":
            push({ op: "janma.dissolve", tick, agent, instance_id });
            break;
          case "expire":
            push({ op: "janma.expire", tick, agent, instance_id });
            break;
          case "distil": {
            const bornFrom = life?.manifest.substrate.store_version ?? head;
            for (const shape of scope.distillates)
              push({
                op: "janma.distil",
                tick,
                agent,
                instance_id,
                obligation_id: `ob-${instance_id}`,
                distillate: distillateOf(agent, instance_id, bornFrom, shape),
              });
            break;
          }
        }
      }
    }
  }
  return out;
};
