/**
 * Witness counts per invariant: how often a certification exercised each invariant (accepted steps
 * of an operation it guards, agreed rejections under it, crash cuts, algebra checks, byte scans).
 * An applicable invariant with no witness is inconclusive, never a pass (the vacuity guard).
 */
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import type { Witnesses } from "../../spec/certificate.ts";

export type WitnessKind = keyof Witnesses;

export const emptyWitnesses = (): Witnesses => ({ accepted: 0, rejected: 0, crash_cuts: 0, algebra: 0, forgetting: 0 });

export const totalWitnesses = (w: Witnesses): number => w.accepted + w.rejected + w.crash_cuts + w.algebra + w.forgetting;

export class WitnessBook {
  private readonly counts = new Map<InvariantId, { -readonly [K in WitnessKind]: number }>(
    INVARIANT_IDS.map((id) => [id, { ...emptyWitnesses() }]),
  );

  add(id: InvariantId, kind: WitnessKind, n = 1): void {
    const w = this.counts.get(id);
    if (w === undefined) throw new Error(`unknown invariant ${id}`);
    w[kind] += n;
  }

  addAll(ids: readonly InvariantId[], kind: WitnessKind, n = 1): void {
    for (const id of ids) this.add(id, kind, n);
  }

  get(id: InvariantId): Witnesses {
    return { ...(this.counts.get(id) ?? emptyWitnesses()) };
  }

  /** Adds another book's counts (merging shard or stage books). */
  merge(other: WitnessBook): void {
    for (const id of INVARIANT_IDS) {
      const o = other.get(id);
      for (const k of Object.keys(o) as WitnessKind[]) this.add(id, k, o[k]);
    }
  }
}
