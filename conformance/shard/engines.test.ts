/** The sharding examples for other engines parse, and name the right commands and shard counts. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { REPO_ROOT } from "../transport/local.ts";
import { parseShard } from "./shard.ts";

const read = (p: string): string => readFileSync(join(REPO_ROOT, "docs", "sharding", p), "utf8");

interface Step { readonly run?: string; readonly uses?: string; readonly with?: Record<string, unknown> }
interface GhJob { readonly needs?: string; readonly if?: string; readonly strategy?: { matrix: { shard: number[] } }; readonly steps: Step[] }

describe("sharding engines (docs/sharding)", () => {
  it("GitHub Actions: one matrix job per shard, each certifying its shard, and a merge job", () => {
    const wf = parse(read("github-actions.yml")) as { jobs: Record<string, GhJob> };
    const certify = wf.jobs["certify"];
    const merge = wf.jobs["merge"];
    if (certify === undefined || merge === undefined) throw new Error("jobs certify and merge expected");
    const shards = certify.strategy?.matrix.shard ?? [];
    const run = certify.steps.map((s) => s.run ?? "").find((r) => r.includes("srk certify")) ?? "";
    const m = /--shard \$\{\{ matrix\.shard \}\}\/(\d+)/.exec(run);
    expect(m, run).not.toBeNull();
    const n = Number(m?.[1]);
    expect(shards).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    for (const i of shards) expect(() => parseShard(`${i}/${n}`)).not.toThrow();
    expect(run).toMatch(/--seed "\$SEED" --runs "\$RUNS"/);
    expect(certify.steps.some((s) => s.uses?.startsWith("actions/upload-artifact") === true)).toBe(true);
    expect(merge.needs).toBe("certify");
    expect(merge.if).toBe("always()");
    const mergeRun = merge.steps.map((s) => s.run ?? "").find((r) => r.includes("srk merge")) ?? "";
    expect(mergeRun).toMatch(/srk merge \.\.\/shards\/shard-\*\/certificate\.json --out/);
    const uploads = JSON.stringify(merge.steps.filter((s) => s.uses?.startsWith("actions/upload-artifact") === true));
    for (const f of ["certificate.json", "junit.xml", "report.html"]) expect(uploads).toContain(f);
  });

  it("Kubernetes: an Indexed Job whose pod k runs shard k+1 of n, then a merge Job", () => {
    const docs = parseAllDocuments(read("k8s-indexed-job.yaml")).map((d) => d.toJS() as { kind: string; metadata: { name: string }; spec: Record<string, unknown> & { template: { spec: { containers: { command: string[] }[] } } } });
    const [job, mergeJob] = docs;
    if (job === undefined || mergeJob === undefined) throw new Error("two Jobs expected");
    expect(job.kind).toBe("Job");
    expect(job.spec["completionMode"]).toBe("Indexed");
    const n = Number(job.spec["completions"]);
    expect(job.spec["parallelism"]).toBe(n);
    const cmd = job.spec.template.spec.containers[0]?.command.join(" ") ?? "";
    expect(cmd).toContain(`--shard $((JOB_COMPLETION_INDEX + 1))/${n}`);
    expect(cmd).toContain("bin/srk.mjs certify");
    const mergeCmd = mergeJob.spec.template.spec.containers[0]?.command.join(" ") ?? "";
    expect(mergeCmd).toContain("bin/srk.mjs merge /results/shard-*/certificate.json");
  });

  it("the Dockerfile builds the kit with npm ci on Node 20 and runs srk", () => {
    const df = read("Dockerfile");
    expect(df).toMatch(/^FROM node:20/m);
    expect(df).toMatch(/^RUN npm ci$/m);
    expect(df).toMatch(/^ENTRYPOINT \["node", "bin\/srk\.mjs"\]$/m);
  });
});
