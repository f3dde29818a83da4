/**
 * A fast 64-bit fingerprint of a model world for deduplicating explored states: the world's
 * canonical encoding (encodeWorld: maps and sets as sorted arrays) serialised as JSON with sorted
 * object keys, hashed with FNV-1a 64 over its UTF-16 code units (two 32-bit halves, no BigInt in
 * the loop). Not the SHA-256 spec digest: a collision would merge two states (probability about
 * n²/2⁶⁵ for n states: negligible below 10⁸ states), which is acceptable for exploration.
 *
 * Symmetry reduction (a scope's `symmetry`) hashes a representative of the world's text under
 * permutations of interchangeable ids instead (symmetry.ts). The explorer keeps the fingerprints
 * it has seen in a `FingerprintSet`: two 32-bit words per entry in one typed array, so that the
 * visited set's memory is known exactly (about 16 MB per million states at its fullest) rather
 * than the 100-odd bytes a JavaScript Set spends on each 16-character string.
 */
import { encodeWorld, type World } from "../../model/index.ts";

/** JSON with object keys sorted (arrays keep their order; encodeWorld has already sorted maps and sets). */
export const canonicalJson = (x: unknown): string => {
  if (x === null || typeof x !== "object") return JSON.stringify(x) ?? "null";
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(",")}]`;
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`;
};

/** FNV-1a 64 of a string's UTF-16 code units, as its high and low 32-bit halves (unsigned). */
export const fnv1a64Halves = (s: string): readonly [hi: number, lo: number] => {
  // offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 0x1b3
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < s.length; i++) {
    lo ^= s.charCodeAt(i);
    // (hi:lo) * (2^40 + 0x1b3) mod 2^64
    const loLo = (lo & 0xffff) * 0x1b3;
    const loHi = (lo >>> 16) * 0x1b3;
    const carry = (loLo >>> 16) + (loHi & 0xffff);
    const newLo = ((carry & 0xffff) << 16) | (loLo & 0xffff);
    const newHi = (hi * 0x1b3 + (loHi >>> 16) + (carry >>> 16) + ((lo << 8) >>> 0)) >>> 0;
    lo = newLo >>> 0;
    hi = newHi;
  }
  return [hi, lo];
};

/** FNV-1a 64 of a string's UTF-16 code units, as 16 hex digits. */
export const fnv1a64 = (s: string): string => {
  const [hi, lo] = fnv1a64Halves(s);
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
};

/** The canonical text of a world: what its fingerprint hashes (and what symmetry.ts renames). */
export const worldText = (world: World): string => canonicalJson(encodeWorld(world));

/** The fingerprint of a world. */
export const fingerprint = (world: World): string => fnv1a64(worldText(world));

/**
 * A set of 64-bit fingerprints (their two halves), open addressing with linear probing in one
 * Uint32Array kept at most half full (doubled when it would be fuller). (0, 0) marks an empty
 * slot, so the one fingerprint (0, 0) is remembered by a flag.
 */
export class FingerprintSet {
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  private hasZero = false;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.table = new Uint32Array(cap * 2);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table (the set's whole memory but a few fields). */
  get bytes(): number {
    return this.table.byteLength;
  }

  /** Adds the fingerprint; true when it was not there. */
  add(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) {
      if (this.hasZero) return false;
      this.hasZero = true;
      this.count++;
      return true;
    }
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const added = FingerprintSet.put(this.table, this.mask, hi >>> 0, lo >>> 0);
    if (added) this.count++;
    return added;
  }

  has(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) return this.hasZero;
    const t = this.table;
    for (let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask; ; i = (i + 1) & this.mask) {
      const h = t[2 * i] as number;
      const l = t[2 * i + 1] as number;
      if (h === 0 && l === 0) return false;
      if (h === hi >>> 0 && l === lo >>> 0) return true;
    }
  }

  private static put(t: Uint32Array, mask: number, hi: number, lo: number): boolean {
    for (let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const h = t[2 * i] as number;
      const l = t[2 * i + 1] as number;
      if (h === 0 && l === 0) {
        t[2 * i] = hi;
        t[2 * i + 1] = lo;
        return true;
      }
      if (h === hi && l === lo) return false;
    }
  }

  private grow(): void {
    const old = this.table;
    const cap = (this.mask + 1) * 2;
    const t = new Uint32Array(cap * 2);
    const mask = cap - 1;
    for (let i = 0; i < old.length; i += 2) {
      const h = old[i] as number;
      const l = old[i + 1] as number;
      if (h !== 0 || l !== 0) FingerprintSet.put(t, mask, h, l);
    }
    this.table = t;
    this.mask = mask;
  }
}
