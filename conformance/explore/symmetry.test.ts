import { describe, expect, it } from "vitest";
import { PREDICATES, type Predicate } from "../../model/index.ts";
import type { InvariantId } from "../../spec/invariant-ids.ts";
import { explore, type ExploreResult } from "./explore.ts";
import { MAX_SYMMETRIC_IDS, permutations, renamer, representativeOf } from "./symmetry.ts";
import { loadScope, parseScope, partsOf, type Scope } from "./scope.ts";

const samsara = partsOf(loadScope("default"))[0] as Scope;
const scopeOf = (over: Partial<Scope>): Scope => parseScope({ ...samsara, name: "sym", ...over });

/** The clauses that fired, and those that held, in a result. */
const reach = (r: ExploreResult) => ({
  fired: Object.entries(r.perCheck)
    .filter(([, c]) => c.fired > 0)
    .map(([id]) => id)
    .sort(),
  held: Object.entries(r.perCheck)
    .filter(([, c]) => c.held > 0)
    .map(([id]) => id)
    .sort(),
});

describe("symmetry: permutations and renaming", () => {
  it("permutations lists n! orders, the identity first", () => {
    expect(permutations(["a", "b", "c"])).toEqual([
      ["a", "b", "c"],
      ["a", "c", "b"],
      ["b", "a", "c"],
      ["b", "c", "a"],
      ["c", "a", "b"],
      ["c", "b", "a"],
    ]);
    expect(permutations(["a", "b", "c", "d"]).length).toBe(24);
    expect(permutations([])).toEqual([[]]);
  });
  it("renames whole id tokens and the strings derived from them, all at once", () => {
    const swap = renamer(["i1", "i2"], ["i2", "i1"]);
    expect(swap('{"instance_id":"i1","nonce":"n-i1","d":"d-i2-pos","x":"x-d-i1-pos"}')).toBe(
      '{"instance_id":"i2","nonce":"n-i2","d":"d-i1-pos","x":"x-d-i2-pos"}',
    );
    // Not a token of the set: a longer id, a letter or digit or _ or . beside it.
    expect(swap('["i10","xi1","i1.b","i1_c","ai1"]')).toBe('["i10","xi1","i1.b","i1_c","ai1"]');
  });
  it("the representative is the same for texts equal up to the renaming, and differs otherwise", () => {
    const rep = representativeOf(scopeOf({ symmetry: ["instances"] }));
    const a = '{"lives":[["i1","born"],["i2","conceived"]],"n":"n-i1"}';
    const b = '{"lives":[["i2","born"],["i1","conceived"]],"n":"n-i2"}';
    expect(rep(a)).toBe(rep(b));
    expect(rep('{"lives":[["i1","born"],["i2","born"]],"n":"n-i1"}')).not.toBe(rep(a));
    // Without symmetry the representative is the text itself.
    expect(representativeOf(scopeOf({}))(b)).toBe(b);
  });
  it("refuses a symmetric set too large to permute in every state", () => {
    const ids = Array.from({ length: MAX_SYMMETRIC_IDS + 1 }, (_, k) => `i${k + 1}`);
    expect(() => representativeOf(scopeOf({ instances: ids, symmetry: ["instances"] }))).toThrow(/at most/);
  });
});

describe("symmetry: exploration", () => {
  it("with two lives taken in any order, fewer distinct states, the same clauses reached and no violation lost", () => {
    // Ids not taken in order: conceiving i2 first is a state symmetric to conceiving i1 first.
    const over: Partial<Scope> = {
      fresh_ids_in_order: false,
      max_depth: 7,
      makers: [
        "mint",
        "conceive",
        "birth",
        "act",
        "withdraw",
        "distil",
        "attempt",
        "dissolve",
        "merge",
        "generic",
        "rare_samsara",
      ],
    };
    const off = explore(scopeOf(over));
    const on = explore(scopeOf({ ...over, symmetry: ["instances"] }));
    expect(on.symmetry).toBe(true);
    expect(off.symmetry).toBe(false);
    expect(on.distinct).toBeLessThan(off.distinct);
    // Not below half: each orbit has at most two states (two ids, two permutations).
    expect(on.distinct * 2).toBeGreaterThanOrEqual(off.distinct);
    expect(reach(on)).toEqual(reach(off));
    expect(on.violations).toEqual([]);
    expect(off.violations).toEqual([]);
    // A planted violation (every accepted birth) is found with and without, at the same depth.
    const planted = {
      ...PREDICATES,
      "J-1": {
        kind: "transition",
        check: (s) => (s.accepted && s.command.op === "janma.birth" ? { violation: "planted" } : true),
      } as Predicate,
    } as Record<InvariantId, Predicate>;
    const vOff = explore(scopeOf(over), { predicates: planted }).violations;
    const vOn = explore(scopeOf({ ...over, symmetry: ["instances"] }), { predicates: planted }).violations;
    expect(vOn.map((v) => [v.predicate, v.depth])).toEqual(vOff.map((v) => [v.predicate, v.depth]));
    expect(vOn.map((v) => v.predicate)).toEqual(["J-1"]);
  }, 120_000);
});
