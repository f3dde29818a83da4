/**
 * Sharding (D-038): the units of every stage are partitioned exactly, a run's seed depends only on
 * the campaign seed and its index, 1 shard and 3 merged shards give the same verdicts and the same
 * total witness counts, and a merge with a missing, duplicated or foreign shard is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { STAGES, type StageName } from "../../spec/certificate.ts";
import { certify, type CertifyOptions } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { mergeCertificates } from "./merge.ts";
import { owns, parseShard, runSeed, showShard } from "./shard.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-shard-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("shards", () => {
  it("parses i/n and refuses anything else by name", () => {
    expect(parseShard("2/3")).toEqual({ index: 1, count: 3 });
    expect(showShard(parseShard("1/1"))).toBe("1/1");
    for (const bad of ["0/3", "4/3", "3", "a/b", "1/0", "1/2000"])
      expect(() => parseShard(bad), bad).toThrow(/--shard/);
  });

  it("every unit of every stage belongs to exactly one shard, for 1 to 6 shards", () => {
    for (let n = 1; n <= 6; n++) {
      for (const stage of STAGES) {
        for (let k = 0; k < 40; k++) {
          const owners = Array.from({ length: n }, (_, i) => i).filter((i) => owns({ index: i, count: n }, stage, k));
          expect(owners, `${stage} unit ${k} with ${n} shards`).toHaveLength(1);
        }
      }
    }
    // Single-unit stages are spread over the shards rather than all landing on the first.
    const firstUnitOwners = new Set(STAGES.map((s) => [0, 1, 2].find((i) => owns({ index: i, count: 3 }, s, 0))));
    expect(firstUnitOwners.size).toBe(3);
  });

  it("a run's seed depends only on the campaign seed and the run's index", () => {
    expect(runSeed(1, 5)).toBe(runSeed(1, 5));
    const seeds = new Set(Array.from({ length: 1000 }, (_, k) => runSeed(1, k)));
    expect(seeds.size).toBe(1000);
    expect(runSeed(2, 0)).not.toBe(runSeed(1, 0));
  });
});

describe("srk merge", () => {
  const stages: StageName[] = ["handshake", "golden", "wire", "exhaustive", "differential", "forgetting"];
  const base = (outDir: string): CertifyOptions => ({
    commandLine: `${process.execPath} --import tsx impl/main.ts`,
    cwd: REPO_ROOT,
    outDir,
    seed: 5,
    runs: 6,
    timeBudgetMs: 120_000,
    requestTimeoutMs: 15_000,
    startupTimeoutMs: 30_000,
    only: [],
    stages,
  });
  const shardPaths: string[] = [];

  it("1 shard and 3 merged shards: the same verdicts, witness counts, checks and coverage", async () => {
    const whole = await certify(base(join(tmp, "whole")));
    for (let i = 0; i < 3; i++) {
      const r = await certify({ ...base(join(tmp, `s${i + 1}`)), shard: { index: i, count: 3 } });
      expect(r.certificate.shards).toEqual({ count: 3, indices: [i + 1] });
      shardPaths.push(r.certificatePath);
    }
    const merged = await mergeCertificates(shardPaths, join(tmp, "merged"));
    const m = merged.certificate;
    expect(m.shards).toEqual({ count: 3, indices: [1, 2, 3] });
    expect(m.invariants.map((i) => [i.invariant, i.verdict, i.witnesses])).toEqual(
      whole.certificate.invariants.map((i) => [i.invariant, i.verdict, i.witnesses]),
    );
    expect(m.stages.map((s) => [s.stage, s.verdict, s.checks])).toEqual(
      whole.certificate.stages.map((s) => [s.stage, s.verdict, s.checks]),
    );
    const cov = (c: typeof m) => [...(c.coverage?.transitions ?? [])].map((t) => JSON.stringify(t)).sort();
    expect(cov(m)).toEqual(cov(whole.certificate));
    // The coverage figure (D-075): the shards' covered edges, merged by union, are the whole run's.
    expect(whole.certificate.coverage?.edges?.covered.length).toBeGreaterThan(0);
    expect(m.coverage?.edges).toEqual(whole.certificate.coverage?.edges);
    expect(m.settings.exhaustive_scope).toBe("quick");
    expect([m.result, m.exit_code]).toEqual([whole.certificate.result, whole.certificate.exit_code]);
    expect(m.result).toBe("certified");
    expect(readFileSync(join(tmp, "merged", "report.md"), "utf8")).toContain("J-1");
  }, 240_000);

  it("refuses a missing, a duplicated and a foreign shard, naming it", async () => {
    const [a, b, c] = shardPaths;
    if (a === undefined || b === undefined || c === undefined) throw new Error("the previous test did not run");
    await expect(mergeCertificates([a, b], join(tmp, "m1"))).rejects.toThrow(/shard\(s\) 3\/3 missing/);
    await expect(mergeCertificates([a, b, c, a], join(tmp, "m2"))).rejects.toThrow(/shard 1\/3 appears twice/);
    const foreign = join(tmp, "foreign.json");
    writeFileSync(
      foreign,
      JSON.stringify({
        ...JSON.parse(readFileSync(c, "utf8")),
        settings: { ...JSON.parse(readFileSync(c, "utf8")).settings, seed: 6 },
      }),
    );
    await expect(mergeCertificates([a, b, foreign], join(tmp, "m3"))).rejects.toThrow(/seed differs/);
    const scoped = join(tmp, "scoped.json");
    writeFileSync(
      scoped,
      JSON.stringify({
        ...JSON.parse(readFileSync(c, "utf8")),
        settings: { ...JSON.parse(readFileSync(c, "utf8")).settings, exhaustive_scope: "default" },
      }),
    );
    await expect(mergeCertificates([a, b, scoped], join(tmp, "m6"))).rejects.toThrow(/--exhaustive differs/);
    const other = join(tmp, "other.json");
    writeFileSync(
      other,
      JSON.stringify({
        ...JSON.parse(readFileSync(c, "utf8")),
        kit: { name: "x", version: "0", spec_digest: "sha256:0" },
      }),
    );
    await expect(mergeCertificates([a, b, other], join(tmp, "m4"))).rejects.toThrow(/spec digest differs/);
    writeFileSync(join(tmp, "junk.json"), "{}");
    await expect(mergeCertificates([a, join(tmp, "junk.json")], join(tmp, "m5"))).rejects.toThrow(
      /junk\.json: not a certificate/,
    );
  });
});
