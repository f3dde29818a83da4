/**
 * D-011, D-058 consent resolution (S-1): persisting a disposition is both the `storage` and the
 * `training` usage of its category; each sensitivity resolves by exact cell, then the category's
 * default row, then `low`, and the stricter of the two is held to the grant's ceiling.
 */
import type { ConsentGrant, DataCategory, Sensitivity } from "../../spec/index.ts";

const RANK: Record<Sensitivity, number> = { low: 0, medium: 1, high: 2 };

export const resolveSensitivity = (grant: ConsentGrant, category: DataCategory, dimension = "training"): Sensitivity =>
  grant.cells.find((c) => c.category === category && c.dimension === dimension)?.sensitivity ??
  grant.category_defaults.find((d) => d.category === category)?.sensitivity ??
  "low";

/** The usage dimensions persisting a disposition uses (D-058). */
export const PERSIST_DIMENSIONS = ["storage", "training"] as const;

/** May a disposition of `category` persist under `grant`? `high` never can (ceiling is low|medium). */
export const consentAllows = (grant: ConsentGrant, category: DataCategory): boolean =>
  PERSIST_DIMENSIONS.every((dim) => RANK[resolveSensitivity(grant, category, dim)] <= RANK[grant.persist_ceiling]);
