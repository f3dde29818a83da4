/**
 * Checkable predicates, one per invariant, written independently of the guards: the guards
 * decide whether a command is accepted, these predicates inspect the resulting states,
 * transitions and histories and say whether the invariant still holds. Each returns `true` or a
 * violation naming what broke, and each can fail (see predicates.test.ts).
 *
 * Kinds follow `spec/catalog.ts`: state predicates read one World; transition predicates read
 * (prev, next, command, events); history predicates read every step so far.
 */
import {
  DOMAIN,
  RESERVED_LABEL_KEYS,
  SamskaraDistillate,
  ExcisionRecord,
  digestOf,
  genesisVersionOf,
  identityOf,
  type Command,
  type Digest,
  type Event,
  type InvariantId,
  type TerminationPredicate,
  type InstanceView,
} from "../spec/index.ts";
import type { Agent, Store, World } from "./state.ts";
import { aggregate, stateDigest } from "./samskara/aggregate.ts";
import { replay as replayLineage, sameChain } from "./samskara/lineage.ts";
import { consentAllows } from "./samskara/consent.ts";
import { grantable } from "./janma/capability.ts";

export type Verdict = true | { readonly violation: string };

/** One step of a run. For a rejected command `next === prev` and `events` is empty. */
export interface TransitionStep {
  readonly prev: World;
  readonly next: World;
  readonly command: Command;
  readonly events: readonly Event[];
  readonly accepted: boolean;
}
export type HistoryStep = TransitionStep;

export type Predicate =
  | { readonly kind: "state"; readonly check: (w: World) => Verdict }
  | { readonly kind: "transition"; readonly check: (s: TransitionStep) => Verdict }
  | { readonly kind: "history"; readonly check: (h: readonly HistoryStep[]) => Verdict };

const fail = (violation: string): Verdict => ({ violation });
const json = (x: unknown): string => JSON.stringify(x);
const isPrefix = <T>(a: readonly T[], b: readonly T[]): boolean =>
  a.length <= b.length && a.every((x, i) => json(x) === json(b[i]));
const sorted = (xs: readonly string[]): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The agents each predicate has found holding, by identity. A world is never mutated (the model
 * copies what a step changes, so an unchanged agent is the same object in the next world), and a
 * per-agent check is a function of the agent alone: once an agent object has passed it, it passes
 * again. An explorer or a long run re-checks only the agents a step changed, not every agent of
 * every state. (A cache of verdicts, invisible in what a predicate returns.)
 */
const passed = new Map<string, WeakSet<Agent>>();
const passedBy = (id: string): WeakSet<Agent> => {
  let s = passed.get(id);
  if (s === undefined) passed.set(id, (s = new WeakSet()));
  return s;
};

/**
 * The same cache one level down, for checks that read one part of an agent only: an agent object is
 * new after every step that changed anything of it, but its store, its manifests and its
 * distillates are shared with the previous world unless the step changed them, so a check of the
 * store alone (S-4's replay) or of one distillate (S-1's strictness) runs once per object.
 */
const storesPassing = new Map<string, WeakSet<Store>>();
const passedStore = (id: string, store: Store, f: () => string | null): string | null => {
  let s = storesPassing.get(id);
  if (s === undefined) storesPassing.set(id, (s = new WeakSet()));
  if (s.has(store)) return null;
  const v = f();
  if (v === null) s.add(store);
  return v;
};
const strictDistillates = new WeakSet<object>();
const isStrictDistillate = (d: object): boolean => {
  if (strictDistillates.has(d)) return true;
  if (!SamskaraDistillate.safeParse(d).success) return false;
  strictDistillates.add(d);
  return true;
};
/** A manifest's digest (D-031's domain), once per manifest object: manifests never change after conception. */
const manifestDigests = new WeakMap<object, string>();
const manifestDigest = (m: object): string => {
  let d = manifestDigests.get(m);
  if (d === undefined) manifestDigests.set(m, (d = digestOf(DOMAIN.manifest, m)));
  return d;
};

/** Run `f` over every agent not yet known to pass it; the first violation wins. */
const eachAgent = (w: World, ok: WeakSet<Agent>, f: (a: Agent) => string | null): Verdict => {
  for (const a of w.agents.values()) {
    if (ok.has(a)) continue;
    const v = f(a);
    if (v !== null) return fail(`${a.identity.identity.slice(0, 15)}: ${v}`);
    ok.add(a);
  }
  return true;
};

