/**
 * Canonical JSON and the domain-separated digests of spec/ENCODING.md, for the examples.
 *
 *   canonical(v)          ENC-1, ENC-2: RFC 8785 text of an integer-only JSON value
 *   digestOf(name, v)     OP-0.7, ENC-4: "sha256:" + hex(SHA-256(UTF8(tag) ‖ 0x00 ‖ canonical bytes))
 *   identityOf(b, root)   ENC-5: the Advaita identity of a base digest and a lineage root
 *
 * The tag of each name (TAB-1, `domain_tags` of spec/tables.json) is read from the adapter's copy
 * of tables.json, so a tag is never typed twice. spec/vectors/digests.json pins every function
 * here; the kit's test of the examples replays those vectors.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const tables = JSON.parse(readFileSync(new URL("../spec-copy/tables.json", import.meta.url), "utf8"));

/** name → tag (TAB-1), e.g. "storeState" → "samskara/store-state/v1". */
export const DOMAIN_TAGS = new Map(tables.domain_tags.map((t) => [t.name, t.tag]));

/**
 * The canonical text of `value` (ENC-2). Object keys are sorted by UTF-16 code units, which is
 * what Array.prototype.sort does with no comparator; strings are written as JSON.stringify writes
 * them, which is exactly RFC 8785's escaping. Anything outside ENC-1's subset is refused, never
 * rounded: a fraction, a number beyond 2^53 − 1, undefined, a function.
 * @param {unknown} value
 * @param {string} [where] the JSON path so far, for the error message
 * @returns {string}
 */
export const canonical = (value, where = "$") => {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value))
      throw new Error(`canonical JSON: ${where} is ${value}, not an integer in the safe range (ENC-1)`);
    return String(value === 0 ? 0 : value); // -0 is written 0
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => canonical(v, `${where}[${i}]`)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(/** @type {any} */ (value)[k], `${where}.${k}`)}`).join(",")}}`;
  }
  throw new Error(`canonical JSON: ${where} is a ${typeof value}, which JSON cannot hold (ENC-1)`);
};

/** @param {Buffer[]} parts */
const sha256 = (parts) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return `sha256:${h.digest("hex")}`;
};
const NUL = Buffer.from([0]);

/**
 * H(tag, v) of ENC-4 with the tag TAB-1 gives `name`.
 * @param {string} name a TAB-1 name: "manifest", "distillate", "batch", "storeState", "version", "genesis", "action", …
 * @param {unknown} value
 */
export const digestOf = (name, value) => {
  const tag = DOMAIN_TAGS.get(name);
  if (tag === undefined || name === "identity")
    throw new Error(`digestOf: ${JSON.stringify(name)} is not a JSON-valued domain tag of TAB-1`);
  return sha256([Buffer.from(tag, "utf8"), NUL, Buffer.from(canonical(value), "utf8")]);
};

/**
 * The Advaita identity (ENC-5): not a JSON value, but the two digest texts joined by 0x00.
 * @param {string} baseDigest @param {string} lineageRoot the genesis version id
 */
export const identityOf = (baseDigest, lineageRoot) =>
  sha256([
    Buffer.from(/** @type {string} */ (DOMAIN_TAGS.get("identity")), "utf8"),
    NUL,
    Buffer.from(baseDigest, "utf8"),
    NUL,
    Buffer.from(lineageRoot, "utf8"),
  ]);
