/**
 * `srk merge <certificate.json>…`: combines the certificates of the shards of one campaign into
 * the certificate the unsharded run would have written (D-038). It refuses certificates of
 * different spec digests, implementations, profiles, seeds, run counts, --only selections,
 * baselines or shard counts, and names missing and duplicated shards.
 *
 * Stages merge most-severe-first (fail, then inconclusive, then pass; not-applicable, then
 * not-selected, only when no shard ran the stage); checks and witnesses are summed; every counterexample is kept, its trace
 * copied next to the merged certificate. Verdicts are then decided again, by the same function as
 * any run (conformance/verdicts/decide.ts), from the summed witnesses: the vacuity guard applies to
 * the whole campaign, not to each shard.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import {
  Certificate,
  STAGES,
  type CounterexampleRef,
  type StageName,
  type StageResult,
  type Verdict,
} from "../../spec/certificate.ts";
import { UsageError } from "../driver/command-line.ts";
import { writeReports } from "../reporters/write.ts";
import { type Finding, wasNotThisShard } from "../core/finding.ts";
import { readJsonFile, writeJsonAtomic } from "../trace/trace.ts";
import type { Baseline } from "../verdicts/baseline.ts";
import { decide, type StageSummary } from "../verdicts/decide.ts";
import { WitnessBook, type WitnessKind } from "../verdicts/witnesses.ts";
import type { CertifyResult } from "../core/certify-result.ts";

export class MergeRefused extends UsageError {
  override readonly name = "MergeRefused";
}

interface Loaded {
  readonly path: string;
  readonly c: Certificate;
}

const load = (path: string): Loaded => ({
  path,
  c: readJsonFile(path, Certificate, "a certificate", (m) => new MergeRefused(m)),
});

/** What must be equal in every certificate of one campaign, by name. */
const IDENTITY: readonly [string, (c: Certificate) => unknown][] = [
  ["spec digest", (c) => c.kit.spec_digest],
  ["implementation", (c) => [c.implementation.name, c.implementation.version]],
  ["profile", (c) => c.implementation.profile],
  ["protocol version", (c) => c.protocol_version],
  ["seed", (c) => c.settings.seed],
  ["runs", (c) => c.settings.runs],
  ["--only", (c) => c.settings.only],
  ["--exhaustive", (c) => c.settings.exhaustive_scope ?? null],
  ["baseline", (c) => [c.baseline.file, c.baseline.expected]],
  ["shard count", (c) => c.shards.count],
];

const SEVERITY: readonly Verdict[] = ["fail", "inconclusive", "pass", "not-applicable", "not-selected"];
const worst = (vs: readonly Verdict[]): Verdict => SEVERITY.find((v) => vs.includes(v)) ?? "not-applicable";

/** Checks the certificates form exactly one complete campaign; returns them ordered by shard. */
export const checkCampaign = (certs: readonly Loaded[]): Loaded[] => {
  if (certs.length === 0) throw new MergeRefused("srk merge: no certificate given");
  const first = certs[0] as Loaded;
  for (const [what, get] of IDENTITY) {
    const want = JSON.stringify(get(first.c));
    const other = certs.find((x) => JSON.stringify(get(x.c)) !== want);
    if (other !== undefined) {
      throw new MergeRefused(
        `refusing to merge: ${what} differs between ${first.path} (${want}) and ${other.path} (${JSON.stringify(get(other.c))}); shards of one campaign share it`,
      );
    }
  }
  const count = first.c.shards.count;
  const seen = new Map<number, string>();
  for (const x of certs) {
    for (const i of x.c.shards.indices) {
      const before = seen.get(i);
      if (before !== undefined)
        throw new MergeRefused(`refusing to merge: shard ${i}/${count} appears twice (${before} and ${x.path})`);
      seen.set(i, x.path);
    }
  }
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeRefused(
      `refusing to merge: shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")} missing; a merge covers the whole campaign`,
    );
  return [...certs].sort((a, b) => (a.c.shards.indices[0] ?? 0) - (b.c.shards.indices[0] ?? 0));
};

const baselineOf = (c: Certificate): Baseline => ({
  file: c.baseline.file,
  invariants: c.baseline.expected.filter((e): e is InvariantId => (INVARIANT_IDS as readonly string[]).includes(e)),
  stages: c.baseline.expected.filter((e): e is StageName => (STAGES as readonly string[]).includes(e)),
});

