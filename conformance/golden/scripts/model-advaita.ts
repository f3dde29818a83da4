/**
 * Golden session "session-model-advaita": a situation the generated sessions never build, found by
 * Stryker among the survivors of the model's model/samskara/store.ts (reports/stryker.md).
 *
 *  - OP-4.1: one merge of three pending obligations listed out of order (ob-c, ob-a, ob-b): the
 *    `custody.discharged` events come one per obligation sorted by obligation id (ob-a, ob-b, ob-c),
 *    not in the order the command lists them; `store.merged.added` is sorted by distillate id.
 *    A re-merge of the same ids, again out of order, is the no-op of D-008 with the ids sorted.
 *  - OP-3.1.c1, OP-3.2.c1, OP-4.4.c1: an attempt, an expiry and a projection write naming an
 *    obligation or instance the agent does not have are NOT_FOUND.
 */
import type { Command, Disposition, JanmaManifest, WorldView } from "../../../spec/index.ts";
import { DOMAIN, digestOf } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../session.ts";

const BASE = `sha256:${"ab".repeat(32)}`;
const EVIDENCE = `sha256:${"cd".repeat(32)}`;
const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });

interface Life {
  readonly agent: string;
  readonly instance_id: string;
  readonly nonce: string;
  readonly manifest: JanmaManifest;
}

const script = (ctx: ScriptContext): void => {
  let tick = 0;
  let seq = 0;
  const send = (cmd: (t: number) => Command, pins?: string) => ctx.send(cmd(++tick), pins);
  const agentView = (root: string): WorldView["agents"][number] => {
    const a = ctx.view().agents.find((x) => x.identity.root === root);
    if (a === undefined) throw new Error(`script: no agent minted from ${root}`);
    return a;
  };
  const root = "ma-a";
  send((t) => ({
    op: "advaita.mint", tick: t, base_digest: BASE, root, designation: root, body_revision: "rev-0", custodians: ["custodian-1"],
    execution: exec(`exec-${root}`),
    providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    required_capabilities: ["fare.search"], authority_token: `tok-${root}`,
  }));
  const A = agentView(root).identity.identity;
  const ENV = { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["fare.*"] };
  /** A life conceived on the current head, born, acted once and withdrawn: ready to distil. */
  const lived = (): Life => {
    const manifest: JanmaManifest = {
      manifest_version: 1,
      substrate: { base_digest: BASE, store_version: agentView(root).store.head },
      mission: "travel",
      capability_grants: ["fare.*"],
      tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
      consent_scope: { grant_id: "g", principal: "p", cells: [], category_defaults: [], persist_ceiling: "low" },
      ttl_ticks: 1000,
      termination_conditions: [],
      distillation_policy: { deadline_ticks: 1000, max_retries: 1 },
    };
    const life: Life = { agent: A, instance_id: `i${++seq}`, nonce: `n${seq}`, manifest };
    send((t) => ({ op: "janma.conceive", tick: t, agent: A, instance_id: life.instance_id, nonce: life.nonce, manifest }));
    send((t) => ({ op: "janma.birth", tick: t, agent: A, instance_id: life.instance_id, environment: ENV }));
    send((t) => {
      const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick: t, trace: ["looked up fares"] };
      const manifest_digest = digestOf(DOMAIN.manifest, manifest);
      const signature = digestOf(DOMAIN.action, { identity: A, nonce: life.nonce, manifest_digest, action });
      return { op: "janma.act", tick: t, agent: A, instance_id: life.instance_id, signed: { identity: A, nonce: life.nonce, manifest_digest, action, signature } };
    });
    send((t) => ({ op: "janma.withdraw", tick: t, agent: A, instance_id: life.instance_id, reason: "principal" }));
    return life;
  };
  const disposition = (key: string, guidance: string, weight: number): Disposition => ({ key, guidance, weight, evidence_digest: EVIDENCE, category: "operational" });
  const distil = (life: Life, obligation_id: string, distillate_id: string, d: Disposition, valence: number) =>
    send((t) => ({
      op: "janma.distil", tick: t, agent: A, instance_id: life.instance_id, obligation_id,
      distillate: {
        distillate_id,
        source: { identity: A, nonce: life.nonce, instance_id: life.instance_id },
        born_from: life.manifest.substrate.store_version,
        signal: { valence, confidence: 1_000_000, model_version: null, explicit: true },
        dispositions: [d],
      },
    }));

  // Three lessons (two reinforcing, one corrective) whose obligation ids sort ob-a < ob-b < ob-c and
  // whose distillate ids sort the other way.
  distil(lived(), "ob-c", "d-a", disposition("k.c", "prefer aisle seats", 400_000), 400_000);
  distil(lived(), "ob-a", "d-c", disposition("k.a", "book early", 300_000), 300_000);
  distil(lived(), "ob-b", "d-b", disposition("k.b", "avoid night trains", -200_000), -200_000);

  // OP-4.1: listed ob-c, ob-a, ob-b; discharged ob-a, ob-b, ob-c; added d-a, d-b, d-c.
  send((t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids: ["ob-c", "ob-a", "ob-b"] }), "OP-4.1.c4");
  // D-008: every listed obligation is applied, so the re-merge is a no-op with the ids sorted.
  send((t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids: ["ob-b", "ob-c", "ob-a", "ob-b"] }), "OP-4.1.c3");

  // Lookups of what the agent does not have.
  send((t) => ({ op: "custody.attempt", tick: t, agent: A, obligation_id: "ob-none", ack: "declined" }), "OP-3.1.c1");
  send((t) => ({ op: "custody.expire", tick: t, agent: A, obligation_id: "ob-none" }), "OP-3.2.c1");
  send((t) => ({ op: "advaita.project_write", tick: t, agent: A, instance_id: "i-none", disposition: disposition("k.w", "write directly", 1) }), "OP-4.4.c1");
  // OP-4.4.c2: an existing projection still cannot write the store (AD-2).
  send((t) => ({ op: "advaita.project_write", tick: t, agent: A, instance_id: "i1", disposition: disposition("k.w", "write directly", 1) }), "OP-4.4.c2");
};

export const MODEL_ADVAITA_SESSION: ScriptedGoldenSpec = { name: "session-model-advaita", script };
