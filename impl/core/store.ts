/**
 * The Samskara store of one agent (OP-1, OP-4): the version chain, recorded batches, the
 * retained distillates (content kept only because excision must be able to replay without
 * them, S-5), per-key accumulators, excision records, quarantine and karmic momentum.
 */
import type {
  Digest,
  ExcisionRecord,
  MergeBatch,
  SamskaraDistillate,
  StoreEntry,
  StoreState,
  StoreVersion,
} from "../../spec/index.ts";
import { DOMAIN, batchDigestOf, compareCodeUnits, digestOf, versionIdOf } from "../../spec/index.ts";
import { KeyAccumulator } from "./accumulator.ts";
import { TrackedMap, TrackedSet } from "./tracked.ts";

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

/** One persisted step of a lineage: the version of seq ≥ 1, the batch that made it, its κ (OP-1.9). */
export interface LineageStep {
  readonly version: StoreVersion;
  readonly batch: MergeBatch;
  readonly kappa: number;
}

/** The part of a store that a merge sequence determines: chain, batches, accumulators, momentum. */
class Lineage {
  readonly chain: StoreVersion[];
  readonly batches: MergeBatch[] = [];
  readonly momentum: number[] = [];
  private readonly keys = new Map<string, KeyAccumulator>();
  private readonly versionIds = new Set<string>();
  /** The index of the batch holding each member distillate: excision starts at the first one it drops. */
  private readonly batchOf = new Map<string, number>();
  /** The smallest version seq whose step changed since the store writer last took it (null: none). */
  private changedFrom: number | null = null;

  constructor(genesis: Digest) {
    this.chain = [genesisVersion(genesis)];
    this.versionIds.add(genesis);
  }

  head(): StoreVersion {
    const h = this.chain[this.chain.length - 1];
    if (h === undefined) throw new Error("empty chain");
    return h;
  }

  hasVersion(versionId: string): boolean {
    return this.versionIds.has(versionId);
  }

  batchIndexOf(distillateId: string): number | undefined {
    return this.batchOf.get(distillateId);
  }

  /** OP-1.2: entries sorted by key. */
  state(): StoreState {
    const keys = [...this.keys.keys()].sort(compareCodeUnits);
    const entries: StoreEntry[] = keys.map((k) => (this.keys.get(k) as KeyAccumulator).entry());
    return { entries };
  }

