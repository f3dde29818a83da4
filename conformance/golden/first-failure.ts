/**
 * Where an implementation first fails when the golden sessions are replayed in process, in their
 * committed order, each against a fresh instance — the order the mutation harness's golden hunt
 * uses. The spec-review test uses it to check that a mutant taking the other reading of a review
 * item first fails on a line that pins that item (request id "G-n.<line>"), not on some earlier
 * line that happens to be reachable by it.
 */
import { join } from "node:path";
import type { Implementation, OpenOptions } from "../../impl/api.ts";
import { firstGoldenMismatchAt, readGolden, type GoldenMismatch } from "./replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "./session.ts";

export interface FirstGoldenFailure {
  readonly session: string;
  readonly mismatch: GoldenMismatch;
}

/** The first session (in GOLDEN_SESSIONS order) and line at which `openImpl`'s replies differ, or null. */
export const firstGoldenFailure = (
  openImpl: (opts?: OpenOptions) => Implementation,
  root: string,
): FirstGoldenFailure | null => {
  for (const g of GOLDEN_SESSIONS) {
    const impl = openImpl({});
    try {
      const mismatch = firstGoldenMismatchAt(readGolden(join(root, goldenPath(g))), impl);
      if (mismatch !== null) return { session: g.name, mismatch };
    } finally {
      impl.close();
    }
  }
  return null;
};

/** The review item a golden line pins, from its request id ("G-28.14" → "G-28"), or null for a scene-setting or clause line. */
export const reviewItemOfLine = (id: string): string | null => /^(G-\d+)\.\d+$/.exec(id)?.[1] ?? null;
