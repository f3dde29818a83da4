/**
 * A stateful command-sequence generator. fast-check generates a list of small "choices"; a
 * deterministic interpreter turns each choice into a plain spec `Command`, consulting only the
 * observable `WorldView` of the system under test (model today, implementation later) and its own
 * memory of what it generated (manifests, nonces, trace text). Most commands are valid so runs
 * reach deep states (merges, excisions, quarantine, six-phase migrations); about one in eight is
 * deliberately invalid (bad signature, leaking or mis-signed distillate, stale token...).
 */
import fc from "fast-check";
import {
  DOMAIN, digestOf,
  type Command, type Disposition, type JanmaManifest, type WorldView, type AgentView,
} from "../../spec/index.ts";

const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };
const ROGUE = { custodian: "mallory", decision_id: "decision-x" };
const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });

export interface Choice {
  readonly op: number;
  readonly x: number;
  readonly y: number;
  readonly bad: number;
}

export const choiceArb: fc.Arbitrary<Choice> = fc.record({
  op: fc.nat(1000),
  x: fc.nat(1000),
  y: fc.nat(1000),
  bad: fc.nat(15),
});

export const choicesArb = (min: number, max: number): fc.Arbitrary<Choice[]> => fc.array(choiceArb, { minLength: min, maxLength: max });

/** The generator's own memory of what it produced (never the system's internals). */
export interface GenMemory {
  seq: number;
  tick: number;
  readonly lives: Map<string, { manifest: JanmaManifest; nonce: string; trace: string[] }>;
  readonly profile: GenProfile;
  /**
   * Swarm testing: operation kinds this run never chooses (names as in `OP_KINDS`). Disabling a
   * random subset per run makes rare interleavings of the remaining kinds common.
   */
  readonly disabled: ReadonlySet<string>;
  /**
   * Edge cases (`newMemory(…, { edges: true })`): the invalid commands that plain random sequences
   * never reach, found by Stryker (reports/stryker.md): commands on dissolved instances, acts whose
   * signature is valid but bound to another projection or tick, a tool used for a capability another
   * binding declares, an environment offering a tool under another name or with fewer capabilities,
   * an ungrantable grant, expiry of an instance that is not live. Off by default, so that the
   * committed golden sessions and campaigns generated from the default mix stay as they are.
   */
  readonly edges?: boolean;
  /** The edge case the last command was made as (null when none): the witness count reads it. */
  lastEdge?: string | null;
}
/**
 * Which mix of operations to generate: `mixed` exercises every family; `store` concentrates on one
 * agent's lives, distillations and merges, so that many distillates share keys and per-key means,
 * contested keys and rounding ties (D-002, D-007) occur often (AD-3, S-4, S-5).
 */
export type GenProfile = "mixed" | "store";
export const newMemory = (profile: GenProfile = "mixed", disabled: ReadonlySet<string> = new Set(), options: { readonly edges?: boolean } = {}): GenMemory => ({
  seq: 0, tick: 1, lives: new Map(), profile, disabled, ...(options.edges === true ? { edges: true, lastEdge: null } : {}),
});

/** The edge cases `edges` adds, each with the invariant the spec rejects it under (the witness test checks both). */
export const EDGE_CASES: Readonly<Record<string, string>> = {
  "birth.tool-renamed": "J-1",
  "birth.tool-partial": "J-1",
  "birth.grant-ungrantable": "J-1",
  "act.dissolved": "J-3",
  "act.foreign-identity": "AD-4",
  "act.foreign-nonce": "AD-4",
  "act.foreign-manifest": "AD-4",
  "act.stale-action-tick": "AD-4",
  "act.undeclared-capability": "J-2",
  "expire.not-live": "accepted",
  "withdraw.dissolved": "J-4",
  "dissolve.dissolved": "J-4",
};

const WORDS = ["fare", "lisbon", "tuesday", "cheapest", "window", "seat", "refund", "late", "train", "hotel"];
const KEYS = ["k.a", "k.b", "k.c", "k.d", "tool.search"];
const GUIDANCE = ["prefer early departures", "avoid overnight layovers", "ask before booking", "check refund terms"];

