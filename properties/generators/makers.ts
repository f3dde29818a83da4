/**
 * The interpreter's table: one maker per operation kind. Typed `Record<OpKind, Maker>`, so a kind
 * added to `OpKind` (weights.ts) without a maker, or a maker for a kind that does not exist, is a
 * compile error; there is no fallback kind.
 */
import { CUSTODY_MAKERS } from "./makers-custody.ts";
import { distil } from "./makers-distil.ts";
import { JANMA_MAKERS } from "./makers-janma.ts";
import { MIGRATION_MAKERS } from "./makers-migration.ts";
import { RIPA_MAKERS } from "./makers-ripa.ts";
import { mint } from "./mint.ts";
import type { Maker } from "./step.ts";
import type { OpKind } from "./weights.ts";

export const MAKERS: Readonly<Record<OpKind, Maker>> = {
  // `materialize` mints before it chooses an agent (a world without agents can only mint), so this
  // entry is there for the table to be total; it makes the same mint.
  mint,
  ...JANMA_MAKERS,
  distil,
  ...CUSTODY_MAKERS,
  ...RIPA_MAKERS,
  ...MIGRATION_MAKERS,
};