  private contribute(m: HeldDistillate): void {
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

  private withdraw(m: HeldDistillate): void {
    for (const d of m.distillate.dispositions) {
      const acc = this.keys.get(d.key);
      if (acc === undefined) throw new Error(`key ${d.key} has no accumulator`);
      acc.remove(m.distillate.distillate_id);
      if (acc.empty) this.keys.delete(d.key);
    }
  }

  private append(version: StoreVersion, batch: MergeBatch, kappa: number): void {
    const index = this.batches.length;
    this.chain.push(version);
    this.batches.push(batch);
    this.momentum.push(kappa);
    this.versionIds.add(version.version_id);
    for (const m of batch.members) this.batchOf.set(m.distillate_id, index);
    this.changedFrom = Math.min(this.changedFrom ?? version.seq, version.seq);
  }

  /** OP-1.6, incrementally: add one non-empty batch; records κ (OP-1.9) from the touched keys. */
  mergeBatch(members: readonly HeldDistillate[]): { version: StoreVersion; batch: MergeBatch } {
    const before = new Map<string, number>();
    for (const m of members) {
      for (const d of m.distillate.dispositions) {
        if (!before.has(d.key)) before.set(d.key, this.keys.get(d.key)?.weight() ?? 0);
      }
    }
    for (const m of members) this.contribute(m);
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
    this.append(version, batch, kappa);
    return { version, batch };
  }

  /**
   * Undo the batches from index `from` on (newest first) and return them: the chain keeps the
   * versions 0..from, the accumulators hold exactly the contributions of the kept batches.
   * `content` must still hold every member of the removed batches.
   */
  truncate(from: number, content: ReadonlyMap<string, HeldDistillate>): MergeBatch[] {
    const removed = this.batches.splice(from);
    for (let i = removed.length - 1; i >= 0; i--) {
      for (const m of (removed[i] as MergeBatch).members) {
        const held = content.get(m.distillate_id);
        if (held === undefined)
          throw new Error(`S-5: cannot undo batch ${from + i}: distillate ${m.distillate_id} is not retained`);
        this.withdraw(held);
        this.batchOf.delete(m.distillate_id);
      }
    }
    for (const v of this.chain.splice(from + 1)) this.versionIds.delete(v.version_id);
    this.momentum.splice(from);
    this.changedFrom = Math.min(this.changedFrom ?? from + 1, from + 1);
    return removed;
  }

  /** The smallest version seq whose step changed since the last call, or null; then forget it. */
  takeChangedFrom(): number | null {
    const from = this.changedFrom;
    this.changedFrom = null;
    return from;
  }

  /**
   * OP-1.7 / OP-1.8: merge `batches` onto `fresh`, taking each member's content from `content`
   * and dropping the ids in `drop` (empty batches vanish). Returns false if some member's content
   * is missing (the replay cannot be performed).
   */
  static replayOnto(
    fresh: Lineage,
    batches: readonly MergeBatch[],
    content: ReadonlyMap<string, HeldDistillate>,
    drop: ReadonlySet<string>,
  ): boolean {
    for (const b of batches) {
      const members: HeldDistillate[] = [];
      for (const m of b.members) {
        if (drop.has(m.distillate_id)) continue;
        const held = content.get(m.distillate_id);
        if (held === undefined || held.digest !== m.digest) return false;
        members.push(held);
      }
      if (members.length > 0) fresh.mergeBatch(members);
    }
    return true;
  }

  /** A lineage re-derived from genesis by replaying `batches` (see replayOnto), or null. */
  static replay(
    genesis: Digest,
    batches: readonly MergeBatch[],
    content: ReadonlyMap<string, HeldDistillate>,
    drop: ReadonlySet<string>,
  ): Lineage | null {
    const fresh = new Lineage(genesis);
    return Lineage.replayOnto(fresh, batches, content, drop) ? fresh : null;
  }

  /**
   * Recovery: a lineage from its persisted steps without replaying them. The accumulators are
   * rebuilt by adding every member's contributions (no per-step state digest); what can be
   * checked cheaply is checked: each step links to its parent, its version id and batch digest
   * recompute, its members' content is held with the right digest, and the rebuilt state has the
   * head's state digest. Throws on any mismatch (a damaged data directory).
   */
  static fromSteps(
    genesis: Digest,
    steps: readonly LineageStep[],
    content: ReadonlyMap<string, HeldDistillate>,
  ): Lineage {
    const l = new Lineage(genesis);
    for (const s of steps) {
      const parent = l.head();
      const v = s.version;
      const batchDigest = batchDigestOf(s.batch.members.map((m) => m.digest as Digest));
      if (
        v.seq !== parent.seq + 1 ||
        v.parent !== parent.version_id ||
        v.batch_digest !== s.batch.batch_digest ||
        batchDigest !== s.batch.batch_digest ||
        versionIdOf(parent.version_id as Digest, batchDigest, v.state_digest as Digest) !== v.version_id
      ) {
        throw new Error(`S-4: persisted version ${v.seq} does not link to its parent and batch`);
      }
      for (const m of s.batch.members) {
        const held = content.get(m.distillate_id);
        if (held === undefined || held.digest !== m.digest)
          throw new Error(`S-4: persisted batch ${v.seq - 1} references distillate content that is missing`);
        l.contribute(held);
      }
      l.append(v, s.batch, s.kappa);
    }
    if (digestOf(DOMAIN.storeState, l.state()) !== l.head().state_digest) {
      throw new Error("S-4: the retained distillates do not reproduce the head's state digest");
    }
    l.changedFrom = null;
    return l;
  }
}

export class SamskaraStore {
  /** Retained distillates by id (the store's `distillates` view); content deleted on excision. */
  readonly retained = new TrackedMap<string, HeldDistillate>();
  readonly excisions: ExcisionRecord[] = [];
  readonly quarantined = new TrackedSet<string>();