/** Ops and their relative frequency: Janma and the store dominate so that lineages grow deep. */
const OPS = [
  "mint", ...Array<string>(5).fill("conceive"), ...Array<string>(7).fill("birth"),
  ...Array<string>(10).fill("act"), ...Array<string>(5).fill("withdraw"), ...Array<string>(2).fill("expire"),
  ...Array<string>(8).fill("distil"), ...Array<string>(3).fill("attempt"), "custody_expire", ...Array<string>(7).fill("merge"),
  ...Array<string>(2).fill("excise"), "replay", "dissolve", "acquire", "project_write",
  ...Array<string>(2).fill("task_start"), "task_resume", ...Array<string>(2).fill("request"), ...Array<string>(2).fill("reply"),
  ...Array<string>(2).fill("effect"), "evolve", "identity_update", "bind_surface", "replicate", "descend", "restart",
  ...Array<string>(2).fill("migrate"), "cancel",
] as const;

/** The `store` profile: one agent, its lives and its store. */
const STORE_OPS = [
  ...Array<string>(4).fill("conceive"), ...Array<string>(4).fill("birth"), ...Array<string>(5).fill("act"),
  ...Array<string>(4).fill("withdraw"), ...Array<string>(6).fill("distil"), ...Array<string>(6).fill("merge"),
  "excise", "replay", "attempt",
] as const;

/** Every operation kind the generator chooses from (swarm testing disables subsets of these). */
export const OP_KINDS: readonly string[] = [...new Set<string>(OPS)];

const pick = <T>(xs: readonly T[], n: number): T | undefined => (xs.length === 0 ? undefined : xs[n % xs.length]);

const manifestFor = (pin: string, c: Choice): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "travel",
  capability_grants: c.y % 2 === 0 ? ["fare.*"] : ["fare.search", "fare.book"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }, { tool: "mail", capabilities: ["mail.send"] }],
  consent_scope: {
    grant_id: "g", principal: "p",
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
    category_defaults: [], persist_ceiling: "low",
  },
  ttl_ticks: 3 + (c.x % 20),
  termination_conditions: c.y % 3 === 0 ? [{ id: "fails", when: { op: "consecutive_failures_at_least", n: 2 } }, { id: "many", when: { op: "acts_at_least", n: 4 } }] : [],
  distillation_policy: { deadline_ticks: 5 + (c.x % 15), max_retries: c.y % 3 },
});

const ENV = (bad: boolean) => ({
  tools: bad ? [] : [{ tool: "search", capabilities: ["fare.search", "fare.book"] }, { tool: "mail", capabilities: ["mail.send"] }],
  grantable: ["fare.*"],
});

const instancesIn = (a: AgentView, states: readonly string[]) => a.instances.filter((i) => states.includes(i.state));

