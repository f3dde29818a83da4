/**
 * The request ids a process has seen (W-2.1: every id that can be read counts as used for the
 * process lifetime), kept exactly but compactly (D-039).
 *
 * A `Set<string>` of `"string:" + id` keys costs about 130 bytes per id on V8 (a string header
 * and characters for the id, a cons string for the key, a hash-table entry): 370,000 ids hold
 * about 48 MB. Here each id is encoded into bytes by an injective encoding and appended to one
 * byte arena; an open-addressing table of arena offsets finds it again. An id costs its encoded
 * length plus 2 bytes in the arena (which grows by half, so at most a third is spare) and 4 bytes
 * per table slot (load between 0.35 and 0.7): 20 to 35 bytes for a runner-style id of 7 to 11
 * characters, with no per-id object for the garbage collector to trace.
 *
 * Encoding (distinct ids ⇔ distinct byte strings, so there are no false duplicates):
 *   number  0x00, then the integer in little-endian base 256 without trailing zero bytes
 *   string  0x01, then one byte per UTF-16 code unit, when every unit is ≤ 0xFF
 *           0x02, then two bytes per UTF-16 code unit (little-endian) otherwise, lone
 *           surrogates included (UTF-8 would merge them into U+FFFD)
 */

const MAX_ENCODED = 1 + 2 * 128 + 8;
const MAX_LOAD = 0.7;

export class RequestIdSet {
  private arena: Uint8Array;
  private used = 0;
  /** Arena offset + 1 of each entry, 0 = empty slot. Capacity is a power of two. */
  private table: Uint32Array;
  private count = 0;
  private readonly scratch = new Uint8Array(MAX_ENCODED);

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.table = new Uint32Array(cap);
    this.arena = new Uint8Array(cap * 16);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes allocated for the ids (arena and table, capacity included). */
  get retainedBytes(): number {
    return this.arena.byteLength + this.table.byteLength;
  }

  /** Record `id`; false if it was already there (a duplicate request id). */
  add(id: string | number): boolean {
    const n = this.encode(id);
    const h = hash(this.scratch, n);
    const slot = this.find(this.scratch, n, h);
    if (this.table[slot] !== 0) return false;
    if (this.used + 2 + n > this.arena.length) this.growArena(2 + n);
    const at = this.used;
    this.arena[at] = n & 0xff;
    this.arena[at + 1] = n >>> 8;
    this.arena.set(this.scratch.subarray(0, n), at + 2);
    this.used += 2 + n;
    this.table[slot] = at + 1;
    this.count++;
    if (this.count > this.table.length * MAX_LOAD) this.growTable();
    return true;
  }

  has(id: string | number): boolean {
    const n = this.encode(id);
    return this.table[this.find(this.scratch, n, hash(this.scratch, n))] !== 0;
  }

  /** Encode into `scratch`; returns the length. */
  private encode(id: string | number): number {
    const s = this.scratch;
    if (typeof id === "number") {
      if (!Number.isSafeInteger(id) || id < 0)
        throw new RangeError(`request id ${id} is not a non-negative safe integer`);
      s[0] = 0;
      let n = 1;
      for (let v = id; v > 0; v = Math.floor(v / 256)) s[n++] = v % 256;
      return n;
    }
    if (id.length > 128) throw new RangeError("a request id has at most 128 characters");
    let narrow = true;
    for (let i = 0; i < id.length; i++) {
      if (id.charCodeAt(i) > 0xff) {
        narrow = false;
        break;
      }
    }
    if (narrow) {
      s[0] = 1;
      for (let i = 0; i < id.length; i++) s[1 + i] = id.charCodeAt(i);
      return 1 + id.length;
    }
    s[0] = 2;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      s[1 + 2 * i] = c & 0xff;
      s[2 + 2 * i] = c >>> 8;
    }
    return 1 + 2 * id.length;
  }

  /** The slot holding `bytes[0, n)`, or the empty slot where it belongs (linear probing). */
  private find(bytes: Uint8Array, n: number, h: number): number {
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.table[slot] as number;
      if (e === 0 || this.equals(e - 1, bytes, n)) return slot;
    }
  }

  private equals(at: number, bytes: Uint8Array, n: number): boolean {
    const a = this.arena;
    if (((a[at] as number) | ((a[at + 1] as number) << 8)) !== n) return false;
    for (let i = 0; i < n; i++) if (a[at + 2 + i] !== bytes[i]) return false;
    return true;
  }

  /** Grows by half: at most a third of the arena is unused capacity. */
  private growArena(need: number): void {
    let cap = Math.ceil(this.arena.length * 1.5);
    while (cap < this.used + need) cap = Math.ceil(cap * 1.5);
    const next = new Uint8Array(cap);
    next.set(this.arena.subarray(0, this.used));
    this.arena = next;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    const mask = this.table.length - 1;
    for (const e of old) {
      if (e === 0) continue;
      const at = e - 1;
      const n = (this.arena[at] as number) | ((this.arena[at + 1] as number) << 8);
      let slot = hash(this.arena.subarray(at + 2, at + 2 + n), n) & mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & mask;
      this.table[slot] = e;
    }
  }
}

/** FNV-1a over the bytes, finished with murmur3's avalanche so linear probing sees well-mixed low bits. */
const hash = (bytes: Uint8Array, n: number): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};
