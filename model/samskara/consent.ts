/**
 * D-011 consent resolution (S-1): persisting a disposition is the `training` usage of its
 * category; sensitivity resolves by exact cell, then the category default row, then `low`.
 */
import type { ConsentGrant, DataCategory, Sensitivity } from "../../spec/index.ts";

const RANK: Record<Sensitivity, number> = { low: 0, medium: 1, high: 2 };

export const resolveSensitivity = (grant: ConsentGrant, category: DataCategory, dimension = "training"): Sensitivity =>
  grant.cells.find((c) => c.category === category && c.dimension === dimension)?.sensitivity ??
  grant.category_defaults.find((d) => d.category === category)?.sensitivity ??
  "low";

/** May a disposition of `category` persist under `grant`? `high` never can (ceiling is low|medium). */
export const consentAllows = (grant: ConsentGrant, category: DataCategory): boolean =>
  RANK[resolveSensitivity(grant, category)] <= RANK[grant.persist_ceiling];
