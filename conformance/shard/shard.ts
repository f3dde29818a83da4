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

/** A shard, 0-based inside the runner; printed and written 1-based (`--shard 2/3`). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Shard = { index: 0, count: 1 };

export const MAX_SHARDS = 1024;

/** Parses `i/n` (1 ≤ i ≤ n ≤ 1024). */
export const parseShard = (text: string): Shard => {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const i = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (m === null || !Number.isSafeInteger(i) || !Number.isSafeInteger(n) || n < 1 || n > MAX_SHARDS || i < 1 || i > n) {
    throw new UsageError(`--shard "${text}": expected i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. 2/3`);
  }
  return { index: i - 1, count: n };
};

export const showShard = (s: Shard): string => `${s.index + 1}/${s.count}`;

/** Does `shard` run unit `k` of `stage`? */
export const owns = (shard: Shard | undefined, stage: StageName, k: number): boolean => {
  if (shard === undefined || shard.count === 1) return true;
  return (k + STAGES.indexOf(stage)) % shard.count === shard.index;
};

/**
 * The seed of generated run k of a campaign seeded `seed` (a 32-bit mix, so neighbouring runs do
 * not share fast-check's random streams).
 */
export const runSeed = (seed: number, k: number): number => {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 15;
  return h | 0;
};
