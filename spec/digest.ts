/**
 * Canonical encoding and digests (spec/ENCODING.md is the normative prose; D-003..D-006).
 *
 * Canonical bytes are RFC 8785 (JSON Canonicalization Scheme) as produced by the maintained
 * `canonicalize` package, encoded as UTF-8. Every digest is domain-separated:
 *
 *   H(tag, value) = SHA-256( UTF8(tag) || 0x00 || UTF8(JCS(value)) )
 *
 * and is written as the text `sha256:` followed by 64 lowercase hex digits. Numbers inside a
 * hashed value MUST be integers in the IEEE-754 safe range, so that every language's JCS
 * number formatting agrees (D-003).
 */
import canonicalize from "canonicalize";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** `sha256:` + 64 lowercase hex digits. */
export type Digest = `sha256:${string}`;

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

export const isDigest = (s: string): s is Digest => DIGEST_PATTERN.test(s);

/** Domain tags: one per kind of hashed object, versioned so a change of shape changes the tag. */
export const DOMAIN = {
  manifest: "janma/manifest/v1",
  distillate: "samskara/distillate/v1",
  batch: "samskara/batch/v1",
  storeState: "samskara/store-state/v1",
  version: "samskara/version/v1",
  genesis: "samskara/genesis/v1",
  identity: "advaita/identity/v1",
  action: "advaita/action/v1",
  trace: "janma/trace/v1",
  memorySnapshot: "ripa/memory-snapshot/v1",
  identityRecord: "ripa/identity-record/v1",
  bundle: "ripa/bundle/v1",
} as const;
export type DomainTag = (typeof DOMAIN)[keyof typeof DOMAIN];

/** Thrown when a value cannot be canonically encoded (a non-integer number, undefined, a cycle...). */
export class CanonicalEncodingError extends Error {
  override readonly name = "CanonicalEncodingError";
  constructor(readonly path: string, readonly reason: string) {
    super(`cannot canonically encode value at ${path}: ${reason}`);
  }
}

const assertEncodable = (value: unknown, path: string): void => {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new CanonicalEncodingError(path, `number ${String(value)} is not a safe integer`);
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertEncodable(v, `${path}[${i}]`));
    return;
  }
  if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) throw new CanonicalEncodingError(`${path}.${k}`, "undefined is not JSON");
      assertEncodable(v, `${path}.${k}`);
    }
    return;
  }
  throw new CanonicalEncodingError(path, `${typeof value} is not JSON`);
};

/** RFC 8785 canonical JSON text of a value (after checking it is within the kit's JSON subset). */
export const canonicalJson = (value: unknown): string => {
  assertEncodable(value, "$");
  const text = canonicalize(value);
  if (text === undefined) throw new CanonicalEncodingError("$", "value has no JSON encoding");
  return text;
};

/** UTF-8 bytes of the canonical JSON text. */
export const canonicalBytes = (value: unknown): Uint8Array => utf8ToBytes(canonicalJson(value));

const SEPARATOR = new Uint8Array([0]);

const toDigest = (bytes: Uint8Array): Digest => `sha256:${bytesToHex(sha256(bytes))}`;

/** The exact bytes that `digestOf(tag, value)` hashes: UTF8(tag) || 0x00 || JCS(value). */
export const preimageOf = (tag: DomainTag, value: unknown): Uint8Array =>
  concatBytes(utf8ToBytes(tag), SEPARATOR, canonicalBytes(value));

/** Domain-separated digest of a JSON value. */
export const digestOf = (tag: DomainTag, value: unknown): Digest => toDigest(preimageOf(tag, value));

/** The exact bytes hashed for an identity: UTF8(tag) || 0x00 || UTF8(base) || 0x00 || UTF8(root). */
export const identityPreimage = (baseDigest: Digest, lineageRoot: Digest): Uint8Array =>
  concatBytes(utf8ToBytes(DOMAIN.identity), SEPARATOR, utf8ToBytes(baseDigest), SEPARATOR, utf8ToBytes(lineageRoot));

/**
 * Advaita identity = H(base digest || lineage root) (Samsara paper, "Advaita: Substrate
 * Identity"), with `||` spelled out as a single 0x00 byte between the two digest texts and
 * the identity domain tag in front (D-005).
 */
export const identityOf = (baseDigest: Digest, lineageRoot: Digest): Digest =>
  toDigest(identityPreimage(baseDigest, lineageRoot));

/** Genesis version of a lineage: binds the base model digest and a caller-supplied unique root. */
export const genesisVersionOf = (baseDigest: Digest, root: string): Digest =>
  digestOf(DOMAIN.genesis, { base_digest: baseDigest, root });

/** Version id = H(parent version, batch digest, store-state digest). */
export const versionIdOf = (parent: Digest, batchDigest: Digest, stateDigest: Digest): Digest =>
  digestOf(DOMAIN.version, { parent, batch: batchDigest, state: stateDigest });

/** Batch digest = H(sorted, de-duplicated distillate digests). */
export const batchDigestOf = (distillateDigests: readonly Digest[]): Digest =>
  digestOf(DOMAIN.batch, { distillates: [...new Set(distillateDigests)].sort() });

/** Compare two strings by UTF-16 code units, the order RFC 8785 uses for keys (D-003). */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
