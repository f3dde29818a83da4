/**
 * A fast 64-bit fingerprint of a model world for deduplicating explored states: the world's
 * canonical encoding (encodeWorld: maps and sets as sorted arrays) serialised as JSON with sorted
 * object keys, hashed with FNV-1a 64 over its UTF-16 code units (two 32-bit halves, no BigInt in
 * the loop). Not the SHA-256 spec digest: a collision would merge two states (probability about
 * n²/2⁶⁵ for n states: negligible below 10⁸ states), which is acceptable for exploration.
 *
 * Symmetry reduction is not done here (no renaming of instance ids before hashing): ids enter
 * nonces, signatures and digests, so renaming the encoding would not be sound. The scope's
 * `fresh_ids_in_order` takes interchangeable ids in order instead (symmetry by construction).
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

/** FNV-1a 64 of a string's UTF-16 code units, as 16 hex digits. */
export const fnv1a64 = (s: string): string => {
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
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
};

/** The fingerprint of a world. */
export const fingerprint = (world: World): string => fnv1a64(canonicalJson(encodeWorld(world)));
