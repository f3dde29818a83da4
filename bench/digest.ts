/**
 * Digest: the spec's `digestOf` (spec/digest.ts: the one-pass canonical encoder of
 * spec/canonical.ts and SHA-256 by node:crypto where Node provides it, D-068) against
 * node:crypto's SHA-256 over the same bytes (the preimage `digestOf` hashes), on three values the
 * kit digests all the time: a version id's fields (small), a distillate (medium) and an aggregated
 * store state of 1,000 distillates (large). The goal rows come from the real `digestOf`. The steps
 * say where its time goes (the encoder; hashing the preimage text, UTF-8 and hex included), and
 * the path before D-068 is timed too, step by step, for comparison: the JSON-subset check,
 * `canonicalize`, UTF-8 encoding and concatenation, @noble/hashes SHA-256, hex.
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { DOMAIN, canonicalJson, digestOf, preimageOf, type DomainTag, type SamskaraDistillate } from "../spec/index.ts";
import { SHA256 } from "../spec/sha256.ts";
import { aggregate } from "../model/index.ts";
import type { BenchContext } from "./context.ts";
import { evaluate, type Goal } from "./goals.ts";
import { figure, rateFigure, sig, type Figure } from "./stats.ts";

export interface DigestWorkload {
  readonly name: string;
  readonly tag: DomainTag;
  readonly bytes: number;
  readonly digest_per_s: Figure;
  readonly node_per_s: Figure;
  /** The SHA-256 `digestOf` used (spec/sha256.ts). Absent from reports made before D-068 (then @noble/hashes). */
  readonly sha256?: string;
  /**
   * Median microseconds, each timed on its own. `total` is one digestOf and `sha256_node`
   * node:crypto's SHA-256 of the same preimage bytes (the baseline); `encoder` (the canonical text
   * by spec/canonical.ts, the subset check included) and `sha256_used` (SHA-256 of the preimage text
   * by the implementation digestOf uses, UTF-8 encoding and hex included) are digestOf's two steps.
   * The path before D-068, for comparison: `check` (the former JSON-subset walk), `canonicalize`,
   * `encode` (UTF-8 encoding and concatenation of the preimage), `sha256_noble`, `hex`, and
   * `before_total`, the whole of it. Reports made before D-068 have only the former steps (then
   * `check` was canonicalJson less canonicalize, and `total` was the former path).
   */
  readonly steps_us: {
    readonly check: number;
    readonly canonicalize: number;
    readonly encode: number;
    readonly sha256_noble: number;
    readonly hex: number;
    readonly sha256_node: number;
    readonly total: number;
    /** JSON.stringify of the same value (not canonical: a reference for the encoding's cost). */
    readonly json_stringify: number;
    readonly encoder?: number;
    readonly sha256_used?: number;
    readonly before_total?: number;
  };
}

export interface DigestResult {
  readonly workloads: readonly DigestWorkload[];
}

const D = (x: string): `sha256:${string}` => `sha256:${x.repeat(64 / x.length)}`;

const distillate = (k: number, keys: number): SamskaraDistillate => ({
  distillate_id: `d${k}`,
  source: { identity: D("ab"), nonce: `n${k}`, instance_id: `i${k}` },
  born_from: D("ef"),
  signal: {
    valence: k % 2 === 0 ? 400_000 : -300_000,
    confidence: 250_000 + (k % 5) * 100_000,
    model_version: null,
    explicit: true,
  },
  dispositions: Array.from({ length: keys }, (_, j) => ({
    key: `k.${"abcdefgh"[(k + j * 3) % 8] ?? "a"}`,
    guidance: ["prefer early departures", "ask before booking", "check refund terms"][(k + j) % 3] ?? "g",
    weight: k % 2 === 0 ? 100_000 + j : -(100_000 + j),
    evidence_digest: D("cd"),
    category: "operational" as const,
  })),
});

export const DIGEST_WORKLOADS = [
  "small (version id fields)",
  "medium (a distillate)",
  "large (store state of 1,000 distillates)",
] as const;

const WORKLOADS = (): { name: string; tag: DomainTag; value: unknown }[] => [
  { name: DIGEST_WORKLOADS[0], tag: DOMAIN.version, value: { parent: D("ab"), batch: D("cd"), state: D("ef") } },
  { name: DIGEST_WORKLOADS[1], tag: DOMAIN.distillate, value: distillate(1, 3) },
  {
    name: DIGEST_WORKLOADS[2],
    tag: DOMAIN.storeState,
    value: aggregate(Array.from({ length: 1_000 }, (_, k) => distillate(k, 2))),
  },
];

