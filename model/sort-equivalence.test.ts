/**
 * The experiment behind the Stryker triage entries that call a comparator mutant equivalent
 * because of how Node's Array.prototype.sort (V8's TimSort) uses a comparator: it only asks whether
 * the answer is below 0, so a comparator that answers 0 instead of 1 (or 1 instead of 0) when
 * a >= b sorts every array the same, element for element. Committed as a test so that the claim is
 * checked on the Node the kit runs on, not on the one someone once tried.
 *
 * Every triage entry (stryker/triage/) whose reason cites V8 or TimSort must have a case here, and
 * every case must name an entry that exists, on a line that is still in the source. Each case
 * builds the original comparator from the source text of that line and each mutant from it by the
 * entry's replacement (or, where the entry covers several, each of the replacements Stryker made),
 * then sorts the same random lists (seeded: length 0..50, and longer ones made of sorted runs, which
 * reach TimSort's merges and galloping; few distinct keys, so many equal ones) with both.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TRIAGE = join(ROOT, "stryker", "triage");

interface TriageEntry {
  readonly file: string;
  readonly mutator?: string;
  readonly original?: string;
  readonly replacement?: string;
  readonly context: string;
  readonly category: string;
  readonly reason: string;
}

const triageFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? triageFiles(p) : n.endsWith(".json") ? [p] : [];
  });
const ENTRIES: TriageEntry[] = triageFiles(TRIAGE).flatMap(
  (f) => (JSON.parse(readFileSync(f, "utf8")) as { entries: TriageEntry[] }).entries,
);
const RESTS_ON_V8 = (e: TriageEntry): boolean => /V8|TimSort/.test(e.reason);

/** How the sorted elements are compared: strings themselves, or objects by a key. */
type Shape = "strings" | "digest" | "byKey";

interface Case {
  /** The triage entry, by the fields it is matched with. */
  readonly file: string;
  readonly context: string;
  readonly mutator: string;
  readonly original?: string;
  readonly replacement?: string;
  /** The comparator's body as it reads on that line (an expression in a, b or, for byKey, x, y). */
  readonly body: string;
  /** The mutants the entry speaks for: [text in the body, what Stryker put instead]. */
  readonly mutants: readonly (readonly [string, string])[];
  readonly shape: Shape;
  /**
   * "order": identical sorted lists, element for element, even when elements with equal keys are
   * told apart (what "V8 reads only < 0" promises). "values": identical lists of the keys only (the
   * entry rests on equal keys being identical values, and cites V8 for the rest).
   */
  readonly claim: "order" | "values";
}

const STR = "a < b ? -1 : a > b ? 1 : 0";
const STR_GE: readonly (readonly [string, string])[] = [
  ["a > b", "a >= b"],
  ["a > b", "a <= b"],
];
const STR_TF: readonly (readonly [string, string])[] = [
  ["a > b", "true"],
  ["a > b", "false"],
];
const DIG = "a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0";
const DIG_GE: readonly (readonly [string, string])[] = [
  ["a.digest > b.digest", "a.digest >= b.digest"],
  ["a.digest > b.digest", "a.digest <= b.digest"],
];
const DIG_TF: readonly (readonly [string, string])[] = [
  ["a.digest > b.digest", "true"],
  ["a.digest > b.digest", "false"],
];
const SORTED =
  "const sorted = (xs: readonly string[]): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));";
const KEYS = "const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));";
const CONTRIBUTORS = "contributors: cs.map((c) => c.distillateId).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),";
const DIGEST_SORT = ".sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));";

