/**
 * One disposition key's running aggregate (D-002, D-007): BigInt sums Σw·c and Σc, sign
 * counters for `contested`, and the contributions by distillate id. Merges add to it
 * incrementally instead of re-aggregating the whole store. Excision removes the contributions of
 * the re-derived suffix exactly (sums and counters are integers; the leader is the maximum of a
 * total order, recomputed from the remaining contributions), then replays the suffix (S-5).
 */
import type { DataCategory, StoreEntry } from "../../spec/index.ts";
import { compareCodeUnits } from "../../spec/index.ts";
import { divRoundHalfEven } from "./rounding.ts";

export interface Contribution {
  readonly distillateId: string;
  readonly weight: number;
  readonly confidence: number;
  readonly guidance: string;
  readonly category: DataCategory;
}

/** D-007: does `a` outrank `b` as the highest-weighted contributor? */
const outranks = (a: Contribution, b: Contribution): boolean => {
  const sa = BigInt(Math.abs(a.weight)) * BigInt(a.confidence);
  const sb = BigInt(Math.abs(b.weight)) * BigInt(b.confidence);
  if (sa !== sb) return sa > sb;
  if (Math.abs(a.weight) !== Math.abs(b.weight)) return Math.abs(a.weight) > Math.abs(b.weight);
  if (a.confidence !== b.confidence) return a.confidence > b.confidence;
  return compareCodeUnits(a.distillateId, b.distillateId) < 0;
};

export class KeyAccumulator {
  private weightedSum = 0n;
  private confidenceSum = 0n;
  private positives = 0;
  private negatives = 0;
  private leader: Contribution | null = null;
  /** Distillate ids are unique within an agent (AD-3) and keys within a distillate, so one per id. */
  private readonly contributions = new Map<string, Contribution>();
  private cached: StoreEntry | null = null;

  constructor(readonly key: string) {}

  add(c: Contribution): void {
    if (this.contributions.has(c.distillateId))
      throw new Error(`key ${this.key}: distillate ${c.distillateId} contributes twice`);
    this.weightedSum += BigInt(c.weight) * BigInt(c.confidence);
    this.confidenceSum += BigInt(c.confidence);
    if (c.weight > 0) this.positives++;
    if (c.weight < 0) this.negatives++;
    if (this.leader === null || outranks(c, this.leader)) this.leader = c;
    this.contributions.set(c.distillateId, c);
    this.cached = null;
  }

  /** Undo `add` for one distillate: the accumulator becomes exactly what it would be without it. */
  remove(distillateId: string): void {
    const c = this.contributions.get(distillateId);
    if (c === undefined) throw new Error(`key ${this.key}: distillate ${distillateId} does not contribute`);
    this.contributions.delete(distillateId);
    this.weightedSum -= BigInt(c.weight) * BigInt(c.confidence);
    this.confidenceSum -= BigInt(c.confidence);
    if (c.weight > 0) this.positives--;
    if (c.weight < 0) this.negatives--;
    if (this.leader === c) {
      this.leader = null;
      for (const x of this.contributions.values())
        if (this.leader === null || outranks(x, this.leader)) this.leader = x;
    }
    this.cached = null;
  }

  /** No contribution left: the key is no longer in the store state. */
  get empty(): boolean {
    return this.contributions.size === 0;
  }

  /** The stored weight: the confidence-weighted mean, rounded half to even (D-002). */
  weight(): number {
    return Number(divRoundHalfEven(this.weightedSum, this.confidenceSum));
  }

  entry(): StoreEntry {
    if (this.cached !== null) return this.cached;
    const leader = this.leader;
    if (leader === null) throw new Error(`key ${this.key} has no contributor`);
    this.cached = {
      key: this.key,
      guidance: leader.guidance,
      weight: this.weight(),
      category: leader.category,
      contested: this.positives > 0 && this.negatives > 0,
      contributors: [...this.contributions.keys()].sort(compareCodeUnits),
    };
    return this.cached;
  }
}
