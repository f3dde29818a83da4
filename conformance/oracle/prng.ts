/**
 * mulberry32: a tiny seeded generator. The runner's sampled choices (algebra schedules, excision
 * cases, kill moments, forgetting markers) come from it, so each depends only on the
 * certification seed and is replayable from it.
 */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};
