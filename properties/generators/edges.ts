/**
 * Edge cases (`newMemory(…, { edges: true })`, GenMemory.edges): the invalid commands that plain
 * random sequences never reach, each valid in every respect but the one it names.
 */
import { DOMAIN, digestOf, type AgentView, type Command, type WorldView } from "../../spec/index.ts";
import { actAfterTheEnd } from "./acts.ts";
import { chaseStep } from "./chase.ts";
import { pick, type Choice } from "./choice.ts";
import { ENV } from "./manifests.ts";
import type { GenMemory } from "./memory.ts";
import { instancesIn } from "./views.ts";
import type { OpKind } from "./weights.ts";

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

/**
 * One edge case for `kind` (see GenMemory.edges), or null when the state offers none (then the
 * ordinary invalid command is made). Each is valid in every respect but the one it names, so that
 * it reaches the check it targets.
 */
export const edgeCase = (
  v: WorldView,
  agent: AgentView,
  mem: GenMemory,
  c: Choice,
  kind: OpKind,
  tick: number,
): { name: string; command: Command } | null => {
  const A = agent.identity.identity;
  const life = (id: string) => mem.lives.get(`${A}/${id}`);
  // A life still within its TTL at `tick`: an act of it is refused by its state alone (OP-2.3.c4),
  // not also by the TTL check that follows (OP-2.3.c6), which rejects with the same J-3.
  const withinTtl = (x: { instance_id: string; born_tick: number | null }, margin = 0) => {
    const ttl = life(x.instance_id)?.manifest.ttl_ticks;
    return x.born_tick !== null && ttl !== undefined && tick + margin < x.born_tick + ttl;
  };
  const dissolved = pick(instancesIn(agent, ["dissolved"]), c.x);
  const dissolvedLive = pick(
    instancesIn(agent, ["dissolved"]).filter((x) => withinTtl(x)),
    c.x,
  );
  // No dissolved instance yet: dissolve one whose obligation is discharged (a valid command, and
  // the only way to reach the edge cases on dissolved instances in sequences of this length).
  const prepare = () => {
    const done = new Set(agent.obligations.filter((o) => o.status === "discharged").map((o) => o.obligation_id));
    const ripe = agent.instances.find(
      (x) => x.state === "withdrawn" && x.obligation_id !== null && done.has(x.obligation_id),
    );
    return ripe === undefined
      ? null
      : {
          name: "dissolve.prepare",
          command: { op: "janma.dissolve", tick, agent: A, instance_id: ripe.instance_id } as Command,
        };
  };
  if (dissolved === undefined && (kind === "withdraw" || kind === "dissolve")) return prepare();
  switch (kind) {
    case "birth": {
      const i = pick(instancesIn(agent, ["conceived"]), c.y);
      if (i === undefined) return null;
      const full = ENV(false);
      const variant = c.x % 3;
      const environment =
        variant === 0
          ? { ...full, tools: full.tools.map((t) => (t.tool === "search" ? { ...t, tool: "search-v2" } : t)) }
          : variant === 1
            ? {
                ...full,
                tools: full.tools.map((t) => (t.tool === "search" ? { ...t, capabilities: ["fare.search"] } : t)),
              }
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
        const runner =
          dissolvedLive === undefined && agent.ripa.migration === null
            ? instancesIn(agent, ["ready", "active"]).find((x) => withinTtl(x, 4))
            : undefined;
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
      const other = agent.instances.find(
        (x) => x.instance_id !== i.instance_id && mem.lives.has(`${A}/${x.instance_id}`),
      );
      const otherLife = other === undefined ? undefined : life(other.instance_id);
      let identity: string = A;
      let nonce = l.nonce;
      let manifest_digest = i.manifest_digest;
      let action = {
        tool: "search",
        capability: "fare.search",
        outcome: "ok" as "ok" | "failed",
        tick,
        trace: ["edge case"],
      };
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
        manifest_digest =
          other.manifest_digest === i.manifest_digest
            ? (`sha256:${"ef".repeat(32)}` as typeof manifest_digest)
            : other.manifest_digest;
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
      return {
        name,
        command: {
          op: "janma.act",
          tick,
          agent: A,
          instance_id: i.instance_id,
          signed: { identity, nonce, manifest_digest, action, signature },
        },
      };
    }
    case "expire": {
      const i = pick(instancesIn(agent, ["conceived", "withdrawn", "dissolved"]), c.y);
      if (i === undefined) return null;
      // Far past any TTL, so that only the instance's state decides (OP-2.5: an accepted no-op).
      mem.tick += 40;
      return {
        name: "expire.not-live",
        command: { op: "janma.expire", tick: Math.max(tick, mem.tick), agent: A, instance_id: i.instance_id },
      };
    }
    case "withdraw":
      // Dissolving is a rare operation in the mix: withdraw's turn serves both edge cases.
      if (dissolved === undefined) return null;
      return c.y % 2 === 0
        ? {
            name: "withdraw.dissolved",
            command: { op: "janma.withdraw", tick, agent: A, instance_id: dissolved.instance_id, reason: "forced" },
          }
        : {
            name: "dissolve.dissolved",
            command: { op: "janma.dissolve", tick, agent: A, instance_id: dissolved.instance_id },
          };
    case "dissolve":
      return dissolved === undefined
        ? null
        : {
            name: "dissolve.dissolved",
            command: { op: "janma.dissolve", tick, agent: A, instance_id: dissolved.instance_id },
          };
    default:
      // The other kinds have no edge case: the ordinary invalid command is made.
      return null;
  }
};