/**
 * Agents present in both states of a step. An agent the step left as it was (the same object)
 * can only fail what `f` asks of the next agent alone, since every comparison of the two holds;
 * once that object has passed `f` as a next agent, it is skipped.
 */
const eachPair = (s: TransitionStep, ok: WeakSet<Agent>, f: (p: Agent, n: Agent) => string | null): Verdict => {
  for (const [id, n] of s.next.agents) {
    const p = s.prev.agents.get(id);
    if (p === undefined) continue;
    if (p === n && ok.has(n)) continue;
    const v = f(p, n);
    if (v !== null) return fail(`${id.slice(0, 15)}: ${v}`);
    ok.add(n);
  }
  return true;
};

const lastOf = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];

/** Distillates whose content the agent holds (pending obligations) or retains (store). */
const heldAndRetained = (a: Agent) => [
  ...[...a.obligations.values()].flatMap((o) => (o.held === null ? [] : [o.held])),
  ...[...a.store.retained.values()].map((r) => r.distillate),
];

/** An evaluator of the termination language written apart from the model's (J-3 cross-check). */
const predicateHolds = (p: TerminationPredicate, v: InstanceView, now: number): boolean =>
  p.op === "acts_at_least"
    ? v.acts >= p.n
    : p.op === "failures_at_least"
      ? v.failures >= p.n
      : p.op === "consecutive_failures_at_least"
        ? v.consecutive_failures >= p.n
        : p.op === "ticks_since_birth_at_least"
          ? v.born_tick !== null && now - v.born_tick >= p.n
          : p.op === "tool_used"
            ? v.tools_used.includes(p.tool)
            : p.op === "all"
              ? p.of.every((q) => predicateHolds(q, v, now))
              : p.op === "any"
                ? p.of.some((q) => predicateHolds(q, v, now))
                : !predicateHolds(p.of, v, now);

// --- Janma -----------------------------------------------------------------------------------

/** J-1: nothing becomes born without a birth that resolved everything; nothing is acquired after. */
export const completeAtBirth = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("J-1"), (p, n) => {
    for (const [id, ni] of n.instances) {
      const pi = p.instances.get(id);
      const wasBorn = pi !== undefined && pi.view.born_tick !== null;
      const isBorn = ni.view.born_tick !== null;
      if (!isBorn) {
        if (ni.view.acts !== 0 || ni.view.tools.length > 0 || ni.view.grants.length > 0)
          return `${id} works or holds tools before birth`;
        continue;
      }
      if (wasBorn) {
        if (json(pi.view.tools) !== json(ni.view.tools) || json(pi.view.grants) !== json(ni.view.grants))
          return `${id} acquired tools or grants after birth`;
        continue;
      }
      const c = s.command;
      if (c.op !== "janma.birth" || c.instance_id !== id) return `${id} became born without janma.birth`;
      if (!p.store.chain.some((v) => v.version_id === ni.view.born_from))
        return `${id} born from a version not in the chain`;
      if (p.store.quarantined.includes(ni.view.born_from)) return `${id} born from a quarantined version`;
      for (const b of ni.manifest.tool_bindings)
        if (
          !c.environment.tools.some((t) => t.tool === b.tool && b.capabilities.every((x) => t.capabilities.includes(x)))
        )
          return `${id} born with unresolved tool ${b.tool}`;
      for (const g of ni.manifest.capability_grants)
        if (!grantable(g, c.environment.grantable)) return `${id} born with ungrantable ${g}`;
    }
    return null;
  });

/** J-2: held tools and grants are exactly the manifest's, fixed at birth; only bound tools were used. */
export const scopedCapabilities = (w: World): Verdict =>
  eachAgent(w, passedBy("J-2"), (a) => {
    for (const i of a.instances.values()) {
      const v = i.view;
      if (v.born_tick === null) {
        if (v.tools.length > 0 || v.grants.length > 0) return `${v.instance_id} holds capabilities before birth`;
        continue;
      }
      if (json(v.tools) !== json(sorted(i.manifest.tool_bindings.map((b) => b.tool))))
        return `${v.instance_id} tools differ from its manifest`;
      if (json(v.grants) !== json(sorted([...new Set(i.manifest.capability_grants)])))
        return `${v.instance_id} grants differ from its manifest`;
      const stray = v.tools_used.find((t) => !v.tools.includes(t));
      if (stray !== undefined) return `${v.instance_id} used unbound tool ${stray}`;
    }
    return null;
  });

