/**
 * The algebra stage's scripts, computed by the reference model: one agent whose lives are each
 * conceived, born, acted, withdrawn and distilled (the "prefix": n distillates whose obligations
 * are pending), followed by merges, excisions and replays. Every scripted command is applied to
 * the model (`expect1`) as it is built, so each step carries the model's normative reply and each
 * store query the model's `StoreView`; a scripted command the model rejects is a runner bug.
 *
 * The lives are chosen so that a wrong store algebra shows (AD-3, D-002, D-007): `k.a` is
 * contested and its leader is decided by a full tie (same |w|·c, |w| and confidence) broken by the
 * smallest distillate id, so an implementation that keeps the first or last contributor seen
 * depends on the merge order; `k.b` has a clear highest-weighted contributor (and a different one
 * once life 4 joins); `k.r` has a per-key mean of exactly one half (3·c − 2·c over 2·c), rounded
 * to even (0), never away from zero; `k.c`, `k.d`, `k.e` overlap later lives with tiny and large
 * weights and confidences. Lives 1–3 already carry every one of these traps, so every group
 * (3, 4 or 7 lives) exercises them.
 */
import type {
  AgentView,
  Command,
  Disposition,
  JanmaManifest,
  SamskaraDistillate,
  StoreView,
  WorldView,
} from "../../spec/index.ts";
import { DOMAIN, digestOf } from "../../spec/index.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import type { ExpectedReply } from "../core/reply.ts";
import { expect1 } from "../oracle/model.ts";

/** Where a step belongs; decides the check a mismatch is reported under. */
export type Phase = "prefix" | "merge" | "excise" | "replay";

export type ScriptRequest =
  | { readonly type: "command"; readonly command: Command }
  | {
      readonly type: "query";
      readonly query: { readonly name: "world" } | { readonly name: "store"; readonly agent: string };
    };

/** The model's normative reply: a command's (or the world query's), or the store query's. */
export type Expected = ExpectedReply | { readonly ok: true; readonly events: readonly []; readonly result: StoreView };

export interface ScriptStep {
  readonly phase: Phase;
  readonly request: ScriptRequest;
  readonly expected: Expected;
}

export interface Script {
  /** A readable name of the schedule, used in summaries (e.g. `n4 merges ob-2 | ob-1,ob-3`). */
  readonly label: string;
  readonly steps: readonly ScriptStep[];
}

/** One scripted life: its signal and its dispositions `[key, weight, guidance]`. */
interface Life {
  readonly valence: number;
  readonly confidence: number;
  readonly dispositions: readonly (readonly [string, number, string])[];
}

/** See the header: ties, contested keys and a rounding half in lives 1–3. Weights have the valence's sign and |w| ≤ |valence| (D-012). */
const LIVES: readonly Life[] = [
  {
    valence: 600_000,
    confidence: 500_000,
    dispositions: [
      ["k.a", 600_000, "a from life 1"],
      ["k.b", 300_000, "b from life 1"],
      ["k.r", 3, "r from life 1"],
    ],
  },
  {
    valence: -800_000,
    confidence: 500_000,
    dispositions: [
      ["k.a", -600_000, "a from life 2"],
      ["k.r", -2, "r from life 2"],
      ["k.c", -400_000, "c from life 2"],
    ],
  },
  {
    valence: 300_000,
    confidence: 1_000_000,
    dispositions: [
      ["k.a", 300_000, "a from life 3"],
      ["k.b", 250_000, "b from life 3"],
    ],
  },
  {
    valence: -500_000,
    confidence: 600_000,
    dispositions: [
      ["k.b", -500_000, "b from life 4"],
      ["k.c", -5, "c from life 4"],
      ["k.d", -100_000, "d from life 4"],
    ],
  },
  {
    valence: 1,
    confidence: 1,
    dispositions: [
      ["k.d", 1, "d from life 5"],
      ["k.b", 1, "b from life 5"],
    ],
  },
  {
    valence: -1,
    confidence: 3,
    dispositions: [
      ["k.d", -1, "d from life 6"],
      ["k.a", -1, "a from life 6"],
    ],
  },
  {
    valence: 900_000,
    confidence: 250_000,
    dispositions: [
      ["k.c", 900_000, "c from life 7"],
      ["k.e", 450_000, "e from life 7"],
      ["k.r", 1, "r from life 7"],
    ],
  },
];

export const MAX_LIVES = LIVES.length;

const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
const CUSTODIAN = "custodian-1";
const AUTHORIZATION = { custodian: CUSTODIAN, decision_id: "decision-1" } as const;
const TTL = 1_000_000;
const ENVIRONMENT = { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["fare.*"] };

export const obligationId = (life: number): string => `ob-${life + 1}`;
export const distillateId = (life: number): string => `dist-${life + 1}`;

const manifestFor = (pin: string): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "algebra",
  capability_grants: ["fare.search"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
  consent_scope: { grant_id: "g", principal: "p", cells: [], category_defaults: [], persist_ceiling: "low" },
  ttl_ticks: TTL,
  termination_conditions: [],
  distillation_policy: { deadline_ticks: TTL, max_retries: 0, satisfaction_model: null },
});

/**
 * Builds a script while applying it to the model. Immutable worlds make `fork` cheap: the prefix
 * is built once per group and every schedule continues from a fork of it.
 */
export class ScriptBuilder {
  private constructor(
    private world: World,
    private tick: number,
    private readonly steps: ScriptStep[],
  ) {}

