/**
 * Which generated mutants a run certifies, and in which order: a seeded permutation, the mutants
 * of impl/core/ops/ (the operations, where a changed comparison is a changed rule) before the rest,
 * so a sample of n is all operations code while n is below their number. A sample is a prefix of
 * the order; a shard takes every count-th position of the chosen list (D-038's arithmetic,
 * properties/generators/shard.ts), so the union of the n shards is the unsharded run.
 */
import fc from "fast-check";
import { ownsUnit } from "../../../properties/generators/shard.ts";
import type { GeneratedMutant } from "./source.ts";

export const OPS_FIRST = "impl/core/ops/";

/** The mutants that are run (the ignorer's informative texts are not), ops first, each part in a permutation seeded by `seed`. */
export const drawOrder = (mutants: readonly GeneratedMutant[], seed: number): GeneratedMutant[] => {
  const runnable = mutants.filter((m) => m.ignored === null);
  const shuffle = (xs: readonly GeneratedMutant[]): GeneratedMutant[] => {
    if (xs.length === 0) return [];
    const [perm] = fc.sample(fc.shuffledSubarray([...xs.keys()], { minLength: xs.length, maxLength: xs.length }), {
      seed,
      numRuns: 1,
    });
    return (perm ?? []).map((i) => xs[i] as GeneratedMutant);
  };
  return [
    ...shuffle(runnable.filter((m) => m.file.startsWith(OPS_FIRST))),
    ...shuffle(runnable.filter((m) => !m.file.startsWith(OPS_FIRST))),
  ];
};

/** Positions of `list` that shard `index` of `count` (0-based) owns. */
export const shardOf = <T>(list: readonly T[], shard: { readonly index: number; readonly count: number }): T[] =>
  list.filter((_, k) => ownsUnit(shard.index, shard.count, k));