/** J-3: acts happen only within [born, born + ttl) and while living; a firing condition withdraws. */
export const boundedLifetime = (h: readonly HistoryStep[]): Verdict => {
  for (const [k, s] of h.entries()) {
    if (!s.accepted) continue;
    const c = s.command;
    if (c.op !== "janma.act" && c.op !== "janma.expire") continue;
    const p = s.prev.agents.get(c.agent)?.instances.get(c.instance_id);
    const n = s.next.agents.get(c.agent)?.instances.get(c.instance_id);
    if (p === undefined || n === undefined) return fail(`step ${k}: ${c.op} on a missing instance`);
    const deadline = p.view.born_tick === null ? -1 : p.view.born_tick + p.manifest.ttl_ticks;
    if (c.op === "janma.act") {
      if (p.view.state !== "ready" && p.view.state !== "active")
        return fail(`step ${k}: ${c.instance_id} acted while ${p.view.state}`);
      if (c.tick >= deadline) return fail(`step ${k}: ${c.instance_id} acted at ${c.tick}, TTL deadline ${deadline}`);
      const first = p.manifest.termination_conditions.find((t) =>
        predicateHolds(t.when, { ...n.view, state: "active" }, c.tick),
      );
      if (
        first !== undefined &&
        (n.view.state !== "withdrawn" ||
          json(n.view.withdrawal) !== json({ kind: "termination_condition", condition_id: first.id }))
      )
        return fail(`step ${k}: condition ${first.id} held but ${c.instance_id} was not withdrawn by it`);
      if (first === undefined && n.view.state !== "active")
        return fail(`step ${k}: ${c.instance_id} withdrawn with no condition holding`);
    } else if (
      (p.view.state === "ready" || p.view.state === "active") &&
      c.tick >= deadline &&
      n.view.state !== "withdrawn"
    ) {
      return fail(`step ${k}: ${c.instance_id} outlived its TTL`);
    }
  }
  return true;
};

/** J-4: one obligation per death; custody fail-safe applied; no dissolution or conception against it. */
export const oneDistillation = (h: readonly HistoryStep[]): Verdict => {
  const emitted = new Map<string, number>();
  for (const [k, s] of h.entries()) {
    if (!s.accepted) continue;
    const c = s.command;
    if (c.op === "janma.distil") {
      const key = `${c.agent}/${c.instance_id}`;
      const count = (emitted.get(key) ?? 0) + s.events.filter((e) => e.type === "obligation.emitted").length;
      if (count > 1) return fail(`step ${k}: ${c.instance_id} has ${count} obligations`);
      emitted.set(key, count);
    }
    if (
      c.op === "janma.conceive" &&
      (s.prev.agents.get(c.agent)?.store.quarantined ?? []).includes(c.manifest.substrate.store_version)
    )
      return fail(`step ${k}: conceived from a quarantined pin`);
  }
  const last = lastOf(h);
  if (last === undefined) return true;
  return eachAgent(last.next, passedBy("J-4"), (a) => {
    for (const o of a.obligations.values()) {
      const v = o.view;
      if (v.attempts > v.max_retries + 1) return `${v.obligation_id} exceeded its retries`;
      // D-063: exactly a corrective obligation declares the fail-safe, on the pin it was born from.
      if (v.kind === "corrective" ? v.fail_safe?.store_version !== v.born_from : v.fail_safe !== null)
        return `${v.obligation_id} (${v.kind}) declares the wrong fail-safe`;
      if (v.status === "discharged" && o.held !== null)
        return `${v.obligation_id} discharged but still holds its distillate`;
      if (
        v.kind === "corrective" &&
        (v.outcome === "declined" || v.outcome === "escalated") &&
        !a.store.quarantined.includes(v.born_from)
      )
        return `${v.obligation_id} ${v.outcome} without the quarantine fail-safe`;
      if (a.instances.get(v.instance_id)?.view.obligation_id !== v.obligation_id)
        return `${v.obligation_id} is not its instance's obligation`;
    }
    for (const i of a.instances.values()) {
      if (i.view.state === "dissolved") {
        const o = i.view.obligation_id === null ? undefined : a.obligations.get(i.view.obligation_id);
        if (o === undefined || o.view.status !== "discharged")
          return `${i.view.instance_id} dissolved before its obligation was discharged`;
      }
    }
    return null;
  });
};

