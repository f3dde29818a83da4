/**
 * Valid command sequences for the measurements: one agent, and lives that each leave one
 * distillate merged into its lineage (conceive → birth → withdraw → distil → merge, OP-2/OP-4).
 * The builder drives any `apply` (the in-process implementation, on a data directory) and throws
 * on the first rejection, so a measurement never silently times a refused command.
 */
import type { Command, Event, JanmaManifest } from "../spec/index.ts";

export const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
export const AUTH = { custodian: "custodian-1", decision_id: "decision-1" } as const;

/** Eight keys shared by the distillates, so per-key contributor lists grow with the lineage. */
const KEYS = ["k.a", "k.b", "k.c", "k.d", "k.e", "k.f", "k.g", "k.h"];
const GUIDANCE = ["prefer early departures", "avoid overnight layovers", "ask before booking", "check refund terms"];

export type Apply = (
  command: Command,
) => { ok: true; events: Event[] } | { ok: false; error: { code: string; message: string } };

export const mintCommand = (tick: number, root: string): Command => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation: "bench agent",
  body_revision: "rev-0",
  custodians: [AUTH.custodian],
  execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host" },
  providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
  required_capabilities: ["fare.search"],
  authority_token: "tok-1",
});

const manifest = (pin: string): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "travel",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search"] }],
  consent_scope: { grant_id: "g", principal: "p", cells: [], category_defaults: [], persist_ceiling: "low" },
  ttl_ticks: 1_000_000_000,
  termination_conditions: [],
  distillation_policy: { deadline_ticks: 1_000_000_000, max_retries: 1, satisfaction_model: null },
});

const ENV = { tools: [{ tool: "search", capabilities: ["fare.search"] }], grantable: ["fare.*"] };

export class CommandRejected extends Error {
  override readonly name = "CommandRejected";
}

/** One agent and its lineage, driven through `apply`; ids and ticks are the builder's. */
export class LineageBuilder {
  /** Distillates merged and retained in the lineage. */
  retained = 0;
  private lives = 0;
  private tasks = 0;
  private excisions = 0;
  private tick = 1;
  private head: string;
  readonly agent: string;

  private constructor(
    private readonly apply: Apply,
    agent: string,
    genesis: string,
  ) {
    this.agent = agent;
    this.head = genesis;
  }

  /** Mints the agent (one durable write). */
  static mint(apply: Apply, root = "bench-root"): LineageBuilder {
    const events = must(apply, mintCommand(1, root));
    const minted = events.find((e): e is Extract<Event, { type: "agent.minted" }> => e.type === "agent.minted");
    if (minted === undefined) throw new CommandRejected("advaita.mint emitted no agent.minted event");
    return new LineageBuilder(apply, minted.identity, minted.genesis);
  }

  /** Resumes a builder on a copy of the same store (the same agent, head, counters). */
  on(apply: Apply): LineageBuilder {
    const b = new LineageBuilder(apply, this.agent, this.head);
    b.retained = this.retained;
    b.lives = this.lives;
    b.tasks = this.tasks;
    b.excisions = this.excisions;
    b.tick = this.tick;
    return b;
  }

  /** The commands of one life up to its pending obligation (conceive, birth, withdraw, distil); returns the obligation id. */
  prepare(): { obligation: string; distillate: string } {
    const k = this.lives++;
    const instance_id = `i${k}`;
    const nonce = `n${k}`;
    const A = this.agent;
    const tick = ++this.tick;
    must(this.apply, { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest: manifest(this.head) });
    must(this.apply, { op: "janma.birth", tick, agent: A, instance_id, environment: ENV });
    must(this.apply, { op: "janma.withdraw", tick, agent: A, instance_id, reason: "principal" });
    const valence = [-800_000, -300_000, 400_000, 900_000][k % 4] ?? 1;
    const keys = [KEYS[k % KEYS.length] ?? "k.a", KEYS[(k * 3 + 1) % KEYS.length] ?? "k.b"];
    const distillate = `d${k}`;
    must(this.apply, {
      op: "janma.distil",
      tick,
      agent: A,
      instance_id,
      obligation_id: `ob${k}`,
      distillate: {
        distillate_id: distillate,
        source: { identity: A, nonce, instance_id },
        born_from: this.head,
        signal: { valence, confidence: [250_000, 600_000, 1_000_000][k % 3] ?? 1, model_version: null, explicit: true },
        dispositions: [...new Set(keys)].map((key, j) => ({
          key,
          guidance: GUIDANCE[(k + j) % GUIDANCE.length] ?? "g",
          weight: Math.trunc(valence / (j + 2)),
          evidence_digest: EVIDENCE,
          category: "operational",
        })),
      },
    });
    return { obligation: `ob${k}`, distillate };
  }

  /** Merges one prepared obligation as its own batch (one new version). */
  merge(obligation: string): void {
    const events = must(this.apply, this.mergeCommand(obligation));
    const merged = events.find((e): e is Extract<Event, { type: "store.merged" }> => e.type === "store.merged");
    if (merged === undefined) throw new CommandRejected(`samskara.merge of ${obligation} merged nothing`);
    this.head = merged.version_id;
    this.retained++;
  }

  mergeCommand(obligation: string): Command {
    return { op: "samskara.merge", tick: this.tick, agent: this.agent, obligation_ids: [obligation] };
  }

  /** Grows the lineage by one distillate (five commands, five durable writes). */
  grow(): void {
    this.merge(this.prepare().obligation);
  }

  taskStartCommand(): Command {
    return { op: "ripa.task_start", tick: this.tick, agent: this.agent, task_id: `t${this.tasks++}` };
  }

  exciseCommand(distillate: string): Command {
    return {
      op: "samskara.excise",
      tick: this.tick,
      agent: this.agent,
      excision_id: `x${this.excisions++}`,
      distillate_ids: [distillate],
      authorization: AUTH,
    };
  }

  /** After an accepted excision of the most recent distillate: the head is the one before it. */
  excised(events: readonly Event[]): void {
    const e = events.find((x): x is Extract<Event, { type: "store.excised" }> => x.type === "store.excised");
    if (e === undefined) throw new CommandRejected("samskara.excise emitted no store.excised event");
    this.head = e.new_head;
    this.retained--;
  }

  replayCommand(): Command {
    return { op: "samskara.replay", tick: this.tick, agent: this.agent };
  }
}

/** Applies a command that must be accepted; returns its events. */
export const must = (apply: Apply, command: Command): Event[] => {
  const r = apply(command);
  if (!r.ok) throw new CommandRejected(`${command.op} was rejected: ${r.error.code} ${r.error.message}`);
  return r.events;
};
