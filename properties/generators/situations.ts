/**
 * Rare situations that the ordinary mix never or hardly ever produces, one per check clause or
 * boundary of spec/CHECKS.md that would otherwise have no witness (properties/witness.ts): a
 * command failing exactly that check (everything before it valid), or an accepted command at a
 * boundary (a deadline exactly, lists unsorted or with duplicates, wildcard grants without their
 * separator, guidance quoting 4 trace tokens in other case or width). Chosen for half the steps
 * meant to be invalid (so the share of accepted commands stays as it was); a situation that does not apply to the current view yields nothing
 * and the ordinary choice is made instead.
 *
 * The list order is load-bearing: `c.op` indexes it (`firstApplicable`), so reordering or
 * inserting a situation changes generated runs and the golden sessions.
 */
import type { Command } from "../../spec/index.ts";
import { pick } from "./choice.ts";
import { narrowAct } from "./acts.ts";
import { distillateFor, modelOf } from "./distillates.ts";
import { ENV, edgeManifest, manifestFor } from "./manifests.ts";
import { MIGRATION_SITUATIONS } from "./migration-situations.ts";
import type { Situation } from "./step.ts";
import { fullWidth } from "./traces.ts";
import { AUTH, BASE, EVIDENCE, exec } from "./values.ts";
import { instancesIn, withdrawnUndistilled } from "./views.ts";

/** OP-2.7.c9: guidance quoting exactly 4 trace tokens, verbatim, in upper case, or in full width (D-010). */
const leakingGuidance: Situation = ({ A, tick, agent, c, id, mem }) => {
  // Runs do not span trace entries (D-010, G-51): the 4 words come from one accepted entry that
  // has them (an act's trace is often cut in two or three), of a life that has one (issue 21).
  const entry = (x: { instance_id: string }) =>
    mem.lives.get(`${A}/${x.instance_id}`)?.trace.find((e) => e.split(" ").length >= 4);
  const candidates = withdrawnUndistilled(agent).filter((x) => entry(x) !== undefined);
  const i = pick(candidates, c.y);
  const life = i === undefined ? undefined : mem.lives.get(`${A}/${i.instance_id}`);
  const words = (i === undefined ? "" : (entry(i) ?? "")).split(" ").slice(0, 4);
  if (i === undefined || life === undefined || words.length < 4) return undefined;
  const quoted = [words.join(" "), words.join(" ").toUpperCase(), fullWidth(words.join(" "))][(c.x + c.y) % 3] ?? "";
  return {
    op: "janma.distil",
    tick,
    agent: A,
    instance_id: i.instance_id,
    obligation_id: id("ob"),
    distillate: distillateFor(A, i, life.nonce, id, `so ${quoted}`, "operational", modelOf(life)),
  };
};

/**
 * OP-3.1.c3 / OP-3.2.c3 at their deadline: attempt exactly at it, expire one tick before it. With no
 * pending obligation ahead of its deadline, expire one already discharged (OP-3.2.c2, J-4 by its
 * status): the ordinary mix names a discharged obligation only in a rare invalid expire.
 */