// --- Samskara --------------------------------------------------------------------------------

/** S-1: only strict distillates are held, consented, and the trace is gone once distilled. */
export const onlyDispositions = (w: World): Verdict =>
  eachAgent(w, passedBy("S-1"), (a) => {
    for (const i of a.instances.values()) {
      if (i.view.trace_entries !== i.trace.length) return `${i.view.instance_id} trace count differs from its trace`;
      if (i.view.obligation_id !== null && i.trace.length > 0)
        return `${i.view.instance_id} kept its trace after distillation`;
    }
    for (const d of heldAndRetained(a)) {
      if (!isStrictDistillate(d)) return `${d.distillate_id} is not a strict distillate`;
      const inst = a.instances.get(d.source.instance_id);
      if (inst !== undefined && d.dispositions.some((x) => !consentAllows(inst.manifest.consent_scope, x.category)))
        return `${d.distillate_id} persists an unconsented category`;
    }
    return null;
  });

/**
 * S-2: every held or retained weight carries the principal's valence, under the satisfaction model
 * its manifest declared (D-053); a zero confidence backs nothing (D-057: valence 0, no dispositions).
 */
export const principalSigned = (w: World): Verdict =>
  eachAgent(w, passedBy("S-2"), (a) => {
    for (const d of heldAndRetained(a)) {
      if (d.signal.confidence <= 0 && (d.signal.valence !== 0 || d.dispositions.length > 0))
        return `${d.distillate_id} has zero confidence yet carries a judgement`;
      const inst = a.instances.get(d.source.instance_id);
      if (inst !== undefined && d.signal.model_version !== inst.manifest.distillation_policy.satisfaction_model)
        return `${d.distillate_id} was judged under ${String(d.signal.model_version)}, not the principal's declared model`;
      for (const x of d.dispositions)
        if (Math.sign(x.weight) !== Math.sign(d.signal.valence) || Math.abs(x.weight) > Math.abs(d.signal.valence))
          return `${d.distillate_id}/${x.key} weight ${x.weight} against valence ${d.signal.valence}`;
    }
    return null;
  });

/** S-3: a step extends the chain by at most one version, or appends exactly one excision record. */
export const appendOnly = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("S-3"), (p, n) => {
    const pe = p.store.excisions;
    const ne = n.store.excisions;
    if (!isPrefix(pe, ne)) return "excision records were rewritten";
    if (ne.length === pe.length + 1) {
      const rec = lastOf(ne);
      if (rec?.prior_head !== lastOf(p.store.chain)?.version_id || rec?.new_head !== lastOf(n.store.chain)?.version_id)
        return "excision record does not name the prior and new heads";
      return null;
    }
    if (ne.length !== pe.length) return "more than one excision in a step";
    if (!isPrefix(p.store.chain, n.store.chain)) return "chain rewritten without an excision";
    if (!isPrefix(p.store.batches, n.store.batches)) return "batches rewritten without an excision";
    if (n.store.chain.length - p.store.chain.length > 1) return "a step added more than one version";
    return null;
  });

/** S-4: the recorded batches replay to the recorded chain, and the head state is their aggregate. */
export const deterministicReplay = (w: World): Verdict =>
  eachAgent(w, passedBy("S-4"), (a) =>
    passedStore("S-4", a.store, () => {
      const genesis = a.store.chain[0];
      if (genesis === undefined) return "no genesis";
      const contents = a.store.batches.map((b) =>
        b.members.map((m) => a.store.retained.get(m.distillate_id)?.distillate),
      );
      if (contents.some((b) => b.some((d) => d === undefined))) return "a recorded batch member's content is missing";
      const again = replayLineage(genesis, contents as never);
      if (!sameChain(again, a.store)) return "replay does not reproduce the chain";
      const headState = lastOf(a.store.states);
      if (headState === undefined || stateDigest(headState) !== lastOf(a.store.chain)?.state_digest)
        return "head state does not match its digest";
      return null;
    }),
  );

