/**
 * S-1 consent check (D-011, D-058): persisting a disposition is both the `storage` and the
 * `training` usage of its category. Each sensitivity resolves by exact cell, then the category's
 * default row, then `low`; the disposition may persist iff both are at or below the grant's ceiling.
 */
import type { ConsentGrant, DataCategory, Sensitivity } from "../../spec/index.ts";

const RANK: Readonly<Record<Sensitivity, number>> = { low: 0, medium: 1, high: 2 };

export const sensitivityOf = (
  grant: ConsentGrant,
  category: DataCategory,
  dimension: "storage" | "training",
): Sensitivity =>
  grant.cells.find((c) => c.category === category && c.dimension === dimension)?.sensitivity ??
  grant.category_defaults.find((d) => d.category === category)?.sensitivity ??
  "low";

export const mayPersist = (grant: ConsentGrant, category: DataCategory): boolean =>
  RANK[sensitivityOf(grant, category, "storage")] <= RANK[grant.persist_ceiling] &&
  RANK[sensitivityOf(grant, category, "training")] <= RANK[grant.persist_ceiling];
