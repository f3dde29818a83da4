/**
 * The machinery of the wire kill matrix of generated mutants (conformance/mutants/generated/):
 * what the generator makes, the compile check, the seeded order and its shards, the counting.
 * The certifications themselves are conformance/mutants/generated/over-the-wire.test.ts (long).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../transport/local.ts";
import { compileChecker, type CompileChecker } from "./compile.ts";
import { drawOrder, OPS_FIRST, shardOf } from "./draw.ts";
import {
  countsAfterReruns,
  countsOf,
  GENERATED_JSON,
  renderGenerated,
  type GeneratedDoc,
  type ReportRow,
} from "./report.ts";
import { applyMutant, generateMutants, mutantId, mutatedFiles, type GeneratedMutant } from "./source.ts";
import { parseTriage, readTriage } from "./triage.ts";

let all: GeneratedMutant[] = [];
beforeAll(async () => {
  all = await generateMutants();
}, 60_000);

describe("the generator: Stryker's mutators over impl/core/ and impl/durable/", () => {
  it("mutates exactly the production files of those folders", () => {
    const files = mutatedFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) expect(f).toMatch(/^impl\/(core|durable)\/.*\.ts$/);
    expect(files.some((f) => f.endsWith(".test.ts"))).toBe(false);
    expect(new Set(all.map((m) => m.file))).toEqual(new Set(files.filter((f) => all.some((m) => m.file === f))));
  });

  it("every mutant's span holds its original text, and applying it puts the replacement there and nothing else", () => {
    expect(all.length).toBeGreaterThan(1000);
    for (const m of all) {
      const text = readFileSync(join(REPO_ROOT, m.file), "utf8");
      expect(text.slice(m.span.start, m.span.end), m.id).toBe(m.original);
      const out = applyMutant(m, text);
      expect(out.slice(0, m.span.start)).toBe(text.slice(0, m.span.start));
      expect(out.slice(m.span.start, m.span.start + m.replacement.length)).toBe(m.replacement);
      expect(out.slice(m.span.start + m.replacement.length)).toBe(text.slice(m.span.end));
      expect(m.replacement, `${m.id} changes something`).not.toBe(m.original);
    }
  });

  it("ids are unique, name the place (1-based line and column) and the change, and are the same on a second generation", async () => {
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const m of all.slice(0, 200)) {
      const text = readFileSync(join(REPO_ROOT, m.file), "utf8");
      const before = text.slice(0, m.span.start).split("\n");
      expect(m.line).toBe(before.length);
      expect(m.column).toBe((before.at(-1)?.length ?? 0) + 1);
      expect(m.id).toBe(mutantId(m.file, m.line, m.column, m.mutator, m.original, m.replacement));
    }
    const again = await generateMutants(["impl/core/rounding.ts"]);
    expect(again.map((m) => m.id)).toEqual(all.filter((m) => m.file === "impl/core/rounding.ts").map((m) => m.id));
  });

  it("the informative texts of D-032 (a rejection's message and path arguments) are generated but marked ignored, with the reason", () => {
    const ignored = all.filter((m) => m.ignored !== null);
    expect(ignored.length).toBeGreaterThan(0);
    for (const m of ignored) expect(m.ignored).toMatch(/^\(c\) /);
    // The code argument of a refusal is behaviour: mutated and run.
    const code = all.find((m) => m.file === "impl/core/ops/janma.ts" && m.original === '"DUPLICATE_ID"');
    expect(code?.ignored).toBeNull();
  });

  it("a span that no longer holds its original text is refused, not applied somewhere else", () => {
    const m = all[0] as GeneratedMutant;
    const text = readFileSync(join(REPO_ROOT, m.file), "utf8");
    expect(() => applyMutant(m, `x${text}`)).toThrow(/changed since it was generated/);
  });
});

describe("the compile check", () => {
  let checker: CompileChecker;
  beforeAll(() => {
    checker = compileChecker();
  }, 60_000);
  const synthetic = (file: string, anchor: string, insert: string): GeneratedMutant => {
    const text = readFileSync(join(REPO_ROOT, file), "utf8");
    const at = text.indexOf(anchor);
    if (at < 0) throw new Error(`${anchor} not in ${file}`);
    const start = at + anchor.length;
    return {
      id: "synthetic",
      file,
      line: 1,
      column: 1,
      mutator: "synthetic",
      span: { start, end: start },
      original: "",
      replacement: insert,
      ignored: null,
    };
  };
  const anchor = 'if (den <= 0n) throw new RangeError("divRoundHalfEven: denominator must be positive");';

  it("rejects a mutant with a type error, naming where and what", () => {
    expect(
      checker.check(synthetic("impl/core/rounding.ts", anchor, '\n  const bad: number = "x";\n  void bad;')),
    ).toMatch(/^\d+:\d+ TS2322 /);
  }, 60_000);

  it("accepts a mutant that only leaves a declaration unused (noUnusedLocals is lint, not a type error)", () => {
    expect(checker.check(synthetic("impl/core/rounding.ts", anchor, "\n  const unused = 1;"))).toBeNull();
  }, 60_000);

  it("accepts a generated relational mutant and rejects a string literal outside its union type", () => {
    const relational = all.find((m) => m.file === "impl/core/rounding.ts" && m.mutator === "EqualityOperator");
    expect(relational).toBeDefined();
    expect(checker.check(relational as GeneratedMutant)).toBeNull();
    const code = all.find(
      (m) => m.file === "impl/core/ops/janma.ts" && m.original === '"DUPLICATE_ID"' && m.replacement === '""',
    );
    expect(checker.check(code as GeneratedMutant)).toMatch(/TS2345/);
  }, 60_000);

  it("leaves the file as it was for the next mutant", () => {
    const m = synthetic("impl/core/rounding.ts", anchor, '\n  const bad: number = "x";\n  void bad;');
    expect(checker.check(m)).not.toBeNull();
    expect(checker.check({ ...m, replacement: "", original: "" })).toBeNull();
  }, 60_000);
});

describe("the seeded order and its shards", () => {
  it("is a permutation of the runnable mutants, impl/core/ops/ first, decided by the seed alone", () => {
    const order = drawOrder(all, 1);
    const runnable = all.filter((m) => m.ignored === null);
    expect(new Set(order.map((m) => m.id))).toEqual(new Set(runnable.map((m) => m.id)));
    expect(order.length).toBe(runnable.length);
    const ops = runnable.filter((m) => m.file.startsWith(OPS_FIRST)).length;
    expect(order.slice(0, ops).every((m) => m.file.startsWith(OPS_FIRST))).toBe(true);
    expect(order.slice(ops).some((m) => m.file.startsWith(OPS_FIRST))).toBe(false);
    expect(drawOrder(all, 1).map((m) => m.id)).toEqual(order.map((m) => m.id));
    expect(drawOrder(all, 2).map((m) => m.id)).not.toEqual(order.map((m) => m.id));
  });

  it("the n shards are disjoint and their union is the list", () => {
    const list = [...Array(23).keys()];
    for (const n of [1, 2, 3, 8]) {
      const parts = [...Array(n).keys()].map((index) => shardOf(list, { index, count: n }));
      expect(parts.flat().sort((a, b) => a - b)).toEqual(list);
      expect(parts.flat().length).toBe(list.length);
    }
  });
});

const row = (id: string, outcome: ReportRow["outcome"], extra: Partial<ReportRow> = {}): ReportRow => ({
  id,
  outcome,
  exitCode: outcome === "survived" ? 0 : 1,
  stage: outcome === "killed" ? "golden" : null,
  check: null,
  invariant: outcome === "killed" ? "J-4" : null,
  reported: [],
  summary: null,
  secondsToKill: outcome === "killed" ? 10 : null,
  runsToKill: null,
  steps: null,
  shrink: null,
  seconds: 10,
  fault: null,
  file: "impl/core/ops/distil.ts",
  line: 1,
  column: 1,
  mutator: "EqualityOperator",
  original: "a < b",
  replacement: "a <= b",
  ...extra,
});

describe("counting", () => {
  const rows = [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18].map((i) => row(`k${i}`, "killed")),
    row("s1", "survived"),
    row("e1", "survived"),
    row("c1", "did-not-compile"),
    row("n1", "did-not-start"),
    row("i1", "inconclusive"),
  ];
  const triage = { e1: { argument: "the path of a rejection is informative (D-032), and only it changes" } };

  it("killed ÷ (killed + survived + inconclusive): equivalents out of both sides, did-not-compile and did-not-start apart", () => {
    const c = countsOf(rows, triage);
    expect(c).toMatchObject({
      drawn: 23,
      killed: 18,
      survived: 1,
      equivalent: 1,
      inconclusive: 1,
      didNotCompile: 1,
      didNotStart: 1,
    });
    expect(c.score).toBeCloseTo(18 / 20, 12);
    expect(countsOf(rows, {}).score).toBeCloseTo(18 / 21, 12);
  });

  it("after the reruns: each miss replaced by its latest rerun, equivalents still out, measured kills kept", () => {
    const rr = (commit: string, r: ReportRow) => ({
      commit,
      at: "2026-12-03T00:00:00.000Z",
      why: "a rerun after a golden change",
      options: { seed: 1, runs: 300, timeBudgetMs: 180_000 },
      control: row("control", "survived"),
      rows: [r],
    });
    // i1 (inconclusive) killed at b; s1 killed at a then surviving at c (the latest counts); e1 equivalent, even if a rerun names it.
    const a = countsAfterReruns(rows, triage, [
      rr("a".repeat(40), row("s1", "killed")),
      rr("b".repeat(40), row("i1", "killed")),
      rr("c".repeat(40), row("s1", "survived")),
      rr("d".repeat(40), row("e1", "killed")),
    ]);
    expect(a).toEqual({
      killed: 19,
      survived: 1,
      inconclusive: 0,
      killedByRerun: 1,
      commits: ["b".repeat(40)],
      score: 19 / 20,
    });
    expect(countsAfterReruns(rows, triage, [])).toMatchObject({
      killed: 18,
      survived: 1,
      inconclusive: 1,
      killedByRerun: 0,
      score: 18 / 20,
    });
  });

  it("an equivalence argued for a killed mutant is reported as an error of the triage", () => {
    const c = countsOf(rows, {
      ...triage,
      k3: { argument: "wrongly argued equivalent though the certifier killed it" },
    });
    expect(c.triageKilled).toEqual(["k3"]);
    expect(c.equivalent).toBe(1);
  });

  it("the report states the sample, the score against the goal and every survivor", () => {
    const doc: GeneratedDoc = {
      report_version: 1,
      generated_at: "2026-12-02T00:00:00.000Z",
      options: { seed: 1, runs: 300, timeBudgetMs: 180_000 },
      selection: {
        kind: "sample",
        size: 20,
        orderSeed: 1,
        generated: 100,
        ignored: 10,
        runnable: 90,
        runnableOps: 40,
        shards: 1,
      },
      controls: [row("control", "survived")],
      rows,
      seconds: 100,
      inputs: { commit: "0".repeat(40), digest: "sha256:x" },
    };
    const md = renderGenerated(doc, triage);
    expect(md).toContain("**A seeded sample**");
    expect(md).toContain("**Killed: 90.0 %**");
    expect(md).toContain("short");
    expect(md).toMatch(/## Survivors \(1\)[\s\S]*`s1`/);
    expect(md).toMatch(/## Argued equivalent \(1\)[\s\S]*`e1`[\s\S]*informative \(D-032\)/);
    expect(md).toMatch(/\| `s1` \| .* \| not rerun \|/);
  });

  it("a survivor killed by a later commit's certification is shown with that commit and how; the measured score is unchanged", () => {
    const doc: GeneratedDoc = {
      report_version: 1,
      generated_at: "2026-12-02T00:00:00.000Z",
      options: { seed: 1, runs: 300, timeBudgetMs: 180_000 },
      selection: {
        kind: "all",
        size: null,
        orderSeed: 1,
        generated: 100,
        ignored: 10,
        runnable: 90,
        runnableOps: 40,
        shards: 1,
      },
      controls: [row("control", "survived")],
      rows,
      seconds: 100,
      inputs: { commit: "0".repeat(40), digest: "sha256:x" },
    };
    const killedLater = {
      ...row("s1", "killed"),
      stage: "golden",
      check: "golden/session-1/recovery",
      invariant: null,
    } as ReportRow;
    const rerun = (commit: string, r: ReportRow) => ({
      commit,
      at: "2026-12-03T00:00:00.000Z",
      why: "after the golden recovery check",
      options: doc.options,
      control: row("control", "survived"),
      rows: [r],
    });
    const md = renderGenerated(doc, triage, [
      rerun("a".repeat(40), row("s1", "survived")),
      rerun("b".repeat(40), killedLater),
    ]);
    expect(md).toContain("**Killed: 90.0 %**");
    // 18 measured kills and s1 killed by the rerun, over them and i1 (never rerun): 19 / 20.
    expect(md).toContain("**After the reruns: 95.0 %** (19 killed, 0 survived, 1 inconclusive)");
    expect(md).toContain("1 of them killed by the certification of bbbbbbbbbbbb");
    expect(md).toContain("1 of the 1 are killed by the certification of a later commit");
    expect(md).toMatch(
      /\| `s1` \| .* \| killed at bbbbbbbbbbbb by golden \(golden\/session-1\/recovery\): after the golden recovery check \|/,
    );
    const stillAlive = renderGenerated(doc, triage, [
      rerun("b".repeat(40), killedLater),
      rerun("c".repeat(40), row("s1", "survived")),
    ]);
    expect(stillAlive).toContain("0 of the 1 are killed by the certification of a later commit");
    expect(stillAlive, "no rerun killed anything: no second figure").not.toContain("After the reruns");
    expect(stillAlive).toMatch(/\| `s1` \| .* \| survived at cccccccccccc \|/);
  });
});

describe("the triage file", () => {
  it("parses, and refuses entries without an argument or with unknown fields", () => {
    expect(() => readTriage()).not.toThrow();
    expect(() => parseTriage('{"x": {"argument": "short"}}')).toThrow(/argument must say why/);
    expect(() =>
      parseTriage('{"x": {"argument": "a long enough argument that says why it is equivalent", "extra": 1}}'),
    ).toThrow(/unknown field/);
    expect(() => parseTriage("[]")).toThrow(/not an object/);
  });

  it("every entry names a mutant of the measured run whose change the generator still makes, up to layout", () => {
    // Ids are file:line:column of the measured commit (reports/mutants-generated.json), so the triage
    // is keyed by them; the code may since have moved (a reformatting, an edit above it). What must
    // still hold is that the argued change exists: same file, mutator and replacement, and the same
    // original text, compared without the layout a formatter decides (whitespace, trailing commas,
    // parentheses around a broken line); the report clips a long original or replacement to its first
    // 159 characters and "…" (report.ts clip), which is then compared as a prefix.
    const doc = JSON.parse(readFileSync(join(REPO_ROOT, GENERATED_JSON), "utf8")) as GeneratedDoc;
    const rows = new Map(doc.rows.map((r) => [r.id, r]));
    const squash = (s: string) => s.replace(/,(\s*[)\]}])/g, "$1").replace(/[\s()]+/g, "");
    const entries = Object.keys(readTriage());
    expect(entries.length).toBeGreaterThan(0);
    for (const id of entries) {
      const r = rows.get(id);
      expect(r, `${id} in the triage is a mutant of the measured run`).toBeDefined();
      if (r === undefined) continue;
      const same = (now: string, then: string) =>
        then.endsWith("…") ? squash(now).startsWith(squash(then.slice(0, -1))) : squash(now) === squash(then);
      const made = all.some(
        (m) =>
          m.file === r.file &&
          m.mutator === r.mutator &&
          same(m.original, r.original) &&
          same(m.replacement, r.replacement),
      );
      expect(made, `${id}: the generator still makes its change`).toBe(true);
    }
  });
});
