/**
 * What one run of the differential campaign is and sends: a generated case (a generator profile, the
 * operation kinds it disables, the choices), and the planned exchange the model makes of it, with the
 * abstract edge of each command (D-075). Apart from the stage so that the coverage guidance
 * (differential-guide.ts), which plans cases in the model before the stage sends any, and the
 * benchmark read it without the stage.
 */
import fc from "fast-check";
import { OP_KINDS, choiceArb, type Choice, type GenProfile } from "../../properties/generators/commands.ts";
import { modelSession } from "../oracle/model.ts";
import { abstractEdge, outcomeOf } from "../oracle/abstract-edges.ts";
import type { PlannedStep } from "../oracle/planned.ts";
import type { StageContext } from "./types.ts";

/** A world query after every CHECKPOINT-th command, and always at the end of a run. */
export const CHECKPOINT = 10;
export const MAX_STEPS = 120;

export interface RunCase {
  readonly profile: GenProfile;
  readonly disabled: readonly string[];
  readonly choices: readonly Choice[];
}

const DISABLABLE = OP_KINDS.filter((k) => k !== "mint");

/**
 * Runs are 1 to `maxSteps` choices long, spread over the whole range (`size: "max"`), and may
 * shrink down to a single command: a counterexample then shows only the commands it needs.
 */
export const runCaseArb = (maxSteps = MAX_STEPS): fc.Arbitrary<RunCase> =>
  fc.record({
    profile: fc.constantFrom<GenProfile>("mixed", "store"),
    disabled: fc.subarray(DISABLABLE, { minLength: 0, maxLength: Math.floor(DISABLABLE.length / 2) }),
    choices: fc.array(choiceArb, { minLength: 1, maxLength: maxSteps, size: "max" }),
  });

/** The planned exchange of one run: the model's commands with world checkpoints, ids t1, t2, … */
export const planRun = (c: RunCase, families: StageContext["families"]): PlannedStep[] =>
  planRunAndEdges(c, families).plan;

/** The planned exchange of one run, and the abstract edge of each of its commands (D-075, oracle/abstract-edges.ts). */
export const planRunAndEdges = (
  c: RunCase,
  families: StageContext["families"],
): { plan: PlannedStep[]; edges: string[] } => {
  const { steps, initial } = modelSession(c.choices, { families, profile: c.profile, disabled: new Set(c.disabled) });
  const edges = steps.map((s, i) =>
    abstractEdge(
      i === 0 ? initial : (steps[i - 1] as (typeof steps)[number]).worldAfter,
      s.command.op,
      outcomeOf(s.expected.ok, s.rejectedAt?.check),
    ),
  );
  const plan: PlannedStep[] = [];
  let n = 0;
  const id = (): string => `t${++n}`;
  const world = (w: unknown): PlannedStep => ({
    request: { type: "query", id: id(), query: { name: "world" } },
    expected: { ok: true, events: [], result: w as never },
  });
  steps.forEach((s, i) => {
    plan.push({
      request: { type: "command", id: id(), command: s.command },
      expected: s.expected,
      ...(s.rejectedAt === undefined ? {} : { rejectedAt: s.rejectedAt }),
    });
    if ((i + 1) % CHECKPOINT === 0 || i === steps.length - 1) plan.push(world(s.worldAfter));
  });
  if (steps.length === 0) plan.push(world(initial));
  return { plan, edges };
};