  static empty(): ScriptBuilder {
    return new ScriptBuilder(initialWorld(), 0, []);
  }

  fork(): ScriptBuilder {
    return new ScriptBuilder(this.world, this.tick, [...this.steps]);
  }

  get worldView(): WorldView {
    return view(this.world);
  }

  get agent(): AgentView {
    const a = this.worldView.agents[0];
    if (a === undefined) throw new Error("algebra stage (runner bug): no agent was minted before it was named");
    return a;
  }

  nextTick(): number {
    return ++this.tick;
  }

  command(phase: Phase, command: Command): this {
    const e = expect1(this.world, command);
    if (!e.reply.ok) {
      throw new Error(
        `algebra stage (runner bug): the reference model rejects the scripted ${command.op} with ${e.reply.error.code}/${e.reply.error.invariant ?? "-"}: ${JSON.stringify(command).slice(0, 300)}`,
      );
    }
    this.world = e.world;
    this.steps.push({ phase, request: { type: "command", command }, expected: e.reply });
    return this;
  }

  queryStore(phase: Phase): this {
    const agent = this.agent;
    this.steps.push({
      phase,
      request: { type: "query", query: { name: "store", agent: agent.identity.identity } },
      expected: { ok: true, events: [], result: agent.store },
    });
    return this;
  }

  queryWorld(phase: Phase): this {
    this.steps.push({
      phase,
      request: { type: "query", query: { name: "world" } },
      expected: { ok: true, events: [], result: this.worldView },
    });
    return this;
  }

  /** One `samskara.merge` of the given lives' obligations (duplicates kept as listed, D-008), then the store. */
  merge(lives: readonly number[]): this {
    const agent = this.agent.identity.identity;
    return this.command("merge", {
      op: "samskara.merge",
      tick: this.nextTick(),
      agent,
      obligation_ids: lives.map(obligationId),
    }).queryStore("merge");
  }

  excise(excisionId: string, lives: readonly number[]): this {
    const agent = this.agent.identity.identity;
    return this.command("excise", {
      op: "samskara.excise",
      tick: this.nextTick(),
      agent,
      excision_id: excisionId,
      distillate_ids: lives.map(distillateId),
      authorization: AUTHORIZATION,
    }).queryStore("excise");
  }

  replay(): this {
    return this.command("replay", {
      op: "samskara.replay",
      tick: this.nextTick(),
      agent: this.agent.identity.identity,
    }).queryStore("replay");
  }

  build(label: string): Script {
    return { label, steps: [...this.steps] };
  }
}

/** The prefix of a group: mint, then n lives each conceived, born, acted, withdrawn and distilled; then the world. */
export const buildPrefix = (n: number): ScriptBuilder => {
  if (n < 1 || n > MAX_LIVES) throw new RangeError(`algebra stage: ${n} lives asked, 1..${MAX_LIVES} scripted`);
  const b = ScriptBuilder.empty();
  b.command("prefix", {
    op: "advaita.mint",
    tick: b.nextTick(),
    base_digest: BASE,
    root: "algebra-root",
    designation: "algebra",
    body_revision: "rev-0",
    custodians: [CUSTODIAN],
    execution: { execution_id: "exec-0", reasoner: "r", harness: "h", host: "host" },
    providers: [],
    required_capabilities: [],
    authority_token: "tok-0",
  });
  const A = b.agent.identity.identity;
  for (const [i, life] of LIVES.slice(0, n).entries()) {
    const instance_id = `life-${i + 1}`;
    const nonce = `nonce-${i + 1}`;
    const pin = b.agent.store.head;
    b.command("prefix", {
      op: "janma.conceive",
      tick: b.nextTick(),
      agent: A,
      instance_id,
      nonce,
      manifest: manifestFor(pin),
    });
    b.command("prefix", { op: "janma.birth", tick: b.nextTick(), agent: A, instance_id, environment: ENVIRONMENT });
    const inst = b.agent.instances.find((x) => x.instance_id === instance_id);
    if (inst === undefined) throw new Error(`algebra stage (runner bug): instance ${instance_id} missing after birth`);
    const tick = b.nextTick();
    const action = {
      tool: "search",
      capability: "fare.search",
      outcome: "ok" as const,
      tick,
      trace: [`searched fares for trip ${i + 1} and compared them`],
    };
    const signature = digestOf(DOMAIN.action, { identity: A, nonce, manifest_digest: inst.manifest_digest, action });
    b.command("prefix", {
      op: "janma.act",
      tick,
      agent: A,
      instance_id,
      signed: { identity: A, nonce, manifest_digest: inst.manifest_digest, action, signature },
    });
    b.command("prefix", { op: "janma.withdraw", tick: b.nextTick(), agent: A, instance_id, reason: "principal" });
    const distillate: SamskaraDistillate = {
      distillate_id: distillateId(i),
      source: { identity: A, nonce, instance_id },
      born_from: inst.born_from,
      signal: { valence: life.valence, confidence: life.confidence, model_version: null, explicit: true },
      dispositions: life.dispositions.map(
        ([key, weight, guidance]): Disposition => ({
          key,
          guidance,
          weight,
          evidence_digest: EVIDENCE,
          category: "operational",
        }),
      ),
    };
    b.command("prefix", {
      op: "janma.distil",
      tick: b.nextTick(),
      agent: A,
      instance_id,
      obligation_id: obligationId(i),
      distillate,
    });
  }
  return b.queryWorld("prefix");
};
