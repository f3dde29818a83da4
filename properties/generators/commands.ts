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
  type Command, type Disposition, type JanmaManifest, type ProviderGrant, type WorldView, type AgentView,
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
   * Attempts this generator revoked with `ripa.task_pause` (OP-6.12, review G-53) and has not yet
   * answered late, oldest first: a later reply (or a pause with nothing to recover) may carry one to
   * the agent that revoked it, as the killed worker's late reply would; a conforming system rejects
   * it as stale (I4).
   */
  readonly revoked: Array<{ readonly agent: string; readonly task_id: string; readonly attempt_nonce: string }>;
  /**
   * The store profile's own agent (the first minted). A neighbour agent may be minted later (G-39:
   * excision ids are unique per agent, which a one-agent world cannot show); views list agents by
   * identity, so the profile keeps to its own agent by remembering it.
   */
  home?: string;
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
  /**
   * A life being led to a dissolution within its TTL (edges only): withdraw, distil, decline the
   * obligation's delivery, dissolve, then act. Random sequences dissolve lives only long after their
   * TTL, where the TTL check (OP-2.3.c6) rejects an act with the same J-3 as the state check
   * (OP-2.3.c4), so the state check alone was never exercised. `steps` bounds a chase whose
   * command is refused (the life then stays where it is).
   */
  chase?: { readonly agent: string; readonly instance_id: string; steps: number } | null;
  /**
   * The last act made, whose trace joins its life's remembered trace only once the view shows it
   * accepted (the instance's act count grew): a leak quoting a refused act's trace is no leak.
   */
  pendingAct?: { readonly agent: string; readonly instance_id: string; readonly acts: number; readonly trace: readonly string[] } | null;
}
/**
 * Which mix of operations to generate: `mixed` exercises every family; `store` concentrates on one
 * agent's lives, distillations and merges, so that many distillates share keys and per-key means,
 * contested keys and rounding ties (D-002, D-007) occur often (AD-3, S-4, S-5).
 */
export type GenProfile = "mixed" | "store";
export const newMemory = (profile: GenProfile = "mixed", disabled: ReadonlySet<string> = new Set(), options: { readonly edges?: boolean } = {}): GenMemory => ({
  seq: 0, tick: 1, lives: new Map(), profile, disabled, revoked: [], ...(options.edges === true ? { edges: true, lastEdge: null } : {}),
});

/** The edge cases `edges` adds, each with the invariant the spec rejects it under (the witness test checks both). */
export const EDGE_CASES: Readonly<Record<string, string>> = {
  "birth.tool-renamed": "J-1",
  "birth.tool-partial": "J-1",
  "birth.grant-ungrantable": "J-1",
  "act.dissolved": "J-3",
  "act.dissolved-past-ttl": "J-3",
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
/** One code point, two UTF-16 code units: strings of it sit on a length bound in one unit only (D-041). */
const ASTRAL = "\u{1F680}";

/** Ops and their relative frequency: Janma and the store dominate so that lineages grow deep. */
const OPS = [
  "mint", ...Array<string>(5).fill("conceive"), ...Array<string>(7).fill("birth"),
  ...Array<string>(10).fill("act"), ...Array<string>(5).fill("withdraw"), ...Array<string>(2).fill("expire"),
  ...Array<string>(8).fill("distil"), ...Array<string>(3).fill("attempt"), "custody_expire", ...Array<string>(7).fill("merge"),
  ...Array<string>(2).fill("excise"), "replay", "dissolve", "acquire", "project_write",
  ...Array<string>(2).fill("task_start"), "task_resume", ...Array<string>(2).fill("task_pause"), ...Array<string>(2).fill("request"), ...Array<string>(2).fill("reply"),
  ...Array<string>(2).fill("effect"), "evolve", "identity_update", ...Array<string>(2).fill("bind_surface"), ...Array<string>(2).fill("replicate"), "descend", "restart",
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
  capability_grants: [...(c.y % 2 === 0 ? ["fare.*"] : ["fare.search", "fare.book"]), ...(c.x % 2 === 1 ? ["mail.send"] : [])],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }, { tool: "mail", capabilities: ["mail.send"] }],
  consent_scope: {
    grant_id: "g", principal: "p",
    // D-058: health is refused by its training cell, location by its storage cell alone (under the
    // low ceiling; the medium ceiling admits location), so each dimension decides somewhere.
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }, { category: "location", dimension: "storage", sensitivity: "medium" }],
    // Now and then two default rows for one category: MALFORMED at conception (D-042, review G-30).
    category_defaults: c.x % 16 === 3 ? [{ category: "financial", sensitivity: "medium" }, { category: "financial", sensitivity: "low" }] : [],
    persist_ceiling: c.x % 5 === 4 ? "medium" : "low",
  },
  ttl_ticks: 3 + (c.x % 20),
  termination_conditions: c.y % 3 === 0 ? [{ id: "fails", when: { op: "consecutive_failures_at_least", n: 2 } }, { id: "many", when: { op: "acts_at_least", n: 4 } }]
    // G-28: the ticks_since_birth boundary and a tool_used that sees the current act's tool.
    : c.y % 3 === 1 ? [{ id: "aged", when: { op: "ticks_since_birth_at_least", n: 1 + (c.x % 3 === 0 ? 1 : 0) } }, { id: "mailed", when: { op: "tool_used", tool: "mail" } }]
    // D-015's other predicates (found by Stryker: no generated life had them): failures counted
    // whether consecutive or not, and all / any / not, each both firing and holding back.
    : c.y % 6 === 2 ? [
        { id: "flaky", when: { op: "failures_at_least", n: 2 } },
        { id: "searcher", when: { op: "all", of: [{ op: "acts_at_least", n: 3 }, { op: "not", of: { op: "tool_used", tool: "mail" } }] } },
        { id: "either", when: { op: "any", of: [{ op: "consecutive_failures_at_least", n: 3 }, { op: "ticks_since_birth_at_least", n: 4 + (c.x % 3) }] } },
      ]
    : [],
  // D-053: the principal's satisfaction model, or null for the reference formula.
  distillation_policy: { deadline_ticks: 5 + (c.x % 15), max_retries: c.y % 3, satisfaction_model: c.x % 3 === 1 ? "psm-2" : null },
});

const ENV = (bad: boolean) => ({
  tools: bad ? [] : [{ tool: "search", capabilities: ["fare.search", "fare.book"] }, { tool: "mail", capabilities: ["mail.send"] }],
  grantable: ["fare.*", "mail.send"],
});

/**
 * Providers for a mint (spec review G-33): capability lists sometimes unsorted and with a duplicate,
 * providers sometimes listed out of provider_id order, and, when `duplicate`, one provider id twice
 * (DUPLICATE_ID, OP-5.1), so that set semantics, provider order and the duplicate check all matter.
 */
const mintProviders = (y: number, duplicate: boolean): ProviderGrant[] => {
  const a: ProviderGrant = {
    provider_id: "prov-a", kind: "service", contract_version: "v1",
    capabilities: y % 3 === 1 ? ["mail.send", "fare.search", "mail.send"] : ["fare.search", "mail.send"],
  };
  if (duplicate) return [a, { ...a, capabilities: ["mail.send"] }];
  // prov-0 never grants vcs.push, which the generator's invalid effects ask for (I5).
  return y % 3 === 2 ? [a, { provider_id: "prov-0", kind: "vcs", contract_version: "v1", capabilities: ["vcs.tag", "vcs.read"] }] : [a];
};

