/**
 * One disposition key's running aggregate (D-002, D-007): BigInt sums Σw·c and Σc, sign
 * counters for `contested`, and the contributors. Merges add to it incrementally instead of
 * re-aggregating the whole store; excision rebuilds accumulators by replay (S-5).
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
  private readonly contributorIds: string[] = [];
  private cached: StoreEntry | null = null;

  constructor(readonly key: string) {}

  add(c: Contribution): void {
    this.weightedSum += BigInt(c.weight) * BigInt(c.confidence);
    this.confidenceSum += BigInt(c.confidence);
    if (c.weight > 0) this.positives++;
    if (c.weight < 0) this.negatives++;
    if (this.leader === null || outranks(c, this.leader)) this.leader = c;
    this.contributorIds.push(c.distillateId);
    this.cached = null;
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
      contributors: [...this.contributorIds].sort(compareCodeUnits),
    };
    return this.cached;
  }
}