/** S-5: an excision's chain is exactly what the remaining distillates in the same batches give. */
export const exactExcision = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("S-5"), (p, n) => {
    if (n.store.excisions.length !== p.store.excisions.length + 1) return null;
    const rec = lastOf(n.store.excisions);
    if (rec === undefined || !ExcisionRecord.safeParse(rec).success)
      return "excision record is not ids and digests only";
    const gone = new Set(rec.excised.map((e) => e.distillate_id));
    for (const e of rec.excised) {
      if (p.store.retained.get(e.distillate_id)?.digest !== e.digest)
        return `excision record misnames ${e.distillate_id}`;
      if (n.store.retained.has(e.distillate_id)) return `${e.distillate_id} content survived excision`;
    }
    const genesis = p.store.chain[0];
    if (genesis === undefined) return "no genesis";
    const fresh = replayLineage(
      genesis,
      p.store.batches
        .map((b) =>
          b.members
            .filter((m) => !gone.has(m.distillate_id))
            .map((m) => p.store.retained.get(m.distillate_id)?.distillate),
        )
        .filter((b) => b.length > 0) as never,
    );
    return sameChain(fresh, n.store) ? null : "excised chain differs from a fresh lineage of the remaining distillates";
  });

// --- Advaita ---------------------------------------------------------------------------------

/** AD-1: each agent has one identity = H(base || genesis(root)), roots are unique and recorded. */
export const singleIdentity = (w: World): Verdict => {
  const roots = new Set<string>();
  for (const [key, a] of w.agents) {
    const i = a.identity;
    const genesis = genesisVersionOf(i.base_digest as Digest, i.root);
    if (i.lineage_root !== genesis || a.store.chain[0]?.version_id !== genesis)
      return fail(`${key}: lineage root is not the genesis`);
    if (i.identity !== identityOf(i.base_digest as Digest, genesis) || key !== i.identity)
      return fail(`${key}: identity is not H(base || root)`);
    if (a.record.identity !== i.identity) return fail(`${key}: identity record names another identity`);
    if (roots.has(i.root)) return fail(`root ${i.root} minted twice`);
    roots.add(i.root);
    if (!w.roots_used.includes(i.root)) return fail(`root ${i.root} not recorded`);
  }
  return true;
};

/** AD-2: projections carry identity, nonce and manifest only; the store changes only via distillates. */
export const statelessProjections = (w: World): Verdict =>
  eachAgent(w, passedBy("AD-2"), (a) => {
    const nonces = new Set<string>();
    for (const i of a.instances.values()) {
      if (nonces.has(i.view.nonce)) return `nonce ${i.view.nonce} reused`;
      nonces.add(i.view.nonce);
      if (i.view.manifest_digest !== manifestDigest(i.manifest))
        return `${i.view.instance_id} manifest digest mismatch`;
    }
    const applied = new Map(
      [...a.obligations.values()]
        .filter((o) => o.view.outcome === "applied")
        .map((o) => [o.view.distillate_id, o.view.distillate_digest]),
    );
    for (const [id, r] of a.store.retained)
      if (applied.get(id) !== r.digest) return `store holds ${id} that no applied obligation delivered`;
    return null;
  });

/** AD-3: the store is the aggregate of its set; one id, one content; a no-op merge changes nothing. */
export const convergentReconciliation = (h: readonly HistoryStep[]): Verdict => {
  const contents = new Map<string, string>();
  for (const [k, s] of h.entries()) {
    if (s.accepted && s.events.some((e) => e.type === "store.merge_noop") && s.command.op === "samskara.merge") {
      const p = s.prev.agents.get(s.command.agent);
      const n = s.next.agents.get(s.command.agent);
      if (
        p === undefined ||
        n === undefined ||
        json(p.store.chain) !== json(n.store.chain) ||
        json(p.store.states) !== json(n.store.states)
      )
        return fail(`step ${k}: a no-op merge changed the store`);
    }
    for (const [id, a] of s.next.agents)
      for (const o of a.obligations.values()) {
        const key = `${id}/${o.view.distillate_id}`;
        const seen = contents.get(key);
        if (seen !== undefined && seen !== o.view.distillate_digest)
          return fail(`step ${k}: distillate id ${o.view.distillate_id} names two contents`);
        contents.set(key, o.view.distillate_digest);
      }
  }
  const last = lastOf(h);
  if (last === undefined) return true;
  return eachAgent(last.next, passedBy("AD-3"), (a) =>
    passedStore("AD-3", a.store, () => {
      const expected = aggregate([...a.store.retained.values()].map((r) => r.distillate));
      return json(expected) === json(lastOf(a.store.states))
        ? null
        : "store state is not the aggregate of the retained set";
    }),
  );
};

