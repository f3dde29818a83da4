/**
 * The kit's one JSON comparison (json-diff.ts): where two values first differ and every place they
 * differ, as paths (data). The texts the runner writes from them must stay what the certificates
 * held before the comparison was made structured (issue 22: the same certificate on the same seed),
 * so the string walker it replaced is kept here as the reference.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bracketedPath,
  describeDifference,
  differingPaths,
  dottedPath,
  firstDifferenceOf,
  valueAt,
} from "./json-diff.ts";

/** The runner's former string walker (properties/differential.ts before the structured comparison). */
const formerFirstDifference = (a: unknown, b: unknown, path = "$"): string | null => {
  if (Object.is(a, b)) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    return `${path}: model ${JSON.stringify(a)} vs impl ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  for (const k of new Set([...Object.keys(a as object), ...Object.keys(b as object)])) {
    const d = formerFirstDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${path}.${k}`,
    );
    if (d !== null) return d;
  }
  return null;
};

/** The reports' former path finder (reporters/common.ts before it). */
const formerPath = (a: unknown, b: unknown, path: (string | number)[] = []): (string | number)[] | null => {
  if (Object.is(a, b)) return null;
  if (
    typeof a !== typeof b ||
    a === null ||
    b === null ||
    typeof a !== "object" ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return path;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    const key = Array.isArray(a) ? Number(k) : k;
    if (!(k in ao) || !(k in bo)) return [...path, key];
    const d = formerPath(ao[k], bo[k], [...path, key]);
    if (d !== null) return d;
  }
  return null;
};

/** Pairs of JSON values that are often alike: a value and a copy of it with a few changes. */
const pairs = fc.jsonValue({ maxDepth: 4 }).chain((a) =>
  fc.oneof(
    fc.constant([a, structuredClone(a)] as const),
    fc.jsonValue({ maxDepth: 4 }).map((b) => [a, b] as const),
    fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([v, n]) => {
      const b = structuredClone(a) as unknown;
      if (Array.isArray(b)) {
        if (b.length === 0) b.push(v);
        else b[n % b.length] = v;
      } else if (typeof b === "object" && b !== null) {
        const keys = Object.keys(b);
        const k = keys.length === 0 ? "added" : (keys[n % keys.length] as string);
        (b as Record<string, unknown>)[k] = v;
      }
      return [a, b] as const;
    }),
  ),
);

describe("firstDifferenceOf: where two JSON values first differ", () => {
  it("is null exactly for equal values, and names the place, both sides and whether the shapes part", () => {
    expect(firstDifferenceOf({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBeNull();
    expect(firstDifferenceOf({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toEqual({
      path: ["a", 1, "b"],
      expected: 2,
      actual: 3,
      shape: false,
    });
    // A key missing on one side: undefined there.
    expect(firstDifferenceOf({ a: 1 }, {})).toEqual({ path: ["a"], expected: 1, actual: undefined, shape: false });
    expect(firstDifferenceOf({}, { z: null })).toEqual({
      path: ["z"],
      expected: undefined,
      actual: null,
      shape: false,
    });
    // An array against an object stops the walk there.
    expect(firstDifferenceOf({ a: [] }, { a: {} })).toEqual({ path: ["a"], expected: [], actual: {}, shape: true });
    // The expected value's keys first, then those only the actual one has.
    expect(firstDifferenceOf({ b: 1, a: 1 }, { c: 0, a: 2, b: 2 })?.path).toEqual(["b"]);
    expect(firstDifferenceOf({ a: 1 }, { c: 0, a: 1 })?.path).toEqual(["c"]);
    // Leaves are compared with Object.is: -0 is not 0.
    expect(firstDifferenceOf(-0, 0)?.path).toEqual([]);
  });

  it("its text is the former walker's, and its path the former report finder's, on any pair (fast-check)", () => {
    let differing = 0;
    fc.assert(
      fc.property(pairs, fc.constantFrom("$", "$reply", "$world"), ([a, b], root) => {
        const d = firstDifferenceOf(a, b);
        expect(d === null ? null : describeDifference(d, root)).toBe(formerFirstDifference(a, b, root));
        expect(d?.path ?? null).toEqual(formerPath(a, b));
        if (d !== null) {
          differing++;
          // The sides it names are the values at its place.
          expect(d.expected).toEqual(valueAt(a, d.path));
          expect(d.actual).toEqual(valueAt(b, d.path));
        }
      }),
      { numRuns: 2000, seed: 22 },
    );
    // The generator makes differing pairs often enough for the comparison above to mean something.
    expect(differing).toBeGreaterThan(500);
  });
});

describe("differingPaths: every place two values differ", () => {
  it("lists leaves in the walk's order, from the first difference, bounded", () => {
    const a = { x: 1, y: [1, 2, 3], z: { p: 1 } };
    const b = { x: 2, y: [1, 5], z: [] };
    expect(differingPaths(a, b)).toEqual([["x"], ["y", 1], ["y", 2], ["z"]]);
    expect(differingPaths(a, b, 2)).toEqual([["x"], ["y", 1]]);
    expect(differingPaths(a, structuredClone(a))).toEqual([]);
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const all = differingPaths(a, b, 1000);
        expect(all[0] ?? null).toEqual(firstDifferenceOf(a, b)?.path ?? null);
        for (const p of all) expect(Object.is(valueAt(a, p), valueAt(b, p))).toBe(false);
      }),
      { numRuns: 500, seed: 22 },
    );
  });
});

describe("a path's text, for display only", () => {
  it("dotted as the runner's messages and certificates write it, bracketed as the reports do", () => {
    expect(dottedPath("$world", ["agents", 0, "store"])).toBe("$world.agents.0.store");
    expect(dottedPath("", ["report", "identity_preserved"])).toBe(".report.identity_preserved");
    expect(bracketedPath(["agents", 0, "store"])).toBe("$.agents[0].store");
    expect(bracketedPath([])).toBe("$");
  });
});
