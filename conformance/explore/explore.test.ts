import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PREDICATES, initialWorld, type Predicate } from "../../model/index.ts";
import { INVARIANT_IDS, type InvariantId } from "../../spec/invariant-ids.ts";
import { CHECKS } from "../../spec/checks.ts";
import { expect1 } from "../oracle/model.ts";
import { commandsAt } from "./commands.ts";
import { explore } from "./explore.ts";
import { FingerprintSet, canonicalJson, fingerprint, fnv1a64, fnv1a64Halves } from "./fingerprint.ts";
import { checkCoverage, exploreJson, exploreMarkdown } from "./report.ts";
import { NAMED_SCOPES, ScopeError, loadScope, parseScope, partsOf, type Scope } from "./scope.ts";
import { ALL_OPS, scopeReach } from "./scope-reach.ts";

const base = loadScope("default");
/** The default scope's first part (Samsara) with fields changed: one scope, no parts. */
const tiny = (over: Partial<Scope>): Scope => parseScope({ ...base, parts: undefined, name: "tiny", ...over });

/** The reference FNV-1a 64 with BigInt, to check the two-halves version. */
const fnvRef = (s: string): string => {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) h = ((h ^ BigInt(s.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, "0");
};

describe("scopes", () => {
  it("the shipped scopes parse", () => {
    for (const name of NAMED_SCOPES) expect(loadScope(name).name).toBe(name);
  });
  it("a malformed scope is refused naming the field", () => {
    expect(() => parseScope({ ...base, max_depth: -1 })).toThrow(/max_depth/);
    expect(() => parseScope({ ...base, makers: ["mint", "fly"] })).toThrow(/makers\.1/);
    expect(() => parseScope({ ...base, instances: ["i1", "i1"] })).toThrow(/instances: duplicate i1/);
    expect(() => parseScope({ ...base, extra: 1 })).toThrow(/extra/);
    const { roots: _, ...noRoots } = base;
    expect(() => parseScope(noRoots)).toThrow(ScopeError);
    expect(() => parseScope(noRoots)).toThrow(/roots/);
    const dir = mkdtempSync(join(tmpdir(), "explore-"));
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ ...base, distillates: [{ id: "x", valence: 0.5, confidence: 1, dispositions: [] }] }),
    );
    expect(() => loadScope(bad)).toThrow(/distillates\.0\.valence/);
    writeFileSync(bad, "{ not json");
    expect(() => loadScope(bad)).toThrow(/not JSON/);
    expect(() => loadScope("no-such-scope")).toThrow(/no scope named/);
    // A part is checked as the scope is: a field's bounds, its own duplicates, no unknown field.
    expect(() => parseScope({ ...base, parts: [{ name: "p", max_depth: 99 }] })).toThrow(/parts\.0\.max_depth/);
    expect(() => parseScope({ ...base, parts: [{ name: "p", roots: ["a", "a"] }] })).toThrow(/p: roots: duplicate a/);
    expect(() => parseScope({ ...base, parts: [{ name: "p", parts: [] }] })).toThrow(/parts\.0/);
    expect(() => parseScope({ ...base, choices: [{ x: 0, y: 0, bad: 16 }] })).toThrow(/choices\.0\.bad/);
    expect(() => parseScope({ ...base, symmetry: ["agents"] })).toThrow(/symmetry\.0/);
  });
  it("a composite scope's parts are the scope with each part's fields over it, named scope/part", () => {
    const s = parseScope({
      ...base,
      name: "c",
      max_depth: 5,
      parts: [
        { name: "x", max_depth: 2 },
        { name: "y", makers: ["mint"] },
      ],
    });
    const [x, y] = partsOf(s);
    expect(x).toMatchObject({ name: "c/x", max_depth: 2, makers: base.makers });
    expect(y).toMatchObject({ name: "c/y", max_depth: 5, makers: ["mint"] });
    expect(x?.parts).toBeUndefined();
    // A scope without parts is its own only part.
    const one = tiny({});
    expect(partsOf(one)).toEqual([one]);
  });
});