/**
 * Spec review situations (Janma / Samskara, spec/review/janma-samskara.ts). Each helper makes one
 * reading observable, so a mutant taking the other reading diverges from the model:
 * - G-32, G-51: an act carries one to three trace entries, so trace.destroyed counts entries, not
 *   acts, and a 4-word run may cross an entry boundary;
 * - G-50: a snake_case word (two tokens) appears in some traces;
 * - G-27: a tool may be offered twice, a partial entry first;
 * - G-24: a redelivery names applied obligations out of order and repeated.
 */
export const traceEntriesOf = (words: readonly string[], c: Choice): string[] => {
  // fast-check favours small and edge values of each field, so the shape mixes two fields.
  const ws = (c.x + c.op) % 4 === 1 ? [words[0] ?? "x", `${words[1] ?? "x"}_${words[2] ?? "x"}`, ...words.slice(3)] : [...words];
  const cut = (c.y + c.op) % 3;
  if (cut === 0) return [ws.join(" ")];
  if (cut === 1) return [ws.slice(0, 2).join(" "), ws.slice(2).join(" ")];
  return [ws.slice(0, 1).join(" "), ws.slice(1, 3).join(" "), ws.slice(3).join(" ")];
};
/** The words of a life's whole trace, across its entries, in order. */
const traceWords = (trace: readonly string[]): string[] => trace.join(" ").split(" ").filter((w) => w.length > 0);
const offeredTools = (c: Choice) =>
  c.x % 3 === 0 ? [{ tool: "search", capabilities: ["fare.search"] }, ...ENV(false).tools] : ENV(false).tools;
const redelivery = (ids: readonly string[], c: Choice): string[] => (c.x % 4 === 0 && ids.length > 1 ? [...ids].reverse().concat(ids[1] ?? []) : [...ids]);

const instancesIn = (a: AgentView, states: readonly string[]) => a.instances.filter((i) => states.includes(i.state));

/**
 * Native recovery (OP-6.12, review G-53): the worker of a live attempt has died, so the attempt is
 * revoked by naming it; the generator remembers it to send the dead worker's late reply later.
 * Invalid on purpose: a nonce that is not live (an older attempt, as a stale recovery would name).
 */
const taskPause = (v: WorldView, chosen: AgentView, mem: GenMemory, c: Choice, bad: boolean, tick: number): Command => {
  // Recovery goes to an agent whose worker left an attempt live, when the chosen one has none.
  const agent = chosen.ripa.live_attempts.length > 0 ? chosen : (v.agents.find((a) => a.ripa.live_attempts.length > 0) ?? chosen);
  const A = agent.identity.identity;
  const live = pick(agent.ripa.live_attempts, c.y);
  const task_id = live?.task_id ?? pick(agent.substrate.memory.task_ids, c.y) ?? "ghost";
  // Nothing live to recover: the dead worker's late reply arrives instead, when one is owed, or
  // else a worker publishes an attempt (that may die) for a recorded task.
  const late = bad || live !== undefined ? undefined : lateReply(mem, c, tick);
  if (late !== undefined) return late;
  const recorded = pick(agent.substrate.memory.task_ids, c.y);
  if (!bad && live === undefined && recorded !== undefined && agent.ripa.migration === null)
    return { op: "ripa.request", tick, agent: A, task_id: recorded, attempt_nonce: `a${mem.seq++}` };
  if (bad || live === undefined) return { op: "ripa.task_pause", tick, agent: A, task_id, attempt_nonce: pick(mem.revoked, c.x)?.attempt_nonce ?? "stale" };
  mem.revoked.push({ agent: A, task_id, attempt_nonce: live.attempt_nonce });
  return { op: "ripa.task_pause", tick, agent: A, task_id, attempt_nonce: live.attempt_nonce };
};

/**
 * The late reply of a worker whose attempt was revoked (OP-6.5 must reject it, I4), oldest first,
 * to the agent that revoked it; each is sent once. Two replies in three are late while any is owed.
 */
const lateReply = (mem: GenMemory, c: Choice, tick: number): Command | undefined => {
  if (c.y % 3 === 0) return undefined;
  const r = mem.revoked.shift();
  return r === undefined ? undefined : { op: "ripa.reply", tick, agent: r.agent, task_id: r.task_id, attempt_nonce: r.attempt_nonce };
};

/**
 * Rare situations that the ordinary mix never or hardly ever produces, one per check clause or
 * boundary of spec/CHECKS.md that would otherwise have no witness (properties/witness.ts): a
 * command failing exactly that check (everything before it valid), or an accepted command at a
 * boundary (a deadline exactly, lists unsorted or with duplicates, wildcard grants without their
 * separator, guidance quoting 4 trace tokens in other case or width). Chosen for half the steps
 * meant to be invalid (so the share of accepted commands stays as it was); a situation that does not apply to the current view yields nothing
 * and the ordinary choice is made instead.
 */
type Situation = (s: {
  readonly v: WorldView; readonly mem: GenMemory; readonly c: Choice; readonly agent: AgentView;
  readonly A: string; readonly tick: number; readonly id: (p: string) => string;
}) => Command | undefined;

/**
 * A manifest whose grants are unsorted and duplicated (OP-0.6), and either include a narrower
 * wildcard that does not cover `fare.search` itself (D-016), or carry a ticks-since-birth
 * termination condition (D-015) with grants every act can use.
 */
const edgeManifest = (pin: string, c: Choice): JanmaManifest => ({
  ...manifestFor(pin, c),
  capability_grants: c.y % 2 === 0 ? ["fare.search.*", "fare.book", "fare.book"] : ["fare.search", "fare.book", "fare.search"],
  termination_conditions: c.y % 2 === 0 ? [] : [{ id: "old", when: { op: "ticks_since_birth_at_least", n: 1 + (c.x % 3) } }],
  ttl_ticks: 6 + (c.x % 6),
});

/**
 * A validly signed act using `fare.search` by a live life that holds the narrower wildcard
 * `fare.search.*` (edgeManifest), which does not cover it (OP-2.3.c7, D-016), or undefined.
 */
const narrowAct = (agent: AgentView, mem: GenMemory, tick: number): Command | undefined => {
  const A = agent.identity.identity;
  const withinTtl = (x: { instance_id: string; born_tick: number | null }) => {
    const ttl = mem.lives.get(`${A}/${x.instance_id}`)?.manifest.ttl_ticks;
    return x.born_tick !== null && ttl !== undefined && tick < x.born_tick + ttl;
  };
  const narrow = instancesIn(agent, ["ready", "active"]).find((x) => x.grants.includes("fare.search.*") && withinTtl(x));
  const life = narrow === undefined ? undefined : mem.lives.get(`${A}/${narrow.instance_id}`);
  if (narrow === undefined || life === undefined) return undefined;
  const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["narrow wildcard"] };
  const signature = digestOf(DOMAIN.action, { identity: A, nonce: life.nonce, manifest_digest: narrow.manifest_digest, action });
  return { op: "janma.act", tick, agent: A, instance_id: narrow.instance_id, signed: { identity: A, nonce: life.nonce, manifest_digest: narrow.manifest_digest, action, signature } };
};

