/**
 * The shape every operation handler shares: given the world and the (already looked-up) agent,
 * either a rejection or the next world plus the events, in the order OPERATIONS.md lists them.
 * The world tick is set by `transition`, not by handlers (OP-0.3).
 */
import type { CommandOf, CommandOp, Event } from "../spec/index.ts";
import { mapSet, type Agent, type World } from "./state.ts";
import { ok, type Outcome } from "./rejection.ts";

export interface Stepped {
  readonly world: World;
  readonly events: readonly Event[];
}

export type Handler<Op extends CommandOp> = (world: World, agent: Agent, cmd: CommandOf<Op>) => Outcome<Stepped>;

/** Replace one agent (keyed by identity) and report the events. */
export const withAgent = (world: World, agent: Agent, events: readonly Event[]): Outcome<Stepped> =>
  ok({ world: { ...world, agents: mapSet(world.agents, agent.identity.identity, agent) }, events });

/** OP-0.5 (D-022): an authorisation is valid iff its custodian is one of the agent's. */
export const authorised = (agent: Agent, auth: { readonly custodian: string }): boolean =>
  agent.ripa.custodians.includes(auth.custodian);