const atCustodyDeadline: Situation = ({ A, agent, c, mem, tick }) => {
  const o = pick(
    agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick - 1 >= mem.tick),
    c.y,
  );
  if (o === undefined) {
    const done = pick(
      agent.obligations.filter((x) => x.status !== "pending"),
      c.y,
    );
    return done === undefined ? undefined : { op: "custody.expire", tick, agent: A, obligation_id: done.obligation_id };
  }
  // D-060: the deadline is strict for delivery. An attempt or a merge at the deadline tick is
  // refused (J-4), one tick before it is accepted; expire one tick before it is refused.
  const side = c.x % 4;
  mem.tick = side === 0 || side === 3 ? o.deadline_tick : o.deadline_tick - 1;
  if (side === 0 || side === 1)
    return { op: "custody.attempt", tick: mem.tick, agent: A, obligation_id: o.obligation_id, ack: "deferred" };
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
  const base = distillateFor(
    A,
    i,
    life.nonce,
    id,
    "ask before booking",
    c.x % 5 === 4 ? "location" : "operational",
    model,
  );
  const side = c.x % 5;
  const distillate =
    side === 0
      ? { ...base, signal: { ...base.signal, model_version: model === null ? "psm-forged" : null } }
      : side === 1
        ? { ...base, signal: { valence: 0, confidence: 0, model_version: model, explicit: false }, dispositions: [] }
        : side === 2
          ? {
              ...base,
              signal: { valence: 0, confidence: 0, model_version: model, explicit: false },
              dispositions: base.dispositions.map((x) => ({ ...x, weight: 0 })),
            }
          : side === 3
            ? {
                ...base,
                signal: { valence: 300_000, confidence: 0, model_version: model, explicit: false },
                dispositions: [],
              }
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
    return i === undefined
      ? undefined
      : {
          op: "janma.conceive",
          tick,
          agent: A,
          instance_id: i.instance_id,
          nonce: id("n"),
          manifest: manifestFor(agent.store.head, c),
        };
  },
  // OP-2.1.c4: a manifest for another base digest.
  ({ A, tick, agent, c, id }) => {
    const m = manifestFor(agent.store.head, c);
    return {
      op: "janma.conceive",
      tick,
      agent: A,
      instance_id: id("i"),
      nonce: id("n"),
      manifest: { ...m, substrate: { ...m.substrate, base_digest: EVIDENCE } },
    };
  },
  // A life with edge-case grants and a ticks-since-birth condition (D-015, D-016, OP-0.6); or,
  // when such a life holds the narrower wildcard fare.search.*, a validly signed act of it using
  // fare.search itself, which that wildcard does not cover (OP-2.3.c7, D-016).
  ({ A, tick, agent, c, id, mem }) => {
    const narrow = narrowAct(agent, mem, tick);
    if (narrow !== undefined) return narrow;
    // Such a life conceived but not yet born is born first (the ordinary births pick among many).
    const unborn = instancesIn(agent, ["conceived"]).find(
      (x) => mem.lives.get(`${A}/${x.instance_id}`)?.manifest.capability_grants.includes("fare.search.*") === true,
    );
    if (unborn !== undefined && c.x % 2 === 0)
      return { op: "janma.birth", tick, agent: A, instance_id: unborn.instance_id, environment: ENV(false) };
    const instance_id = id("i");
    const nonce = id("n");
    const manifest = edgeManifest(agent.store.head, c);
    mem.lives.set(`${A}/${instance_id}`, { manifest, nonce, trace: [] });
    return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
  },
  // OP-2.2.c7: a grant offered only as a wildcard prefix without its separator ("far.*").
  ({ A, tick, agent, c }) => {
    const i = pick(instancesIn(agent, ["conceived"]), c.y);
    return i === undefined
      ? undefined
      : {
          op: "janma.birth",
          tick,
          agent: A,
          instance_id: i.instance_id,
          environment: { ...ENV(false), grantable: c.x % 2 === 0 ? ["far.*"] : ["fare.search"] },
        };
  },
  // OP-2.3.c2: an act by an instance that does not exist.
  ({ A, tick, agent }) => {
    const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["x"] };
    return {
      op: "janma.act",
      tick,
      agent: A,
      instance_id: "ghost",
      signed: { identity: A, nonce: "n", manifest_digest: agent.store.head, action, signature: EVIDENCE },
    };
  },
  // OP-2.7.c1 / c2: distil an unknown instance, or one that is not withdrawn.
  ({ A, tick, agent, c, id }) => {
    const i = c.x % 2 === 0 ? undefined : pick(instancesIn(agent, ["ready", "active", "conceived"]), c.y);
    const iid = i?.instance_id ?? "ghost";
    return {
      op: "janma.distil",
      tick,
      agent: A,
      instance_id: iid,
      obligation_id: id("ob"),
      distillate: distillateFor(
        A,
        i ?? { instance_id: iid, born_from: agent.store.head },
        i?.nonce ?? "n",
        id,
        "ask before booking",
      ),
    };
  },
  // OP-2.7.c3 / c5 / c8: a reused obligation id, a distillate from another nonce, an unconsented category.
  ({ A, tick, agent, c, id, mem }) => {
    const i = pick(withdrawnUndistilled(agent), c.y);
    if (i === undefined) return undefined;
    const used = pick(agent.obligations, c.x)?.obligation_id;
    const which = c.x % 3;
    if (which === 0 && used === undefined) return undefined;
    const d = distillateFor(
      A,
      i,
      which === 1 ? `${i.nonce}-other` : i.nonce,
      id,
      "ask before booking",
      which === 2 ? "health" : "operational",
      modelOf(mem.lives.get(`${A}/${i.instance_id}`)),
    );
    return {
      op: "janma.distil",
      tick,
      agent: A,
      instance_id: i.instance_id,
      obligation_id: which === 0 ? (used ?? "ob") : id("ob"),
      distillate: d,
    };
  },
  leakingGuidance,
  leakingGuidance,
  leakingGuidance,
  // OP-2.8.c2: dissolve an instance that is not withdrawn.
  ({ A, tick, agent, c }) => {
    const i = pick(instancesIn(agent, ["conceived", "ready", "active"]), c.y);
    return i === undefined ? undefined : { op: "janma.dissolve", tick, agent: A, instance_id: i.instance_id };
  },
  atCustodyDeadline,
  atCustodyDeadline,
  principalSignal,
  principalSignal,
  // OP-4.1: pending obligations listed unsorted and twice (OP-0.6).
  ({ A, tick, agent }) => {
    const ids = agent.obligations
      .filter((x) => x.status === "pending" && x.deadline_tick > tick)
      .map((x) => x.obligation_id)
      .slice(0, 2);
    return ids.length === 0
      ? undefined
      : { op: "samskara.merge", tick, agent: A, obligation_ids: [...ids].reverse().concat(ids) };
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
    return {
      op: "samskara.excise",
      tick,
      agent: A,
      excision_id: reuse ? (used ?? "x") : `xn${agent.store.excisions.length + 1}`,
      distillate_ids: list,
      authorization: AUTH,
    };
  },
  // OP-5.1: custodians and required capabilities unsorted and duplicated; or provider ids duplicated (c2).
  ({ tick, c, id }) => ({
    op: "advaita.mint",
    tick,
    base_digest: BASE,
    root: id("root-"),
    designation: "agent",
    body_revision: "rev-0",
    custodians: ["custodian-2", "custodian-1", "custodian-1"],
    execution: exec(id("exec-")),
    providers: [
      { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
      ...(c.x % 2 === 0
        ? [{ provider_id: "prov-a", kind: "service" as const, contract_version: "v2", capabilities: ["fare.book"] }]
        : []),
    ],
    required_capabilities: ["mail.send", "fare.search", "fare.search"],
    authority_token: id("tok-"),
  }),
  // OP-6.1.c2: a restart by an execution that is not the bound one.
  ({ A, tick, id }) => ({ op: "ripa.restart", tick, agent: A, execution_id: id("exec-other-"), token: id("tok-") }),
  // OP-6.4.c3: a request reusing the live attempt's nonce.
  ({ A, tick, agent, c }) => {
    const live = pick(agent.ripa.live_attempts, c.y);
    return live === undefined
      ? undefined
      : { op: "ripa.request", tick, agent: A, task_id: live.task_id, attempt_nonce: live.attempt_nonce };
  },
  // OP-6.6.c2: an effect through a provider that is not bound.
  ({ A, tick, agent, c }) => ({
    op: "ripa.effect",
    tick,
    agent: A,
    execution_id: agent.ripa.authority.holder ?? agent.ripa.execution.execution_id,
    token: agent.ripa.authority.token,
    provider_id: "prov-ghost",
    capability: "fare.search",
    effect_id: `e${c.x % 6}`,
  }),
  // OP-7.1.c2: a new fence reusing the id of a migration fenced before.
  ({ A, tick, agent, c, id }) => {
    const old = pick(agent.ripa.fences, c.y)?.migration_id;
    return agent.ripa.migration !== null || old === undefined
      ? undefined
      : { op: "ripa.migration_fence", tick, agent: A, migration_id: old, token: id("tok-") };
  },
];

const ALL_SITUATIONS: readonly Situation[] = [...SITUATIONS, ...MIGRATION_SITUATIONS];
/**
 * The situation `c.op` names or, when it does not apply to the view, one of the next three: most
 * need a state that is there only some of the time (a live attempt, a withdrawn life, a phase).
 */
const firstApplicable =
  (list: readonly Situation[]): Situation =>
  (s) => {
    for (let k = 0; k < 4; k++) {
      const made = list[(s.c.op + k) % list.length]?.(s);
      if (made !== undefined) return made;
    }
    return undefined;
  };
/** Any situation (the general ones, then those of OP-7). */
export const situation: Situation = firstApplicable(ALL_SITUATIONS);
/** While a migration is in progress, half the invalid moves are these. */
export const migrationSituation: Situation = firstApplicable(MIGRATION_SITUATIONS);
