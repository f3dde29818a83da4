/**
 * Witness counts per invariant: how often a certification exercised each invariant (accepted steps
 * of an operation it guards, agreed rejections under it, crash cuts, algebra checks, byte scans).
 * An applicable invariant with no witness is inconclusive, never a pass (the vacuity guard).
 */
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import type { Witnesses } from "../../spec/certificate.ts";

export type WitnessKind = keyof Witnesses;

export const emptyWitnesses = (): Witnesses => ({ accepted: 0, rejected: 0, crash_cuts: 0, algebra: 0, forgetting: 0 });

export const totalWitnesses = (w: Witnesses): number =>
  w.accepted + w.rejected + w.crash_cuts + w.algebra + w.forgetting;

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

  /** Every witness of every invariant (for progress lines). */
  total(): number {
    let n = 0;
    for (const w of this.counts.values()) n += totalWitnesses(w);
    return n;
  }

  /** Adds another book's counts (merging shard or stage books). */
  merge(other: WitnessBook): void {
    for (const id of INVARIANT_IDS) {
      const o = other.get(id);
      for (const k of Object.keys(o) as WitnessKind[]) this.add(id, k, o[k]);
    }
  }
}

/**
 * Records an agreed step: an accepted command witnesses every invariant guarding its operation
 * (its guards were evaluated and held); an agreed rejection witnesses the invariant it names.
 */
export const recordAgreedStep = (
  book: WitnessBook,
  guards: readonly InvariantId[],
  expected: { readonly ok: boolean; readonly error?: { readonly invariant: string | null } },
): void => {
  if (expected.ok) {
    book.addAll(guards, "accepted");
    return;
  }
  const inv = expected.error?.invariant;
  if (inv !== null && inv !== undefined && (INVARIANT_IDS as readonly string[]).includes(inv))
    book.add(inv as InvariantId, "rejected");
};
