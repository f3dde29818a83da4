/**
 * OP-1.2 aggregation (D-002, D-007): the store state as a pure function of the SET of retained
 * distillates, which is what makes AD-3 (order-, batching- and duplication-independence) hold by
 * construction. Arithmetic is exact BigInt, rounded half to even.
 */
import {
  DOMAIN,
  digestOf,
  type Digest,
  type SamskaraDistillate,
  type StoreEntry,
  type StoreState,
} from "../../spec/index.ts";

/**
 * roundHalfEven(num / den) for den > 0, exactly (D-002). Floor division first so that negative
 * ties (e.g. -2.5 -> -2, -3.5 -> -4) round the same way as positive ones.
 */
export const roundHalfEven = (num: bigint, den: bigint): bigint => {
  if (den <= 0n) throw new RangeError("roundHalfEven: denominator must be positive");
  let q = num / den;
  let r = num % den;
  if (r < 0n) {
    q -= 1n;
    r += den;
  }
  const twice = 2n * r;
  if (twice > den) return q + 1n;
  if (twice === den) return q % 2n === 0n ? q : q + 1n;
  return q;
};

interface Contribution {
  readonly distillateId: string;
  readonly weight: number;
  readonly confidence: number;
  readonly guidance: string;
  readonly category: StoreEntry["category"];
}

/**
 * D-007 order on contributors: |w|*c desc, then |w| desc, then c desc, then distillate id asc.
 * Returns < 0 when `a` ranks higher. Distillate ids are unique per agent, so the order is total (AD-3).
 */
export const compareContributors = (a: Contribution, b: Contribution): number => {
  const sa = Math.abs(a.weight) * a.confidence; // <= 10^12, exact in a double
  const sb = Math.abs(b.weight) * b.confidence;
  if (sa !== sb) return sb - sa;
  if (Math.abs(a.weight) !== Math.abs(b.weight)) return Math.abs(b.weight) - Math.abs(a.weight);
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  return a.distillateId < b.distillateId ? -1 : a.distillateId > b.distillateId ? 1 : 0;
};

/**
 * The store state of a set of distillates (OP-1.2). Duplicates (same distillate id) count once,
 * because the state is a function of the set. A key whose contributors all have confidence 0
 * (inadmissible by S-2, so never in a real store) gets weight 0 rather than a division by zero.
 */
export const aggregate = (distillates: readonly SamskaraDistillate[]): StoreState => {
  const unique = new Map<string, SamskaraDistillate>();
  for (const d of distillates) if (!unique.has(d.distillate_id)) unique.set(d.distillate_id, d);
  const byKey = new Map<string, Contribution[]>();
  for (const d of unique.values()) {
    for (const disp of d.dispositions) {
      const list = byKey.get(disp.key) ?? [];
      list.push({
        distillateId: d.distillate_id,
        weight: disp.weight,
        confidence: d.signal.confidence,
        guidance: disp.guidance,
        category: disp.category,
      });
      byKey.set(disp.key, list);
    }
  }
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries: StoreEntry[] = keys.map((key) => {
    const cs = byKey.get(key) ?? [];
    let num = 0n;
    let den = 0n;
    for (const c of cs) {
      num += BigInt(c.weight) * BigInt(c.confidence);
      den += BigInt(c.confidence);
    }
    const weight = den === 0n ? 0 : Number(roundHalfEven(num, den));
    const top = [...cs].sort(compareContributors)[0];
    if (top === undefined) throw new Error("aggregate: key without contributors");
    return {
      key,
      guidance: top.guidance,
      weight,
      category: top.category,
      contested: cs.some((c) => c.weight > 0) && cs.some((c) => c.weight < 0),
      contributors: cs.map((c) => c.distillateId).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    };
  });
  return { entries };
};

/** OP-1.3. */
export const stateDigest = (state: StoreState): Digest => digestOf(DOMAIN.storeState, { entries: state.entries });

/**
 * Each distillate object's digest, computed once: the model never changes a value it has built, so
 * a distillate's digest is a function of the object, and the same objects are digested again at
 * every merge batch, replay and excision that names them (the explorer's states and the exhaustive
 * AD-3 walk share them by reference). A WeakMap keeps no distillate alive.
 */
const distillateDigests = new WeakMap<SamskaraDistillate, Digest>();

/** OP-1.1. */
export const distillateDigest = (d: SamskaraDistillate): Digest => {
  const known = distillateDigests.get(d);
  if (known !== undefined) return known;
  const digest = digestOf(DOMAIN.distillate, d);
  distillateDigests.set(d, digest);
  return digest;
};

export const EMPTY_STATE: StoreState = { entries: [] };
