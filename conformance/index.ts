/**
 * The kit as a library: `import { certify, replay, transition, view, INVARIANTS, digestOf } from
 * "samsara-ripa-kit"`. The same runner as the `srk` command (certify, replay), the executable
 * reference model (transition, view) and the normative catalog (the 19 invariants, domain tags,
 * digests). The whole model is `samsara-ripa-kit/model`, the whole spec `samsara-ripa-kit/spec`.
 *
 * Every `@example` below is run by a test, from the kit's sources (`conformance/api.test.ts`) and
 * from the packed tarball installed in an empty project (`conformance/package/package.test.ts`).
 *
 * @packageDocumentation
 */
import type { Certificate, PortableTrace } from "../spec/certificate.ts";
import { INVARIANTS as SPEC_INVARIANTS, type Invariant, type InvariantId } from "../spec/catalog.ts";
import { digestOf as specDigestOf, type Digest, type DomainTag } from "../spec/digest.ts";
import { transition as modelTransition, view as modelView } from "../model/index.ts";
import { certify as certifyWith, type CertifyResult } from "./certify.ts";
import { DEFAULTS } from "./cli/defaults.ts";
import { outDirFor } from "./reporters/out-dir.ts";
import { silentProgress, type Progress } from "./core/progress.ts";
import { replayTrace, type ReplayVerdict } from "./replay.ts";
import { parseShard, type Shard } from "./shard/shard.ts";
import { readTrace } from "./trace/trace.ts";

export type { Certificate, PortableTrace, CertifyResult, ReplayVerdict };
export type { InvariantId, Invariant, Protocol } from "../spec/catalog.ts";
export type { Shard } from "./shard/shard.ts";
export { INVARIANT_IDS, invariant } from "../spec/catalog.ts";
export { DOMAIN, isDigest, type Digest, type DomainTag } from "../spec/digest.ts";
export { initialWorld, parseCommand, type World } from "../model/index.ts";

/**
 * The 19 invariants (J-1..J-4, S-1..S-5, AD-1..AD-4, I1..I6): each one's protocol, statement, the
 * papers' wording, the decisions that refine it and the operations that guard it (`spec/INVARIANTS.md`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { INVARIANTS, invariant } from "samsara-ripa-kit";
 *
 * assert.equal(INVARIANTS.length, 19);
 * assert.equal(invariant("AD-3").protocol, "advaita");
 * for (const i of INVARIANTS) console.log(i.id, i.name);
 * ```
 */
export const INVARIANTS: readonly Invariant[] = SPEC_INVARIANTS;

/**
 * The digest of a value under a domain tag (`spec/ENCODING.md`): SHA-256 of the tag and the value's
 * RFC 8785 canonical JSON, written `sha256:` and 64 hex digits (D-003, D-004). Two objects that
 * differ only in member order have the same digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DOMAIN, digestOf, isDigest } from "samsara-ripa-kit";
 *
 * const a = digestOf(DOMAIN.trace, { acts: 2, tools: ["search"] });
 * const b = digestOf(DOMAIN.trace, { tools: ["search"], acts: 2 });
 * assert.ok(isDigest(a));
 * assert.equal(a, b);
 * assert.notEqual(a, digestOf(DOMAIN.manifest, { acts: 2, tools: ["search"] }));
 * ```
 */
export const digestOf: (tag: DomainTag, value: unknown) => Digest = specDigestOf;

/**
 * The reference model's step: a world and a command in, the next world and its events out, or a
 * typed rejection naming the invariant it protects. Pure: no I/O, no clock, no randomness.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { initialWorld, transition, view } from "samsara-ripa-kit";
 *
 * const mint = {
 *   op: "advaita.mint", tick: 1, root: "root-a", designation: "travel-agent", body_revision: "rev-0",
 *   base_digest: "sha256:abababababababababababababababababababababababababababababababab",
 *   custodians: ["custodian-1"], authority_token: "tok-a", required_capabilities: ["fare.search"],
 *   execution: { execution_id: "exec-a", reasoner: "r", harness: "h", host: "host" },
 *   providers: [{ provider_id: "prov-a", capabilities: ["fare.search"], kind: "service", contract_version: "v1" }],
 * };
 * const step = transition(initialWorld(), mint);
 * assert.equal(step._tag, "Success");
 * if (step._tag === "Success") {
 *   assert.deepEqual(step.success.events.map((e) => e.type), ["agent.minted", "epoch.advanced"]);
 *   assert.equal(view(step.success.world).agents.length, 1);
 * }
 * // The same root twice is refused, and the rejection names what it protects.
 * const again = step._tag === "Success" ? transition(step.success.world, { ...mint, tick: 2 }) : step;
 * assert.equal(again._tag, "Failure");
 * ```
 */
export const transition: typeof modelTransition = modelTransition;

/**
 * The world view of a model world: what the `world` query answers (W-6), the value the runner
 * compares with an implementation's after each checkpoint. See {@link transition} for an example.
 */
export const view: typeof modelView = modelView;

