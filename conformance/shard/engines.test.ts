/** The sharding examples for other engines parse, and name the right commands and shard counts. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { REPO_ROOT } from "../transport/local.ts";

const read = (p: string): string => readFileSync(join(REPO_ROOT, "docs", "sharding", p), "utf8");

describe("sharding engines (docs/sharding)", () => {
  // GitHub Actions (docs/sharding/github-actions.yml uses the kit's action): checked in
  // ci-examples.test.ts, "sharded: one matrix job per shard certifying shard i/n with the action, ...".

  it("Kubernetes: an Indexed Job whose pod k runs shard k+1 of n, then a merge Job", () => {
    const docs = parseAllDocuments(read("k8s-indexed-job.yaml")).map(
      (d) =>
        d.toJS() as {
          kind: string;
          metadata: { name: string };
          spec: Record<string, unknown> & { template: { spec: { containers: { command: string[] }[] } } };
        },
    );
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
