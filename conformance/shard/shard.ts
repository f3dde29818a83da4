/**
 * Deterministic shards of one certification campaign (D-038). Every stage's campaign is a list
 * of units — a golden session, a generated differential run, an algebra group or excision case,
 * a crash cut, a single-unit stage such as the handshake — and unit k of stage s belongs to
 * shard (k + offset(s)) mod n. The offset spreads single-unit stages over the shards. Every unit
 * is decided by the seed and its index alone (a differential run's seed is derived from the
 * campaign seed and k), so the union of the n shards is exactly the unsharded campaign with the
 * same seed, whatever machines ran them.
 */
import { STAGES, type StageName } from "../../spec/certificate.ts";
import { UsageError } from "../driver/command-line.ts";
import { ownsUnit, parseShardText, runSeed } from "../../properties/generators/shard.ts";

/** A shard, 0-based inside the runner; printed and written 1-based (`--shard 2/3`). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Shard = { index: 0, count: 1 };

export const MAX_SHARDS = 1024;

/** Parses `i/n` (1 ≤ i ≤ n ≤ 1024). */
export const parseShard = (text: string): Shard => {
  const s = parseShardText(text, MAX_SHARDS);
  if (s === null) throw new UsageError(`--shard "${text}": expected i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. 2/3`);
  return s;
};

export const showShard = (s: Shard): string => `${s.index + 1}/${s.count}`;

/** Does `shard` run unit `k` of `stage`? */
export const owns = (shard: Shard | undefined, stage: StageName, k: number): boolean =>
  shard === undefined || ownsUnit(shard.index, shard.count, k, STAGES.indexOf(stage));

/**
 * Does `shard` run any of the first `units` units of `stage`? Ownership repeats every `shard.count`
 * units, so looking at the first `min(units, count)` of them is enough (a campaign of a million runs
 * costs no more to gate than one of `count`).
 */
export const ownsAny = (shard: Shard | undefined, stage: StageName, units: number): boolean => {
  for (let k = 0; k < Math.min(units, shard?.count ?? 1); k++) if (owns(shard, stage, k)) return true;
  return false;
};

export { runSeed };