describe("fingerprint set", () => {
  it("adds each fingerprint once, grows past half full, and keeps (0, 0) apart", () => {
    const s = new FingerprintSet(16);
    const bytes0 = s.bytes;
    expect(bytes0).toBe(16 * 8); // 16 slots of two 32-bit words
    for (let k = 1; k <= 100; k++) expect(s.add(k, k * 7)).toBe(true);
    for (let k = 1; k <= 100; k++) expect(s.add(k, k * 7)).toBe(false);
    expect(s.size).toBe(100);
    // (0, 0) marks an empty slot: it is remembered apart, once.
    expect(s.has(0, 0)).toBe(false);
    expect(s.add(0, 0)).toBe(true);
    expect(s.add(0, 0)).toBe(false);
    expect(s.has(0, 0)).toBe(true);
    expect(s.size).toBe(101);
    for (let k = 1; k <= 100; k++) expect(s.has(k, k * 7)).toBe(true);
    expect(s.has(5, 34)).toBe(false);
    expect(s.add(5, 35)).toBe(false);
    // At most half full: 100 entries in slots need 256 of them (128 hold at most 64).
    expect(s.bytes).toBe(256 * 8);
    // Halves agree with the hex fingerprint.
    const [hi, lo] = fnv1a64Halves("foobar");
    expect(hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0")).toBe(fnv1a64("foobar"));
  });
});

describe("fingerprint", () => {
  it("FNV-1a 64 agrees with the BigInt definition and the published vectors", () => {
    expect(fnv1a64("")).toBe("cbf29ce484222325");
    expect(fnv1a64("a")).toBe("af63dc4c8601ec8c");
    for (const s of ["foobar", '{"tick":1}', "é漢字\u{1F600}", "x".repeat(1000)]) expect(fnv1a64(s)).toBe(fnvRef(s));
  });
  it("canonical JSON sorts object keys and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [2, 1], c: { y: null, x: "s" } })).toBe('{"a":[2,1],"b":1,"c":{"x":"s","y":null}}');
  });
  it("is stable for equal worlds and differs for different ones", () => {
    const scope = tiny({ makers: ["mint", "conceive"] });
    const build = () => {
      let w = initialWorld();
      for (const k of [0, 1]) {
        const t = commandsAt(scope, w)[k]; // mint a; then (mint a, conceive i1, …)[1]: conceive i1
        if (t === undefined) throw new Error("no command");
        w = expect1(w, t.command).world;
      }
      return w;
    };
    const w1 = build();
    const w2 = build();
    expect([...w1.agents.values()][0]?.instances.has("i1")).toBe(true);
    expect(w1).not.toBe(w2);
    expect(fingerprint(w1)).toBe(fingerprint(w2));
    expect(fingerprint(w1)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint(w1)).not.toBe(fingerprint(initialWorld()));
    expect(fingerprint({ ...w1, tick: w1.tick + 1 })).not.toBe(fingerprint(w1));
  });
});

