/**
 * What one step of the interpreter hands to whatever makes its command (a situation, a maker):
 * the view, the generator's memory, the choice, the chosen agent and the step's tick.
 */
import type { AgentView, Command, WorldView } from "../../spec/index.ts";
import type { Choice } from "./choice.ts";
import type { GenMemory } from "./memory.ts";

export interface Step {
  readonly v: WorldView;
  readonly mem: GenMemory;
  readonly c: Choice;
  readonly agent: AgentView;
  /** The chosen agent's identity. */
  readonly A: string;
  readonly tick: number;
  /** A fresh id with prefix `p` (numbered by the memory's `seq`). */
  readonly id: (p: string) => string;
}

/** A maker's step: also whether the command is meant to be invalid, and whether its tick regressed. */
export interface MakerStep extends Step {
  /** Invalid on purpose (about one step in eight). */
  readonly bad: boolean;
  /** The tick is one below the world's (TICK_REGRESSED, OP-0.2.c2). */
  readonly regressed: boolean;
}

/** Makes the command for one operation kind (makers.ts). Always returns a command (valid or not). */
export type Maker = (s: MakerStep) => Command;

/**
 * Makes a command for one rare situation (situations.ts), or undefined when the view does not
 * offer it (then another is tried, or the ordinary choice is made).
 */
export type Situation = (s: Step) => Command | undefined;
