/**
 * Coverage guidance (D-075): the schedule is the campaign's own cases (a candidate is the case the
 * campaign's fc.check draws for its seed), one candidate is the unguided schedule itself, each run
 * keeps a candidate with the largest gain of reachable edges, and the figures it reports are the
 * edges its chosen cases make, recomputed here from the seeds alone.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Family } from "../oracle/families.ts";
import { runSeed } from "../shard/shard.ts";
import { CANDIDATES, candidateSeed, caseOfSeed, guidedSchedule } from "./differential-guide.ts";
import { planRunAndEdges, runCaseArb, type RunCase } from "./differential-plan.ts";
import { coverOf } from "./scope-cover.ts";

const ALL: readonly Family[] = ["janma", "samskara", "advaita", "ripa"];
const reachable = coverOf("quick", ALL).abstractEdges;
const RUNS = 40;

const edgesOfSeed = (seed: number): string[] => planRunAndEdges(caseOfSeed(seed), ALL).edges;

describe("coverage guidance (D-075)", () => {
  it("a candidate is the case the campaign draws for its seed", async () => {
    for (let k = 0; k < 8; k++) {
      const seed = runSeed(3, k);
      let drawn: RunCase | null = null;
      await fc.check(
        fc.asyncProperty(runCaseArb(), async (c) => {
          drawn = c;
          return true;
        }),
        { numRuns: 1, seed, endOnFailure: true },
      );
      expect(caseOfSeed(seed)).toEqual(drawn);
    }
    expect(candidateSeed(3, 5, 0)).toBe(runSeed(3, 5));
    expect(new Set(Array.from({ length: CANDIDATES }, (_, j) => candidateSeed(3, 5, j))).size).toBe(CANDIDATES);
  });

  it("with one candidate the schedule is the unguided one", () => {
    const g = guidedSchedule({ seed: 3, runs: RUNS, families: ALL, reachable, candidates: 1 });
    expect(g.seeds).toEqual(Array.from({ length: RUNS }, (_, k) => runSeed(3, k)));
    expect(g.steered).toBe(0);
    expect([...g.guided].sort()).toEqual([...g.unguided].sort());
  });

  it("each run keeps a candidate with the largest gain, and the figures are what the chosen and the unguided cases make", () => {
    const g = guidedSchedule({ seed: 3, runs: RUNS, families: ALL, reachable });
    const seen = new Set<string>();
    let steered = 0;
    for (let k = 0; k < RUNS; k++) {
      const gain = (seed: number) => new Set(edgesOfSeed(seed).filter((e) => !seen.has(e) && reachable.has(e))).size;
      const gains = Array.from({ length: CANDIDATES }, (_, j) => gain(candidateSeed(3, k, j)));
      const chosen = g.seeds[k] as number;
      expect(gain(chosen), `run ${k}`).toBe(Math.max(...gains));
      if (chosen !== runSeed(3, k)) steered++;
      for (const e of edgesOfSeed(chosen)) seen.add(e);
    }
    expect(g.steered).toBe(steered);
    expect([...g.guided].sort()).toEqual([...seen].filter((e) => reachable.has(e)).sort());
    const unguided = new Set(
      Array.from({ length: RUNS }, (_, k) => edgesOfSeed(runSeed(3, k)))
        .flat()
        .filter((e) => reachable.has(e)),
    );
    expect([...g.unguided].sort()).toEqual([...unguided].sort());
    // What guidance is for: more of the reachable behaviour for the same number of runs.
    expect(g.guided.size).toBeGreaterThan(g.unguided.size);
  });

  it("depends only on the seed, the runs, the profile and the scope: every shard computes the same schedule", () => {
    const a = guidedSchedule({ seed: 9, runs: 12, families: ALL, reachable });
    const b = guidedSchedule({ seed: 9, runs: 12, families: ALL, reachable });
    expect(b.seeds).toEqual(a.seeds);
    expect(guidedSchedule({ seed: 10, runs: 12, families: ALL, reachable }).seeds).not.toEqual(a.seeds);
  });
});
