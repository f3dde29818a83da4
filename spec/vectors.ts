/**
 * Test vectors for the canonical encoding and every digest the spec defines: input value ->
 * canonical JSON text -> exact preimage bytes (hex) -> digest. Rendered into
 * `spec/vectors/digests.json` so that implementations in any language can check themselves.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import {
  DOMAIN,
  batchDigestOf,
  canonicalJson,
  digestOf,
  genesisVersionOf,
  identityOf,
  identityPreimage,
  preimageOf,
  versionIdOf,
  type Digest,
  type DomainTag,
} from "./digest.ts";
import { distillate, manifest } from "./examples.ts";

export interface DigestVector {
  readonly name: string;
  readonly tag: DomainTag;
  readonly value: unknown;
  readonly canonical: string;
  readonly preimage_hex: string;
  readonly digest: Digest;
}

export interface IdentityVector {
  readonly name: string;
  readonly base_digest: Digest;
  readonly lineage_root: Digest;
  readonly preimage_hex: string;
  readonly identity: Digest;
}

const vector = (name: string, tag: DomainTag, value: unknown): DigestVector => ({
  name,
  tag,
  value,
  canonical: canonicalJson(value),
  preimage_hex: bytesToHex(preimageOf(tag, value)),
  digest: digestOf(tag, value),
});

const BASE: Digest = digestOf(DOMAIN.manifest, { note: "stands in for a base-model digest in these vectors" });
const ROOT = "0b7c6d0e-1111-4222-8333-944455556666";

/** Computes every vector from its inputs. */
export const computeVectors = () => {
  const genesis = genesisVersionOf(BASE, ROOT);
  const emptyState = { entries: [] };
  const emptyStateDigest = digestOf(DOMAIN.storeState, emptyState);
  const d1 = digestOf(DOMAIN.distillate, distillate);
  const state1 = {
    entries: [
      {
        key: "tool.fare_search",
        guidance: "prefer: indexed fare lookup",
        weight: 900_000,
        category: "operational",
        contested: false,
        contributors: ["d-1"],
      },
    ],
  };
  const state1Digest = digestOf(DOMAIN.storeState, state1);
  const batch1 = batchDigestOf([d1]);
  const unicode = {
    guidance: "prefer: caf\u00e9 \u2615 \ud83d\ude80",
    control: 'tab\tbell\u0007quote"',
    n: -42,
    z: 0,
    big: 9007199254740991,
  };

  const digests: DigestVector[] = [
    vector("canonical ordering, escapes and non-ASCII text", DOMAIN.trace, unicode),
    vector("genesis version", DOMAIN.genesis, { base_digest: BASE, root: ROOT }),
    vector("empty store state", DOMAIN.storeState, emptyState),
    vector("distillate (spec/examples.ts)", DOMAIN.distillate, distillate),
    vector("batch of one distillate", DOMAIN.batch, { distillates: [d1] }),
    vector("store state with one entry", DOMAIN.storeState, state1),
    vector("version after the first batch", DOMAIN.version, { parent: genesis, batch: batch1, state: state1Digest }),
    vector("manifest (spec/examples.ts)", DOMAIN.manifest, manifest),
    vector("action signature", DOMAIN.action, {
      identity: identityOf(BASE, genesis),
      nonce: "n-1",
      manifest_digest: digestOf(DOMAIN.manifest, manifest),
      action: { tool: "fare_search", capability: "fare.search", outcome: "ok", tick: 5, trace: ["called fare_search"] },
    }),
    // ENC-2 (review G-1): the five short escapes RFC 8785 uses (\b \t \n \f \r), lowercase \u00xx for
    // the other controls, and U+007F, '/' and non-ASCII written literally. Appended last so that the
    // indices the consistency checks below rely on do not move.
    vector("short escapes and other controls", DOMAIN.trace, {
      entries: [
        "back\bspace",
        "tab\there",
        "new\nline",
        "form\ffeed",
        "carriage\rreturn",
        "nul\u0000unit\u001fdel\u007fslash/",
      ],
    }),
  ];
  const identities: IdentityVector[] = [
    {
      name: "identity of the genesis above",
      base_digest: BASE,
      lineage_root: genesis,
      preimage_hex: bytesToHex(identityPreimage(BASE, genesis)),
      identity: identityOf(BASE, genesis),
    },
  ];
  // Consistency of the helper functions with the generic vectors (guards against drift).
  if (genesis !== digests[1]?.digest) throw new Error("genesisVersionOf disagrees with its vector");
  if (emptyStateDigest !== digests[2]?.digest) throw new Error("state digest disagrees with its vector");
  if (versionIdOf(genesis, batch1, state1Digest) !== digests[6]?.digest) throw new Error("versionIdOf disagrees");
  return {
    format:
      "digest = 'sha256:' + hex(SHA-256(preimage)); preimage = UTF8(tag) || 0x00 || UTF8(RFC 8785 canonical JSON of value); identity preimage = UTF8('advaita/identity/v1') || 0x00 || UTF8(base_digest) || 0x00 || UTF8(lineage_root). See spec/ENCODING.md.",
    digests,
    identities,
  };
};

/** The committed file's exact text. */
export const renderVectors = (): string => `${JSON.stringify(computeVectors(), null, 2)}\n`;
