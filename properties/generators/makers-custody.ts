/** The makers of custody and Samskara commands: deliveries, expiries, merges, excisions, replays, projection writes. */
import { pick, type Choice } from "./choice.ts";
import { distillateFor, modelOf } from "./distillates.ts";
import { lifeKey } from "./memory.ts";
import type { Maker } from "./step.ts";
import { AUTH, EVIDENCE, GUIDANCE, ROGUE } from "./values.ts";
import { instancesIn, withdrawnUndistilled } from "./views.ts";
import type { OpKind } from "./weights.ts";

/** Spec review G-24: a redelivery names applied obligations out of order and repeated. */
const redelivery = (ids: readonly string[], c: Choice): string[] =>
  c.x % 4 === 0 && ids.length > 1 ? [...ids].reverse().concat(ids[1] ?? []) : [...ids];

/** A delivery attempt or an expiry of an obligation (the two share their choice of obligation and tick). */
const custody =
  (kind: "attempt" | "custody_expire"): Maker =>
  ({ mem, c, agent, A, tick, bad, regressed }) => {
    const o = pick(
      agent.obligations.filter((x) => bad || x.status === "pending"),
      c.y,
    );
    if (kind === "custody_expire" && o !== undefined && !bad) mem.tick = Math.max(mem.tick, o.deadline_tick);
    const t = regressed ? tick : Math.max(tick, kind === "custody_expire" ? mem.tick : tick);
    return kind === "attempt"
      ? {
          op: "custody.attempt",
          tick: t,
          agent: A,
          obligation_id: o?.obligation_id ?? "ghost",
          ack: (["declined", "deferred", "lost"] as const)[c.x % 3] ?? "lost",
        }
      : { op: "custody.expire", tick: t, agent: A, obligation_id: o?.obligation_id ?? "ghost" };
  };

export const CUSTODY_MAKERS = {
  attempt: custody("attempt"),
  custody_expire: custody("custody_expire"),
  merge: ({ mem, c, agent, A, tick, id, bad }) => {
    const pending = agent.obligations.filter((x) => x.status === "pending" && x.deadline_tick > tick);
    const applied = agent.obligations.filter((x) => x.outcome === "applied");
    // Nothing pending or merged yet: the lineage moves on instead (distil a withdrawn life, or
    // withdraw a living one), so that short runs (fast-check keeps most of them under 20 steps)
    // reach merges and retained distillates, not only NOT_FOUND.
    if (!bad && pending.length === 0 && applied.length === 0) {
      const w = pick(withdrawnUndistilled(agent), c.y);
      const life = w === undefined ? undefined : mem.lives.get(lifeKey(A, w.instance_id));
      if (w !== undefined && life !== undefined)
        return {
          op: "janma.distil",
          tick,
          agent: A,
          instance_id: w.instance_id,
          obligation_id: id("ob"),
          distillate: distillateFor(
            A,
            w,
            life.nonce,
            id,
            GUIDANCE[c.x % GUIDANCE.length] ?? "g",
            "operational",
            modelOf(life),
          ),
        };
      const living = pick(instancesIn(agent, ["ready", "active"]), c.y);
      if (living !== undefined)
        return { op: "janma.withdraw", tick, agent: A, instance_id: living.instance_id, reason: "principal" };
    }
    const redeliver = c.y % 3 === 0 && applied.length > 0; // duplicate delivery of merged lives (D-008)
    const ids = [
      ...(redeliver && c.x % 2 === 0
        ? []
        : pending
            .filter((_, k) => (c.x >> k) % 2 === 0 || k === 0)
            .slice(0, 4)
            .map((x) => x.obligation_id)),
      ...(redeliver
        ? redelivery(
            applied.slice(0, 2).map((x) => x.obligation_id),
            c,
          )
        : []),
      // G-23: a missing id listed with an obligation discharged unapplied, sorting before or after it.
      ...(bad && c.x % 2 === 1
        ? agent.obligations
            .filter((x) => x.status === "discharged" && x.outcome !== "applied")
            .slice(0, 1)
            .map((x) => x.obligation_id)
        : []),
      ...(bad ? [c.x % 2 === 1 ? "zz-ghost" : "ghost"] : []),
    ];
    return {
      op: "samskara.merge",
      tick,
      agent: A,
      obligation_ids: ids.length > 0 ? ids : [pick(agent.obligations, c.x)?.obligation_id ?? "ghost"],
    };
  },
  excise: ({ v, mem, c, agent, A, tick, bad }) => {
    // G-39: excision ids are numbered per agent (so two agents' ids collide), the target is now and
    // then another agent, and a reused id is sent with a non-custodian's authorisation.
    // The store profile's only other agent is its neighbour, so it names the neighbour outright.
    const others = mem.profile === "store" ? v.agents.filter((a) => a.identity.identity !== A) : v.agents;
    const target = c.y % 3 === 0 ? (pick(others, c.x) ?? agent) : agent;
    const rogue = bad || (c.bad >= 8 && target.store.excisions.length > 0);
    const reuse = rogue ? pick(target.store.excisions, c.y)?.excision_id : undefined;
    const ds = target.store.distillates
      .filter((_, k) => (c.x >> k) % 3 === 0)
      .slice(0, 3)
      .map((x) => x.distillate_id);
    const first = target.store.distillates[c.y % Math.max(1, target.store.distillates.length)]?.distillate_id;
    const list = ds.length > 0 ? ds : first !== undefined ? [first] : ["ghost"];
    return {
      op: "samskara.excise",
      tick,
      agent: target.identity.identity,
      excision_id: reuse ?? `xn${target.store.excisions.length + 1}`,
      distillate_ids: list,
      authorization: rogue ? ROGUE : AUTH,
    };
  },
  replay: ({ A, tick }) => ({ op: "samskara.replay", tick, agent: A }),
  project_write: ({ c, agent, A, tick }) => ({
    op: "advaita.project_write",
    tick,
    agent: A,
    instance_id: pick(agent.instances, c.y)?.instance_id ?? "ghost",
    disposition: { key: "k.a", guidance: "g", weight: 1, evidence_digest: EVIDENCE, category: "operational" },
  }),
} satisfies Partial<Record<OpKind, Maker>>;
