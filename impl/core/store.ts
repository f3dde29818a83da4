/**
 * The Samskara store of one agent (OP-1, OP-4): the version chain, recorded batches, the
 * retained distillates (content kept only because excision must be able to replay without
 * them, S-5), per-key accumulators, excision records, quarantine and karmic momentum.
 */
import type {
  Digest, ExcisionRecord, MergeBatch, SamskaraDistillate, StoreEntry, StoreState, StoreVersion,
} from "../../spec/index.ts";
import { DOMAIN, batchDigestOf, compareCodeUnits, digestOf, versionIdOf } from "../../spec/index.ts";
import { KeyAccumulator } from "./accumulator.ts";

/** A distillate the store holds: its content and its digest (OP-1.1). */
export interface HeldDistillate {
  readonly digest: Digest;
  readonly distillate: SamskaraDistillate;
}

export const distillateDigest = (d: SamskaraDistillate): Digest => digestOf(DOMAIN.distillate, d);

const EMPTY_STATE_DIGEST = digestOf(DOMAIN.storeState, { entries: [] });

/** OP-1.4: the genesis version of a lineage. */
export const genesisVersion = (genesis: Digest): StoreVersion => ({
  version_id: genesis,
  seq: 0,
  parent: null,
  batch_digest: null,
  state_digest: EMPTY_STATE_DIGEST,
});

/** The part of a store that a merge sequence determines: chain, batches, accumulators, momentum. */
class Lineage {
  readonly chain: StoreVersion[];
  readonly batches: MergeBatch[] = [];
  readonly momentum: number[] = [];
  private readonly keys = new Map<string, KeyAccumulator>();

  constructor(genesis: Digest) {
    this.chain = [genesisVersion(genesis)];
  }

  head(): StoreVersion {
    const h = this.chain[this.chain.length - 1];
    if (h === undefined) throw new Error("empty chain");
    return h;
  }

  /** OP-1.2: entries sorted by key. */
  state(): StoreState {
    const keys = [...this.keys.keys()].sort(compareCodeUnits);
    const entries: StoreEntry[] = keys.map((k) => (this.keys.get(k) as KeyAccumulator).entry());
    return { entries };
  }

  /** OP-1.6, incrementally: add one non-empty batch; records κ (OP-1.9) from the touched keys. */
  mergeBatch(members: readonly HeldDistillate[]): { version: StoreVersion; batch: MergeBatch } {
    const before = new Map<string, number>();
    for (const m of members) {
      for (const d of m.distillate.dispositions) {
        if (!before.has(d.key)) before.set(d.key, this.keys.get(d.key)?.weight() ?? 0);
      }
    }
    for (const m of members) {
      for (const d of m.distillate.dispositions) {
        let acc = this.keys.get(d.key);
        if (acc === undefined) {
          acc = new KeyAccumulator(d.key);
          this.keys.set(d.key, acc);
        }
        acc.add({
          distillateId: m.distillate.distillate_id,
          weight: d.weight,
          confidence: m.distillate.signal.confidence,
          guidance: d.guidance,
          category: d.category,
        });
      }
    }
    let kappa = 0;
    for (const [key, w0] of before) kappa += Math.abs((this.keys.get(key) as KeyAccumulator).weight() - w0);

    const sorted = [...members]
      .map((m) => ({ distillate_id: m.distillate.distillate_id, digest: m.digest }))
      .sort((a, b) => compareCodeUnits(a.digest, b.digest));
    const batchDigest = batchDigestOf(sorted.map((m) => m.digest as Digest));
    const stateDigest = digestOf(DOMAIN.storeState, this.state());
    const parent = this.head();
    const version: StoreVersion = {
      version_id: versionIdOf(parent.version_id as Digest, batchDigest, stateDigest),
      seq: parent.seq + 1,
      parent: parent.version_id,
      batch_digest: batchDigest,
      state_digest: stateDigest,
    };
    const batch: MergeBatch = { batch_digest: batchDigest, members: sorted };
    this.chain.push(version);
    this.batches.push(batch);
    this.momentum.push(kappa);
    return { version, batch };
  }