const CASES: readonly Case[] = [
  // model/predicates.ts `sorted` (J-2 tools and grants, AD-4 contributors, RIPA deltas)
  {
    file: "model/predicates.ts",
    context: SORTED,
    mutator: "EqualityOperator",
    original: "a < b",
    replacement: "a <= b",
    body: STR,
    mutants: [["a < b", "a <= b"]],
    shape: "strings",
    claim: "values",
  },
  {
    file: "model/predicates.ts",
    context: SORTED,
    mutator: "ConditionalExpression",
    original: "a > b",
    replacement: "false",
    body: STR,
    mutants: [["a > b", "false"]],
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/predicates.ts",
    context: SORTED,
    mutator: "ConditionalExpression",
    original: "a > b",
    replacement: "true",
    body: STR,
    mutants: [["a > b", "true"]],
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/predicates.ts",
    context: SORTED,
    mutator: "EqualityOperator",
    original: "a > b",
    replacement: "a <= b",
    body: STR,
    mutants: [["a > b", "a <= b"]],
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/predicates.ts",
    context: SORTED,
    mutator: "EqualityOperator",
    original: "a > b",
    replacement: "a >= b",
    body: STR,
    mutants: [["a > b", "a >= b"]],
    shape: "strings",
    claim: "order",
  },
  // model/samskara/aggregate.ts: the store's keys, and each entry's contributors
  {
    file: "model/samskara/aggregate.ts",
    context: KEYS,
    mutator: "EqualityOperator",
    original: "a > b",
    body: STR,
    mutants: STR_GE,
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/samskara/aggregate.ts",
    context: KEYS,
    mutator: "ConditionalExpression",
    body: STR,
    mutants: STR_TF,
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/samskara/aggregate.ts",
    context: CONTRIBUTORS,
    mutator: "EqualityOperator",
    original: "a > b",
    body: STR,
    mutants: STR_GE,
    shape: "strings",
    claim: "order",
  },
  {
    file: "model/samskara/aggregate.ts",
    context: CONTRIBUTORS,
    mutator: "ConditionalExpression",
    body: STR,
    mutants: STR_TF,
    shape: "strings",
    claim: "order",
  },
  // model/samskara/lineage.ts batchOf: batch members by digest
  {
    file: "model/samskara/lineage.ts",
    context: DIGEST_SORT,
    mutator: "ConditionalExpression",
    replacement: "true",
    body: DIG,
    mutants: [["a.digest > b.digest", "true"]],
    shape: "digest",
    claim: "order",
  },
  {
    file: "model/samskara/lineage.ts",
    context: DIGEST_SORT,
    mutator: "ConditionalExpression",
    replacement: "false",
    body: DIG,
    mutants: [["a.digest > b.digest", "false"]],
    shape: "digest",
    claim: "order",
  },
  {
    file: "model/samskara/lineage.ts",
    context: DIGEST_SORT,
    mutator: "EqualityOperator",
    original: "a.digest > b.digest",
    body: DIG,
    mutants: DIG_GE,
    shape: "digest",
    claim: "order",
  },
  // model/samskara/store.ts excise: the excised entries by digest
  {
    file: "model/samskara/store.ts",
    context: DIGEST_SORT,
    mutator: "ConditionalExpression",
    body: DIG,
    mutants: DIG_TF,
    shape: "digest",
    claim: "order",
  },
  {
    file: "model/samskara/store.ts",
    context: DIGEST_SORT,
    mutator: "EqualityOperator",
    original: "a.digest > b.digest",
    body: DIG,
    mutants: DIG_GE,
    shape: "digest",
    claim: "order",
  },
  // model/state.ts byKey (providers by provider_id)
  {
    file: "model/state.ts",
    context: "return x < y ? -1 : x > y ? 1 : 0;",
    mutator: "EqualityOperator",
    body: "x < y ? -1 : x > y ? 1 : 0",
    mutants: [
      ["x > y", "x >= y"],
      ["x > y", "x <= y"],
    ],
    shape: "byKey",
    claim: "order",
  },
];

const same = (c: Case, e: TriageEntry): boolean =>
  e.file === c.file &&
  e.context === c.context &&
  e.mutator === c.mutator &&
  e.original === c.original &&
  e.replacement === c.replacement;

interface Item {
  readonly key: string;
  /** Tells apart elements with equal keys. */
  readonly tag: number;
}
type Compare = (p: Item, q: Item) => number;

/** The comparator `body` as the sort on that line calls it, on items. */
const comparator = (shape: Shape, body: string): Compare => {
  if (shape === "byKey") {
    const f = new Function("x", "y", `return ${body};`) as (x: string, y: string) => number;
    return (p, q) => f(p.key, q.key);
  }
  if (shape === "digest") {
    const f = new Function("a", "b", `return ${body};`) as (a: { digest: string }, b: { digest: string }) => number;
    return (p, q) => f({ digest: p.key }, { digest: q.key });
  }
  const f = new Function("a", "b", `return ${body};`) as (a: string, b: string) => number;
  return (p, q) => f(p.key, q.key);
};

