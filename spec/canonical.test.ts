/**
 * The one-pass canonical encoder (spec/canonical.ts) and the SHA-256 choice (spec/sha256.ts),
 * D-068: byte equality with the `canonicalize` package on the digest vectors and on generated
 * values of the JSON subset, the refusals with their paths, and the native and portable SHA-256
 * giving the same digests.
 */
import * as nodeCrypto from "node:crypto";
import { readFileSync } from "node:fs";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CYCLE_CHECK_DEPTH, CanonicalEncodingError, encodeCanonical } from "./canonical.ts";
import {
  DOMAIN,
  canonicalJson,
  digestOf,
  identityOf,
  identityPreimage,
  preimageOf,
  type Digest,
  type DomainTag,
} from "./digest.ts";
import { SHA256, SHA256_NATIVE, SHA256_NOBLE, nativeSha256, type Sha256 } from "./sha256.ts";

interface VectorsFile {
  digests: { name: string; tag: DomainTag; value: unknown; canonical: string; digest: string }[];
  identities: { name: string; base_digest: Digest; lineage_root: Digest; identity: string }[];
}
const vectors = JSON.parse(readFileSync("spec/vectors/digests.json", "utf8")) as VectorsFile;

const native = SHA256_NATIVE as Sha256;
const { hash: _oneShot, ...withoutOneShot } = nodeCrypto;
/** node:crypto without `crypto.hash`, as on a Node older than 20.12: the createHash branch. */
const createHashOnly = nativeSha256(withoutOneShot as never);
const IMPLEMENTATIONS: readonly Sha256[] = [native, createHashOnly, SHA256_NOBLE];

/** What `canonicalize` does with a value: its text, or that it refused. */
const reference = (v: unknown): { text: string } | { refused: true } => {
  try {
    const text = canonicalize(v);
    return text === undefined ? { refused: true } : { text };
  } catch {
    return { refused: true };
  }
};
const ours = (v: unknown): { text: string } | { refused: true } => {
  try {
    return { text: encodeCanonical(v) };
  } catch (e) {
    if (!(e instanceof CanonicalEncodingError)) throw e;
    return { refused: true };
  }
};