  /**
   * OP-1.7 / OP-1.8: a lineage re-derived from genesis by replaying `batches`, taking each
   * member's content from `content` and dropping the ids in `drop` (empty batches vanish).
   * Returns null if some member's content is missing (the replay cannot be performed).
   */
  static replay(
    genesis: Digest,
    batches: readonly MergeBatch[],
    content: ReadonlyMap<string, HeldDistillate>,
    drop: ReadonlySet<string>,
  ): Lineage | null {
    const fresh = new Lineage(genesis);
    for (const b of batches) {
      const members: HeldDistillate[] = [];
      for (const m of b.members) {
        if (drop.has(m.distillate_id)) continue;
        const held = content.get(m.distillate_id);
        if (held === undefined || held.digest !== m.digest) return null;
        members.push(held);
      }
      if (members.length > 0) fresh.mergeBatch(members);
    }
    return fresh;
  }
}

export class SamskaraStore {
  private lineage: Lineage;
  /** Retained distillates by id (the store's `distillates` view); content deleted on excision. */
  private readonly retained = new Map<string, HeldDistillate>();
  readonly excisions: ExcisionRecord[] = [];
  readonly quarantined = new Set<string>();

  constructor(readonly genesis: Digest) {
    this.lineage = new Lineage(genesis);
  }

  head(): StoreVersion {
    return this.lineage.head();
  }
  chain(): readonly StoreVersion[] {
    return this.lineage.chain;
  }
  batches(): readonly MergeBatch[] {
    return this.lineage.batches;
  }
  momentum(): readonly number[] {
    return this.lineage.momentum;
  }
  state(): StoreState {
    return this.lineage.state();
  }
  /** J-1: is this version id part of the current chain? */
  hasVersion(versionId: string): boolean {
    return this.lineage.chain.some((v) => v.version_id === versionId);
  }
  retains(distillateId: string): boolean {
    return this.retained.has(distillateId);
  }
  retainedDistillates(): readonly HeldDistillate[] {
    return [...this.retained.values()];
  }

  /** OP-1.6: merge a non-empty batch of new distillates. */
  merge(members: readonly HeldDistillate[]): { version: StoreVersion; batch: MergeBatch } {
    const result = this.lineage.mergeBatch(members);
    for (const m of members) this.retained.set(m.distillate.distillate_id, m);
    return result;
  }

  /** OP-1.8 (S-5): replay without `drop`, replace chain and state, delete the content. */
  excise(drop: ReadonlySet<string>): void {
    const next = Lineage.replay(this.genesis, this.lineage.batches, this.retained, drop);
    if (next === null) throw new Error("S-5: cannot replay the lineage: a retained distillate is missing");
    this.lineage = next;
    for (const id of drop) this.retained.delete(id);
  }

  /** OP-1.7 (S-4): does replaying the recorded batches from genesis reproduce the chain exactly? */
  replayReproducesChain(): boolean {
    const replayed = Lineage.replay(this.genesis, this.lineage.batches, this.retained, new Set());
    if (replayed === null || replayed.chain.length !== this.lineage.chain.length) return false;
    return replayed.chain.every((v, i) => {
      const w = this.lineage.chain[i] as StoreVersion;
      return v.version_id === w.version_id && v.seq === w.seq && v.parent === w.parent &&
        v.batch_digest === w.batch_digest && v.state_digest === w.state_digest;
    });
  }

  /**
   * Recovery: rebuild a store from its persisted parts by replaying its batches, then check the
   * replay reproduces the persisted chain (S-4), so a damaged data directory is detected on open.
   */
  static restore(parts: {
    genesis: Digest;
    chain: readonly StoreVersion[];
    batches: readonly MergeBatch[];
    retained: readonly HeldDistillate[];
    excisions: readonly ExcisionRecord[];
    quarantined: readonly string[];
  }): SamskaraStore {
    const store = new SamskaraStore(parts.genesis);
    for (const h of parts.retained) store.retained.set(h.distillate.distillate_id, h);
    const replayed = Lineage.replay(parts.genesis, parts.batches, store.retained, new Set());
    if (replayed === null) throw new Error("S-4: persisted store references distillate content that is missing");
    store.lineage = replayed;
    const same = replayed.chain.length === parts.chain.length &&
      replayed.chain.every((v, i) => v.version_id === parts.chain[i]?.version_id);
    if (!same) throw new Error("S-4: persisted chain does not replay from its batches");
    store.excisions.push(...parts.excisions);
    for (const q of parts.quarantined) store.quarantined.add(q);
    return store;
  }
}
