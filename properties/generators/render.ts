/**
 * Shows a shrunk command-sequence counterexample as the commands actually sent, not as the
 * generator's `Choice` records (which mean nothing without the interpreter). The choices are
 * materialized against the model exactly as the properties do (`compareRun`, the model
 * property): a fresh generator memory of the same profile, each command applied to the model to
 * get the next view. One numbered line per command: `#<step> <model verdict> <command JSON>`.
 */
import { Result } from "effect";
import { initialWorld, toRejectionData, transition, view } from "../../model/index.ts";
import { materialize, newMemory, type Choice, type GenProfile } from "./commands.ts";

/**
 * The step a failure names (`at step 12`, `after step 12`, `(step 12)`), if any: compareRun and
 * the model property both say where they failed, and nothing after that step matters.
 */
export const failingStep = (error: unknown): number | undefined => {
  const m = /\bstep (\d+)\b/.exec(error instanceof Error ? error.message : String(error));
  return m?.[1] === undefined ? undefined : Number.parseInt(m[1], 10);
};

/** Materialize `choices` against the model; one line per command, up to step `upTo` when given. */
export const renderCommands = (choices: readonly Choice[], profile: GenProfile = "mixed", upTo?: number): string => {
  const mem = newMemory(profile);
  let world = initialWorld();
  const last = Math.min(choices.length, upTo ?? choices.length);
  const lines: string[] = [];
  for (const [k, choice] of choices.slice(0, last).entries()) {
    const cmd = materialize(view(world), mem, choice);
    const r = transition(world, cmd);
    // The model's verdict is shown so a reader sees which steps changed the world.
    const verdict = Result.isSuccess(r) ? "ok" : `rejected ${toRejectionData(r.failure).code}`;
    if (Result.isSuccess(r)) world = r.success.world;
    lines.push(`#${k + 1} ${verdict} ${JSON.stringify(cmd)}`);
  }
  if (last < choices.length) lines.push(`(${choices.length - last} further command(s) after step ${last} not shown)`);
  return lines.join("\n");
};

/**
 * A renderer for `assertReplayable` on properties over `fc.property(choicesArb(..), ...)`:
 * the commands up to the step the error names (all of them when it names none).
 */
export const commandsRenderer =
  (profile: GenProfile = "mixed") =>
  ([choices]: readonly [readonly Choice[]], error: unknown): string =>
    `Commands sent (model verdict, command JSON; profile ${profile}):\n${renderCommands(choices, profile, failingStep(error))}`;
