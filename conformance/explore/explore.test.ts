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
import { canonicalJson, fingerprint, fnv1a64 } from "./fingerprint.ts";
import { checkCoverage, exploreJson, exploreMarkdown } from "./report.ts";
import { NAMED_SCOPES, ScopeError, loadScope, parseScope, type Scope } from "./scope.ts";

const base = loadScope("default");
const tiny = (over: Partial<Scope>): Scope => parseScope({ ...base, name: "tiny", ...over });

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
    writeFileSync(bad, JSON.stringify({ ...base, distillates: [{ id: "x", valence: 0.5, confidence: 1, dispositions: [] }] }));
    expect(() => loadScope(bad)).toThrow(/distillates\.0\.valence/);
    writeFileSync(bad, "{ not json");
    expect(() => loadScope(bad)).toThrow(/not JSON/);
    expect(() => loadScope("no-such-scope")).toThrow(/no scope named/);
  });
});

describe("fingerprint", () => {
  it("FNV-1a 64 agrees with the BigInt definition and the published vectors", () => {
    expect(fnv1a64("")).toBe("cbf29ce484222325");
    expect(fnv1a64("a")).toBe("af63dc4c8601ec8c");
    for (const s of ["foobar", "{\"tick\":1}", "é漢字\u{1F600}", "x".repeat(1000)]) expect(fnv1a64(s)).toBe(fnvRef(s));
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
  });
  it("deduplicates: the same state reached two ways counts once", () => {
    // At one tick, conceiving i1 then i2 and i2 then i1 give the same world.
    const r = explore(tiny({ instances: ["i1", "i2"], makers: ["mint", "conceive"], tick_step: 0, fresh_ids_in_order: false, max_depth: 3 }));
    expect(r.perDepth).toEqual([1, 1, 2, 1]);
    expect(r.distinct).toBe(5);
    // With ids taken in order (symmetry by construction), only i1 is conceived first.
    const s = explore(tiny({ instances: ["i1", "i2"], makers: ["mint", "conceive"], tick_step: 0, fresh_ids_in_order: true, max_depth: 3 }));
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
  it("the default scope, cut to depth 8, reaches every operation it names and checks all 19 predicates", () => {
    const seen: number[] = [];
    const r = explore({ ...base, max_depth: 8 }, { onProgress: (p) => seen.push(p.distinct), progressEveryMs: 0 });
    expect(r.violations).toEqual([]);
    expect(r.depth).toBe(8);
    expect(r.perDepth.reduce((a, b) => a + b, 0)).toBe(r.distinct);
    for (const op of ["advaita.mint", "janma.conceive", "janma.birth", "janma.act", "janma.withdraw", "janma.distil", "custody.attempt", "janma.dissolve", "samskara.merge", "janma.expire", "custody.expire", "samskara.replay", "samskara.excise"])
      expect(r.perOp[op]?.accepted, op).toBeGreaterThan(0);
    for (const id of INVARIANT_IDS) expect(r.predicateChecks[id], id).toBeGreaterThan(0);
    const total = Object.values(r.perOp).reduce((a, c) => a + c.accepted + c.rejected, 0);
    expect(total).toBe(r.states);
    const fired = Object.values(r.perCheck).reduce((a, c) => a + c.fired, 0);
    expect(fired).toBe(Object.values(r.perOp).reduce((a, c) => a + c.rejected, 0));
    expect(seen.at(-1)).toBe(r.distinct);
    const cov = checkCoverage(r);
    expect(cov.total).toBe(CHECKS.length);
    expect(cov.reached + cov.unreached.length).toBe(cov.total);
    expect(JSON.parse(exploreJson(r)).coverage.reached).toBe(cov.reached);
    const md = exploreMarkdown(r);
    expect(md).toContain(`| distinct states | ${r.distinct} |`);
    expect(md).toContain("## Check clauses never reached");
  });
});
