/**
 * Coverage guidance for the differential campaign (issue 27 item 4, D-075): the runner owns the
 * model, so it can see, before sending anything, which abstract edges (oracle/abstract-edges.ts)
 * a generated run would make. For each run k it draws CANDIDATES cases — the unguided one (run k's
 * own seed, as without guidance) and CANDIDATES − 1 others from seeds derived from it — plans each
 * in the model and keeps the one that adds the most edges of the scope's reachable set not yet made
 * by the runs before it (ties: the most new edges of any kind, then the earlier candidate).
 *
 * The schedule is computed from the model alone, over every run of the campaign in order, so run k
 * is the same case whichever shard runs it (D-038) and whatever the implementation replies: the
 * "covered so far" it steers by is what the runs would make if the implementation agreed. The same
 * pass gives the unguided schedule's coverage, so a certificate can report both figures.
 */
import fc from "fast-check";
import { runSeed } from "../shard/shard.ts";
import type { Family } from "../oracle/families.ts";
import { planRunAndEdges, runCaseArb, type RunCase } from "./differential-plan.ts";

/** Candidates drawn per run (the unguided one among them). */
export const CANDIDATES = 4;

/** The case fast-check draws first for `seed`, as the campaign's fc.check(numRuns: 1, seed) does. */
export const caseOfSeed = (seed: number): RunCase => {
  let drawn: RunCase | null = null;
  fc.assert(
    fc.property(runCaseArb(), (c) => {
      drawn = c;
      return true;
    }),
    { numRuns: 1, seed },
  );
  if (drawn === null) throw new Error("runner bug: fast-check drew no case");
  return drawn;
};

/** The seed of candidate j of run k: j = 0 is the run's own (unguided) seed. */
export const candidateSeed = (seed: number, k: number, j: number): number =>
  j === 0 ? runSeed(seed, k) : runSeed(runSeed(seed, k), j);

export interface GuidedSchedule {
  /** The seed of each run's chosen case, by run index. */
  readonly seeds: readonly number[];
  /** The reachable edges the unguided schedule (every run's own seed) would make. */
  readonly unguided: ReadonlySet<string>;
  /** The reachable edges the guided schedule would make. */
  readonly guided: ReadonlySet<string>;
  /** Runs whose chosen case is not the unguided one. */
  readonly steered: number;
}

/** The guided schedule of a campaign of `runs` runs (model only; deterministic). */
export const guidedSchedule = (o: {
  readonly seed: number;
  readonly runs: number;
  readonly families: readonly Family[];
  readonly reachable: ReadonlySet<string>;
  readonly candidates?: number;
}): GuidedSchedule => {
  const candidates = o.candidates ?? CANDIDATES;
  const seeds: number[] = [];
  const unguided = new Set<string>();
  const guided = new Set<string>();
  const seen = new Set<string>();
  let steered = 0;
  for (let k = 0; k < o.runs; k++) {
    let best: { j: number; seed: number; edges: readonly string[]; gain: number; fresh: number } | null = null;
    for (let j = 0; j < candidates; j++) {
      const seed = candidateSeed(o.seed, k, j);
      const { edges } = planRunAndEdges(caseOfSeed(seed), o.families);
      if (j === 0) for (const e of edges) if (o.reachable.has(e)) unguided.add(e);
      const news = new Set(edges.filter((e) => !seen.has(e)));
      const gain = [...news].filter((e) => o.reachable.has(e)).length;
      if (best === null || gain > best.gain || (gain === best.gain && news.size > best.fresh))
        best = { j, seed, edges, gain, fresh: news.size };
    }
    if (best === null) throw new Error("runner bug: no candidate");
    if (best.j !== 0) steered++;
    seeds.push(best.seed);
    for (const e of best.edges) {
      seen.add(e);
      if (o.reachable.has(e)) guided.add(e);
    }
  }
  return { seeds, unguided, guided, steered };
};