/** The satisfaction model a life's manifest declares, which its signal must name (D-053). */
const modelOf = (life: { manifest: JanmaManifest } | undefined): string | null => life?.manifest.distillation_policy.satisfaction_model ?? null;

const withdrawnUndistilled = (agent: AgentView) => agent.instances.filter((x) => x.state === "withdrawn" && x.obligation_id === null);

/** A distillate that passes every check of OP-2.7 for this life, with `guidance` for its one disposition. */
const distillateFor = (A: string, inst: { instance_id: string; born_from: string }, nonce: string, id: (p: string) => string, guidance: string, category = "operational", model: string | null = null) => ({
  distillate_id: id("d"),
  source: { identity: A, nonce, instance_id: inst.instance_id },
  born_from: inst.born_from,
  signal: { valence: 400_000, confidence: 1_000_000, model_version: model, explicit: true },
  dispositions: [{ key: "k.a", guidance, weight: 200_000, evidence_digest: EVIDENCE, category }],
});

/** Full-width letters: the same token after NFKC (D-010). */
const fullWidth = (t: string) => [...t].map((ch) => (/[a-z]/.test(ch) ? String.fromCodePoint((ch.codePointAt(0) ?? 0) + 0xfee0) : ch)).join("");

/** OP-2.7.c9: guidance quoting exactly 4 trace tokens, verbatim, in upper case, or in full width (D-010). */
const leakingGuidance: Situation = ({ A, tick, agent, c, id, mem }) => {
    // Runs do not span trace entries (D-010, G-51): the 4 words come from one accepted entry that
    // has them (an act's trace is often cut in two or three), of a life that has one (issue 21).
    const entry = (x: { instance_id: string }) => mem.lives.get(`${A}/${x.instance_id}`)?.trace.find((e) => e.split(" ").length >= 4);
    const candidates = withdrawnUndistilled(agent).filter((x) => entry(x) !== undefined);
    const i = pick(candidates, c.y);
    const life = i === undefined ? undefined : mem.lives.get(`${A}/${i.instance_id}`);
    const words = (i === undefined ? "" : (entry(i) ?? "")).split(" ").slice(0, 4);
    if (i === undefined || life === undefined || words.length < 4) return undefined;
    const quoted = [words.join(" "), words.join(" ").toUpperCase(), fullWidth(words.join(" "))][(c.x + c.y) % 3] ?? "";
    return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: id("ob"), distillate: distillateFor(A, i, life.nonce, id, `so ${quoted}`, "operational", modelOf(life)) };
  };

/**
 * OP-3.1.c3 / OP-3.2.c3 at their deadline: attempt exactly at it, expire one tick before it. With no
 * pending obligation ahead of its deadline, expire one already discharged (OP-3.2.c2, J-4 by its
 * status): the ordinary mix names a discharged obligation only in a rare invalid expire.
 */
const atCustodyDeadline: Situation = ({ A, agent, c, mem, tick }) => {
    const o = pick(agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick - 1 >= mem.tick), c.y);
    if (o === undefined) {
      const done = pick(agent.obligations.filter((x) => x.status !== "pending"), c.y);
      return done === undefined ? undefined : { op: "custody.expire", tick, agent: A, obligation_id: done.obligation_id };
    }
    // D-060: the deadline is strict for delivery. An attempt or a merge at the deadline tick is
    // refused (J-4), one tick before it is accepted; expire one tick before it is refused.
    const side = c.x % 4;
    mem.tick = side === 0 || side === 3 ? o.deadline_tick : o.deadline_tick - 1;
    if (side === 0 || side === 1) return { op: "custody.attempt", tick: mem.tick, agent: A, obligation_id: o.obligation_id, ack: "deferred" };
    if (side === 3) return { op: "samskara.merge", tick: mem.tick, agent: A, obligation_ids: [o.obligation_id] };
    return { op: "custody.expire", tick: mem.tick, agent: A, obligation_id: o.obligation_id };
  };

/**
 * OP-2.7.c6, the signal is the principal's (D-053, D-057): a signal under another satisfaction model
 * than the manifest declares; the no-feedback distillate (confidence 0, valence 0, no dispositions),
 * accepted; and a zero confidence that carries a valence or backs a disposition, refused. Also
 * OP-2.7.c8 by the storage dimension alone (D-058): a location lesson, whose storage cell is medium.
 */
const principalSignal: Situation = ({ A, agent, c, id, mem, tick }) => {
    const i = pick(withdrawnUndistilled(agent), c.y);
    const life = i === undefined ? undefined : mem.lives.get(`${A}/${i.instance_id}`);
    if (i === undefined || life === undefined) return undefined;
    const model = modelOf(life);
    const base = distillateFor(A, i, life.nonce, id, "ask before booking", c.x % 5 === 4 ? "location" : "operational", model);
    const side = c.x % 5;
    const distillate =
      side === 0 ? { ...base, signal: { ...base.signal, model_version: model === null ? "psm-forged" : null } }
      : side === 1 ? { ...base, signal: { valence: 0, confidence: 0, model_version: model, explicit: false }, dispositions: [] }
      : side === 2 ? { ...base, signal: { valence: 0, confidence: 0, model_version: model, explicit: false }, dispositions: base.dispositions.map((x) => ({ ...x, weight: 0 })) }
      : side === 3 ? { ...base, signal: { valence: 300_000, confidence: 0, model_version: model, explicit: false }, dispositions: [] }
      : base;
    return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: id("ob"), distillate };
  };

