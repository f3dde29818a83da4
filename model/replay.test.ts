/**
 * Replaying a recorded, serialised command list reproduces the run: the same outcome at every
 * step and the same world, compared through its canonical encoding.
 * Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run model/replay.test.ts
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import type { Command } from "../spec/index.ts";
import { toRejectionData } from "./rejection.ts";
import { replayCommands, type ReplayOutcome } from "./replay.ts";
import { encodeWorld } from "./state-schema.ts";
import type { World } from "./state.ts";
import { view } from "./view.ts";
import { initialWorld, transition } from "./world.ts";
import { mintCmd } from "./testkit.ts";
import { choicesArb, materialize, newMemory, type Choice } from "../properties/generators/commands.ts";
import { assertReplayable } from "../properties/generators/replay.ts";

const FILE = "model/replay.test.ts";

/** The original run: generate each command against the current view and record what happened. */
const record = (choices: readonly Choice[]) => {
  const mem = newMemory();
  let world: World = initialWorld();
  const commands: Command[] = [];
  const outcomes: ReplayOutcome[] = [];
  for (const c of choices) {
    const cmd = materialize(view(world), mem, c);
    commands.push(cmd);
    const r = transition(world, cmd);
    if (Result.isSuccess(r)) {
      world = r.success.world;
      outcomes.push({ accepted: true, events: r.success.events });
    } else {
      outcomes.push({ accepted: false, rejection: toRejectionData(r.failure) });
    }
  }
  return { world, commands, outcomes };
};

const canonical = (w: World): string => JSON.stringify(encodeWorld(w));

describe("replayCommands", () => {
  it("a recorded run, serialised to JSON text and replayed, gives the same outcomes and the same world", () => {
    const property = fc.property(choicesArb(5, 60), (choices) => {
      const original = record(choices);
      const tape: unknown = JSON.parse(JSON.stringify(original.commands));
      const replayed = replayCommands(tape as readonly unknown[]);
      expect(replayed.outcomes).toEqual(original.outcomes);
      expect(canonical(replayed.world)).toBe(canonical(original.world));
    });
    assertReplayable(FILE, property, 150);
  });

  it("a malformed entry is a MALFORMED rejection at its step; the fold carries on with the world it had", () => {
    const { world, outcomes } = replayCommands([
      mintCmd(1, "root-a"),
      { op: "janma.act", tick: "soon" },
      mintCmd(2, "root-b"),
    ]);
    expect(outcomes.map((o) => o.accepted)).toEqual([true, false, true]);
    const bad = outcomes[1];
    expect(bad?.accepted === false ? bad.rejection.code : undefined).toBe("MALFORMED");
    expect(world.tick).toBe(2);
    expect(world.roots_used).toEqual(["root-a", "root-b"]);
  });

  it("replays from a given world, e.g. one decoded from storage", () => {
    const first = replayCommands([mintCmd(1, "root-a")]);
    const rest = replayCommands([mintCmd(1, "root-a"), mintCmd(2, "root-b")], first.world);
    // The second mint of root-a is refused as a duplicate: the fold started from `first.world`.
    expect(rest.outcomes.map((o) => o.accepted)).toEqual([false, true]);
    expect(canonical(rest.world)).toBe(canonical(replayCommands([mintCmd(1, "root-a"), mintCmd(2, "root-b")]).world));
  });
});
