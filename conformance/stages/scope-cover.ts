/**
 * The scope a certification explores (`--exhaustive`, `quick` by default, D-074) and its edge cover
 * for a profile, computed once per process: the exhaustive stage drives the cover's sessions, and
 * the coverage figure (D-075) measures the differential campaign against its abstract edges.
 */
import { edgeCover, type EdgeCover } from "../explore/edge-cover.ts";
import { loadScope } from "../explore/scope.ts";
import { opAllowed, type Family } from "../oracle/families.ts";
import { DEFAULT_EXHAUSTIVE_SCOPE } from "./exhaustive-scope.ts";
import type { CertifySettings } from "./types.ts";

/** The scope of this certification. */
export const scopeOf = (settings: Pick<CertifySettings, "exhaustiveScope">): string =>
  settings.exhaustiveScope ?? DEFAULT_EXHAUSTIVE_SCOPE;

// Exploring is pure and costs about a second for the quick scope: once per scope and profile per
// process (the shard gate asks for the units before the run, the certificate for the figure after).
const covers = new Map<string, EdgeCover>();

/**
 * The cover of `scope` explored with the profile's operations only (W-5.2: the others are never
 * sent), so a partial profile is driven through every edge its own operations reach.
 */
export const coverOf = (scope: string, families: readonly Family[]): EdgeCover => {
  const key = `${families.join(",")} ${scope}`;
  let c = covers.get(key);
  if (c === undefined)
    covers.set(key, (c = edgeCover(loadScope(scope), { allow: (command) => opAllowed(command.op, families) })));
  return c;
};
