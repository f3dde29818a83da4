import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CanonicalEncodingError,
  DOMAIN,
  batchDigestOf,
  canonicalJson,
  digestOf,
  genesisVersionOf,
  identityOf,
  isDigest,
} from "./digest.ts";

/**
 * An independent canonicaliser for the kit's JSON subset (integers, strings, booleans, null,
 * arrays, objects with keys sorted by UTF-16 code unit). It shares no code with `canonicalize`.
 */
const independentCanonical = (v: unknown): string => {
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(independentCanonical).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${independentCanonical(o[k])}`)
    .join(",")}}`;
};
const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * String escaping exactly as ENC-2's prose states it (review G-1), written from the text rather
 * than with JSON.stringify, so that the prose and the vectors are checked against each other.
 */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: "\\b",
  9: "\\t",
  10: "\\n",
  12: "\\f",
  13: "\\r",
};
const enc2String = (s: string): string => {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (SHORT_ESCAPES[cp] !== undefined) out += SHORT_ESCAPES[cp];
    else if (cp < 0x20) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
};
const enc2Canonical = (v: unknown): string => {
  if (typeof v === "string") return enc2String(v);
  if (v === null || typeof v === "boolean" || typeof v === "number") return String(v);
  if (Array.isArray(v)) return `[${v.map(enc2Canonical).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${enc2String(k)}:${enc2Canonical(o[k])}`)
    .join(",")}}`;
};

interface VectorsFile {
  digests: { name: string; tag: string; value: unknown; canonical: string; preimage_hex: string; digest: string }[];
  identities: { name: string; base_digest: string; lineage_root: string; preimage_hex: string; identity: string }[];
}
const vectors = JSON.parse(readFileSync("spec/vectors/digests.json", "utf8")) as VectorsFile;

describe("digest test vectors (spec/vectors/digests.json)", () => {
  it("cover every domain that the store algebra and identity use", () => {
    const tags = new Set(vectors.digests.map((d) => d.tag));
    for (const t of [
      DOMAIN.genesis,
      DOMAIN.storeState,
      DOMAIN.distillate,
      DOMAIN.batch,
      DOMAIN.version,
      DOMAIN.action,
      DOMAIN.manifest,
    ])
      expect(tags, t).toContain(t);
    expect(vectors.identities.length).toBeGreaterThan(0);
  });

  for (const v of vectors.digests) {
    it(`reproduces '${v.name}' byte for byte, independently of the implementation under test`, () => {
      expect(canonicalJson(v.value)).toBe(v.canonical);
      expect(independentCanonical(v.value)).toBe(v.canonical);
      expect(enc2Canonical(v.value)).toBe(v.canonical);
      const preimage = Buffer.concat([Buffer.from(v.tag, "utf8"), Buffer.from([0]), Buffer.from(v.canonical, "utf8")]);
      expect(preimage.toString("hex")).toBe(v.preimage_hex);
      expect(`sha256:${sha256Hex(preimage)}`).toBe(v.digest);
      expect(digestOf(v.tag as never, v.value)).toBe(v.digest);
    });
  }

  for (const v of vectors.identities) {
    it(`reproduces identity '${v.name}' with the separator spelled out`, () => {
      const preimage = Buffer.concat([
        Buffer.from(DOMAIN.identity),
        Buffer.from([0]),
        Buffer.from(v.base_digest),
        Buffer.from([0]),
        Buffer.from(v.lineage_root),
      ]);
      expect(preimage.toString("hex")).toBe(v.preimage_hex);
      expect(`sha256:${sha256Hex(preimage)}`).toBe(v.identity);
      expect(identityOf(v.base_digest as never, v.lineage_root as never)).toBe(v.identity);
    });
  }
});

describe("ENC-2 string escapes (review G-1)", () => {
  it("the vectors include every short escape, another control, U+007F and a slash", () => {
    const canon = vectors.digests.map((d) => d.canonical).join("");
    for (const esc of ["\\b", "\\t", "\\n", "\\f", "\\r", "\\u0000", "\\u001f", "\\u0007"])
      expect(canon, esc).toContain(esc);
    expect(canon).toContain("\u007f");
    expect(canon).toContain("slash/");
  });
  it("a control written as \\u00xx where ENC-2 demands a short escape gives another digest", () => {
    const right = canonicalJson({ s: "a\tb" });
    expect(right).toBe('{"s":"a\\tb"}');
    expect(right).not.toBe('{"s":"a\\u0009b"}');
    expect(enc2Canonical({ s: "\u0001\u000b" })).toBe(canonicalJson({ s: "\u0001\u000b" }));
  });
});

describe("canonical encoding and digests", () => {
  const base = digestOf(DOMAIN.manifest, { x: 1 });

  it("is insensitive to key order and whitespace, sensitive to content", () => {
    expect(digestOf(DOMAIN.distillate, { a: 1, b: [1, 2] })).toBe(digestOf(DOMAIN.distillate, { b: [1, 2], a: 1 }));
    expect(digestOf(DOMAIN.distillate, { a: 1 })).not.toBe(digestOf(DOMAIN.distillate, { a: 2 }));
    expect(digestOf(DOMAIN.distillate, { b: [1, 2] })).not.toBe(digestOf(DOMAIN.distillate, { b: [2, 1] }));
  });

  it("separates domains: the same value under two tags has two digests", () => {
    expect(digestOf(DOMAIN.batch, { distillates: [] })).not.toBe(digestOf(DOMAIN.storeState, { distillates: [] }));
  });

  it("rejects values outside the integer-only JSON subset (D-003), naming where", () => {
    expect(() => canonicalJson({ w: 0.9 })).toThrow(CanonicalEncodingError);
    expect(() => canonicalJson({ a: [1, { w: 0.5 }] })).toThrow(/\$\.a\[1\]\.w/);
    expect(() => canonicalJson({ a: undefined })).toThrow(/undefined/);
    expect(() => canonicalJson({ n: 2 ** 60 })).toThrow(/safe integer/);
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
  });

  it("batch digests ignore member order and duplicates (D-006)", () => {
    const [x, y] = [digestOf(DOMAIN.distillate, { i: 1 }), digestOf(DOMAIN.distillate, { i: 2 })];
    expect(batchDigestOf([x, y])).toBe(batchDigestOf([y, x, y]));
    expect(batchDigestOf([x])).not.toBe(batchDigestOf([x, y]));
  });

  it("identity depends on both the base digest and the lineage root (AD-1, D-005)", () => {
    const g1 = genesisVersionOf(base, "root-1");
    const g2 = genesisVersionOf(base, "root-2");
    expect(identityOf(base, g1)).not.toBe(identityOf(base, g2));
    expect(identityOf(base, g1)).not.toBe(identityOf(digestOf(DOMAIN.manifest, { x: 2 }), g1));
    expect(isDigest(identityOf(base, g1))).toBe(true);
    expect(isDigest("sha256:ABC")).toBe(false);
  });
});
