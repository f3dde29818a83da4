/**
 * A shard's rows file (shard-rows.ts): saved atomically, resumed only by the same run, merged only
 * when every shard of one run is there and finished.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WireRow } from "./certify-one.ts";
import type { ReportRow } from "./report.ts";
import { mergeShards, readResumable, saveShard, type ShardRows } from "./shard-rows.ts";
import { appendRerun, latestRerun, readReruns, RERUNS_FILE } from "./reruns.ts";

const control: WireRow = {
  id: "control",
  outcome: "survived",
  exitCode: 0,
  stage: null,
  check: null,
  invariant: null,
  reported: [],
  summary: null,
  secondsToKill: null,
  runsToKill: null,
  steps: null,
  shrink: null,
  seconds: 16,
  fault: null,
};
const row = (id: string): ReportRow =>
  ({
    ...control,
    id,
    outcome: "killed",
    exitCode: 1,
    file: "impl/core/ops/janma.ts",
    line: 1,
    mutator: "EqualityOperator",
    original: "<",
    replacement: "<=",
  }) as unknown as ReportRow;

const part = (index: number, over: Partial<ShardRows> = {}): ShardRows => ({
  shard: { index, count: 2 },
  options: { seed: 1, runs: 300, timeBudgetMs: 180_000 },
  selection: {
    kind: "all",
    size: null,
    orderSeed: 1,
    generated: 10,
    ignored: 1,
    runnable: 9,
    runnableOps: 4,
    shards: 2,
  },
  control,
  rows: [row(`m${index}`)],
  seconds: 10 + index,
  inputs: { digest: "sha256:aa" },
  complete: true,
  ...over,
});
const dir = (): string => mkdtempSync(join(tmpdir(), "srk-shard-rows-"));

describe("a shard's rows file", () => {
  it("is saved whole under its name (no temporary file left) and read back as the same run", () => {
    const d = dir();
    const f = join(d, "shard-1.json");
    saveShard(f, part(0, { complete: false }));
    expect(readdirSync(d)).toEqual(["shard-1.json"]);
    const { part: back, why } = readResumable(f, part(0));
    expect(why).toBeNull();
    expect(back?.rows.map((r) => r.id)).toEqual(["m0"]);
    expect(back?.complete).toBe(false);
  });

  it("is not resumed by another shard, other options, another selection or changed inputs, and says which", () => {
    const d = dir();
    const f = join(d, "s.json");
    saveShard(f, part(0));
    expect(readResumable(f, part(1)).why).toMatch(/another shard/);
    expect(readResumable(f, part(0, { options: { seed: 1, runs: 100, timeBudgetMs: 180_000 } })).why).toMatch(
      /other options/,
    );
    expect(readResumable(f, part(0, { selection: { ...part(0).selection, orderSeed: 2 } })).why).toMatch(
      /another selection/,
    );
    expect(readResumable(f, part(0, { inputs: { digest: "sha256:bb" } })).why).toMatch(/other inputs/);
    for (const k of [part(1), part(0, { inputs: { digest: "sha256:bb" } })])
      expect(readResumable(f, k).part).toBeNull();
  });

  it("an absent file is a fresh start without a complaint; a broken one is a fresh start that says why", () => {
    const d = dir();
    expect(readResumable(join(d, "none.json"), part(0))).toEqual({ part: null, why: null });
    writeFileSync(join(d, "broken.json"), '{"shard": {');
    const r = readResumable(join(d, "broken.json"), part(0));
    expect(r.part).toBeNull();
    expect(r.why).toMatch(/broken\.json is not JSON/);
  });
});

describe("merging shards", () => {
  it("takes every shard of one run once, finished, and keeps every row and every control", () => {
    const doc = mergeShards(["b", "a"], [part(1), part(0)], "2026-12-03T00:00:00.000Z");
    if (typeof doc === "string") throw new Error(doc);
    expect(doc.rows.map((r) => r.id)).toEqual(["m0", "m1"]);
    expect(doc.controls).toHaveLength(2);
    expect(doc.selection.shards).toBe(2);
    expect(doc.seconds).toBe(11);
  });

  it("refuses an unfinished shard, a shard of another run, a missing or a repeated shard", () => {
    expect(mergeShards(["a", "b"], [part(0), part(1, { complete: false })], "t")).toMatch(
      /^b: the shard did not finish \(1 rows\)/,
    );
    expect(mergeShards(["a", "b"], [part(0), part(1, { inputs: { digest: "sha256:bb" } })], "t")).toMatch(
      /^b: not a shard of the same run as a/,
    );
    expect(mergeShards(["a", "b"], [part(0), part(1, { shard: { index: 1, count: 3 } })], "t")).toMatch(
      /not a shard of the same run/,
    );
    expect(mergeShards(["a"], [part(0)], "t")).toMatch(/every shard of 2 once, got 1$/);
    expect(mergeShards(["a", "b"], [part(0), part(0)], "t")).toMatch(/got 1, 1$/);
    expect(mergeShards([], [], "t")).toMatch(/needs the rows files/);
  });
});

describe("the reruns file", () => {
  it("appends reruns in order, and refuses one without a commit, a reason or rows", () => {
    const root = dir();
    mkdirSync(join(root, "conformance/mutants/generated"), { recursive: true });
    expect(readReruns(root)).toEqual([]);
    const r = {
      commit: "a".repeat(40),
      at: "2026-12-03T00:00:00.000Z",
      why: "after the golden recovery check",
      options: part(0).options,
      control,
      rows: [row("m1")],
    };
    appendRerun(r, root);
    appendRerun({ ...r, commit: "b".repeat(40) }, root);
    expect(readReruns(root).map((x) => x.commit)).toEqual(["a".repeat(40), "b".repeat(40)]);
    expect(latestRerun(readReruns(root)).get("m1")?.rerun.commit).toBe("b".repeat(40));
    writeFileSync(join(root, RERUNS_FILE), JSON.stringify([{ ...r, why: "" }]));
    expect(() => readReruns(root)).toThrow(/rerun 1 needs a commit, a reason \(why\) and its rows/);
  });
});