const SITUATIONS: readonly Situation[] = [
  // OP-0.2.c1: a command failing its schema (a negative tick).
  ({ A }) => ({ op: "samskara.replay", tick: -1, agent: A }) as unknown as Command,
  // OP-0.2.c3: an agent that does not exist.
  ({ tick }) => ({ op: "samskara.replay", tick, agent: EVIDENCE }),
  // OP-2.1.c2: an instance id already used.
  ({ A, tick, agent, c, id }) => {
    const i = pick(agent.instances, c.y);
    return i === undefined ? undefined : { op: "janma.conceive", tick, agent: A, instance_id: i.instance_id, nonce: id("n"), manifest: manifestFor(agent.store.head, c) };
  },
  // OP-2.1.c4: a manifest for another base digest.
  ({ A, tick, agent, c, id }) => {
    const m = manifestFor(agent.store.head, c);
    return { op: "janma.conceive", tick, agent: A, instance_id: id("i"), nonce: id("n"), manifest: { ...m, substrate: { ...m.substrate, base_digest: EVIDENCE } } };
  },
  // A life with edge-case grants and a ticks-since-birth condition (D-015, D-016, OP-0.6); or,
  // when such a life holds the narrower wildcard fare.search.*, a validly signed act of it using
  // fare.search itself, which that wildcard does not cover (OP-2.3.c7, D-016).
  ({ A, tick, agent, c, id, mem }) => {
    const narrow = narrowAct(agent, mem, tick);
    if (narrow !== undefined) return narrow;
    // Such a life conceived but not yet born is born first (the ordinary births pick among many).
    const unborn = instancesIn(agent, ["conceived"]).find((x) => mem.lives.get(`${A}/${x.instance_id}`)?.manifest.capability_grants.includes("fare.search.*") === true);
    if (unborn !== undefined && c.x % 2 === 0) return { op: "janma.birth", tick, agent: A, instance_id: unborn.instance_id, environment: ENV(false) };
    const instance_id = id("i");
    const nonce = id("n");
    const manifest = edgeManifest(agent.store.head, c);
    mem.lives.set(`${A}/${instance_id}`, { manifest, nonce, trace: [] });
    return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
  },
  // OP-2.2.c7: a grant offered only as a wildcard prefix without its separator ("far.*").
  ({ A, tick, agent, c }) => {
    const i = pick(instancesIn(agent, ["conceived"]), c.y);
    return i === undefined ? undefined : { op: "janma.birth", tick, agent: A, instance_id: i.instance_id, environment: { ...ENV(false), grantable: c.x % 2 === 0 ? ["far.*"] : ["fare.search"] } };
  },
  // OP-2.3.c2: an act by an instance that does not exist.
  ({ A, tick, agent }) => {
    const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["x"] };
    return { op: "janma.act", tick, agent: A, instance_id: "ghost", signed: { identity: A, nonce: "n", manifest_digest: agent.store.head, action, signature: EVIDENCE } };
  },
  // OP-2.7.c1 / c2: distil an unknown instance, or one that is not withdrawn.
  ({ A, tick, agent, c, id }) => {
    const i = c.x % 2 === 0 ? undefined : pick(instancesIn(agent, ["ready", "active", "conceived"]), c.y);
    const iid = i?.instance_id ?? "ghost";
    return { op: "janma.distil", tick, agent: A, instance_id: iid, obligation_id: id("ob"), distillate: distillateFor(A, i ?? { instance_id: iid, born_from: agent.store.head }, i?.nonce ?? "n", id, "ask before booking") };
  },
  // OP-2.7.c3 / c5 / c8: a reused obligation id, a distillate from another nonce, an unconsented category.
  ({ A, tick, agent, c, id, mem }) => {
    const i = pick(withdrawnUndistilled(agent), c.y);
    if (i === undefined) return undefined;
    const used = pick(agent.obligations, c.x)?.obligation_id;
    const which = c.x % 3;
    if (which === 0 && used === undefined) return undefined;
    const d = distillateFor(A, i, which === 1 ? `${i.nonce}-other` : i.nonce, id, "ask before booking", which === 2 ? "health" : "operational", modelOf(mem.lives.get(`${A}/${i.instance_id}`)));
    return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: which === 0 ? (used ?? "ob") : id("ob"), distillate: d };
  },
  leakingGuidance, leakingGuidance, leakingGuidance,
  // OP-2.8.c2: dissolve an instance that is not withdrawn.
  ({ A, tick, agent, c }) => {
    const i = pick(instancesIn(agent, ["conceived", "ready", "active"]), c.y);
    return i === undefined ? undefined : { op: "janma.dissolve", tick, agent: A, instance_id: i.instance_id };
  },
  atCustodyDeadline, atCustodyDeadline, principalSignal, principalSignal,
  // OP-4.1: pending obligations listed unsorted and twice (OP-0.6).
  ({ A, tick, agent }) => {
    const ids = agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick > tick).map((x) => x.obligation_id).slice(0, 2);
    return ids.length === 0 ? undefined : { op: "samskara.merge", tick, agent: A, obligation_ids: [...ids].reverse().concat(ids) };
  },
  // OP-4.2: a reused excision id (c2), or retained distillates listed unsorted and twice.
  ({ A, tick, agent, c }) => {
    const ds = agent.store.distillates.map((x) => x.distillate_id).slice(0, 2);
    const used = pick(agent.store.excisions, c.y)?.excision_id;
    const reuse = c.x % 2 === 0 && used !== undefined;
    if (ds.length === 0 && !reuse) return undefined;
    const list = ds.length === 0 ? ["ghost"] : [...ds].reverse().concat(ds);
    // A fresh id is numbered per agent as in the ordinary excise (G-39), so that a neighbour's
    // first excision (xn1) still collides with this agent's ids.
    return { op: "samskara.excise", tick, agent: A, excision_id: reuse ? (used ?? "x") : `xn${agent.store.excisions.length + 1}`, distillate_ids: list, authorization: AUTH };
  },
  // OP-5.1: custodians and required capabilities unsorted and duplicated; or provider ids duplicated (c2).
  ({ tick, c, id }) => ({
    op: "advaita.mint", tick, base_digest: BASE, root: id("root-"), designation: "agent", body_revision: "rev-0",
    custodians: ["custodian-2", "custodian-1", "custodian-1"], execution: exec(id("exec-")),
    providers: [
      { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
      ...(c.x % 2 === 0 ? [{ provider_id: "prov-a", kind: "service" as const, contract_version: "v2", capabilities: ["fare.book"] }] : []),
    ],
    required_capabilities: ["mail.send", "fare.search", "fare.search"], authority_token: id("tok-"),
  }),
  // OP-6.1.c2: a restart by an execution that is not the bound one.
  ({ A, tick, id }) => ({ op: "ripa.restart", tick, agent: A, execution_id: id("exec-other-"), token: id("tok-") }),
  // OP-6.4.c3: a request reusing the live attempt's nonce.
  ({ A, tick, agent, c }) => {
    const live = pick(agent.ripa.live_attempts, c.y);
    return live === undefined ? undefined : { op: "ripa.request", tick, agent: A, task_id: live.task_id, attempt_nonce: live.attempt_nonce };
  },
  // OP-6.6.c2: an effect through a provider that is not bound.
  ({ A, tick, agent, c }) => ({
    op: "ripa.effect", tick, agent: A, execution_id: agent.ripa.authority.holder ?? agent.ripa.execution.execution_id,
    token: agent.ripa.authority.token, provider_id: "prov-ghost", capability: "fare.search", effect_id: `e${c.x % 6}`,
  }),
  // OP-7.1.c2: a new fence reusing the id of a migration fenced before.
  ({ A, tick, agent, c, id }) => {
    const old = pick(agent.ripa.fences, c.y)?.migration_id;
    return agent.ripa.migration !== null || old === undefined ? undefined : { op: "ripa.migration_fence", tick, agent: A, migration_id: old, token: id("tok-") };
  },
];

/** OP-7.2 … OP-7.6 c1: a phase command out of order. */
const outOfOrder: Situation = ({ A, tick, agent, c, id }) => {
    const m = agent.ripa.migration;
    if (m === null) return undefined;
    const mid = m.migration_id;
    const phases = ["fenced", "checkpointed", "validated", "bound", "rehydrated"] as const;
    // One of the four phases the migration is not in.
    const want = phases[(phases.indexOf(m.phase) + 1 + (c.y % 4)) % phases.length] ?? "fenced";
    switch (want) {
      case "fenced": return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: mid };
      case "checkpointed": return { op: "ripa.migration_validate", tick, agent: A, migration_id: mid, bundle_digest: m.bundle_digest ?? EVIDENCE, target: { execution: exec(id("exec-")), providers: [], body_revision: agent.substrate.body.revision }, gain_authorization: null };
      case "validated": return { op: "ripa.migration_bind", tick, agent: A, migration_id: mid, surfaces: [], labels: {} };
      case "bound": return { op: "ripa.migration_rehydrate", tick, agent: A, migration_id: mid };
      default: return { op: "ripa.migration_resume", tick, agent: A, migration_id: mid, token: id("tok-") };
    }
  };

