/**
 * Canonical encoding and digests (spec/ENCODING.md is the normative prose; D-003..D-006).
 *
 * Canonical bytes are RFC 8785 (JSON Canonicalization Scheme), encoded as UTF-8, written by the
 * one-pass encoder of spec/canonical.ts, which checks the value is in the kit's JSON subset as it
 * goes and writes byte for byte what the maintained `canonicalize` package writes (D-068; the tests
 * compare the two). SHA-256 is node:crypto's where the runtime provides it and @noble/hashes
 * elsewhere, e.g. in a browser (spec/sha256.ts). Every digest is domain-separated:
 *
 *   H(tag, value) = SHA-256( UTF8(tag) || 0x00 || UTF8(JCS(value)) )
 *
 * and is written as the text `sha256:` followed by 64 lowercase hex digits. Numbers inside a
 * hashed value MUST be integers in the IEEE-754 safe range, so that every language's JCS
 * number formatting agrees (D-003).
 */
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { CanonicalEncodingError, encodeCanonical } from "./canonical.ts";
import { SHA256 } from "./sha256.ts";

export { CanonicalEncodingError };

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

/** RFC 8785 canonical JSON text of a value (after checking it is within the kit's JSON subset). */
export const canonicalJson = (value: unknown): string => encodeCanonical(value);

/** UTF-8 bytes of the canonical JSON text. */
export const canonicalBytes = (value: unknown): Uint8Array => utf8ToBytes(canonicalJson(value));

/** The preimage as text: tag, U+0000, canonical text. Its UTF-8 is the preimage (the tags are ASCII). */
const preimageText = (tag: DomainTag, value: unknown): string => `${tag}\0${encodeCanonical(value)}`;

const identityText = (baseDigest: Digest, lineageRoot: Digest): string =>
  `${DOMAIN.identity}\0${baseDigest}\0${lineageRoot}`;

/** The exact bytes that `digestOf(tag, value)` hashes: UTF8(tag) || 0x00 || JCS(value). */
export const preimageOf = (tag: DomainTag, value: unknown): Uint8Array => utf8ToBytes(preimageText(tag, value));

/** Domain-separated digest of a JSON value. */
export const digestOf = (tag: DomainTag, value: unknown): Digest =>
  `sha256:${SHA256.hexOfText(preimageText(tag, value))}`;

/** The exact bytes hashed for an identity: UTF8(tag) || 0x00 || UTF8(base) || 0x00 || UTF8(root). */
export const identityPreimage = (baseDigest: Digest, lineageRoot: Digest): Uint8Array =>
  utf8ToBytes(identityText(baseDigest, lineageRoot));

/**
 * Advaita identity = H(base digest || lineage root) (Samsara paper, "Advaita: Substrate
 * Identity"), with `||` spelled out as a single 0x00 byte between the two digest texts and
 * the identity domain tag in front (D-005).
 */
export const identityOf = (baseDigest: Digest, lineageRoot: Digest): Digest =>
  `sha256:${SHA256.hexOfText(identityText(baseDigest, lineageRoot))}`;

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
