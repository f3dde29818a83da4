/**
 * The chase (edges only, GenMemory.chase): a life led to its dissolution within its TTL, so that
 * an act after the end is refused by the state check alone (OP-2.3.c4).
 */
import type { Command, WorldView } from "../../spec/index.ts";
import { actAfterTheEnd } from "./acts.ts";
import { distillateFor, modelOf } from "./distillates.ts";
import type { GenMemory } from "./memory.ts";

/** CHASE_STEPS: withdraw, distil, decline, dissolve, act, and one refused step to spare. */
const CHASE_STEPS = 6;

/** The next command of a chase (GenMemory.chase), or null (and the chase dropped) when it cannot go on. */
export const chaseStep = (
  v: WorldView,
  mem: GenMemory,
  chase: NonNullable<GenMemory["chase"]>,
  tick: number,
  id: (p: string) => string,
): { name: string; command: Command } | null => {
  const agent = v.agents.find((a) => a.identity.identity === chase.agent);
  const inst = agent?.instances.find((x) => x.instance_id === chase.instance_id);
  const life = mem.lives.get(`${chase.agent}/${chase.instance_id}`);
  chase.steps += 1;
  const live =
    inst !== undefined &&
    life !== undefined &&
    inst.born_tick !== null &&
    tick < inst.born_tick + life.manifest.ttl_ticks;
  if (
    agent === undefined ||
    inst === undefined ||
    life === undefined ||
    !live ||
    agent.ripa.migration !== null ||
    chase.steps > CHASE_STEPS
  ) {
    mem.chase = null;
    return null;
  }
  const A = chase.agent;
  const instance_id = inst.instance_id;
  const obligation = agent.obligations.find((o) => o.obligation_id === inst.obligation_id);
  switch (inst.state) {
    case "ready":
    case "active":
      return {
        name: "chase.withdraw",
        command: { op: "janma.withdraw", tick, agent: A, instance_id, reason: "principal" },
      };
    case "withdrawn":
      if (obligation === undefined) {
        return {
          name: "chase.distil",
          command: {
            op: "janma.distil",
            tick,
            agent: A,
            instance_id,
            obligation_id: id("ob"),
            distillate: distillateFor(A, inst, life.nonce, id, "ask before booking", "operational", modelOf(life)),
          },
        };
      }
      return obligation.status === "pending"
        ? {
            name: "chase.decline",
            command: {
              op: "custody.attempt",
              tick,
              agent: A,
              obligation_id: obligation.obligation_id,
              ack: "declined",
            },
          }
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