describe("explore", () => {
  it("a tiny scope (one agent, mint, conceive, birth, depth 3) has the states the rule gives", () => {
    // initial → minted → i1 conceived → i1 born: one new state per depth. Tried: the initial world
    // tries mint only (no agent yet: conceive and birth need one), the next two states try all three.
    const r = explore(tiny({ instances: ["i1"], makers: ["mint", "conceive", "birth"], max_depth: 3 }));
    expect(r.distinct).toBe(4);
    expect(r.perDepth).toEqual([1, 1, 1, 1]);
    expect(r.depth).toBe(3);
    expect(r.states).toBe(1 + 3 + 3);
    expect(r.perOp).toEqual({
      "advaita.mint": { accepted: 1, rejected: 2 }, // the root is used once minted (OP-5.1.c1)
      "janma.conceive": { accepted: 1, rejected: 1 }, // the id is taken
      "janma.birth": { accepted: 1, rejected: 1 }, // no such instance before conception
    });
    expect(r.perCheck["OP-5.1.c1"]?.fired).toBe(2);
    expect(r.violations).toEqual([]);
    expect(r.truncated).toBe(false);
    // The visited set's memory: its table's bytes, and per million entries.
    expect(r.memory.visitedBytes).toBe(1024 * 8); // the set's first table: 1024 slots of 8 bytes, 4 entries in it
    expect(r.memory.visitedBytesPerMillion).toBe(Math.round((r.memory.visitedBytes / r.distinct) * 1e6));
    expect(r.parts).toEqual([
      {
        name: "tiny",
        states: 7,
        distinct: 4,
        depth: 3,
        maxDepth: 3,
        truncated: false,
        exhausted: false,
        elapsedMs: r.elapsedMs,
      },
    ]);
  });
  it("a composite scope explores each part from the initial world and sums them", () => {
    const one = { instances: ["i1"], max_depth: 3 };
    const a = explore(tiny({ ...one, makers: ["mint", "conceive", "birth"] }));
    const b = explore(tiny({ ...one, makers: ["mint", "task_start"] }));
    const both = explore(
      tiny({
        ...one,
        parts: [
          { name: "a", makers: ["mint", "conceive", "birth"] },
          { name: "b", makers: ["mint", "task_start"] },
        ],
      }),
    );
    expect(both.parts.map((p) => [p.name, p.distinct])).toEqual([
      ["tiny/a", a.distinct],
      ["tiny/b", b.distinct],
    ]);
    expect(both.distinct).toBe(a.distinct + b.distinct);
    expect(both.states).toBe(a.states + b.states);
    expect(both.perDepth).toEqual(a.perDepth.map((n, d) => n + (b.perDepth[d] ?? 0)));
    expect(both.perOp["advaita.mint"]).toEqual({
      accepted: 2,
      rejected: (a.perOp["advaita.mint"]?.rejected ?? 0) + (b.perOp["advaita.mint"]?.rejected ?? 0),
    });
    expect(both.perOp["ripa.task_start"]).toEqual(b.perOp["ripa.task_start"]);
    expect(both.memory.visitedBytes).toBe(a.memory.visitedBytes + b.memory.visitedBytes);
  });
  it("deduplicates: the same state reached two ways counts once", () => {
    // At one tick, conceiving i1 then i2 and i2 then i1 give the same world.
    const r = explore(
      tiny({
        instances: ["i1", "i2"],
        makers: ["mint", "conceive"],
        tick_step: 0,
        fresh_ids_in_order: false,
        max_depth: 3,
      }),
    );
    expect(r.perDepth).toEqual([1, 1, 2, 1]);
    expect(r.distinct).toBe(5);
    // With ids taken in order (symmetry by construction), only i1 is conceived first.
    const s = explore(
      tiny({
        instances: ["i1", "i2"],
        makers: ["mint", "conceive"],
        tick_step: 0,
        fresh_ids_in_order: true,
        max_depth: 3,
      }),
    );
    expect(s.perDepth).toEqual([1, 1, 1, 1]);
  });
  it("stops at max_states and says so", () => {
    const r = explore(tiny({ max_states: 10 }));
    expect(r.distinct).toBe(10);
    expect(r.truncated).toBe(true);
  });
  it("finds a planted predicate violation with a shortest path", () => {
    const wrongJ1: Predicate = {
      kind: "transition",
      check: (s) => (s.accepted && s.command.op === "janma.birth" ? { violation: "planted: a life was born" } : true),
    };
    const predicates = { ...PREDICATES, "J-1": wrongJ1 } as Record<InvariantId, Predicate>;
    const r = explore(tiny({ max_depth: 5 }), { predicates });
    expect(r.violations.map((v) => v.predicate)).toEqual(["J-1"]);
    const v = r.violations[0];
    expect(v?.violation).toBe("planted: a life was born");
    expect(v?.depth).toBe(3);
    expect(v?.path.map((c) => c.op)).toEqual(["advaita.mint", "janma.conceive", "janma.birth"]);
    // The path replays to the violating step.
    let w = initialWorld();
    for (const c of v?.path ?? []) {
      const e = expect1(w, c);
      expect(e.reply.ok).toBe(true);
      w = e.world;
    }
  });
  it("the default scope, cut to depth 8, tries every operation, checks all 19 predicates and reaches every clause the rule allows", () => {
    const seen: number[] = [];
    const r = explore({ ...base, max_depth: 8 }, { onProgress: (p) => seen.push(p.distinct), progressEveryMs: 0 });
    expect(r.parts.map((p) => p.name)).toEqual(["default/samsara", "default/ripa", "default/migration"]);
    expect(r.violations).toEqual([]);
    expect(r.depth).toBe(8);
    expect(r.perDepth.reduce((a, b) => a + b, 0)).toBe(r.distinct);
    for (const id of INVARIANT_IDS) expect(r.predicateChecks[id], id).toBeGreaterThan(0);
    const total = Object.values(r.perOp).reduce((a, c) => a + c.accepted + c.rejected, 0);
    expect(total).toBe(r.states);
    const fired = Object.values(r.perCheck).reduce((a, c) => a + c.fired, 0);
    expect(fired).toBe(Object.values(r.perOp).reduce((a, c) => a + c.rejected, 0));
    expect(seen.at(-1)).toBe(r.parts.at(-1)?.distinct);
    const reach = scopeReach(r);
    // Every operation is tried; the two that always reject (D-017) are the only ones never accepted.
    expect(reach.operationsTried).toBe(ALL_OPS.length);
    expect(reach.unreachedOperations.map((u) => u.op).sort()).toEqual(
      CHECKS.filter((c) => c.alwaysRejects === true)
        .map((c) => c.op)
        .sort(),
    );
    // Every clause not reached both ways is out of reach by construction, but for three refusals
    // whose state is 8 commands from the initial world, so that the refused command is the 9th
    // (the cut explores states at depth 8 but tries no command in them):
    // - an obligation id and a distillate id in use (OP-2.7.c3, c10) need a second life withdrawn
    //   after a first was distilled: mint, then conceive, birth, withdraw, distil the first,
    //   conceive, birth, withdraw the second;
    // - a birth whose pin has left the chain (OP-2.2.c4): mint, conceive, birth, withdraw, distil
    //   and merge the first life, conceive the second (pinning the new head), excise the first's
    //   distillate (the chain is derived again without that head).
    const byScope = reach.unreachedClauses.filter((u) => !u.byConstruction).map((u) => u.id);
    expect(byScope.sort()).toEqual(["OP-2.2.c4", "OP-2.7.c10", "OP-2.7.c3"]);
    const cov = checkCoverage(r);
    expect(cov.total).toBe(CHECKS.length);
    expect(cov.reached).toBe(CHECKS.length);
    expect(JSON.parse(exploreJson(r)).coverage.reached).toBe(cov.reached);
    const md = exploreMarkdown(r);
    expect(md).toContain(`| distinct states | ${r.distinct} |`);
  }, 180_000);
});
