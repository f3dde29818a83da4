/**
 * The reference model as the runner's oracle: what the normative reply to a command must be, and
 * generated sessions (commands with their expected replies and the model's world after each) for
 * the families of a profile. Generation reads only the model's `WorldView` (generate from the
 * model's state, compare the implementation against it), so the same choices give the same
 * commands whatever implementation is under test.
 */
import fc from "fast-check";
import { Result } from "effect";
import type { Command, WorldView } from "../../spec/index.ts";
import { initialWorld, toRejectionData, transition, view, type World } from "../../model/index.ts";
import {
  choicesArb,
  materialize,
  newMemory,
  type Choice,
  type GenProfile,
} from "../../properties/generators/commands.ts";
import { rejectedAt, type ExpectedReply, type RejectedAt } from "../core/reply.ts";
import { opAllowed, type Family } from "./families.ts";

export interface Expected {
  readonly world: World;
  readonly reply: ExpectedReply;
  /** On a rejection: the check (and rule) it failed at, for attribution (D-035 rule 1). */
  readonly rejectedAt?: RejectedAt;
}

/** The model's normative reply to `command` in `world`, and the world after it. */
export const expect1 = (world: World, command: Command): Expected => {
  const r = transition(world, command);
  if (Result.isSuccess(r)) return { world: r.success.world, reply: { ok: true, events: r.success.events } };
  const d = toRejectionData(r.failure);
  return {
    world,
    reply: { ok: false, error: { code: d.code, invariant: d.invariant, definite: true } },
    rejectedAt: rejectedAt(r.failure),
  };
};

export interface ModelStep {
  readonly command: Command;
  readonly expected: ExpectedReply;
  readonly rejectedAt?: RejectedAt;
  /** The model's world view after the step (equal to the one before when rejected). */
  readonly worldAfter: WorldView;
}

export interface SessionOptions {
  readonly families: readonly Family[];
  readonly profile?: GenProfile;
  readonly disabled?: ReadonlySet<string>;
}

/**
 * Interprets choices against the model. Commands of families outside the profile are skipped
 * (never sent, never applied), so the session is exactly what the implementation should see.
 */
export const modelSession = (
  choices: readonly Choice[],
  options: SessionOptions,
): { steps: ModelStep[]; initial: WorldView } => {
  const mem = newMemory(options.profile ?? "mixed", options.disabled);
  let world = initialWorld();
  const initial = view(world);
  const steps: ModelStep[] = [];
  for (const choice of choices) {
    const command = materialize(view(world), mem, choice);
    if (!opAllowed(command.op, options.families)) continue;
    const e = expect1(world, command);
    world = e.world;
    steps.push({
      command,
      expected: e.reply,
      ...(e.rejectedAt === undefined ? {} : { rejectedAt: e.rejectedAt }),
      worldAfter: view(world),
    });
  }
  return { steps, initial };
};

/** A deterministic session from a seed: `length` choices sampled by fast-check. */
export const seededSession = (seed: number, length: number, options: SessionOptions): ModelStep[] => {
  const [choices] = fc.sample(choicesArb(length, length), { seed, numRuns: 1 });
  if (choices === undefined) throw new Error("fast-check produced no sample");
  return modelSession(choices, options).steps;
};
