/**
 * Random command sequences against the model: after every step all 19 predicates hold (J-1 ..
 * I6), every accepted step keeps the step clauses (D-076), and every rejected step leaves the
 * world unchanged (same view, same tick).
 * Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run properties/model.property.test.ts
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import { INVARIANT_IDS, WorldView } from "../spec/index.ts";
import { initialWorld, transition, view } from "../model/index.ts";
import { checkAt, type HistoryStep } from "../model/predicates.ts";
import { stepViolations } from "../model/step-clauses.ts";
import { choicesArb, materialize, newMemory } from "./generators/commands.ts";
import { commandsRenderer } from "./generators/render.ts";
import { assertReplayable } from "./generators/replay.ts";

const FILE = "properties/model.property.test.ts";

interface RunStats {
  accepted: number;
  rejected: number;
  ops: Set<string>;
  events: Set<string>;
}

const runSequence = (choices: readonly Parameters<typeof materialize>[2][], stats?: RunStats): void => {
  const mem = newMemory();
  let w = initialWorld();
  const history: HistoryStep[] = [];
  const w0 = w;
  for (const choice of choices) {
    const before = view(w);
    const cmd = materialize(before, mem, choice);
    const r = transition(w, cmd);
    if (Result.isSuccess(r)) {
      history.push({ prev: w, next: r.success.world, command: cmd, events: r.success.events, accepted: true });
      w = r.success.world;
      if (stats !== undefined) {
        stats.accepted++;
        stats.ops.add(cmd.op);
        r.success.events.forEach((e) => stats.events.add(e.type));
      }
    } else {
      // OP-0.3: a rejection leaves the world unchanged, tick included.
      expect(view(w)).toEqual(before);
      expect(r.failure.invariant === null || INVARIANT_IDS.includes(r.failure.invariant)).toBe(true);
      history.push({ prev: w, next: w, command: cmd, events: [], accepted: false });
      if (stats !== undefined) stats.rejected++;
    }
    for (const id of INVARIANT_IDS) {
      const v = checkAt(id, history, w0);
      if (v !== true) throw new Error(`${id} violated after ${cmd.op} (step ${history.length}): ${v.violation}`);
    }
    const broken = stepViolations(history[history.length - 1] as HistoryStep)[0];
    if (broken !== undefined)
      throw new Error(
        `${broken.invariant} step clause broken by ${cmd.op} (step ${history.length}): ${broken.violation}`,
      );
  }
  expect(WorldView.safeParse(view(w)).success).toBe(true);
};

describe("all 19 invariants (J-1 .. I6) hold after every step of random command sequences", () => {
  it("J-1 J-2 J-3 J-4 S-1 S-2 S-3 S-4 S-5 AD-1 AD-2 AD-3 AD-4 I1 I2 I3 I4 I5 I6 predicates and unchanged-on-rejection", () => {
    assertReplayable(
      FILE,
      fc.property(choicesArb(5, 60), (cs) => runSequence(cs)),
      2500,
      commandsRenderer("mixed"),
    );
  });
  it("the generator reaches deep states: merges, excisions, quarantine, completed migrations", () => {
    const stats: RunStats = { accepted: 0, rejected: 0, ops: new Set(), events: new Set() };
    fc.assert(
      fc.property(choicesArb(60, 120), (cs) => runSequence(cs, stats)),
      { numRuns: 30, seed: 42 },
    );
    for (const e of [
      "store.merged",
      "store.merge_noop",
      "store.excised",
      "version.quarantined",
      "migration.resumed",
      "migration.cancelled",
      "lineage.replayed",
      "instance.dissolved",
      "agent.descended",
      "effect.performed",
      "reply.accepted",
    ])
      expect(stats.events.has(e), e).toBe(true);
    expect(stats.accepted).toBeGreaterThan(stats.rejected);
  });
});