describe("the encoder writes what canonicalize writes", () => {
  it("on every digest vector (spec/vectors/digests.json), and every digest is the same with each SHA-256", () => {
    expect(vectors.digests.length).toBeGreaterThanOrEqual(10);
    for (const v of vectors.digests) {
      expect(encodeCanonical(v.value), v.name).toBe(v.canonical);
      expect(canonicalize(v.value), v.name).toBe(v.canonical);
      expect(digestOf(v.tag, v.value), v.name).toBe(v.digest);
      const text = `${v.tag}\0${v.canonical}`;
      for (const sha of IMPLEMENTATIONS) {
        expect(`sha256:${sha.hexOfText(text)}`, `${v.name} by ${sha.name}`).toBe(v.digest);
        expect(`sha256:${sha.hexOfBytes(preimageOf(v.tag, v.value))}`, `${v.name} by ${sha.name}`).toBe(v.digest);
      }
    }
    for (const v of vectors.identities) {
      expect(identityOf(v.base_digest, v.lineage_root)).toBe(v.identity);
      for (const sha of IMPLEMENTATIONS)
        expect(`sha256:${sha.hexOfBytes(identityPreimage(v.base_digest, v.lineage_root))}`).toBe(v.identity);
    }
  });

  /** Strings: any UTF-16 (lone surrogates included), controls, quotes, backslashes and escape look-alikes. */
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.string({
      unit: fc.constantFrom(
        "a",
        '"',
        "\\",
        "\u0000",
        "\u001f",
        "\u007f",
        "/",
        "é",
        "\u2028",
        "😀",
        "\ud800",
        "\udc00",
        "u",
        "d",
        "8",
      ),
      maxLength: 10,
    }),
    fc.constantFrom(
      "\\ud800",
      "\\\\ud800",
      `sha256:${"ab".repeat(32)}`,
      "",
      "__proto__",
      "constructor",
      "toString",
      "10",
      "9",
      "-1",
      "1.5",
    ),
  );
  const key = fc.oneof(
    text,
    fc.constantFrom("a", "b", "B", "aa", "é", "\u{1f600}", "\uffff", "0", "01", "1", "2", "10"),
  );
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
    text,
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
    array: fc.oneof(fc.array(tie("value"), { maxLength: 6 }), fc.array(scalar, { maxLength: 8 })),
    object: fc.dictionary(key, tie("value"), { maxKeys: 6 }),
  }));

  /** The same value with every object's keys inserted in code-unit order (the encoder's JSON.stringify path). */
  const sortedCopy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortedCopy);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort())
      Object.defineProperty(out, k, {
        value: sortedCopy((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  /** fc.jsonValue with every number made a safe integer (the subset has no fractions). */
  const toSubset = (v: unknown): unknown => {
    if (typeof v === "number")
      return Number.isSafeInteger(v) ? v : Number.isFinite(v) ? Math.trunc(v) % Number.MAX_SAFE_INTEGER : 0;
    if (Array.isArray(v)) return v.map(toSubset);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: toSubset(x), enumerable: true, writable: true, configurable: true });
    return out;
  };

  const RUNS = 1500;
  it(`on ${RUNS} generated values of the subset and their key-sorted copies, and ${RUNS} from fc.jsonValue: the same text, or both refuse`, () => {
    const count = { generated: 0, encoded: 0, refused: 0 };
    const check = (v: unknown): void => {
      count.generated++;
      const want = reference(v);
      const got = ours(v);
      expect(got).toEqual(want);
      if ("text" in got) {
        count.encoded++;
        expect(canonicalJson(v)).toBe(got.text);
        const tag = DOMAIN.distillate;
        const digests = IMPLEMENTATIONS.map((sha) => `sha256:${sha.hexOfText(`${tag}\0${got.text}`)}`);
        expect(
          new Set([...digests, digestOf(tag, v), `sha256:${SHA256_NOBLE.hexOfBytes(preimageOf(tag, v))}`]).size,
        ).toBe(1);
      } else {
        count.refused++;
        expect(() => digestOf(DOMAIN.distillate, v)).toThrow(CanonicalEncodingError);
      }
    };
    fc.assert(
      fc.property(value, (v) => {
        check(v);
        check(sortedCopy(v));
      }),
      { numRuns: RUNS, seed: 68 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }).map(toSubset), (v) => check(v)),
      { numRuns: RUNS, seed: 8785 },
    );
    expect(count.generated).toBe(3 * RUNS);
    expect(count.encoded + count.refused).toBe(3 * RUNS);
    // Lone surrogates are generated often enough to be refused many times, and most values encode.
    expect(count.refused).toBeGreaterThan(100);
    expect(count.encoded).toBeGreaterThan(2 * RUNS);
  });

  it("writes strings as JSON.stringify does, with and without the JSON.stringify paths", () => {
    const strings = [
      "",
      "plain",
      'q"uote',
      "back\\slash",
      "\\ud800",
      "\\\\ud800",
      "tab\there",
      "\u0000\u0001\u001f",
      "\u007f/é😀\u2028\u2029",
      "\ud83d\ude00",
    ];
    for (const s of strings) {
      expect(encodeCanonical(s)).toBe(JSON.stringify(s));
      expect(encodeCanonical([s, s])).toBe(JSON.stringify([s, s]));
      expect(encodeCanonical({ [s]: s })).toBe(canonicalize({ [s]: s }));
      expect(encodeCanonical({ z: { [s]: [s] }, a: 1 })).toBe(canonicalize({ z: { [s]: [s] }, a: 1 }));
    }
    expect(encodeCanonical(-0)).toBe("0");
    expect(encodeCanonical({ "10": 1, "9": 2, b: 3, B: 4, é: 5, "\u{1f600}": 6, "\uffff": 7 })).toBe(
      '{"10":1,"9":2,"B":4,"b":3,"é":5,"😀":6,"\uffff":7}',
    );
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i]));
    expect(encodeCanonical(many)).toBe(canonicalize(many));
  });

  it("encodes shared (not cyclic) references, also below the depth where cycles are tracked", () => {
    const shared = { x: [1, 2] };
    expect(encodeCanonical({ a: shared, b: [shared, shared] })).toBe(canonicalize({ a: shared, b: [shared, shared] }));
    let deep: unknown = shared;
    for (let i = 0; i < CYCLE_CHECK_DEPTH + 20; i++) deep = i % 2 === 0 ? [deep, shared] : { n: deep, m: shared };
    expect(encodeCanonical(deep)).toBe(canonicalize(deep));
  });
});

