/**
 * How a world the implementation shows differs from the one expected, as the invariants it
 * violates: the leaf paths that differ, attributed by field (D-035). Shared by the checks that
 * compare whole worlds after a restart (the crash stage's cuts, the golden sessions' recovery).
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { WorldView } from "../../spec/index.ts";
import { attribute } from "./attribution.ts";

/** Leaf paths where two JSON values differ (at most `limit`). */
export const changedPaths = (a: unknown, b: unknown, path: string, out: string[] = [], limit = 64): string[] => {
  if (out.length >= limit || Object.is(a, b)) return out;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    out.push(path);
    return out;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    changedPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out, limit);
  }
  return out;
};

/** The path part of a firstDifference string (`$world.agents.0…: model … vs impl …`). */
export const pathOfDifference = (difference: string): string =>
  difference.slice(0, Math.max(0, difference.indexOf(": ")));

/** The invariant a world that differs from the expected one violates, `op` being the last command that changed it. */
export const blameWorld = (op: string, expected: WorldView, actual: unknown, difference: string): InvariantId =>
  attribute({
    op,
    modelRejected: null,
    implRejected: null,
    path: pathOfDifference(difference),
    paths: changedPaths(expected, actual, "$world"),
  });
