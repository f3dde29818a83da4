/**
 * Differential testing: the reference model and the independently written implementation must
 * agree on every step of random command sequences — the same outcome (accepted with the same
 * events, or rejected with the same error code and invariant) and the same world view afterwards.
 * This is what makes the model an oracle for J-1 .. I6 rather than a second opinion.
 *
 * Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run properties/differential.property.test.ts
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import type { Command } from "../spec/index.ts";
import { initialWorld, toRejectionData, transition, view } from "../model/index.ts";
import { openImplementation } from "../impl/api.ts";
import { choicesArb, materialize, newMemory, type Choice } from "./generators/commands.ts";
import { assertReplayable } from "./generators/replay.ts";

const FILE = "properties/differential.property.test.ts";

/** The first difference between two JSON values, as a path and both sides, for a readable failure. */
const firstDifference = (a: unknown, b: unknown, path = "$"): string | null => {
  if (Object.is(a, b)) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    return `${path}: model ${JSON.stringify(a)} vs impl ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  for (const k of new Set([...ka, ...kb])) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d !== null) return d;
  }
  return null;
};

interface Stats { steps: number; agreedRejections: number; ops: Set<string> }

const runBoth = (choices: readonly Choice[], stats?: Stats): void => {
  const impl = openImplementation({});
  try {
    const mem = newMemory();
    let world = initialWorld();
    const trail: string[] = [];
    for (const choice of choices) {
      const cmd: Command = materialize(view(world), mem, choice);
      trail.push(cmd.op);
      const where = () => `step ${trail.length} (${trail.slice(-6).join(" -> ")}): ${JSON.stringify(cmd).slice(0, 400)}`;
      const m = transition(world, cmd);
      const i = impl.apply(cmd);
      if (Result.isSuccess(m)) {
        if (!i.ok) throw new Error(`model accepted, impl rejected with ${i.error.code} (${i.error.message}) at ${where()}`);
        const d = firstDifference(m.success.events, i.events, "$events");
        if (d !== null) throw new Error(`events differ at ${where()}: ${d}`);
        world = m.success.world;
      } else {
        const r = toRejectionData(m.failure);
        if (i.ok) throw new Error(`model rejected with ${r.code} (${r.message}), impl accepted at ${where()}`);
        if (i.error.code !== r.code || (i.error.invariant ?? null) !== r.invariant) {
          throw new Error(`rejection differs at ${where()}: model ${r.code}/${r.invariant} (${r.message}) vs impl ${i.error.code}/${i.error.invariant} (${i.error.message})`);
        }
        if (stats !== undefined) stats.agreedRejections++;
      }
      const d = firstDifference(view(world), impl.world(), "$world");
      if (d !== null) throw new Error(`world views differ after ${where()}: ${d}`);
      if (stats !== undefined) {
        stats.steps++;
        stats.ops.add(cmd.op);
      }
    }
  } finally {
    impl.close();
  }
};

describe("model and implementation agree step by step (differential, all 19 invariants)", () => {
  it("same outcomes, same error codes, same events, same world views on random sequences", () => {
    assertReplayable(FILE, fc.property(choicesArb(60, 200), (cs) => runBoth(cs)), 150);
  });

  it("the comparison covers every operation and many agreed rejections", () => {
    const stats: Stats = { steps: 0, agreedRejections: 0, ops: new Set() };
    fc.assert(fc.property(choicesArb(80, 140), (cs) => runBoth(cs, stats)), { numRuns: 25, seed: 7 });
    expect(stats.agreedRejections).toBeGreaterThan(50);
    expect(stats.ops.size).toBeGreaterThan(25);
  });

  it("detects a disagreement (the comparison can fail)", () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe("$.a.1.b: model 2 vs impl 3");
    expect(firstDifference({ a: 1 }, { a: 1, b: null })).toBe("$.b: model undefined vs impl null");
  });
});
