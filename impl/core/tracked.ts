/**
 * Sets and Maps that remember which keys changed since the store last wrote them, so a commit
 * writes only those rows (impl/core/persist.ts): a durable write proportional to the change,
 * not to the state.
 *
 * Every mutation through the Set/Map API is recorded (added, replaced, deleted, cleared keys).
 * Values that are mutated in place (an Instance, an Obligation) are recorded by `touch`, which
 * the handlers use to fetch what they are about to change (impl/core/ops/context.ts).
 */

/** What a tracked collection offers the store. */
export interface Tracked<K> {
  /** The keys changed since the last call (or since creation), and forget them. */
  takeChanged(): K[];
  /** Forget the changed keys without returning them (after a load, or a rejected command's touches). */
  forgetChanged(): void;
}

export class TrackedSet<T> extends Set<T> implements Tracked<T> {
  private changed: Set<T> | undefined;

  /** No initial iterable: the base constructor would call add() before `changed` exists. */
  // biome-ignore lint/complexity/noUselessConstructor: it narrows the base signature to no arguments
  constructor() {
    super();
  }

  private mark(v: T): void {
    (this.changed ??= new Set()).add(v);
  }

  override add(v: T): this {
    if (!super.has(v)) this.mark(v);
    return super.add(v);
  }

  override delete(v: T): boolean {
    const had = super.delete(v);
    if (had) this.mark(v);
    return had;
  }

  override clear(): void {
    for (const v of this) this.mark(v);
    super.clear();
  }

  takeChanged(): T[] {
    const out = this.changed === undefined ? [] : [...this.changed];
    this.changed = undefined;
    return out;
  }

  forgetChanged(): void {
    this.changed = undefined;
  }
}

export class TrackedMap<K, V> extends Map<K, V> implements Tracked<K> {
  private changed: Set<K> | undefined;

  // biome-ignore lint/complexity/noUselessConstructor: no initial iterable, as TrackedSet's
  constructor() {
    super();
  }

  private mark(k: K): void {
    (this.changed ??= new Set()).add(k);
  }

  override set(k: K, v: V): this {
    this.mark(k);
    return super.set(k, v);
  }

  override delete(k: K): boolean {
    const had = super.delete(k);
    if (had) this.mark(k);
    return had;
  }

  override clear(): void {
    for (const k of this.keys()) this.mark(k);
    super.clear();
  }

  /** Get a value that is about to be mutated in place: its row will be rewritten at the next commit. */
  touch(k: K): V | undefined {
    const v = super.get(k);
    if (v !== undefined) this.mark(k);
    return v;
  }

  takeChanged(): K[] {
    const out = this.changed === undefined ? [] : [...this.changed];
    this.changed = undefined;
    return out;
  }

  forgetChanged(): void {
    this.changed = undefined;
  }
}