/** AD-4: every entry names exactly its contributing distillates; every distillate names its projection. */
export const attributionPreserved = (w: World): Verdict =>
  eachAgent(w, passedBy("AD-4"), (a) => {
    const state = lastOf(a.store.states);
    if (state === undefined) return "no state";
    const byKey = new Map<string, string[]>();
    for (const r of a.store.retained.values())
      for (const x of r.distillate.dispositions)
        byKey.set(x.key, [...(byKey.get(x.key) ?? []), r.distillate.distillate_id]);
    for (const e of state.entries)
      if (json(e.contributors) !== json(sorted(byKey.get(e.key) ?? []))) return `entry ${e.key} lost its contributors`;
    if (state.entries.length !== byKey.size) return "an entry has no contributor";
    for (const d of heldAndRetained(a)) {
      if (d.source.identity !== a.identity.identity) return `${d.distillate_id} attributed to another identity`;
      const inst = a.instances.get(d.source.instance_id);
      if (inst === undefined || inst.view.nonce !== d.source.nonce)
        return `${d.distillate_id} not traceable to its projection`;
    }
    return null;
  });

// --- RIPA ------------------------------------------------------------------------------------

const authorisedBy = (p: Agent, auth: { custodian: string } | null): boolean =>
  auth !== null && p.ripa.custodians.includes(auth.custodian);

/** I1: the identity record changes only by an authorised update, one version at a time. */
export const identityContinuity = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("I1"), (p, n) => {
    if (p.record.identity !== n.record.identity) return "identity digest changed";
    if (json(p.record) === json(n.record)) return null;
    const c = s.command;
    if (c.op !== "ripa.identity_update" || !authorisedBy(p, c.authorization))
      return "identity record changed without an authorised update";
    return n.record.identity_version === p.record.identity_version + 1
      ? null
      : "identity version did not advance by one";
  });

/** I2: memory ancestry and task ids only extend; store rewrites are authorised repairs. */
export const memoryAncestry = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("I2"), (p, n) => {
    if (!isPrefix(p.memory.ancestry, n.memory.ancestry)) return "memory ancestry was reset or forked";
    if (!isPrefix(p.memory.task_ids, n.memory.task_ids)) return "task ids were reset";
    if (n.memory.store_head !== lastOf(n.store.chain)?.version_id) return "memory does not record the store head";
    if (p.memory.store_head !== n.memory.store_head && n.memory.ancestry.length === p.memory.ancestry.length)
      return "store head moved without extending memory";
    if (!isPrefix(p.store.chain, n.store.chain)) {
      const c = s.command;
      if (c.op !== "samskara.excise" || !authorisedBy(p, c.authorization))
        return "store chain rewritten without an authorised repair";
    }
    return null;
  });

/** I3: the body changes only by an authorised evolution to a new revision. */
export const bodyRevision = (s: TransitionStep): Verdict =>
  eachPair(s, passedBy("I3"), (p, n) => {
    if (!isPrefix(p.body.lineage, n.body.lineage)) return "body lineage rewritten";
    if (n.body.revision !== lastOf(n.body.lineage)) return "body revision is not the lineage head";
    if (p.body.revision === n.body.revision) return null;
    const c = s.command;
    if (c.op !== "ripa.evolve" || !authorisedBy(p, c.authorization))
      return "body changed without an authorised evolution";
    return p.body.lineage.includes(n.body.revision) ? "evolved to a revision already used" : null;
  });

