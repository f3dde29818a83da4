/**
 * Replay a serialised command list from the initial world. Commands arrive as plain JSON (a
 * recorded run, a failing property's counterexample, a file), so each one goes through the
 * same schema check as any other input: a malformed entry is a MALFORMED rejection at its
 * step, not a crash, and the fold carries on with the world it had (OP-0.3).
 */
import { Result } from "effect";
import type { Event, RejectionData } from "../spec/index.ts";
import { toRejectionData } from "./rejection.ts";
import type { World } from "./state.ts";
import { initialWorld, transition } from "./world.ts";

/** What one step did: accepted with its events, or rejected with the wire rejection data. */
export type ReplayOutcome =
  | { readonly accepted: true; readonly events: readonly Event[] }
  | { readonly accepted: false; readonly rejection: RejectionData };

export interface Replayed {
  readonly world: World;
  /** `outcomes[i]` is the outcome of `commands[i]`. */
  readonly outcomes: readonly ReplayOutcome[];
}

/** Fold `transition` over `commands` from `initialWorld()`, or from `from` if given. */
export const replayCommands = (commands: readonly unknown[], from: World = initialWorld()): Replayed => {
  let world = from;
  const outcomes: ReplayOutcome[] = [];
  for (const command of commands) {
    const r = transition(world, command);
    if (Result.isSuccess(r)) {
      world = r.success.world;
      outcomes.push({ accepted: true, events: r.success.events });
    } else {
      outcomes.push({ accepted: false, rejection: toRejectionData(r.failure) });
    }
  }
  return { world, outcomes };
};
