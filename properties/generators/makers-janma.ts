/** The makers of Janma's commands: a life conceived, born, acting, withdrawn, expired, dissolved. */
import { DOMAIN, digestOf } from "../../spec/index.ts";
import { narrowAct } from "./acts.ts";
import { pick } from "./choice.ts";
import { ENV, manifestFor, offeredTools } from "./manifests.ts";
import { lifeKey } from "./memory.ts";
import type { Maker } from "./step.ts";
import { traceEntriesOf } from "./traces.ts";
import { EVIDENCE, WORDS } from "./values.ts";
import { instancesIn } from "./views.ts";
import type { OpKind } from "./weights.ts";

export const JANMA_MAKERS = {
  conceive: ({ mem, c, agent, A, tick, id, bad }) => {
    const pins = [...agent.store.chain.map((x) => x.version_id), ...agent.store.quarantined];
    const pin = bad
      ? EVIDENCE
      : ((c.y % 5 === 0 ? pick(agent.store.quarantined, c.x) : undefined) ??
        agent.store.head ??
        pick(pins, c.x) ??
        EVIDENCE);
    const instance_id = id("i");
    const nonce = bad && agent.instances.length > 0 ? (pick(agent.instances, c.y)?.nonce ?? id("n")) : id("n");
    const manifest = manifestFor(pin, c);
    mem.lives.set(lifeKey(A, instance_id), { manifest, nonce, trace: [] });
    return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
  },
  birth: ({ mem, c, agent, A, tick, id, bad }) => {
    const i = pick(instancesIn(agent, bad ? ["ready", "conceived"] : ["conceived"]), c.y);
    if (!bad && i === undefined) {
      // Nothing conceived: a life is conceived instead, so that short runs reach merges.
      const instance_id = id("i");
      const nonce = id("n");
      const manifest = manifestFor(agent.store.head, c);
      mem.lives.set(lifeKey(A, instance_id), { manifest, nonce, trace: [] });
      return { op: "janma.conceive", tick, agent: A, instance_id, nonce, manifest };
    }
    const env = ENV(bad && c.y % 2 === 0);
    return {
      op: "janma.birth",
      tick,
      agent: A,
      instance_id: i?.instance_id ?? "ghost",
      environment: env.tools.length === 0 ? env : { ...env, tools: offeredTools(c) },
    };
  },
  act: ({ mem, c, agent, A, tick, bad }) => {
    // A life holding a narrower wildcard lives only a few ticks: half its turns it acts outside it.
    const outside = c.y % 2 === 1 ? narrowAct(agent, mem, tick) : undefined;
    if (outside !== undefined) return outside;
    const i = pick(instancesIn(agent, bad ? ["ready", "active", "withdrawn", "conceived"] : ["ready", "active"]), c.y);
    const life = i === undefined ? undefined : mem.lives.get(lifeKey(A, i.instance_id));
    if (i === undefined || life === undefined) {
      const conceived = pick(instancesIn(agent, ["conceived"]), c.y);
      return {
        op: "janma.birth",
        tick,
        agent: A,
        instance_id: conceived?.instance_id ?? "ghost",
        environment: ENV(false),
      };
    }
    const words = [0, 1, 2, 3, 4].map((k) => WORDS[(c.x + k * c.y) % WORDS.length] ?? "x");
    const mails = life.manifest.capability_grants.includes("mail.send") && c.op % 4 === 1; // two tools used (G-28 tools_used order)
    const tool = (bad && c.y % 3 === 0) || mails ? "mail" : "search";
    const action = {
      tool,
      capability: tool === "mail" ? "mail.send" : c.x % 5 === 0 ? "fare.book" : "fare.search",
      outcome: c.x % 3 === 0 ? ("failed" as const) : ("ok" as const),
      tick,
      trace: traceEntriesOf(words, c),
    };
    const signature = digestOf(DOMAIN.action, {
      identity: A,
      nonce: life.nonce,
      manifest_digest: i.manifest_digest,
      action,
    });
    const signed = {
      identity: A,
      nonce: life.nonce,
      manifest_digest: i.manifest_digest,
      action,
      signature: bad && c.y % 3 === 1 ? EVIDENCE : signature,
    };
    mem.pendingAct = { agent: A, instance_id: i.instance_id, acts: i.acts, trace: action.trace };
    return { op: "janma.act", tick, agent: A, instance_id: i.instance_id, signed };
  },
  withdraw: ({ c, agent, A, tick, bad }) => {
    const i = pick(instancesIn(agent, bad ? ["conceived", "withdrawn"] : ["ready", "active"]), c.y);
    // Nothing living: a conceived life is born instead, as act does (short runs reach merges).
    const conceived = !bad && i === undefined ? pick(instancesIn(agent, ["conceived"]), c.y) : undefined;
    if (conceived !== undefined)
      return { op: "janma.birth", tick, agent: A, instance_id: conceived.instance_id, environment: ENV(false) };
    return {
      op: "janma.withdraw",
      tick,
      agent: A,
      instance_id: i?.instance_id ?? "ghost",
      reason: c.x % 2 === 0 ? "principal" : "forced",
    };
  },
  expire: ({ mem, c, agent, A, tick, regressed }) => {
    const i = pick(instancesIn(agent, ["ready", "active"]), c.y);
    if (c.x % 2 === 0) mem.tick += 10;
    return {
      op: "janma.expire",
      tick: regressed ? tick : Math.max(tick, mem.tick),
      agent: A,
      instance_id: i?.instance_id ?? "ghost",
    };
  },
  dissolve: ({ c, agent, A, tick }) => {
    const i = pick(instancesIn(agent, ["withdrawn"]), c.y);
    return { op: "janma.dissolve", tick, agent: A, instance_id: i?.instance_id ?? "ghost" };
  },
  acquire: ({ c, agent, A, tick }) => ({
    op: "janma.acquire",
    tick,
    agent: A,
    instance_id: pick(agent.instances, c.y)?.instance_id ?? "ghost",
    acquisition: { kind: "capability", capability: "mail.send" },
  }),
} satisfies Partial<Record<OpKind, Maker>>;