/** I4: at most one holder, none while fenced; tokens and attempt nonces are accounted single-use. */
export const continuationAuthority = (w: World): Verdict =>
  eachAgent(w, passedBy("I4"), (a) => {
    const r = a.ripa;
    const h = r.authority.holder;
    if (h !== null && h !== r.execution.execution_id) return `holder ${h} is not the bound execution`;
    if (h !== null && r.replicas.some((x) => x.execution_id === h)) return "a replica holds authority";
    if (r.migration !== null && h !== null) return "authority held while fenced";
    if (r.migration !== null && !r.fences.some((f) => f.migration_id === r.migration?.migration_id))
      return "migration without a fence";
    if (!r.tokens_used.has(r.authority.token)) return "current token not accounted as used";
    for (const n of r.live_attempts.values())
      if (!r.attempt_nonces_used.has(n)) return `live attempt ${n} not accounted`;
    // Quiescence (OP-7.1): nothing is in flight while fenced; a dead worker's attempt is revoked by
    // ripa.task_pause before the fence (review G-53), never carried into a migration.
    if (r.migration !== null && r.live_attempts.size > 0) return "an attempt is live while fenced";
    if (new Set(r.fences.map((f) => f.migration_id)).size !== r.fences.length) return "two fences for one migration";
    return null;
  });

const capsOf = (ps: readonly { capabilities: readonly string[] }[]): Set<string> =>
  new Set(ps.flatMap((p) => p.capabilities));

/** I5: the capability delta is reported exactly, and a validated target grants what is required. */
export const visibleDelta = (w: World): Verdict =>
  eachAgent(w, passedBy("I5"), (a) => {
    const m = a.ripa.migration;
    if (m !== null && m.target !== null) {
      const s = capsOf(a.ripa.providers);
      const t = capsOf(m.target.providers);
      const expected = {
        gained: sorted([...t].filter((c) => !s.has(c))),
        lost: sorted([...s].filter((c) => !t.has(c))),
        unchanged: sorted([...s].filter((c) => t.has(c))),
      };
      if (json(expected) !== json(m.delta)) return "reported capability delta differs from the providers'";
      const missing = (m.bundle?.required_capabilities ?? []).find((c) => !t.has(c));
      if (missing !== undefined) return `target lacks required ${missing}`;
    }
    for (const rep of a.ripa.reports) {
      const d = rep.capability_delta;
      const all = [...d.gained, ...d.lost, ...d.unchanged];
      if (new Set(all).size !== all.length) return `report ${rep.migration_id} delta lists overlap`;
    }
    if (new Set(a.ripa.providers.map((p) => p.provider_id)).size !== a.ripa.providers.length)
      return "two providers share an id";
    return null;
  });

/** I6: labels never use identity keys; the identity lives only in the identity record. */
export const selfDescription = (w: World): Verdict =>
  eachAgent(w, passedBy("I6"), (a) => {
    const reserved = new Set<string>(RESERVED_LABEL_KEYS);
    const all = [...a.ripa.surfaces.values(), ...(a.ripa.migration?.surfaces ?? [])];
    for (const s of all) {
      const bad = Object.keys(s.labels).find((k) => reserved.has(k));
      if (bad !== undefined) return `surface ${s.surface.surface_id} label ${bad} stands in for the identity`;
    }
    return null;
  });

export const PREDICATES: Readonly<Record<InvariantId, Predicate>> = {
  "J-1": { kind: "transition", check: completeAtBirth },
  "J-2": { kind: "state", check: scopedCapabilities },
  "J-3": { kind: "history", check: boundedLifetime },
  "J-4": { kind: "history", check: oneDistillation },
  "S-1": { kind: "state", check: onlyDispositions },
  "S-2": { kind: "state", check: principalSigned },
  "S-3": { kind: "transition", check: appendOnly },
  "S-4": { kind: "state", check: deterministicReplay },
  "S-5": { kind: "transition", check: exactExcision },
  "AD-1": { kind: "state", check: singleIdentity },
  "AD-2": { kind: "state", check: statelessProjections },
  "AD-3": { kind: "history", check: convergentReconciliation },
  "AD-4": { kind: "state", check: attributionPreserved },
  I1: { kind: "transition", check: identityContinuity },
  I2: { kind: "transition", check: memoryAncestry },
  I3: { kind: "transition", check: bodyRevision },
  I4: { kind: "state", check: continuationAuthority },
  I5: { kind: "state", check: visibleDelta },
  I6: { kind: "state", check: selfDescription },
};

/** Evaluate one predicate at the end of a history (state: the last next state; transition: the last step). */
export const checkAt = (id: InvariantId, history: readonly HistoryStep[], initial: World): Verdict => {
  const p = PREDICATES[id];
  const last = lastOf(history);
  switch (p.kind) {
    case "state":
      return p.check(last?.next ?? initial);
    case "transition":
      return last === undefined ? true : p.check(last);
    case "history":
      return p.check(history);
  }
};