/** OP-7.3.c5 / c6 / c7: a target that is the source, with duplicate provider ids, or lacking a required capability. */
const badTarget: Situation = ({ A, tick, agent, c, id }) => {
    const m = agent.ripa.migration;
    if (m === null || m.phase !== "checkpointed") return undefined;
    const which = c.x % 3;
    const prov = (pid: string, caps: readonly string[]) => ({ provider_id: pid, kind: "runtime" as const, contract_version: "v2", capabilities: [...caps] });
    const req = agent.ripa.required_capabilities;
    const providers = which === 1 ? [prov("prov-t", req), prov("prov-t", req)] : which === 2 ? [prov("prov-t", [])] : [prov("prov-t", req)];
    const execution = exec(which === 0 ? m.source_execution_id : id("exec-"));
    return { op: "ripa.migration_validate", tick, agent: A, migration_id: m.migration_id, bundle_digest: m.bundle_digest ?? EVIDENCE, target: { execution, providers, body_revision: agent.substrate.body.revision }, gain_authorization: null };
  };

/** The situations of OP-7, which mostly need a migration in progress (the phase-dependent ones thrice: each needs one phase of five). */
const MIGRATION_SITUATIONS: readonly Situation[] = [
  // OP-7.c1: a phase command naming a migration that is not the one in progress.
  ({ A, tick, agent }) => (agent.ripa.migration === null ? undefined : { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: "ghost-m" }),
  // OP-7.1.c1 / c2: a fence while a migration is in progress, or reusing a fenced migration's id.
  ({ A, tick, agent, c, id }) => {
    const m = agent.ripa.migration;
    const old = pick(agent.ripa.fences, c.y)?.migration_id;
    if (m === null && old === undefined) return undefined;
    return { op: "ripa.migration_fence", tick, agent: A, migration_id: m === null ? (old ?? "m") : id("m"), token: id("tok-") };
  },
  outOfOrder, outOfOrder, outOfOrder,
  badTarget, badTarget, badTarget,
  // OP-7.4.c3: surfaces with one id twice.
  ({ A, tick, agent }) => {
    const m = agent.ripa.migration;
    if (m === null || m.phase !== "validated") return undefined;
    const s = { surface_id: "s0", kind: "chat" as const, account: "b", session: "new" };
    return { op: "ripa.migration_bind", tick, agent: A, migration_id: m.migration_id, surfaces: [s, { ...s, session: "other" }], labels: { region: "eu" } };
  },
  // OP-7.7.c2 / c3: a rollback without the no-target decision, or without a custodian's authorisation.
  ({ A, tick, agent, c }) => {
    const m = agent.ripa.migration;
    if (m === null) return undefined;
    return { op: "ripa.migration_cancel", tick, agent: A, migration_id: m.migration_id, no_target_active: c.x % 2 === 1, authorization: c.x % 2 === 1 ? ROGUE : AUTH };
  },
];

const ALL_SITUATIONS: readonly Situation[] = [...SITUATIONS, ...MIGRATION_SITUATIONS];
/**
 * The situation `c.op` names or, when it does not apply to the view, one of the next three: most
 * need a state that is there only some of the time (a live attempt, a withdrawn life, a phase).
 */
const firstApplicable = (list: readonly Situation[]): Situation => (s) => {
  for (let k = 0; k < 4; k++) {
    const made = list[(s.c.op + k) % list.length]?.(s);
    if (made !== undefined) return made;
  }
  return undefined;
};
const situation: Situation = firstApplicable(ALL_SITUATIONS);
/** While a migration is in progress, half the invalid moves are these. */
const migrationSituation: Situation = firstApplicable(MIGRATION_SITUATIONS);

