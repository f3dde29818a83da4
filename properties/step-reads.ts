/**
 * What the witness book's boundaries (properties/witness.ts) and comparison cells
 * (properties/comparisons.ts) read from one generated step: a command's member, whether a check
 * held or failed there, and a distillate's signal. One statement of each, for both.
 */
import type {
  AgentView,
  Command,
  DistillationObligation as ObligationView,
  Event,
  InstanceView,
  JanmaManifest,
  WorldView,
} from "../spec/index.ts";

export type StepOutcome =
  | { readonly ok: true; readonly events: readonly Event[] }
  | { readonly ok: false; readonly check: string; readonly code: string };

/** What a boundary predicate sees: the step, and what the book remembers of earlier steps. */
export interface StepContext {
  readonly pre: WorldView;
  readonly cmd: Command;
  readonly outcome: StepOutcome;
  /** The checks this command got past (in order), and the one that rejected it, if any. */
  readonly passed: ReadonlySet<string>;
  readonly failedAt: string | null;
  readonly agent: AgentView | undefined;
  readonly instance: InstanceView | undefined;
  readonly obligation: ObligationView | undefined;
  /** The manifest the instance was conceived with, and its trace entries so far. */
  readonly manifest: JanmaManifest | undefined;
  readonly trace: readonly string[];
}

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
export const signalOf = (s: StepContext): SignalRead | undefined =>
  (field(s, "distillate") as { signal?: SignalRead } | undefined)?.signal;