export const DIGEST_GOAL_SPEC = { comparator: ">=", target: 0.3, kind: "ratio" } as const;
export const digestGoalName = (workload: string): string =>
  `Digest, ${workload}: digestOf ÷ node:crypto SHA-256 of the same bytes`;

const SEPARATOR = new Uint8Array([0]);

/** The JSON-subset walk spec/digest.ts ran before `canonicalize` until D-068 (kept here to time the former path). */
const formerCheck = (value: unknown, path: string): void => {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`${path}: not a safe integer`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => formerCheck(v, `${path}[${i}]`));
    return;
  }
  if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) throw new Error(`${path}.${k}: undefined`);
      formerCheck(v, `${path}.${k}`);
    }
    return;
  }
  throw new Error(`${path}: not JSON`);
};

/** digestOf as it was before D-068: the check, canonicalize, concatenation, @noble/hashes, hex. */
const formerDigestOf = (tag: DomainTag, value: unknown): string => {
  formerCheck(value, "$");
  const text = canonicalize(value) ?? "";
  return `sha256:${bytesToHex(sha256(concatBytes(utf8ToBytes(tag), SEPARATOR, utf8ToBytes(text))))}`;
};

/** Microseconds per call of `f`, timed over enough calls to take about `ms`. */
const usPer = (f: () => unknown, ms: number): number => {
  let n = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    const spent = performance.now() - t;
    if (spent >= ms) return (spent * 1000) / n;
    n = Math.min(n * 4, Math.ceil((n * ms * 1.2) / Math.max(spent, 0.01)));
  }
};

export const runDigest = (ctx: BenchContext): { result: DigestResult; goals: Goal[] } => {
  const reps = ctx.quick ? 2 : 5;
  const sliceMs = ctx.quick ? 20 : 120;
  const workloads: DigestWorkload[] = [];
  for (const w of WORKLOADS()) {
    ctx.log(`bench: digest: ${w.name}`);
    const pre = preimageOf(w.tag, w.value);
    const digest = digestOf(w.tag, w.value);
    if (
      createHash("sha256").update(pre).digest("hex") !== digest.slice("sha256:".length) ||
      formerDigestOf(w.tag, w.value) !== digest
    ) {
      throw new Error(`digest bench: node:crypto, the former path and digestOf disagree on ${w.name}`);
    }
    const measured: { count: number; ms: number }[] = [];
    const baseline: { count: number; ms: number }[] = [];
    const steps: Record<keyof DigestWorkload["steps_us"], number[]> = {
      check: [],
      canonicalize: [],
      encode: [],
      sha256_noble: [],
      hex: [],
      sha256_node: [],
      total: [],
      json_stringify: [],
      encoder: [],
      sha256_used: [],
      before_total: [],
    };
    for (let r = 0; r < reps; r++) {
      const total = usPer(() => digestOf(w.tag, w.value), sliceMs);
      const node = usPer(() => createHash("sha256").update(pre).digest("hex"), sliceMs);
      measured.push({ count: 1, ms: total / 1000 });
      baseline.push({ count: 1, ms: node / 1000 });
      const text = canonicalJson(w.value);
      const preText = `${w.tag}\0${text}`;
      const tag = utf8ToBytes(w.tag);
      const hash = sha256(pre);
      steps.total.push(total);
      steps.sha256_node.push(node);
      steps.encoder.push(usPer(() => canonicalJson(w.value), sliceMs / 2));
      steps.sha256_used.push(usPer(() => SHA256.hexOfText(preText), sliceMs / 2));
      steps.before_total.push(usPer(() => formerDigestOf(w.tag, w.value), sliceMs / 2));
      steps.check.push(usPer(() => formerCheck(w.value, "$"), sliceMs / 4));
      steps.canonicalize.push(usPer(() => canonicalize(w.value), sliceMs / 4));
      steps.encode.push(usPer(() => concatBytes(tag, SEPARATOR, utf8ToBytes(text)), sliceMs / 4));
      steps.sha256_noble.push(usPer(() => sha256(pre), sliceMs / 4));
      steps.hex.push(usPer(() => `sha256:${bytesToHex(hash)}`, sliceMs / 4));
      steps.json_stringify.push(usPer(() => JSON.stringify(w.value), sliceMs / 4));
    }
    const med = (xs: number[]): number => figure(xs, "µs").median;
    workloads.push({
      name: w.name,
      tag: w.tag,
      bytes: pre.length,
      sha256: SHA256.name,
      digest_per_s: rateFigure(measured, "digests/s"),
      node_per_s: rateFigure(baseline, "digests/s"),
      steps_us: {
        check: med(steps.check),
        canonicalize: med(steps.canonicalize),
        encode: med(steps.encode),
        sha256_noble: med(steps.sha256_noble),
        hex: med(steps.hex),
        sha256_node: med(steps.sha256_node),
        total: med(steps.total),
        json_stringify: med(steps.json_stringify),
        encoder: med(steps.encoder),
        sha256_used: med(steps.sha256_used),
        before_total: med(steps.before_total),
      },
    });
  }
  return { result: { workloads }, goals: workloads.map(digestGoal) };
};

