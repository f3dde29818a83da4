/**
 * What the witness book's boundaries (properties/witness.ts) and comparison cells
 * (properties/comparisons.ts) read from one generated step: a command's member, whether a check
 * held or failed there, and a distillate's signal. One statement of each, for both.
 */
import type { StepContext } from "./witness.ts";

/** A member of the step's command, as sent (possibly malformed: the generator sends bad input too). */
export const field = (s: StepContext, k: string): unknown => (s.cmd as unknown as Record<string, unknown>)[k];
/** The check was evaluated and held. */
export const passedAt = (s: StepContext, id: string): boolean => s.passed.has(id);
/** The check was the one that rejected the command. */
export const failedAt = (s: StepContext, id: string): boolean => s.failedAt === id;

export interface SignalRead {
  readonly valence: number;
  readonly confidence: number;
  readonly model_version: string | null;
}
/** The signal of the step's distillate, if the command carries one. */
export const signalOf = (s: StepContext): SignalRead | undefined => (field(s, "distillate") as { signal?: SignalRead } | undefined)?.signal;