/** Interpret one choice against the current view. Always returns a command (valid or not). */
export const materialize = (v: WorldView, mem: GenMemory, c: Choice): Command => {
  if (mem.edges === true) mem.lastEdge = null;
  if (c.y % 4 === 0) mem.tick += 1 + (c.x % 3 === 0 ? c.x % 25 : 0);
  const bad = c.bad === 0 || c.bad === 1; // ~1 in 8 invalid on purpose
  const tick = c.bad === 2 && c.op % 7 === 0 && v.tick > 0 ? v.tick - 1 : mem.tick; // a few TICK_REGRESSED
  const id = (p: string) => `${p}${mem.seq++}`;
  // Concentrate on the first agent most of the time so that its lineage grows deep.
  const agent = c.x % 4 === 0 && mem.profile === "mixed" ? pick(v.agents, c.x) : v.agents[0];
  // A quiesced agent mostly moves its migration on (or cancels it), as an operator would.
  const quiesced = agent !== undefined && agent.ripa.migration !== null && c.bad % 4 !== 3;
  const all: readonly string[] = mem.profile === "store" ? STORE_OPS : OPS;
  const enabled = mem.disabled.size === 0 ? all : all.filter((k) => !mem.disabled.has(k));
  const ops = enabled.length === 0 ? all : enabled;
  const kind = quiesced ? (c.bad === 4 ? "cancel" : "migrate") : (ops[c.op % ops.length] ?? "mint");
  if (kind === "mint" || agent === undefined) {
    const root = bad && v.roots_used.length > 0 ? (pick(v.roots_used, c.x) ?? "r") : id("root-");
    return {
      op: "advaita.mint", tick, base_digest: BASE, root, designation: "agent", body_revision: "rev-0", custodians: ["custodian-1"],
      execution: exec(id("exec-")),
      providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] }],
      required_capabilities: ["fare.search"], authority_token: id("tok-"),
    };
  }
  const A = agent.identity.identity;
  const key = (inst: string) => `${A}/${inst}`;
  // Edge cases replace the ordinary invalid command, and also take three more values of `bad`,
  // so that each of them occurs several times in a run of ordinary length.
  if (mem.edges === true && (bad || c.bad >= 13)) {
    const edge = edgeCase(v, agent, mem, c, kind, tick);
    if (edge !== null) {
      mem.lastEdge = edge.name;
      return edge.command;
    }
  }
  switch (kind) {
    case "conceive": {
      const pins = [...agent.store.chain.map((x) => x.version_id), ...agent.store.quarantined];
      const pin = bad ? EVIDENCE : (c.y % 5 === 0 ? pick(agent.store.quarantined, c.x) : undefined) ?? agent.store.head ?? pick(pins, c.x) ?? EVIDENCE;
      const instance_id = id("i");
      const nonce = bad && agent.instances.length > 0 ? (pick(agent.instances, c.y)?.nonce ?? id("n")) : id("n");
      const manifest = manifestFor(pin, c);
      mem.lives.set(key(instance_id), { manifest, nonce, trace: [] });
      return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
    }
    case "birth": {
      const i = pick(instancesIn(agent, bad ? ["ready", "conceived"] : ["conceived"]), c.y);
      return { op: "janma.birth", tick, agent: A, instance_id: i?.instance_id ?? "ghost", environment: ENV(bad && c.y % 2 === 0) };
    }
    case "act": {
      const i = pick(instancesIn(agent, bad ? ["ready", "active", "withdrawn", "conceived"] : ["ready", "active"]), c.y);
      const life = i === undefined ? undefined : mem.lives.get(key(i.instance_id));
      if (i === undefined || life === undefined) {
        const conceived = pick(instancesIn(agent, ["conceived"]), c.y);
        return { op: "janma.birth", tick, agent: A, instance_id: conceived?.instance_id ?? "ghost", environment: ENV(false) };
      }
      const words = [0, 1, 2, 3, 4].map((k) => WORDS[(c.x + k * c.y) % WORDS.length] ?? "x");
      const tool = bad && c.y % 3 === 0 ? "mail" : "search";
      const action = {
        tool, capability: tool === "mail" ? "mail.send" : c.x % 5 === 0 ? "fare.book" : "fare.search",
        outcome: c.x % 3 === 0 ? ("failed" as const) : ("ok" as const), tick, trace: [words.join(" ")],
      };
      const signature = digestOf(DOMAIN.action, { identity: A, nonce: life.nonce, manifest_digest: i.manifest_digest, action });
      const signed = { identity: A, nonce: life.nonce, manifest_digest: i.manifest_digest, action, signature: bad && c.y % 3 === 1 ? EVIDENCE : signature };
      life.trace.push(...action.trace);
      return { op: "janma.act", tick, agent: A, instance_id: i.instance_id, signed };
    }
    case "withdraw": {
      const i = pick(instancesIn(agent, bad ? ["conceived", "withdrawn"] : ["ready", "active"]), c.y);
      return { op: "janma.withdraw", tick, agent: A, instance_id: i?.instance_id ?? "ghost", reason: c.x % 2 === 0 ? "principal" : "forced" };
    }
    case "expire": {
      const i = pick(instancesIn(agent, ["ready", "active"]), c.y);
      if (c.x % 2 === 0) mem.tick += 10;
      return { op: "janma.expire", tick: Math.max(tick, mem.tick), agent: A, instance_id: i?.instance_id ?? "ghost" };
    }
    case "distil": {
      const i = pick(agent.instances.filter((x) => x.state === "withdrawn" && x.obligation_id === null), c.y);
      const life = i === undefined ? undefined : mem.lives.get(key(i.instance_id));
      if (i === undefined || life === undefined) {
        const living = pick(instancesIn(agent, ["ready", "active"]), c.y);
        return living === undefined
          ? { op: "samskara.replay", tick, agent: A }
          : { op: "janma.withdraw", tick, agent: A, instance_id: living.instance_id, reason: "principal" };
      }
      const valence = [-800_000, -300_000, 0, 400_000, 900_000][c.x % 5] ?? 0;
      // Few distinct confidences, and weights nudged by one millionth on odd choices, so that
      // per-key means often land exactly on a half (D-002 rounding ties are exercised).
      const confidence = [1, 250_000, 1_000_000, 600_000, 250_000, 1_000_000][c.y % 6] ?? 1;
      const nudge = Math.sign(valence) * (c.y % 2);
      // A guidance may quote three consecutive trace words: the largest overlap that is not a leak (D-010).
      const nearLeak = (life.trace[0] ?? "").split(" ").slice(0, 3).join(" ");
      const n = 1 + (c.x % 3);
      const dispositions: Disposition[] = [...new Set([0, 1, 2].slice(0, n).map((k) => KEYS[(c.y + k * 2) % KEYS.length] ?? "k"))].map((k, j) => ({
        key: k,
        guidance: j === 1 && nearLeak.length > 0 && c.x % 2 === 0 ? `${nearLeak} then confirm` : (GUIDANCE[(c.x + j) % GUIDANCE.length] ?? "g"),
        weight: Math.trunc((valence * (j + 1)) / 3) - nudge,
        evidence_digest: EVIDENCE,
        category: "operational",
      }));
      // One kind of defect at a time, so each reaches the check it targets.
      const defect = bad ? c.y % 5 : -1;
      const distillate_id = defect === 0 ? (pick(agent.obligations, c.x)?.distillate_id ?? id("d")) : id("d");
      const d: Record<string, unknown> = {
        distillate_id,
        source: { identity: A, nonce: life.nonce, instance_id: i.instance_id },
        born_from: i.born_from,
        signal: { valence, confidence: defect === 1 ? 0 : confidence, model_version: null, explicit: true },
        dispositions: defect === 2 ? dispositions.map((x) => ({ ...x, weight: -x.weight || 1 })) : dispositions,
      };
      if (defect === 3) d["episode"] = life.trace.join("\n");
      // A leak: a guidance that quotes four or more consecutive words of the trace (S-1, D-010).
      if (defect === 4) d["dispositions"] = [{ ...dispositions[0], guidance: `prefer ${life.trace[0] ?? "leak leak leak leak"}` }];
      return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: id("ob"), distillate: d };
    }
    case "attempt":
    case "custody_expire": {
      const o = pick(agent.obligations.filter((x) => bad || x.status === "pending"), c.y);
      if (kind === "custody_expire" && o !== undefined && !bad) mem.tick = Math.max(mem.tick, o.deadline_tick);
      const t = Math.max(tick, kind === "custody_expire" ? mem.tick : tick);
      return kind === "attempt"
        ? { op: "custody.attempt", tick: t, agent: A, obligation_id: o?.obligation_id ?? "ghost", ack: (["declined", "deferred", "lost"] as const)[c.x % 3] ?? "lost" }
        : { op: "custody.expire", tick: t, agent: A, obligation_id: o?.obligation_id ?? "ghost" };
    }
    case "merge": {
      const pending = agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick >= tick);
      const applied = agent.obligations.filter((x) => x.outcome === "applied");
      const redeliver = c.y % 3 === 0 && applied.length > 0; // duplicate delivery of merged lives (D-008)
      const ids = [
        ...(redeliver && c.x % 2 === 0 ? [] : pending.filter((_, k) => (c.x >> k) % 2 === 0 || k === 0).slice(0, 4).map((x) => x.obligation_id)),
        ...(redeliver ? applied.slice(0, 2).map((x) => x.obligation_id) : []),
        ...(bad ? ["ghost"] : []),
      ];
      return { op: "samskara.merge", tick, agent: A, obligation_ids: ids.length > 0 ? ids : [pick(agent.obligations, c.x)?.obligation_id ?? "ghost"] };
    }
    case "excise": {
      const ds = agent.store.distillates.filter((_, k) => (c.x >> k) % 3 === 0).slice(0, 3).map((x) => x.distillate_id);
      const first = agent.store.distillates[c.y % Math.max(1, agent.store.distillates.length)]?.distillate_id;
      const list = ds.length > 0 ? ds : first !== undefined ? [first] : ["ghost"];
      return { op: "samskara.excise", tick, agent: A, excision_id: id("x"), distillate_ids: list, authorization: bad ? ROGUE : AUTH };
    }
    case "replay":
      return { op: "samskara.replay", tick, agent: A };
    case "dissolve": {
      const i = pick(instancesIn(agent, ["withdrawn"]), c.y);
      return { op: "janma.dissolve", tick, agent: A, instance_id: i?.instance_id ?? "ghost" };
    }
    case "acquire":
      return { op: "janma.acquire", tick, agent: A, instance_id: pick(agent.instances, c.y)?.instance_id ?? "ghost", acquisition: { kind: "capability", capability: "mail.send" } };
    case "project_write":
      return { op: "advaita.project_write", tick, agent: A, instance_id: pick(agent.instances, c.y)?.instance_id ?? "ghost", disposition: { key: "k.a", guidance: "g", weight: 1, evidence_digest: EVIDENCE, category: "operational" } };
    case "task_start":
      return { op: "ripa.task_start", tick, agent: A, task_id: bad ? (pick(agent.substrate.memory.task_ids, c.y) ?? "t") : id("t") };
    case "task_resume":
      return { op: "ripa.task_resume", tick, agent: A, task_id: bad ? "ghost" : (pick(agent.substrate.memory.task_ids, c.y) ?? "ghost") };
    case "request":
      return { op: "ripa.request", tick, agent: A, task_id: pick(agent.substrate.memory.task_ids, c.y) ?? "ghost", attempt_nonce: id("a") };
    case "reply": {
      const live = pick(agent.ripa.live_attempts, c.y);
      return { op: "ripa.reply", tick, agent: A, task_id: live?.task_id ?? pick(agent.substrate.memory.task_ids, c.y) ?? "ghost", attempt_nonce: bad || live === undefined ? "stale" : live.attempt_nonce };
    }
    case "effect": {
      const p = pick(agent.ripa.providers, c.x);
      return {
        op: "ripa.effect", tick, agent: A, execution_id: agent.ripa.authority.holder ?? agent.ripa.execution.execution_id,
        token: bad && c.y % 2 === 0 ? "stale-token" : agent.ripa.authority.token, provider_id: p?.provider_id ?? "none",
        capability: bad && c.y % 2 === 1 ? "vcs.push" : (pick(p?.capabilities ?? [], c.y) ?? "fare.search"), effect_id: `e${c.x % 6}`,
      };
    }
    case "evolve":
      return { op: "ripa.evolve", tick, agent: A, revision: bad ? agent.substrate.body.revision : id("rev-"), authorization: c.bad === 3 ? ROGUE : AUTH };
    case "identity_update":
      return { op: "ripa.identity_update", tick, agent: A, designation: `name-${c.x % 5}`, authorization: bad ? ROGUE : AUTH };
    case "bind_surface":
      return { op: "ripa.bind_surface", tick, agent: A, surface: { surface_id: `s${c.x % 3}`, kind: "chat", account: "a", session: `${c.y}` }, labels: bad ? { identity: "me" } : { team: `t${c.y % 3}` } };
    case "replicate":
      return { op: "ripa.replicate", tick, agent: A, execution: exec(bad ? agent.ripa.execution.execution_id : id("rep-")) };
    case "descend":
      return { op: "ripa.descend", tick, agent: A, root: bad ? (pick(v.roots_used, c.y) ?? "r") : id("root-"), designation: "child", execution: exec(id("exec-")), authority_token: id("tok-") };
    case "restart":
      return { op: "ripa.restart", tick, agent: A, execution_id: agent.ripa.execution.execution_id, token: bad ? agent.ripa.authority.token : id("tok-") };
    case "cancel": {
      const m = agent.ripa.migration;
      return { op: "ripa.migration_cancel", tick, agent: A, migration_id: m?.migration_id ?? "ghost", no_target_active: !bad, authorization: AUTH };
    }
    default: {
      // "migrate": the next phase of the migration in progress, or a new fence.
      const m = agent.ripa.migration;
      if (m === null) return { op: "ripa.migration_fence", tick, agent: A, migration_id: id("m"), token: bad ? agent.ripa.authority.token : id("tok-") };
      const mid = m.migration_id;
      switch (m.phase) {
        case "fenced":
          return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: mid };
        case "checkpointed": {
          const gain = c.y % 4 === 0;
          const providers = [{ provider_id: "prov-t", kind: "runtime" as const, contract_version: "v2", capabilities: [...agent.ripa.required_capabilities, ...(gain ? ["vcs.push"] : [])] }];
          return {
            op: "ripa.migration_validate", tick, agent: A, migration_id: mid,
            bundle_digest: bad && c.y % 2 === 0 ? EVIDENCE : (m.bundle_digest ?? EVIDENCE),
            target: { execution: exec(id("exec-")), providers, body_revision: bad && c.y % 2 === 1 ? "rev-other" : agent.substrate.body.revision },
            gain_authorization: gain && c.x % 3 !== 0 ? AUTH : null,
          };
        }
        case "validated":
          return { op: "ripa.migration_bind", tick, agent: A, migration_id: mid, surfaces: [{ surface_id: `s${c.x % 2}`, kind: "chat", account: "b", session: "new" }], labels: bad ? { self: "x" } : { region: "eu" } };
        case "bound":
          return { op: "ripa.migration_rehydrate", tick, agent: A, migration_id: mid };
        case "rehydrated":
          return { op: "ripa.migration_resume", tick, agent: A, migration_id: mid, token: bad ? agent.ripa.authority.token : id("tok-") };
      }
    }
  }
};

