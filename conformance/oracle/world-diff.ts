/**
 * How a world the implementation shows differs from the one expected, as the invariant it
 * violates: the fields that differ, attributed by field (D-035). Shared by the checks that compare
 * whole worlds after a restart (the crash stage's cuts, the golden sessions' recovery).
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { WorldView } from "../../spec/index.ts";
import { differingPaths, firstDifferenceOf } from "../../properties/json-diff.ts";
import { attribute, type Place } from "./attribution.ts";

const inWorld = (path: Place["path"]): Place => ({ in: "world", path });

/** The invariant a world that differs from the expected one violates, `op` being the last command that changed it. */
export const blameWorld = (op: string, expected: WorldView, actual: unknown): InvariantId =>
  attribute({
    op,
    modelRejected: null,
    implRejected: null,
    path: inWorld(firstDifferenceOf(expected, actual)?.path ?? []),
    paths: differingPaths(expected, actual).map(inWorld),
  });