describe("the encoder refuses what is outside the subset, naming where", () => {
  const refusal = (v: unknown): { path: string; reason: string } => {
    try {
      encodeCanonical(v);
    } catch (e) {
      if (e instanceof CanonicalEncodingError) return { path: e.path, reason: e.reason };
      throw e;
    }
    throw new Error("not refused");
  };

  it("undefined, fractions, unsafe integers, NaN, infinities and non-JSON types, with the same paths and reasons as before", () => {
    expect(refusal({ a: [{ b: undefined }] })).toEqual({ path: "$.a[0].b", reason: "undefined is not JSON" });
    expect(refusal({ a: [1, { w: 0.5 }] })).toEqual({ path: "$.a[1].w", reason: "number 0.5 is not a safe integer" });
    expect(refusal({ n: 2 ** 60 })).toEqual({ path: "$.n", reason: `number ${2 ** 60} is not a safe integer` });
    expect(refusal([Number.NaN])).toEqual({ path: "$[0]", reason: "number NaN is not a safe integer" });
    expect(refusal({ x: { y: -Infinity } })).toEqual({
      path: "$.x.y",
      reason: "number -Infinity is not a safe integer",
    });
    expect(refusal(0.1)).toEqual({ path: "$", reason: "number 0.1 is not a safe integer" });
    expect(refusal(undefined)).toEqual({ path: "$", reason: "undefined is not JSON" });
    expect(refusal([undefined])).toEqual({ path: "$[0]", reason: "undefined is not JSON" });
    expect(refusal([1, undefined, 3])).toEqual({ path: "$[1]", reason: "undefined is not JSON" });
    expect(refusal({ f: [1, () => 1] })).toEqual({ path: "$.f[1]", reason: "function is not JSON" });
    expect(refusal({ s: Symbol("s") })).toEqual({ path: "$.s", reason: "symbol is not JSON" });
    expect(refusal({ b: [10n] })).toEqual({ path: "$.b[0]", reason: "bigint is not JSON" });
    expect(() => canonicalJson({ a: { b: [0, 1.5] } })).toThrow(
      "cannot canonically encode value at $.a.b[1]: number 1.5 is not a safe integer",
    );
    expect(() => digestOf(DOMAIN.batch, { a: undefined })).toThrow(CanonicalEncodingError);
  });

  it("lone surrogates, in values and in keys (D-044), as canonicalize does", () => {
    expect(refusal({ x: ["ok", "a\ud800"] })).toEqual({
      path: "$.x[1]",
      reason: "a string with a lone surrogate is not Unicode text (D-044)",
    });
    expect(refusal({ x: { "\udc00": 1 } }).path).toBe("$.x.\udc00");
    expect(refusal("\udc00\ud800").path).toBe("$");
    expect(() => canonicalize({ x: ["ok", "a\ud800"] })).toThrow(/Lone surrogate/);
    expect(encodeCanonical("\ud800\udc00")).toBe('"\ud800\udc00"');
  });

  it("objects with toJSON (a Date), which canonicalize would convert", () => {
    expect(refusal({ when: new Date(0) })).toEqual({
      path: "$.when",
      reason: "Date with a toJSON method is not in the JSON subset",
    });
    expect(refusal([{ toJSON: () => 1 }])).toEqual({
      path: "$[0]",
      reason: "Object with a toJSON method is not in the JSON subset",
    });
    // A toJSON JSON.stringify would call though Object.keys does not list it, in a value whose keys are in order.
    const hidden = { a: 1 };
    Object.defineProperty(hidden, "toJSON", { value: () => "converted", enumerable: false });
    expect(refusal({ a: [hidden], b: 2 })).toEqual({
      path: "$.a[0]",
      reason: "Object with a toJSON method is not in the JSON subset",
    });
    expect(refusal({ a: Object.assign([1, 2], { toJSON: () => 3 }) }).path).toBe("$.a");
  });

  it("cycles, through objects and arrays, without hanging", () => {
    const o: Record<string, unknown> = { a: 1 };
    o["self"] = o;
    const r = refusal({ top: o });
    expect(r.reason).toBe("the value contains a cycle");
    expect(r.path.startsWith("$.top.self.self")).toBe(true);
    const arr: unknown[] = [1];
    arr.push({ back: arr });
    expect(refusal(arr).reason).toBe("the value contains a cycle");
    expect(refusal(arr).path).toMatch(/^\$\[1\]\.back\[1\]\.back/);
    expect(() => digestOf(DOMAIN.distillate, o)).toThrow(CanonicalEncodingError);
  });

  it("values nested deeper than the stack allows", () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(refusal(v)).toMatchObject({ path: "$" });
    expect(refusal(v).reason).toMatch(/nested too deeply/);
  });
});

describe("SHA-256: native where Node provides it, @noble/hashes elsewhere (D-068)", () => {
  it("digestOf uses node:crypto here (Node >= 20.16 has process.getBuiltinModule)", () => {
    expect(typeof process.getBuiltinModule).toBe("function");
    expect(SHA256).toBe(SHA256_NATIVE);
    expect(SHA256.name).toBe("node:crypto");
  });

  it("the three implementations agree on texts with non-ASCII characters and on bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (s, bytes) => {
        const hex = new Set(IMPLEMENTATIONS.map((sha) => sha.hexOfText(s)));
        expect(hex.size).toBe(1);
        expect(new Set(IMPLEMENTATIONS.map((sha) => sha.hexOfBytes(bytes))).size).toBe(1);
        expect(SHA256_NOBLE.hexOfText(s)).toBe(
          nodeCrypto.createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex"),
        );
      }),
      { numRuns: 200, seed: 20 },
    );
  });

  it("the spec's encoding and hashing modules import nothing from node: (they must bundle for a browser)", () => {
    for (const f of ["spec/canonical.ts", "spec/sha256.ts", "spec/digest.ts"]) {
      expect(readFileSync(f, "utf8"), f).not.toMatch(/from\s+["']node:|import\(\s*["']node:|require\(/);
    }
  });
});