/**
 * One edge case for `kind` (see GenMemory.edges), or null when the state offers none (then the
 * ordinary invalid command is made). Each is valid in every respect but the one it names, so that
 * it reaches the check it targets.
 */
const edgeCase = (v: WorldView, agent: AgentView, mem: GenMemory, c: Choice, kind: string, tick: number): { name: string; command: Command } | null => {
  const A = agent.identity.identity;
  const life = (id: string) => mem.lives.get(`${A}/${id}`);
  const dissolved = pick(instancesIn(agent, ["dissolved"]), c.x);
  if (dissolved === undefined && (kind === "withdraw" || kind === "dissolve" || (kind === "act" && c.x % 6 === 0))) {
    // No dissolved instance yet: dissolve one whose obligation is discharged (a valid command, and
    // the only way to reach the edge cases on dissolved instances in sequences of this length).
    const done = new Set(agent.obligations.filter((o) => o.status === "discharged").map((o) => o.obligation_id));
    const ripe = agent.instances.find((x) => x.state === "withdrawn" && x.obligation_id !== null && done.has(x.obligation_id));
    return ripe === undefined ? null : { name: "dissolve.prepare", command: { op: "janma.dissolve", tick, agent: A, instance_id: ripe.instance_id } };
  }
  switch (kind) {
    case "birth": {
      const i = pick(instancesIn(agent, ["conceived"]), c.y);
      if (i === undefined) return null;
      const full = ENV(false);
      const variant = c.x % 3;
      const environment =
        variant === 0 ? { ...full, tools: full.tools.map((t) => (t.tool === "search" ? { ...t, tool: "search-v2" } : t)) }
        : variant === 1 ? { ...full, tools: full.tools.map((t) => (t.tool === "search" ? { ...t, capabilities: ["fare.search"] } : t)) }
        : { ...full, grantable: ["mail.*"] };
      const name = ["birth.tool-renamed", "birth.tool-partial", "birth.grant-ungrantable"][variant]!;
      return { name, command: { op: "janma.birth", tick, agent: A, instance_id: i.instance_id, environment } };
    }
    case "act": {
      const variant = c.x % 6;
      if (variant === 0) {
        if (dissolved === undefined) return null;
        const l = life(dissolved.instance_id);
        if (l === undefined) return null;
        const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["after the end"] };
        const signature = digestOf(DOMAIN.action, { identity: A, nonce: l.nonce, manifest_digest: dissolved.manifest_digest, action });
        return { name: "act.dissolved", command: { op: "janma.act", tick, agent: A, instance_id: dissolved.instance_id, signed: { identity: A, nonce: l.nonce, manifest_digest: dissolved.manifest_digest, action, signature } } };
      }
      const i = pick(instancesIn(agent, ["ready", "active"]), c.y);
      const l = i === undefined ? undefined : life(i.instance_id);
      if (i === undefined || l === undefined) return null;
      const other = agent.instances.find((x) => x.instance_id !== i.instance_id && mem.lives.has(`${A}/${x.instance_id}`));
      const otherLife = other === undefined ? undefined : life(other.instance_id);
      let identity: string = A;
      let nonce = l.nonce;
      let manifest_digest = i.manifest_digest;
      let action = { tool: "search", capability: "fare.search", outcome: "ok" as "ok" | "failed", tick, trace: ["edge case"] };
      let name: string;
      if (variant === 1) {
        const stranger = v.agents.find((a) => a.identity.identity !== A);
        if (stranger === undefined) return null;
        identity = stranger.identity.identity;
        name = "act.foreign-identity";
      } else if (variant === 2) {
        if (otherLife === undefined) return null;
        nonce = otherLife.nonce;
        name = "act.foreign-nonce";
      } else if (variant === 3) {
        if (other === undefined) return null;
        manifest_digest = other.manifest_digest === i.manifest_digest ? (`sha256:${"ef".repeat(32)}` as typeof manifest_digest) : other.manifest_digest;
        name = "act.foreign-manifest";
      } else if (variant === 4) {
        if (tick < 1) return null;
        action = { ...action, tick: tick - 1 };
        name = "act.stale-action-tick";
      } else {
        // "mail" is bound, but declares only mail.send; fare.search is declared by "search" and granted.
        action = { ...action, tool: "mail", capability: "fare.search" };
        name = "act.undeclared-capability";
      }
      const signature = digestOf(DOMAIN.action, { identity, nonce, manifest_digest, action });
      return { name, command: { op: "janma.act", tick, agent: A, instance_id: i.instance_id, signed: { identity, nonce, manifest_digest, action, signature } } };
    }
    case "expire": {
      const i = pick(instancesIn(agent, ["conceived", "withdrawn", "dissolved"]), c.y);
      if (i === undefined) return null;
      // Far past any TTL, so that only the instance's state decides (OP-2.5: an accepted no-op).
      mem.tick += 40;
      return { name: "expire.not-live", command: { op: "janma.expire", tick: Math.max(tick, mem.tick), agent: A, instance_id: i.instance_id } };
    }
    case "withdraw":
      // Dissolving is a rare operation in the mix: withdraw's turn serves both edge cases.
      if (dissolved === undefined) return null;
      return c.y % 2 === 0
        ? { name: "withdraw.dissolved", command: { op: "janma.withdraw", tick, agent: A, instance_id: dissolved.instance_id, reason: "forced" } }
        : { name: "dissolve.dissolved", command: { op: "janma.dissolve", tick, agent: A, instance_id: dissolved.instance_id } };
    case "dissolve":
      return dissolved === undefined ? null : { name: "dissolve.dissolved", command: { op: "janma.dissolve", tick, agent: A, instance_id: dissolved.instance_id } };
    default:
      return null;
  }
};
