/** What every operation handler receives, and the handler type. */
import type { CommandOf, CommandOp, Event } from "../../../spec/index.ts";
import type { Agent } from "../agent.ts";
import type { Instance } from "../instance.ts";
import type { Obligation } from "../obligation.ts";
import type { World } from "../world.ts";
import { refuse, violates } from "../rejection.ts";

/**
 * A handler runs its checks in order (throwing a Rejection at the first failure), then applies
 * its effects and returns the events. `agent` is the looked-up agent for commands naming one.
 */
export type Handler<Op extends CommandOp> = (world: World, cmd: CommandOf<Op>, agent: Agent) => Event[];
export type WorldHandler<Op extends CommandOp> = (world: World, cmd: CommandOf<Op>) => Event[];

/** OP-0.4 (I4): quiescence, checked right after the agent lookup for the listed operations. */
export const requireNotQuiesced = (agent: Agent, op: string): void => {
  if (agent.quiesced)
    violates("I4", `${op} refused: migration ${agent.migration?.migrationId} is in progress (quiesced)`);
};

/**
 * The instance a command names, fetched for update: its row is rewritten at the commit (instances
 * are mutated in place, see impl/core/tracked.ts). A rejection forgets the touch.
 */
export const instanceOf = (agent: Agent, instanceId: string): Instance =>
  agent.instances.touch(instanceId) ?? refuse("NOT_FOUND", `no instance ${instanceId}`, ["instance_id"]);

/** The obligation a command names, fetched for update (like instanceOf). */
export const obligationOf = (agent: Agent, obligationId: string): Obligation =>
  agent.obligations.touch(obligationId) ?? refuse("NOT_FOUND", `no obligation ${obligationId}`, ["obligation_id"]);

export const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