export const mergeCertificates = async (paths: readonly string[], outDir: string): Promise<CertifyResult> => {
  const certs = checkCampaign(paths.map(load));
  const first = (certs[0] as Loaded).c;
  mkdirSync(outDir, { recursive: true });
  const traceFiles: string[] = [];

  // Counterexamples: copy each trace next to the merged certificate and point the reference at it.
  const moved = new Map<CounterexampleRef, CounterexampleRef>();
  for (const { path, c } of certs) {
    const shardTag = `shard-${c.shards.indices.join("-")}`;
    for (const s of c.stages) {
      for (const f of s.findings) {
        let traceFile: string | null = null;
        if (f.trace_file !== null) {
          const from = join(dirname(path), f.trace_file);
          traceFile = join("traces", shardTag, f.trace_file.replace(/^traces\//, ""));
          if (existsSync(from)) {
            mkdirSync(dirname(join(outDir, traceFile)), { recursive: true });
            copyFileSync(from, join(outDir, traceFile));
            traceFiles.push(join(outDir, traceFile));
          }
        }
        moved.set(f, {
          ...f,
          trace_file: traceFile,
          replay:
            traceFile === null
              ? null
              : (f.replay?.replace(join(dirname(path), f.trace_file ?? ""), join(outDir, traceFile)) ?? null),
        });
      }
    }
  }

  const stages: StageResult[] = [];
  const summaries: StageSummary[] = [];
  const refOf = new Map<Finding, CounterexampleRef>();
  for (const name of STAGES) {
    const parts = certs.flatMap(({ c }) =>
      c.stages.filter((s) => s.stage === name).map((s) => ({ s, shard: c.shards.indices.join(",") })),
    );
    if (parts.length === 0) continue;
    const ran = parts.filter((p) => !wasNotThisShard(p.s));
    const verdict = worst((ran.length > 0 ? ran : parts).map((p) => p.s.verdict));
    const findings = parts.flatMap((p) => p.s.findings.map((f) => moved.get(f) ?? f));
    const reasons = [...new Set(ran.filter((p) => p.s.verdict === verdict).map((p) => p.s.reason))];
    stages.push({
      stage: name,
      verdict,
      reason: reasons.length === 1 ? (reasons[0] ?? "") : reasons.map((r) => `${r}`).join("; "),
      checks: parts.reduce((n, p) => n + p.s.checks, 0),
      duration_ms: Math.max(...parts.map((p) => p.s.duration_ms)),
      findings,
      notes: parts.flatMap((p) => p.s.notes.map((n) => `shard ${p.shard}/${first.shards.count}: ${n}`)),
    });
    const asFindings = findings.map((r): Finding => {
      const f: Finding = { invariant: r.invariant, stage: r.stage, check: r.check, summary: r.summary, trace: null };
      refOf.set(f, r);
      return f;
    });
    summaries.push({ stage: name, verdict, reason: stages.at(-1)?.reason ?? "", findings: asFindings });
  }

  const witnesses = new WitnessBook();
  for (const { c } of certs) {
    for (const v of c.invariants)
      for (const k of Object.keys(v.witnesses) as WitnessKind[]) witnesses.add(v.invariant, k, v.witnesses[k]);
  }
  const harnessFaults = certs.flatMap(({ c }) =>
    c.harness_faults.map((f) => `shard ${c.shards.indices.join(",")}: ${f}`),
  );
  const decision = decide({
    families: first.implementation.profile?.families ?? null,
    only: first.settings.only,
    stages: summaries,
    witnesses,
    baseline: baselineOf(first),
    harnessFaults,
    ref: (f) => refOf.get(f) as CounterexampleRef,
  });
  const transitions = new Map<string, NonNullable<Certificate["coverage"]>["transitions"][number]>();
  for (const { c } of certs) {
    for (const t of c.coverage?.transitions ?? []) {
      const key = JSON.stringify([t.machine, t.from, t.to, t.op]);
      const had = transitions.get(key);
      transitions.set(key, had === undefined ? { ...t } : { ...had, count: had.count + t.count });
    }
  }
  // The coverage figure (D-075): the shards explored the same scope for the same profile (their
  // settings agree), so their covered indices name the same edges and merge by union.
  const withEdges = certs.flatMap(({ c }) => (c.coverage?.edges === undefined ? [] : [c.coverage.edges]));
  const edges =
    withEdges[0] === undefined
      ? undefined
      : { ...withEdges[0], covered: [...new Set(withEdges.flatMap((e) => e.covered))].sort((a, b) => a - b) };
  const certificate: Certificate = {
    ...first,
    settings: { ...first.settings, stages: STAGES.filter((s) => certs.some(({ c }) => c.settings.stages.includes(s))) },
    started_at: certs.map(({ c }) => c.started_at).sort()[0] ?? first.started_at,
    duration_ms: Math.max(...certs.map(({ c }) => c.duration_ms)),
    stages,
    ...decision,
    implementation_faults: certs.flatMap(({ c }) =>
      c.implementation_faults.map((f) => `shard ${c.shards.indices.join(",")}: ${f}`),
    ),
    harness_faults: harnessFaults,
    shards: { count: first.shards.count, indices: Array.from({ length: first.shards.count }, (_, k) => k + 1) },
    coverage: { transitions: [...transitions.values()], ...(edges === undefined ? {} : { edges }) },
  };
  const certificatePath = join(outDir, "certificate.json");
  writeJsonAtomic(certificatePath, certificate);
  const result: CertifyResult = { certificate, certificatePath, traceFiles };
  await writeReports(result);
  return result;
};
