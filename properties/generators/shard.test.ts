/** Shards of a long fuzz campaign (D-038): the n shards run exactly the runs of the whole campaign, once each. */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { fuzzShard, shardRunSeeds } from "./replay.ts";
import { ownsUnit, parseShardText, runSeed } from "./shard.ts";

afterEach(() => {
  delete process.env["FUZZ_SHARD"];
});

describe("fuzz campaign shards", () => {
  it("the union of n shards is the whole campaign, each run exactly once", () => {
    for (const n of [1, 2, 3, 7]) {
      const whole = shardRunSeeds(9, 100, { index: 0, count: 1 });
      const parts = Array.from({ length: n }, (_, i) => shardRunSeeds(9, 100, { index: i, count: n }));
      expect(parts.flat().sort((a, b) => a - b)).toEqual([...whole].sort((a, b) => a - b));
      expect(new Set(parts.flat()).size).toBe(100);
    }
  });

  it("ownership and seeds are pure functions of the indices", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.integer({ min: 1, max: 16 }),
        (k, n) => Array.from({ length: n }, (_, i) => i).filter((i) => ownsUnit(i, n, k)).length === 1,
      ),
    );
    expect(runSeed(3, 4)).toBe(runSeed(3, 4));
  });

  it("FUZZ_SHARD is parsed, and refused by name when malformed", () => {
    process.env["FUZZ_SHARD"] = "2/3";
    expect(fuzzShard()).toEqual({ index: 1, count: 3 });
    process.env["FUZZ_SHARD"] = "4/3";
    expect(() => fuzzShard()).toThrow(/FUZZ_SHARD="4\/3"/);
    expect(parseShardText("0/2")).toBeNull();
  });
});
