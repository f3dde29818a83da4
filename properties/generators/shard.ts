/**
 * The arithmetic of deterministic shards (D-038), shared by the long fuzz campaigns
 * (`FUZZ_SHARD=i/n npm run fuzz`) and the conformance runner (`srk certify --shard i/n`): a campaign
 * is a list of units, each decided by the campaign seed and its index alone, and unit k belongs to
 * shard (k + offset) mod n.
 */

/** The seed of unit k of a campaign seeded `seed` (a 32-bit mix, so neighbouring units do not share random streams). */
export const runSeed = (seed: number, k: number): number => {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 15;
  return h | 0;
};

/** Does shard `index` of `count` (0-based) own unit k? */
export const ownsUnit = (index: number, count: number, k: number, offset = 0): boolean =>
  count <= 1 || (k + offset) % count === index;

/** Parses `i/n` (1-based i); null when the text is not of that form or out of range. */
export const parseShardText = (text: string, max = 1024): { index: number; count: number } | null => {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const i = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (m === null || !Number.isSafeInteger(i) || !Number.isSafeInteger(n) || n < 1 || n > max || i < 1 || i > n)
    return null;
  return { index: i - 1, count: n };
};