const mutate = (body: string, [from, to]: readonly [string, string]): string => {
  const at = body.indexOf(from);
  if (at < 0 || body.indexOf(from, at + 1) >= 0) throw new Error(`${from} must occur exactly once in ${body}`);
  return body.slice(0, at) + to + body.slice(at + from.length);
};

const KEYSPACE = ["", "a", "b", "k.a", "k.b", "k.c", "sha256:00", "sha256:0f", "sha256:f0", "Z", "é", "\u{1F600}"];
const keyArb = fc.constantFrom(...KEYSPACE);
/** Lists of 0..50 keys, most of them repeated. */
const shortArb = fc.array(keyArb, { maxLength: 50 });
/** Longer lists (up to 600) made of sorted, reversed and random runs: TimSort's run detection, merges and galloping. */
const longArb = fc
  .array(fc.tuple(fc.array(keyArb, { minLength: 1, maxLength: 120 }), fc.constantFrom("sorted", "reversed", "as is")), {
    minLength: 1,
    maxLength: 10,
  })
  .map((runs) =>
    runs.flatMap(([ks, how]) => {
      const s = [...ks].sort();
      return how === "sorted" ? s : how === "reversed" ? s.reverse() : ks;
    }),
  );

const items = (keys: readonly string[]): Item[] => keys.map((key, tag) => ({ key, tag }));
const sortWith = (keys: readonly string[], cmp: Compare): Item[] => [...items(keys)].sort(cmp);

describe("Stryker triage: comparator mutants called equivalent because of V8's sort", () => {
  it("every triage entry that rests on V8's sort has a case here, and every case names an entry on a line still in the source", () => {
    const v8 = ENTRIES.filter(RESTS_ON_V8).filter((e) => /sort|x < y/.test(e.context));
    expect(v8.filter((e) => !CASES.some((c) => same(c, e))).map((e) => `${e.file}: ${e.context}`)).toEqual([]);
    for (const c of CASES) {
      const e = ENTRIES.find((x) => same(c, x));
      expect(e, `${c.file} ${c.mutator} ${c.original ?? ""} -> ${c.replacement ?? ""}`).toBeDefined();
      expect(e?.category).toBe("b");
      expect(readFileSync(join(ROOT, c.file), "utf8")).toContain(c.context.trim());
      expect(c.context.replace(/[()]/g, "")).toContain(c.body.replace(/[()]/g, ""));
      for (const [from] of c.mutants) expect(c.body).toContain(from);
    }
    // every V8 entry that is about a comparator is here; the others that cite V8 are not comparators
    expect(ENTRIES.filter(RESTS_ON_V8).length).toBe(v8.length);
  });

  for (const c of CASES)
    for (const m of c.mutants)
      it(`${c.file}: ${m[0]} -> ${m[1]} (${c.mutator}) sorts every list as the original does${c.claim === "order" ? ", element for element" : ", key for key"}`, () => {
        const original = comparator(c.shape, c.body);
        const mutant = comparator(c.shape, mutate(c.body, m));
        const check = (keys: string[]): void => {
          const a = sortWith(keys, original);
          const b = sortWith(keys, mutant);
          if (c.claim === "order") expect(b).toEqual(a);
          else expect(b.map((x) => x.key)).toEqual(a.map((x) => x.key));
        };
        fc.assert(fc.property(shortArb, check), { seed: 20_251, numRuns: 2_000 });
        fc.assert(fc.property(longArb, check), { seed: 20_252, numRuns: 300 });
      });

  it("the check can tell: a <= b for a < b does reorder elements with equal keys (which is why that entry claims equal keys only)", () => {
    const original = comparator("strings", STR);
    const mutant = comparator("strings", mutate(STR, ["a < b", "a <= b"]));
    const differs = fc.check(
      fc.property(shortArb, (keys) => expect(sortWith(keys, mutant)).toEqual(sortWith(keys, original))),
      { seed: 20_251, numRuns: 2_000 },
    );
    expect(differs.failed).toBe(true);
  });
});
