/**
 * OP-1.9 karmic momentum (D-023): how far one merge moved the store, and when a lineage has
 * converged. Both distances are offered because the paper reports that they disagree.
 */
import type { StoreState } from "../../spec/index.ts";

const weights = (s: StoreState): Map<string, { weight: number; guidance: string }> =>
  new Map(s.entries.map((e) => [e.key, { weight: e.weight, guidance: e.guidance }]));

/** κ = Σ_k |w_n(k) − w_{n−1}(k)|, an absent key counting as 0. */
export const momentumWeightOnly = (prev: StoreState, next: StoreState): number => {
  const a = weights(prev);
  const b = weights(next);
  let k = 0;
  for (const key of new Set([...a.keys(), ...b.keys()]))
    k += Math.abs((b.get(key)?.weight ?? 0) - (a.get(key)?.weight ?? 0));
  return k;
};

/** As weight-only, but a key whose guidance was rewritten counts as full turnover |w_{n−1}| + |w_n|. */
export const momentumGuidanceAware = (prev: StoreState, next: StoreState): number => {
  const a = weights(prev);
  const b = weights(next);
  let k = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (x !== undefined && y !== undefined && x.guidance !== y.guidance) k += Math.abs(x.weight) + Math.abs(y.weight);
    else k += Math.abs((y?.weight ?? 0) - (x?.weight ?? 0));
  }
  return k;
};

/** κ of every merge batch of a chain, given the state at every version (genesis first). */
export const momentumSeries = (
  states: readonly StoreState[],
  distance: (p: StoreState, n: StoreState) => number = momentumWeightOnly,
): number[] => states.slice(1).map((s, i) => distance(states[i] ?? { entries: [] }, s));

export const DEFAULT_WINDOW = 3;
export const DEFAULT_THRESHOLD = 10_000;

/** Converged iff at least `window` batches exist and the last `window` κ are all below `threshold`. */
export const converged = (kappas: readonly number[], window = DEFAULT_WINDOW, threshold = DEFAULT_THRESHOLD): boolean =>
  window >= 1 && kappas.length >= window && kappas.slice(kappas.length - window).every((k) => k < threshold);