/** Interpret one choice against the current view. Always returns a command (valid or not). */
export const materialize = (v: WorldView, mem: GenMemory, c: Choice): Command => {
  if (mem.pendingAct != null) {
    const p = mem.pendingAct;
    const accepted = (v.agents.find((a) => a.identity.identity === p.agent)?.instances.find((x) => x.instance_id === p.instance_id)?.acts ?? p.acts) > p.acts;
    if (accepted) mem.lives.get(`${p.agent}/${p.instance_id}`)?.trace.push(...p.trace);
    mem.pendingAct = null;
  }
  if (mem.edges === true) mem.lastEdge = null;
  if (c.y % 4 === 0) mem.tick += 1 + (c.x % 3 === 0 ? c.x % 25 : 0);
  const bad = c.bad === 0 || c.bad === 1; // ~1 in 8 invalid on purpose
  // A few TICK_REGRESSED (OP-0.2.c2, one tick below the world's): chosen by `x`, not `op`, which
  // also picks the kind, so that every kind of command has them (issue 21: `op % 7` left 15 out).
  const regressed = c.bad === 2 && c.x % 2 === 0 && v.tick > 0;
  const tick = regressed ? v.tick - 1 : mem.tick;
  const id = (p: string) => `${p}${mem.seq++}`;
  if (mem.edges === true && mem.chase != null) {
    const step = chaseStep(v, mem, mem.chase, tick, id);
    if (step !== null) {
      mem.lastEdge = step.name;
      return step.command;
    }
  }
  // Concentrate on the first agent most of the time so that its lineage grows deep.
  if (mem.home === undefined && v.agents[0] !== undefined) mem.home = v.agents[0].identity.identity;
  const agent = c.x % 4 === 0 && mem.profile === "mixed" ? pick(v.agents, c.x)
    : mem.profile === "store" ? (v.agents.find((a) => a.identity.identity === mem.home) ?? v.agents[0]) : v.agents[0];
  // A quiesced agent mostly moves its migration on (or cancels it), as an operator would.
  const quiesced = agent !== undefined && agent.ripa.migration !== null && c.bad % 4 !== 3;
  const all: readonly string[] = mem.profile === "store" ? STORE_OPS : OPS;
  const enabled = mem.disabled.size === 0 ? all : all.filter((k) => !mem.disabled.has(k));
  const ops = enabled.length === 0 ? all : enabled;
  // Cancelling a migration before its validate while an earlier migration's marker stands shows
  // whether cancel drops only its own marker (spec review G-42), so it is made common.
  const early = agent?.ripa.migration?.phase === "fenced" || agent?.ripa.migration?.phase === "checkpointed";
  const cancelOverMarker = early && agent?.ripa.marker !== null && c.x % 2 === 0;
  const kind = quiesced ? (c.bad === 4 || cancelOverMarker ? "cancel" : "migrate") : (ops[c.op % ops.length] ?? "mint");
  // G-39: the store profile mints one neighbour once its own agent has excised.
  const neighbour = mem.profile === "store" && kind === "excise" && v.agents.length === 1 && (agent?.store.excisions.length ?? 0) > 0;
  if (kind === "mint" || agent === undefined || neighbour) {
    const duplicateProviders = bad && c.y % 2 === 1;
    const root = bad && !duplicateProviders && v.roots_used.length > 0 ? (pick(v.roots_used, c.x) ?? "r") : id("root-");
    return {
      op: "advaita.mint", tick, base_digest: BASE, root, designation: "agent", body_revision: "rev-0", custodians: ["custodian-1"],
      execution: exec(id("exec-")),
      providers: mintProviders(c.y, duplicateProviders),
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
  // While a life holding a narrower wildcard lives (rarely, and not for long), half the invalid
  // moves are its acts outside the wildcard (OP-2.3.c7 without the separator, D-016).
  const narrow = bad && c.y % 2 === 0 && agent.ripa.migration === null ? narrowAct(agent, mem, tick) : undefined;
  if (narrow !== undefined) return narrow;
  // Migrations are few and each phase lasts one step, so they get one more step in sixteen.
  const special = agent.ripa.migration !== null && ((bad && c.op < 500) || c.bad === 14) ? migrationSituation({ v, mem, c, agent, A, tick, id })
    : bad && c.op < 500 ? situation({ v, mem, c, agent, A, tick, id })
    : undefined;
  if (special !== undefined) return special;
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
      if (!bad && i === undefined) {
        // Nothing conceived: a life is conceived instead, so that short runs reach merges.
        const instance_id = id("i");
        const nonce = id("n");
        const manifest = manifestFor(agent.store.head, c);
        mem.lives.set(key(instance_id), { manifest, nonce, trace: [] });
        return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
      }
      const env = ENV(bad && c.y % 2 === 0);
      return { op: "janma.birth", tick, agent: A, instance_id: i?.instance_id ?? "ghost", environment: env.tools.length === 0 ? env : { ...env, tools: offeredTools(c) } };
    }
    case "act": {
      // A life holding a narrower wildcard lives only a few ticks: half its turns it acts outside it.
      const outside = c.y % 2 === 1 ? narrowAct(agent, mem, tick) : undefined;
      if (outside !== undefined) return outside;
      const i = pick(instancesIn(agent, bad ? ["ready", "active", "withdrawn", "conceived"] : ["ready", "active"]), c.y);
      const life = i === undefined ? undefined : mem.lives.get(key(i.instance_id));
      if (i === undefined || life === undefined) {
        const conceived = pick(instancesIn(agent, ["conceived"]), c.y);
        return { op: "janma.birth", tick, agent: A, instance_id: conceived?.instance_id ?? "ghost", environment: ENV(false) };
      }
      const words = [0, 1, 2, 3, 4].map((k) => WORDS[(c.x + k * c.y) % WORDS.length] ?? "x");
      const mails = life.manifest.capability_grants.includes("mail.send") && c.op % 4 === 1; // two tools used (G-28 tools_used order)
      const tool = (bad && c.y % 3 === 0) || mails ? "mail" : "search";
      const action = {
        tool, capability: tool === "mail" ? "mail.send" : c.x % 5 === 0 ? "fare.book" : "fare.search",
        outcome: c.x % 3 === 0 ? ("failed" as const) : ("ok" as const), tick, trace: traceEntriesOf(words, c),
      };
      const signature = digestOf(DOMAIN.action, { identity: A, nonce: life.nonce, manifest_digest: i.manifest_digest, action });
      const signed = { identity: A, nonce: life.nonce, manifest_digest: i.manifest_digest, action, signature: bad && c.y % 3 === 1 ? EVIDENCE : signature };
      mem.pendingAct = { agent: A, instance_id: i.instance_id, acts: i.acts, trace: action.trace };
      return { op: "janma.act", tick, agent: A, instance_id: i.instance_id, signed };
    }
    case "withdraw": {
      const i = pick(instancesIn(agent, bad ? ["conceived", "withdrawn"] : ["ready", "active"]), c.y);
      // Nothing living: a conceived life is born instead, as act does (short runs reach merges).
      const conceived = !bad && i === undefined ? pick(instancesIn(agent, ["conceived"]), c.y) : undefined;
      if (conceived !== undefined) return { op: "janma.birth", tick, agent: A, instance_id: conceived.instance_id, environment: ENV(false) };
      return { op: "janma.withdraw", tick, agent: A, instance_id: i?.instance_id ?? "ghost", reason: c.x % 2 === 0 ? "principal" : "forced" };
    }
    case "expire": {
      const i = pick(instancesIn(agent, ["ready", "active"]), c.y);
      if (c.x % 2 === 0) mem.tick += 10;
      return { op: "janma.expire", tick: regressed ? tick : Math.max(tick, mem.tick), agent: A, instance_id: i?.instance_id ?? "ghost" };
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
      // Words are taken across entries (G-51); a snake_case word makes three words four tokens (G-50).
      const words = traceWords(life.trace);
      const snake = words.findIndex((w) => w.includes("_"));
      const from = snake > 0 && c.y % 2 === 0 ? snake - 1 : 0;
      const nearLeak = words.slice(from, from + 3).join(" ");
      const n = 1 + (c.x % 3);
      const dispositions: Disposition[] = [...new Set([0, 1, 2].slice(0, n).map((k) => KEYS[(c.y + k * 2) % KEYS.length] ?? "k"))].map((k, j) => ({
        key: k,
        // Now and then a guidance of astral characters exactly at the 1000-code-point bound, or one
        // past it (S-1): an implementation counting UTF-16 units disagrees on both (D-041, review G-6).
        guidance:
          j === 0 && c.x % 16 === 5 ? ASTRAL.repeat(c.x % 32 === 5 ? 1000 : 1001)
          : j === 1 && nearLeak.length > 0 && c.x % 2 === 0 ? `${nearLeak} then confirm`
          : (GUIDANCE[(c.x + j) % GUIDANCE.length] ?? "g"),
        weight: Math.trunc((valence * (j + 1)) / 3) - nudge,
        evidence_digest: EVIDENCE,
        category: "operational",
      }));
      // G-52 / D-007: a shared key every such distillate contributes to with the same |w| and c, so
      // the leader among them is decided by the distillate id alone.
      const tie = (c.x + c.op) % 4 !== 3;
      if (tie) dispositions.push({ key: "k.tie", guidance: GUIDANCE[c.x % GUIDANCE.length] ?? "g", weight: Math.sign(valence) * 300_000, evidence_digest: EVIDENCE, category: "operational" });
      // One kind of defect at a time, so each reaches the check it targets.
      const defect = bad ? c.y % 5 : -1;
      // G-31: a reused id is often one whose obligation was discharged without being applied.
      const dropped = pick(agent.obligations.filter((o) => o.status === "discharged" && o.outcome !== "applied"), c.x);
      const distillate_id = defect === 0
        ? (((c.x % 2 === 0 ? dropped : undefined) ?? pick(agent.obligations, c.x))?.distillate_id ?? id("d"))
        : ((!bad && c.x % 6 === 5 ? dropped?.distillate_id : undefined) ?? id("d"));
      const d: Record<string, unknown> = {
        distillate_id,
        // G-30: a zero confidence from a foreign nonce is AD-4 (attribution is checked first).
        source: { identity: A, nonce: defect === 1 && c.x % 2 === 0 ? `${life.nonce}-other` : life.nonce, instance_id: i.instance_id },
        born_from: i.born_from,
        signal: { valence, confidence: defect === 1 ? 0 : tie ? 600_000 : confidence, model_version: modelOf(life), explicit: true },
        // Now and then one key twice: S-1 by a rule JSON Schema cannot express (rules.json, review G-5).
        // Defect 2: a weight against the valence's sign, or (odd x, valence not 0) one millionth
        // over |valence| (OP-2.7.c7, |weight| ≤ |valence| on its far side; issue 21).
        dispositions: defect === 2 && c.x % 2 === 1 && valence !== 0 ? dispositions.map((x, j) => (j === 0 ? { ...x, weight: valence + Math.sign(valence) } : x))
          : defect === 2 ? dispositions.map((x) => ({ ...x, weight: -x.weight || 1 })) : c.x % 16 === 9 ? [...dispositions, ...dispositions.slice(0, 1)] : dispositions,
      };
      if (defect === 3 && c.x % 2 === 0) d["episode"] = life.trace.join("\n");
      // G-30: two dispositions for one key (a schema refinement, so S-1), the second otherwise valid.
      if (defect === 3 && c.x % 2 === 1) d["dispositions"] = [...dispositions, { ...dispositions[0], guidance: "a second lesson" }];
      // A leak: a guidance that quotes four or more consecutive words of the trace (S-1, D-010).
      // Runs do not span trace entries (D-010, G-51), so the quote is taken from one entry of four
      // words or more when there is one: verbatim, in upper case or in full width (issue 21).
      const entry = life.trace.find((e) => e.split(" ").length >= 4)?.split(" ").slice(0, 5).join(" ");
      const leak = entry === undefined ? undefined : [entry, entry.toUpperCase(), fullWidth(entry)][(c.x >> 1) % 3];
      if (defect === 4) d["dispositions"] = [{ ...dispositions[0], guidance: `prefer ${leak ?? (words.length > 0 ? words.slice(0, 5).join(" ") : "leak leak leak leak")}` }];
      // G-51: an otherwise valid distillate whose guidance quotes four words across an entry boundary.
      if (!bad && c.x % 7 === 3 && life.trace.length > 1) d["dispositions"] = [{ ...dispositions[0], guidance: `then ${words.slice(1, 5).join(" ")}` }];
      return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: id("ob"), distillate: d };
    }
    case "attempt":
    case "custody_expire": {
      const o = pick(agent.obligations.filter((x) => bad || x.status === "pending"), c.y);
      if (kind === "custody_expire" && o !== undefined && !bad) mem.tick = Math.max(mem.tick, o.deadline_tick);
      const t = regressed ? tick : Math.max(tick, kind === "custody_expire" ? mem.tick : tick);
      return kind === "attempt"
        ? { op: "custody.attempt", tick: t, agent: A, obligation_id: o?.obligation_id ?? "ghost", ack: (["declined", "deferred", "lost"] as const)[c.x % 3] ?? "lost" }
        : { op: "custody.expire", tick: t, agent: A, obligation_id: o?.obligation_id ?? "ghost" };
    }
    case "merge": {
      const pending = agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick > tick);
      const applied = agent.obligations.filter((x) => x.outcome === "applied");
      // Nothing pending or merged yet: the lineage moves on instead (distil a withdrawn life, or
      // withdraw a living one), so that short runs (fast-check keeps most of them under 20 steps)
      // reach merges and retained distillates, not only NOT_FOUND.
      if (!bad && pending.length === 0 && applied.length === 0) {
        const w = pick(withdrawnUndistilled(agent), c.y);
        const life = w === undefined ? undefined : mem.lives.get(key(w.instance_id));
        if (w !== undefined && life !== undefined)
          return { op: "janma.distil", tick, agent: A, instance_id: w.instance_id, obligation_id: id("ob"), distillate: distillateFor(A, w, life.nonce, id, GUIDANCE[c.x % GUIDANCE.length] ?? "g", "operational", modelOf(life)) };
        const living = pick(instancesIn(agent, ["ready", "active"]), c.y);
        if (living !== undefined) return { op: "janma.withdraw", tick, agent: A, instance_id: living.instance_id, reason: "principal" };
      }
      const redeliver = c.y % 3 === 0 && applied.length > 0; // duplicate delivery of merged lives (D-008)
      const ids = [
        ...(redeliver && c.x % 2 === 0 ? [] : pending.filter((_, k) => (c.x >> k) % 2 === 0 || k === 0).slice(0, 4).map((x) => x.obligation_id)),
        ...(redeliver ? redelivery(applied.slice(0, 2).map((x) => x.obligation_id), c) : []),
        // G-23: a missing id listed with an obligation discharged unapplied, sorting before or after it.
        ...(bad && c.x % 2 === 1 ? agent.obligations.filter((x) => x.status === "discharged" && x.outcome !== "applied").slice(0, 1).map((x) => x.obligation_id) : []),
        ...(bad ? [c.x % 2 === 1 ? "zz-ghost" : "ghost"] : []),
      ];
      return { op: "samskara.merge", tick, agent: A, obligation_ids: ids.length > 0 ? ids : [pick(agent.obligations, c.x)?.obligation_id ?? "ghost"] };
    }
    case "excise": {
      // G-39: excision ids are numbered per agent (so two agents' ids collide), the target is now and
      // then another agent, and a reused id is sent with a non-custodian's authorisation.
      // The store profile's only other agent is its neighbour, so it names the neighbour outright.
      const others = mem.profile === "store" ? v.agents.filter((a) => a.identity.identity !== A) : v.agents;
      const target = c.y % 3 === 0 ? (pick(others, c.x) ?? agent) : agent;
      const rogue = bad || (c.bad >= 8 && target.store.excisions.length > 0);
      const reuse = rogue ? pick(target.store.excisions, c.y)?.excision_id : undefined;
      const ds = target.store.distillates.filter((_, k) => (c.x >> k) % 3 === 0).slice(0, 3).map((x) => x.distillate_id);
      const first = target.store.distillates[c.y % Math.max(1, target.store.distillates.length)]?.distillate_id;
      const list = ds.length > 0 ? ds : first !== undefined ? [first] : ["ghost"];
      return {
        op: "samskara.excise", tick, agent: target.identity.identity, excision_id: reuse ?? `xn${target.store.excisions.length + 1}`,
        distillate_ids: list, authorization: rogue ? ROGUE : AUTH,
      };
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
    case "task_pause":
      return taskPause(v, agent, mem, c, bad, tick);
    case "reply": {
      const late = lateReply(mem, c, tick);
      if (late !== undefined) return late;
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
      return { op: "ripa.bind_surface", tick, agent: A, surface: { surface_id: `s${c.x % 3}`, kind: "chat", account: "a", session: `${c.y}` }, labels: bad ? { identity: "me" } : c.y % 2 === 0 ? { team: `t${c.y % 3}` } : { zone: `z${c.x % 2}` } };
    case "replicate":
      return { op: "ripa.replicate", tick, agent: A, execution: exec(bad ? agent.ripa.execution.execution_id : id("rep-")) };
    case "descend":
      return { op: "ripa.descend", tick, agent: A, root: bad ? (pick(v.roots_used, c.y) ?? "r") : id("root-"), designation: "child", execution: exec(id("exec-")),
        // The parent's current token is fresh for the child: tokens are per agent (spec review G-35).
        authority_token: c.y % 3 === 1 ? agent.ripa.authority.token : id("tok-") };
    case "restart":
      return { op: "ripa.restart", tick, agent: A, execution_id: agent.ripa.execution.execution_id, token: bad ? agent.ripa.authority.token : id("tok-") };
    case "cancel": {
      const m = agent.ripa.migration;
      // A phase command naming a migration that is no longer in progress: NOT_FOUND (spec review G-38).
      const done = agent.ripa.reports.at(-1);
      if (m === null && done !== undefined && c.y % 2 === 0) return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: done.migration_id };
      return { op: "ripa.migration_cancel", tick, agent: A, migration_id: m?.migration_id ?? "ghost", no_target_active: !bad, authorization: AUTH };
    }
    default: {
      // "migrate": the next phase of the migration in progress, or a new fence.
      const m = agent.ripa.migration;
      // An operator about to export a task whose worker died first pauses it (review G-53): half
      // the time; the other half the fence meets the live attempt and is refused (OP-7.1).
      if (m === null && agent.ripa.live_attempts.length > 0 && c.y % 2 === 0 && !mem.disabled.has("task_pause")) return taskPause(v, agent, mem, c, false, tick);
      if (m === null) return { op: "ripa.migration_fence", tick, agent: A, migration_id: id("m"), token: bad ? agent.ripa.authority.token : id("tok-") };
      const mid = m.migration_id;
      switch (m.phase) {
        case "fenced":
          return { op: "ripa.migration_checkpoint", tick, agent: A, migration_id: mid };
        case "checkpointed": {
          const gain = c.y % 4 === 0;
          const caps = [...agent.ripa.required_capabilities, ...(gain ? ["vcs.push"] : [])];
          // Unsorted, with a duplicate, on odd choices (spec review G-33: capabilities are a set).
          const providers = [{ provider_id: "prov-t", kind: "runtime" as const, contract_version: "v2", capabilities: c.x % 2 === 1 ? [...caps].reverse().concat(caps.slice(0, 1)) : caps }];
          // A replica may be promoted to be the target (spec review G-36).
          const replica = c.x % 3 === 1 ? pick(agent.ripa.replicas, c.y) : undefined;
          return {
            op: "ripa.migration_validate", tick, agent: A, migration_id: mid,
            bundle_digest: bad && c.y % 2 === 0 ? EVIDENCE : (m.bundle_digest ?? EVIDENCE),
            target: { execution: replica ?? exec(id("exec-")), providers, body_revision: bad && c.y % 2 === 1 ? "rev-other" : agent.substrate.body.revision },
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

/** A validly signed act of a life that is over (dissolved): only its state may refuse it (OP-2.3.c4). */
const actAfterTheEnd = (A: string, instance_id: string, nonce: string, manifest_digest: string, tick: number): Command => {
  const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["after the end"] };
  const signature = digestOf(DOMAIN.action, { identity: A, nonce, manifest_digest, action });
  return { op: "janma.act", tick, agent: A, instance_id, signed: { identity: A, nonce, manifest_digest, action, signature } };
};

/** CHASE_STEPS: withdraw, distil, decline, dissolve, act, and one refused step to spare. */
const CHASE_STEPS = 6;

/** The next command of a chase (GenMemory.chase), or null (and the chase dropped) when it cannot go on. */
const chaseStep = (v: WorldView, mem: GenMemory, chase: NonNullable<GenMemory["chase"]>, tick: number, id: (p: string) => string): { name: string; command: Command } | null => {
  const agent = v.agents.find((a) => a.identity.identity === chase.agent);
  const inst = agent?.instances.find((x) => x.instance_id === chase.instance_id);
  const life = mem.lives.get(`${chase.agent}/${chase.instance_id}`);
  chase.steps += 1;
  const live = inst !== undefined && life !== undefined && inst.born_tick !== null && tick < inst.born_tick + life.manifest.ttl_ticks;
  if (agent === undefined || inst === undefined || life === undefined || !live || agent.ripa.migration !== null || chase.steps > CHASE_STEPS) {
    mem.chase = null;
    return null;
  }
  const A = chase.agent;
  const instance_id = inst.instance_id;
  const obligation = agent.obligations.find((o) => o.obligation_id === inst.obligation_id);
  switch (inst.state) {
    case "ready":
    case "active":
      return { name: "chase.withdraw", command: { op: "janma.withdraw", tick, agent: A, instance_id, reason: "principal" } };
    case "withdrawn":
      if (obligation === undefined) {
        return { name: "chase.distil", command: { op: "janma.distil", tick, agent: A, instance_id, obligation_id: id("ob"), distillate: distillateFor(A, inst, life.nonce, id, "ask before booking", "operational", modelOf(life)) } };
      }
      return obligation.status === "pending"
        ? { name: "chase.decline", command: { op: "custody.attempt", tick, agent: A, obligation_id: obligation.obligation_id, ack: "declined" } }
        : { name: "chase.dissolve", command: { op: "janma.dissolve", tick, agent: A, instance_id } };
    case "dissolved": {
      mem.chase = null;
      return { name: "act.dissolved", command: actAfterTheEnd(A, instance_id, life.nonce, inst.manifest_digest, tick) };
    }
    default:
      mem.chase = null;
      return null;
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
  // A life still within its TTL at `tick`: an act of it is refused by its state alone (OP-2.3.c4),
  // not also by the TTL check that follows (OP-2.3.c6), which rejects with the same J-3.
  const withinTtl = (x: { instance_id: string; born_tick: number | null }, margin = 0) => {
    const ttl = life(x.instance_id)?.manifest.ttl_ticks;
    return x.born_tick !== null && ttl !== undefined && tick + margin < x.born_tick + ttl;
  };
  const dissolved = pick(instancesIn(agent, ["dissolved"]), c.x);
  const dissolvedLive = pick(instancesIn(agent, ["dissolved"]).filter((x) => withinTtl(x)), c.x);
  // No dissolved instance yet: dissolve one whose obligation is discharged (a valid command, and
  // the only way to reach the edge cases on dissolved instances in sequences of this length).
  const prepare = () => {
    const done = new Set(agent.obligations.filter((o) => o.status === "discharged").map((o) => o.obligation_id));
    const ripe = agent.instances.find((x) => x.state === "withdrawn" && x.obligation_id !== null && done.has(x.obligation_id));
    return ripe === undefined ? null : { name: "dissolve.prepare", command: { op: "janma.dissolve", tick, agent: A, instance_id: ripe.instance_id } as Command };
  };
  if (dissolved === undefined && (kind === "withdraw" || kind === "dissolve")) return prepare();
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
        // Within its TTL when one such is dissolved (OP-2.3.c4 alone). With none, a life with some
        // TTL left is chased to its dissolution (GenMemory.chase); failing that, a life past its TTL
        // (c4 and c6 then agree).
        const runner = dissolvedLive === undefined && agent.ripa.migration === null ? instancesIn(agent, ["ready", "active"]).find((x) => withinTtl(x, 4)) : undefined;
        if (runner !== undefined) {
          mem.chase = { agent: A, instance_id: runner.instance_id, steps: 0 };
          const first = chaseStep(v, mem, mem.chase, tick, (p) => `${p}${mem.seq++}`);
          if (first !== null) return first;
        }
        const target = dissolvedLive ?? dissolved;
        if (target === undefined) return prepare();
        const l = life(target.instance_id);
        if (l === undefined) return null;
        const name = dissolvedLive !== undefined ? "act.dissolved" : "act.dissolved-past-ttl";
        return { name, command: actAfterTheEnd(A, target.instance_id, l.nonce, target.manifest_digest, tick) };
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