export const digestGoal = (w: DigestWorkload): Goal => {
  const s = w.steps_us;
  const bytes = w.bytes.toLocaleString("en-US");
  const baseline = {
    value: w.node_per_s.median,
    unit: "digests/s",
    label: `node:crypto SHA-256 over the same ${bytes}-byte preimage`,
  };
  const common = {
    name: digestGoalName(w.name),
    section: "digest",
    baseline,
    ratio: w.digest_per_s.median / w.node_per_s.median,
    goal: DIGEST_GOAL_SPEC,
  } as const;
  if (s.encoder === undefined || s.sha256_used === undefined) return formerDigestGoal(w, common);
  const sha = w.sha256 ?? "node:crypto";
  const steps = s.encoder + s.sha256_used;
  const pct = (x: number): string => `${sig((x / steps) * 100)}%`;
  const before =
    s.before_total === undefined
      ? ""
      : `; before D-068 (a JSON-subset check, canonicalize, @noble/hashes) one digest took ${sig(s.before_total)} µs, ${sig(s.before_total / s.total)}× as long`;
  const where = `One digestOf takes ${sig(s.total)} µs; timed one by one, its steps take: the canonical encoder (subset check and text in one pass) ${sig(s.encoder)} µs (${pct(s.encoder)} of the steps), ${sha} SHA-256 of the preimage text (UTF-8 and hex included) ${sig(s.sha256_used)} µs (${pct(s.sha256_used)}); node:crypto hashes the same ${bytes} bytes in ${sig(s.sha256_node)} µs${before}`;
  // Even a native encoder has to write the text: JSON.stringify (native, not canonical) bounds what an encoder can reach.
  const cap = s.sha256_node / Math.max(s.json_stringify + s.sha256_used, 1e-9);
  return evaluate({
    ...common,
    measured: { value: w.digest_per_s.median, unit: "digests/s", label: `digestOf (one-pass encoder + ${sha})` },
    whenMet: `${where}.`,
    whenShort: `${where}. The encoding is what falls short: JSON.stringify of the same value (native, and not canonical) takes ${sig(s.json_stringify)} µs against ${sig(s.encoder)} µs for the encoder, so even an encoder as fast as JSON.stringify would reach ${sig(cap)}× here.`,
  });
};

/** The goal of a report made before D-068 (canonicalize + @noble/hashes), re-rendered from its data. */
const formerDigestGoal = (
  w: DigestWorkload,
  common: Omit<Parameters<typeof evaluate>[0], "measured" | "whenMet" | "whenShort">,
): Goal => {
  const s = w.steps_us;
  const sum = s.check + s.canonicalize + s.encode + s.sha256_noble + s.hex;
  const pct = (x: number): string => `${sig((x / sum) * 100)}%`;
  const where = `One digestOf takes ${sig(s.total)} µs; timed one by one, its steps take: the JSON-subset check ${sig(s.check)} µs (${pct(s.check)} of the steps), canonicalize ${sig(s.canonicalize)} µs (${pct(s.canonicalize)}), UTF-8 encoding and concatenation ${sig(s.encode)} µs (${pct(s.encode)}), @noble/hashes SHA-256 ${sig(s.sha256_noble)} µs (${pct(s.sha256_noble)}), hex ${sig(s.hex)} µs (${pct(s.hex)}); node:crypto hashes the same ${w.bytes.toLocaleString("en-US")} bytes in ${sig(s.sha256_node)} µs`;
  const hashOnly = s.sha256_node / s.sha256_noble;
  const noHash = s.sha256_node / Math.max(sum - s.sha256_noble + s.sha256_node, 1e-9);
  return evaluate({
    ...common,
    measured: { value: w.digest_per_s.median, unit: "digests/s", label: "digestOf (canonicalize + @noble/hashes)" },
    whenMet: `${where}.`,
    whenShort: `${where}. Hashing alone, @noble/hashes runs at ${sig(hashOnly)}× node:crypto (native code). ${
      noHash >= DIGEST_GOAL_SPEC.target
        ? `With node:crypto hashing the same encoding would reach ${sig(noHash)}×: here the hash is what falls short.`
        : `Even with node:crypto hashing, the canonical encoding would cap the ratio at ${sig(noHash)}×, so the encoding must get faster too: JSON.stringify of the same value takes ${sig(s.json_stringify)} µs against ${sig(s.check + s.canonicalize)} µs for the check and canonicalize.`
    }`,
  });
};
