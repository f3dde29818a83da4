import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { QUIESCED_OPS, quiescenceCheckOf } from "../../spec/checks.ts";
import { initialWorld, type World } from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { commandsAt } from "./commands.ts";
import { genCommands, lazyView } from "./makers-gen.ts";
import { loadScope, parseScope, partsOf, type Scope } from "./scope.ts";

const [, ripa, migration] = partsOf(loadScope("default")) as [Scope, Scope, Scope];
const scopeOf = (s: Scope, over: Partial<Scope>): Scope => parseScope({ ...s, parts: undefined, name: "gen", ...over });

const run = (w: World, cmds: readonly Command[]): World =>
  cmds.reduce((acc, c) => {
    const e = expect1(acc, c);
    if (!e.reply.ok) throw new Error(`${c.op} refused: ${e.rejectedAt?.check}`);
    return e.world;
  }, w);
const minted = (s: Scope): World =>
  run(
    initialWorld(),
    commandsAt(scopeOf(s, { makers: ["mint"] }), initialWorld()).map((t) => t.command),
  );

describe("generator-backed makers", () => {
  it("number the ids they draw fresh by the command's tick", () => {
    const w = minted(ripa);
    const [c] = genCommands(
      scopeOf(ripa, { choices: [{ x: 0, y: 0, bad: 5 }] }),
      "task_start",
      lazyView(w),
      w.tick + 1,
    );
    expect(c).toMatchObject({ op: "ripa.task_start", tick: w.tick + 1, task_id: `t${w.tick + 1}` });
    // A second task started a tick later has another id, so it is accepted (OP-6.2.c2 holds).
    const w1 = run(w, [c as Command]);
    const [c2] = genCommands(
      scopeOf(ripa, { choices: [{ x: 0, y: 0, bad: 5 }] }),
      "task_start",
      lazyView(w1),
      w1.tick + 1,
    );
    expect(expect1(w1, c2 as Command).reply.ok).toBe(true);
    // At the same tick the id repeats and the model refuses it as used.
    const [same] = genCommands(
      scopeOf(ripa, { choices: [{ x: 0, y: 0, bad: 5 }] }),
      "task_start",
      lazyView(w1),
      w1.tick,
    );
    expect(expect1(w1, same as Command).rejectedAt?.check).toBe("OP-6.2.c2");
  });
  it("try each distinct command once: choices making the same command are one", () => {
    const w = minted(ripa);
    const one = genCommands(scopeOf(ripa, { choices: [{ x: 0, y: 0, bad: 5 }] }), "identity_update", lazyView(w), 1);
    const twice = genCommands(
      scopeOf(ripa, {
        choices: [
          { x: 0, y: 0, bad: 5 },
          { x: 0, y: 0, bad: 6 },
        ],
      }),
      "identity_update",
      lazyView(w),
      1,
    );
    expect(twice).toEqual(one);
    // An invalid draw is another command: the rogue authorisation, refused at OP-6.8.c2.
    const both = genCommands(
      scopeOf(ripa, {
        choices: [
          { x: 0, y: 0, bad: 5 },
          { x: 0, y: 0, bad: 0 },
        ],
      }),
      "identity_update",
      lazyView(w),
      1,
    );
    expect(both.length).toBe(2);
    expect(both.map((c) => expect1(w, c).rejectedAt?.check ?? "accepted")).toEqual(["accepted", "OP-6.8.c2"]);
  });
  it("make nothing without an agent", () => {
    expect(genCommands(ripa, "evolve", lazyView(initialWorld()), 1)).toEqual([]);
  });
  it("migration situations apply only while a migration is in progress, and are refused", () => {
    const w = minted(migration);
    const s = scopeOf(migration, {});
    // No migration, never fenced: no situation applies.
    expect(genCommands(s, "migration_situation", lazyView(w), w.tick + 1)).toEqual([]);
    const [fence] = genCommands(
      scopeOf(migration, { choices: [{ x: 0, y: 0, bad: 5 }] }),
      "migrate",
      lazyView(w),
      w.tick + 1,
    );
    expect(fence?.op).toBe("ripa.migration_fence");
    const fenced = run(w, [fence as Command]);
    const made = genCommands(s, "migration_situation", lazyView(fenced), fenced.tick + 1);
    expect(made.length).toBeGreaterThan(0);
    for (const c of made) expect(expect1(fenced, c).reply.ok, c.op).toBe(false);
    expect(made.map((c) => expect1(fenced, c).rejectedAt?.check)).toContain("OP-7.c1");
  });
});

describe("quiesced maker", () => {
  it("while a migration is in progress, refuses one command of every quiesced operation at its quiescence check", () => {
    const w = minted(migration);
    const s = scopeOf(migration, { makers: ["quiesced"] });
    expect(commandsAt(s, w)).toEqual([]);
    const [fence] = genCommands(
      scopeOf(migration, { choices: [{ x: 0, y: 0, bad: 5 }] }),
      "migrate",
      lazyView(w),
      w.tick + 1,
    );
    const fenced = run(w, [fence as Command]);
    const tried = commandsAt(s, fenced).map((t) => t.command);
    expect(tried.map((c) => c.op)).toEqual([...QUIESCED_OPS]);
    for (const c of tried) expect(expect1(fenced, c).rejectedAt?.check, c.op).toBe(quiescenceCheckOf(c.op).id);
    // The same commands in the minted world pass quiescence (each fails later, or is accepted).
    for (const c of tried)
      expect(expect1(w, { ...c, tick: w.tick + 1 } as Command).rejectedAt?.check, c.op).not.toBe(
        quiescenceCheckOf(c.op).id,
      );
  });
});
