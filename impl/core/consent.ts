/**
 * S-1 consent check (D-011): persisting a disposition is the `training` usage of its category.
 * Sensitivity resolves by exact cell, then the category's default row, then `low`; the
 * disposition may persist iff that sensitivity is at or below the grant's ceiling.
 */
import type { ConsentGrant, DataCategory, Sensitivity } from "../../spec/index.ts";

const RANK: Readonly<Record<Sensitivity, number>> = { low: 0, medium: 1, high: 2 };

export const trainingSensitivity = (grant: ConsentGrant, category: DataCategory): Sensitivity =>
  grant.cells.find((c) => c.category === category && c.dimension === "training")?.sensitivity ??
  grant.category_defaults.find((d) => d.category === category)?.sensitivity ??
  "low";

export const mayPersist = (grant: ConsentGrant, category: DataCategory): boolean =>
  RANK[trainingSensitivity(grant, category)] <= RANK[grant.persist_ceiling];