/** Options of {@link certify}; every one but `impl` has the `srk certify` default. */
export interface CertifyOptions {
  /** The implementation's command line, e.g. `"python3 impl.py"`; `{data_dir}` is replaced by the data directory, otherwise `--data-dir DIR` is appended. */
  readonly impl: string;
  /** Seed of every generated campaign (default 1). */
  readonly seed?: number;
  /** Generated runs of the differential campaign (default 300). */
  readonly runs?: number;
  /** Wall-clock budget of the whole certification, in seconds (default 600). */
  readonly timeBudgetSeconds?: number;
  /** Time allowed for each reply, in ms (default 15,000). */
  readonly requestTimeoutMs?: number;
  /** Time allowed from start to the reply to `hello`, in ms (default 30,000). */
  readonly startupTimeoutMs?: number;
  /** Certify only these invariants (default: all 19). */
  readonly only?: readonly InvariantId[];
  /** Where to write the certificate and its reports (default `srk-reports/<implementation name>/` under the working directory); must be new, empty or an earlier srk report. */
  readonly out?: string;
  /** Data directory of the first process (default: a fresh temporary directory). */
  readonly dataDir?: string;
  /** Working directory of the implementation (default: this process's). */
  readonly cwd?: string;
  /** Environment of the implementation (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Stop after the first stage that finds a violation. */
  readonly failFast?: boolean;
  /** Run only shard `"i/n"` of the campaign (merge the shards' certificates with `srk merge`). */
  readonly shard?: string | Shard;
  /** Progress lines, as `srk` prints them on stderr (default: none). */
  readonly onProgress?: (line: string) => void;
}

const progressOf = (f: ((line: string) => void) | undefined): Progress =>
  f === undefined
    ? silentProgress
    : {
        stage: (name, detail) => f(detail === undefined ? `srk: ${name}` : `srk: ${name} ${detail}`),
        tick: () => {},
        line: f,
        done: () => {},
      };

/**
 * Certifies an implementation over the wire, as `srk certify` does, and returns the certificate
 * (with the paths of what it wrote: `certificate.json`, traces, `junit.xml`, `report.md`,
 * `report.html`). `certificate.exit_code` is the command's exit code: 0 certified, 1 violations,
 * 2 inconclusive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { certify } from "samsara-ripa-kit";
 *
 * // An implementation that declares no family: it can pass the wire checks, never certify anything.
 * const { certificate, certificatePath } = await certify({ impl: "python3 empty_profile.py", runs: 5, timeBudgetSeconds: 120 });
 * assert.equal(certificate.result, "inconclusive");
 * assert.equal(certificate.stages.find((s) => s.stage === "wire")?.verdict, "pass");
 * console.log(certificate.exit_code, certificatePath); // 2 srk-reports/empty-profile-example/certificate.json
 * ```
 */
export const certify = async (o: CertifyOptions): Promise<CertifyResult> =>
  certifyWith({
    commandLine: o.impl,
    seed: o.seed ?? DEFAULTS.seed,
    runs: o.runs ?? DEFAULTS.runs,
    timeBudgetMs: (o.timeBudgetSeconds ?? DEFAULTS.timeBudgetSeconds) * 1000,
    requestTimeoutMs: o.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    startupTimeoutMs: o.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs,
    only: o.only ?? [],
    outDir: outDirFor(o.impl, o.out),
    failFast: o.failFast === true,
    progress: progressOf(o.onProgress),
    ...(o.shard === undefined ? {} : { shard: typeof o.shard === "string" ? parseShard(o.shard) : o.shard }),
    ...(o.dataDir === undefined ? {} : { dataDir: o.dataDir }),
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
    ...(o.env === undefined ? {} : { env: o.env }),
  });

/** Options of {@link replay}. */
export interface ReplayOptions {
  /** The implementation's command line, as for {@link certify}. */
  readonly impl: string;
  /** Time allowed for each reply, in ms (default 15,000). */
  readonly requestTimeoutMs?: number;
  /** Working directory of the implementation (default: this process's). */
  readonly cwd?: string;
}

/**
 * Re-runs a portable trace (a counterexample a certificate names, or a trace file's path) on any
 * implementation, from an empty data directory, as `srk replay` does: `still-fails` (with the
 * step), `passes`, or `undrivable`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replay, type PortableTrace } from "samsara-ripa-kit";
 *
 * // One step: a query of a name the protocol does not have is refused with UNKNOWN_OP (W-4.1).
 * const trace: PortableTrace = {
 *   trace_version: 1, invariant: null, stage: "wire", check: "wire/W-4.1", summary: "an unknown query name",
 *   seed: null, path: null, failing_step: 0, difference: null, shrink: null,
 *   steps: [{
 *     request: { type: "query", id: "q-1", query: { name: "secrets" } },
 *     expected: { ok: false, error: { code: "UNKNOWN_OP", invariant: null, definite: true } },
 *     actual: null,
 *   }],
 * };
 * const verdict = await replay(trace, { impl: "python3 empty_profile.py" });
 * assert.deepEqual(verdict, { kind: "passes", steps: 1 });
 * ```
 */
export const replay = async (trace: PortableTrace | string, o: ReplayOptions): Promise<ReplayVerdict> =>
  replayTrace(typeof trace === "string" ? readTrace(trace) : trace, {
    commandLine: o.impl,
    requestTimeoutMs: o.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
  });
