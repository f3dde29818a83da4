/**
 * A fast 64-bit fingerprint of a model world for deduplicating explored states (not the SHA-256
 * spec digest): FNV-1a 64 over the world's structure, each object's fingerprint kept by identity
 * so that a successor world costs what its step changed (structuralHalves, below). A collision
 * would merge two states (probability about n²/2⁶⁵ for n states: negligible below 10⁸ states),
 * which is acceptable for exploration.
 *
 * Symmetry reduction (a scope's `symmetry`) hashes a representative of the world's canonical
 * text under permutations of interchangeable ids instead (symmetry.ts); the text is written
 * directly and kept per object too (worldText). Both split worlds exactly as the canonical
 * encoding (encodeWorld) does (fingerprint.test.ts). The explorer keeps the fingerprints it has
 * seen in a `FingerprintSet`: two 32-bit words per entry in one typed array, so that the visited
 * set's memory is known exactly (about 16 MB per million states at its fullest) rather than the
 * 100-odd bytes a JavaScript Set spends on each 16-character string.
 */
import { encodeWorld, type World } from "../../model/index.ts";

/** JSON with object keys sorted (arrays keep their order; encodeWorld has already sorted maps and sets). */
export const canonicalJson = (x: unknown): string => {
  if (x === null || typeof x !== "object") return JSON.stringify(x) ?? "null";
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(",")}]`;
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
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

/**
 * The canonical text of every object already written, by identity. The model never mutates a
 * world (its transitions copy what they change, model/world.ts), so an object's text never
 * changes, and a successor world shares every part its step did not touch: writing a state costs
 * what its step changed plus the concatenation of the rest, not a walk of the whole world.
 */
const written = new WeakMap<object, string>();

/**
 * A value's canonical text, walked directly: objects with their defined members in key order,
 * Maps as objects keyed by their (string) keys in order, Sets as their members' texts in order,
 * arrays in their own order, scalars as JSON.stringify writes them. It is the text of
 * encodeWorld's canonical encoding up to layout (encodeWorld writes the same maps and sets as
 * sorted arrays), so two worlds have one text exactly when they have one encoding
 * (fingerprint.test.ts compares the two partitions over an exploration); it skips Effect Schema's
 * encoder, which took most of the explorer's time.
 */
const textOf = (x: unknown): string => {
  if (x === null || typeof x !== "object") return JSON.stringify(x) ?? "null";
  const seen = written.get(x);
  if (seen !== undefined) return seen;
  let t: string;
  if (Array.isArray(x)) t = `[${x.map(textOf).join(",")}]`;
  else if (x instanceof Map) {
    const keys = [...(x as Map<string, unknown>).keys()].sort();
    t = `{${keys.map((k) => `${JSON.stringify(k)}:${textOf((x as Map<string, unknown>).get(k))}`).join(",")}}`;
  } else if (x instanceof Set) t = `[${[...(x as Set<unknown>)].map(textOf).sort().join(",")}]`;
  else {
    const o = x as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    t = `{${keys.map((k) => `${JSON.stringify(k)}:${textOf(o[k])}`).join(",")}}`;
  }
  written.set(x, t);
  return t;
};

/** The canonical text of a world: what its fingerprint hashes (and what symmetry.ts renames). */
export const worldText = (world: World): string => textOf(world);

/** The text of encodeWorld's canonical encoding (the reference worldText is tested against). */
export const encodedWorldText = (world: World): string => canonicalJson(encodeWorld(world));

/**
 * A structural 64-bit fingerprint, kept per object like the texts: FNV-1a 64 over a stream of
 * 16-bit units that spells the value's structure (a kind mark, then for a scalar its text, for an
 * array its members' fingerprints in order, for an object or a Map its keys in order each with its
 * value's fingerprint, for a Set its members' fingerprints in ascending order). A successor world
 * costs the objects its step made, each hashed over its members' 64-bit fingerprints rather than
 * their text, so a state costs what its step changed. Equal encodings give equal fingerprints
 * (the stream is a function of the canonical value); unequal ones collide with the probability of
 * a 64-bit hash (the same bound as the text's, see the head of this file).
 */
const structural = new WeakMap<object, readonly [number, number]>();

/** One FNV-1a 64 step over a 16-bit unit, on the halves (hi, lo) held in `h`. */
const mix = (h: [number, number], u: number): void => {
  let lo = h[1] ^ u;
  const loLo = (lo & 0xffff) * 0x1b3;
  const loHi = (lo >>> 16) * 0x1b3;
  const carry = (loLo >>> 16) + (loHi & 0xffff);
  const newLo = ((carry & 0xffff) << 16) | (loLo & 0xffff);
  h[0] = (h[0] * 0x1b3 + (loHi >>> 16) + (carry >>> 16) + ((lo << 8) >>> 0)) >>> 0;
  lo = newLo >>> 0;
  h[1] = lo;
};
const mixText = (h: [number, number], s: string): void => {
  mix(h, s.length & 0xffff);
  for (let i = 0; i < s.length; i++) mix(h, s.charCodeAt(i));
};
const mixPair = (h: [number, number], p: readonly [number, number]): void => {
  mix(h, p[0] >>> 16);
  mix(h, p[0] & 0xffff);
  mix(h, p[1] >>> 16);
  mix(h, p[1] & 0xffff);
};
const KIND = { null: 1, boolean: 2, number: 3, string: 4, array: 5, object: 6, map: 7, set: 8 } as const;

/**
 * Strings' fingerprints: the same ids, digests and texts recur in state after state (V8 keeps a
 * string's hash in the string, so the lookup does not read it again). Bounded: past STRINGS_KEPT
 * entries it starts again empty.
 */
const strings = new Map<string, readonly [number, number]>();
const STRINGS_KEPT = 1 << 20;

const scalarPrint = (x: unknown): readonly [number, number] => {
  if (typeof x === "string") {
    const seen = strings.get(x);
    if (seen !== undefined) return seen;
    const h: [number, number] = [0xcbf29ce4, 0x84222325];
    mix(h, KIND.string);
    mixText(h, x);
    if (strings.size >= STRINGS_KEPT) strings.clear();
    strings.set(x, h);
    return h;
  }
  const h: [number, number] = [0xcbf29ce4, 0x84222325];
  if (x === null || x === undefined) mix(h, KIND.null);
  else {
    mix(h, typeof x === "boolean" ? KIND.boolean : KIND.number);
    mixText(h, String(x));
  }
  return h;
};

const byPair = (a: readonly [number, number], b: readonly [number, number]): number => a[0] - b[0] || a[1] - b[1];

const printOf = (x: unknown): readonly [number, number] => {
  if (x === null || typeof x !== "object") return scalarPrint(x);
  const seen = structural.get(x);
  if (seen !== undefined) return seen;
  const h: [number, number] = [0xcbf29ce4, 0x84222325];
  if (Array.isArray(x)) {
    mix(h, KIND.array);
    mix(h, x.length & 0xffff);
    for (const m of x) mixPair(h, printOf(m));
  } else if (x instanceof Map) {
    mix(h, KIND.map);
    const m = x as Map<string, unknown>;
    for (const k of [...m.keys()].sort()) {
      mixText(h, k);
      mixPair(h, printOf(m.get(k)));
    }
  } else if (x instanceof Set) {
    mix(h, KIND.set);
    for (const p of [...(x as Set<unknown>)].map(printOf).sort(byPair)) mixPair(h, p);
  } else {
    mix(h, KIND.object);
    const o = x as Record<string, unknown>;
    for (const k of Object.keys(o).sort()) {
      if (o[k] === undefined) continue;
      mixText(h, k);
      mixPair(h, printOf(o[k]));
    }
  }
  structural.set(x, h);
  return h;
};

/** A world's structural fingerprint as its two 32-bit halves (what the explorer keeps when no symmetry is declared). */
export const structuralHalves = (world: World): readonly [hi: number, lo: number] => printOf(world);

/** The fingerprint of a world, as 16 hex digits. */
export const fingerprint = (world: World): string => {
  const [hi, lo] = printOf(world);
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
};

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
