/**
 * SHA-256 for the spec's digests (D-068): node:crypto's native SHA-256 where the runtime provides
 * it, @noble/hashes everywhere else (a browser, e.g. a page that checks digests, or a Node older
 * than 20.16). Both give the same digest for the same text (spec/canonical.test.ts checks it).
 *
 * node:crypto is reached through `process.getBuiltinModule` rather than a static import, so a
 * bundler never sees a `node:` import and this module stays usable in a browser.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** A SHA-256 implementation: 64 lowercase hex digits of the hash of the UTF-8 of a text, or of bytes. */
export interface Sha256 {
  readonly name: "node:crypto" | "@noble/hashes";
  readonly hexOfText: (text: string) => string;
  readonly hexOfBytes: (bytes: Uint8Array) => string;
}

/** @noble/hashes: the portable implementation (audited, pure JavaScript). */
export const SHA256_NOBLE: Sha256 = {
  name: "@noble/hashes",
  hexOfText: (text) => bytesToHex(sha256(utf8ToBytes(text))),
  hexOfBytes: (bytes) => bytesToHex(sha256(bytes)),
};

/** The part of node:crypto used here. */
export interface NodeCryptoSubset {
  readonly createHash: (algorithm: string) => {
    update(data: string | Uint8Array, encoding?: "utf8"): { digest(encoding: "hex"): string };
  };
  readonly hash?: (algorithm: string, data: string | Uint8Array, outputEncoding: "hex") => string;
}

const loadNodeCrypto = (): NodeCryptoSubset | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const m = proc?.getBuiltinModule?.("node:crypto") as NodeCryptoSubset | undefined;
    return typeof m?.createHash === "function" ? m : undefined;
  } catch {
    return undefined;
  }
};

/** node:crypto's SHA-256 from the module: one-shot `crypto.hash` where it exists (Node >= 20.12), `createHash` otherwise. */
export const nativeSha256 = (c: NodeCryptoSubset): Sha256 => {
  const oneShot = c.hash;
  if (typeof oneShot === "function") {
    return {
      name: "node:crypto",
      hexOfText: (text) => oneShot("sha256", text, "hex"),
      hexOfBytes: (bytes) => oneShot("sha256", bytes, "hex"),
    };
  }
  return {
    name: "node:crypto",
    hexOfText: (text) => c.createHash("sha256").update(text, "utf8").digest("hex"),
    hexOfBytes: (bytes) => c.createHash("sha256").update(bytes).digest("hex"),
  };
};

const nodeCrypto = loadNodeCrypto();

/** node:crypto's SHA-256, or undefined where the runtime does not provide it. */
export const SHA256_NATIVE: Sha256 | undefined = nodeCrypto === undefined ? undefined : nativeSha256(nodeCrypto);

/** The implementation the spec's digests use here: native where there is one, @noble/hashes otherwise. */
export const SHA256: Sha256 = SHA256_NATIVE ?? SHA256_NOBLE;