  constructor(
    readonly genesis: Digest,
    private readonly lineage: Lineage = new Lineage(genesis),
  ) {}

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
    return this.lineage.hasVersion(versionId);
  }
  retains(distillateId: string): boolean {
    return this.retained.has(distillateId);
  }
  held(distillateId: string): HeldDistillate | undefined {
    return this.retained.get(distillateId);
  }
  retainedDistillates(): readonly HeldDistillate[] {
    return [...this.retained.values()];
  }

  /** The persisted steps from version seq `from` (≥ 1) to the head. */
  steps(from: number): LineageStep[] {
    const out: LineageStep[] = [];
    for (let seq = Math.max(1, from); seq < this.lineage.chain.length; seq++) {
      out.push({
        version: this.lineage.chain[seq] as StoreVersion,
        batch: this.lineage.batches[seq - 1] as MergeBatch,
        kappa: this.lineage.momentum[seq - 1] as number,
      });
    }
    return out;
  }

  /** For the store writer: the smallest version seq changed since the last call, or null. */
  takeChangedFrom(): number | null {
    return this.lineage.takeChangedFrom();
  }

  /** OP-1.6: merge a non-empty batch of new distillates. */
  merge(members: readonly HeldDistillate[]): { version: StoreVersion; batch: MergeBatch } {
    const result = this.lineage.mergeBatch(members);
    for (const m of members) this.retained.set(m.distillate.distillate_id, m);
    return result;
  }

  /**
   * OP-1.8 (S-5): replay without `drop`, replace chain and state, delete the content. The prefix
   * of batches before the first one holding a dropped distillate replays to itself, so only the
   * suffix is undone and replayed: excising a recent distillate costs the suffix, not the store.
   */
  excise(drop: ReadonlySet<string>): void {
    let from = this.lineage.batches.length;
    for (const id of drop) {
      const at = this.lineage.batchIndexOf(id);
      if (at === undefined) throw new Error(`S-5: distillate ${id} is in no batch`);
      from = Math.min(from, at);
    }
    const suffix = this.lineage.truncate(from, this.retained);
    if (!Lineage.replayOnto(this.lineage, suffix, this.retained, drop))
      throw new Error("S-5: cannot replay the lineage: a retained distillate is missing");
    for (const id of drop) this.retained.delete(id);
  }

  /** OP-1.7 (S-4): does replaying the recorded batches from genesis reproduce the chain exactly? */
  replayReproducesChain(): boolean {
    const replayed = Lineage.replay(this.genesis, this.lineage.batches, this.retained, new Set());
    if (replayed === null || replayed.chain.length !== this.lineage.chain.length) return false;
    return replayed.chain.every((v, i) => {
      const w = this.lineage.chain[i] as StoreVersion;
      return (
        v.version_id === w.version_id &&
        v.seq === w.seq &&
        v.parent === w.parent &&
        v.batch_digest === w.batch_digest &&
        v.state_digest === w.state_digest
      );
    });
  }

  /**
   * Recovery: a store from its persisted parts, without replay (Lineage.fromSteps checks the
   * links, digests and the head's state). O(what is read).
   */
  static restore(parts: {
    genesis: Digest;
    steps: readonly LineageStep[];
    retained: readonly HeldDistillate[];
    excisions: readonly ExcisionRecord[];
    quarantined: readonly string[];
  }): SamskaraStore {
    const content = new Map(parts.retained.map((h) => [h.distillate.distillate_id, h]));
    const store = new SamskaraStore(parts.genesis, Lineage.fromSteps(parts.genesis, parts.steps, content));
    for (const [id, h] of content) {
      // S-5: retained content is exactly the members of the chain's batches (nothing excised lingers).
      if (store.lineage.batchIndexOf(id) === undefined)
        throw new Error(`S-5: retained distillate ${id} is in no batch`);
      store.retained.set(id, h);
    }
    store.excisions.push(...parts.excisions);
    for (const q of parts.quarantined) store.quarantined.add(q);
    store.retained.forgetChanged();
    store.quarantined.forgetChanged();
    return store;
  }
}
