/**
 * The one structured comparison of JSON values in the kit (issue 22): where two values first
 * differ, and every place they differ, as paths of member names and array indices — data that the
 * attribution of a disagreement (D-035) reads — with a path's text written only for display.
 *
 * The order is the runner's: the keys of the expected (first) value, then the keys only the actual
 * value has; a key missing on one side reads as undefined there. Leaves are compared with
 * Object.is. A difference is a leaf that differs, a value against an absent one, or two containers
 * of different kinds (an array against an object), which stop the walk.
 */

/** Member names and array indices from the compared values' root. */
export type JsonPath = readonly (string | number)[];

export interface Difference {
  readonly path: JsonPath;
  /** The expected side at `path` (undefined when absent there). */
  readonly expected: unknown;
  /** The actual side at `path` (undefined when absent there). */
  readonly actual: unknown;
  /** Both sides are containers, one an array and the other an object. */
  readonly shape: boolean;
}

const leafApart = (a: unknown, b: unknown): boolean =>
  typeof a !== typeof b || a === null || b === null || typeof a !== "object";

/** The first place where `expected` and `actual` differ, or null when they are equal. */
export const firstDifferenceOf = (expected: unknown, actual: unknown, path: JsonPath = []): Difference | null => {
  if (Object.is(expected, actual)) return null;
  if (leafApart(expected, actual)) return { path, expected, actual, shape: false };
  if (Array.isArray(expected) !== Array.isArray(actual)) return { path, expected, actual, shape: true };
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const array = Array.isArray(expected);
  for (const k of new Set([...Object.keys(e), ...Object.keys(a)])) {
    const d = firstDifferenceOf(e[k], a[k], [...path, array ? Number(k) : k]);
    if (d !== null) return d;
  }
  return null;
};

/** Every place where the two values differ (leaves, or where the shapes part), in the same order, at most `limit`. */
export const differingPaths = (expected: unknown, actual: unknown, limit = 64): JsonPath[] => {
  const out: JsonPath[] = [];
  const walk = (e: unknown, a: unknown, path: JsonPath): void => {
    if (out.length >= limit || Object.is(e, a)) return;
    if (leafApart(e, a) || Array.isArray(e) !== Array.isArray(a)) {
      out.push(path);
      return;
    }
    const x = e as Record<string, unknown>;
    const y = a as Record<string, unknown>;
    const array = Array.isArray(e);
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], [...path, array ? Number(k) : k]);
  };
  walk(expected, actual, []);
  return out;
};

/** A path as the runner's messages and certificates write it: `$world.agents.0.store` (a dot before every step). */
export const dottedPath = (root: string, path: JsonPath): string => `${root}${path.map((k) => `.${k}`).join("")}`;

/** A path as the reports write it: `$.agents[0].store` (indices in brackets). */
export const bracketedPath = (path: JsonPath, root = "$"): string =>
  `${root}${path.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("")}`;

/** One line for a person: `<path>: model <expected> vs impl <actual>` (or `array vs object`), from `root`. */
export const describeDifference = (d: Difference, root: string): string =>
  d.shape
    ? `${dottedPath(root, d.path)}: array vs object`
    : `${dottedPath(root, d.path)}: model ${JSON.stringify(d.expected)} vs impl ${JSON.stringify(d.actual)}`;

/** The value at a path, or undefined. */
export const valueAt = (v: unknown, path: JsonPath): unknown => {
  let x: unknown = v;
  for (const k of path) {
    if (typeof x !== "object" || x === null) return undefined;
    x = (x as Record<string | number, unknown>)[k];
  }
  return x;
};
