#!/usr/bin/env node
/**
 * Step 4 of the implementer's path: the full profile ["janma", "samskara", "advaita", "ripa"].
 * Step 3's world, lives and store (world.mjs, lifecycle.mjs, lineage.mjs, store.mjs) plus RIPA:
 * the continuity operations of OP-6 (continuity.mjs) and migration, OP-7 (migration.mjs). srk
 * certifies all 19 invariants (D-049). From the kit's root:
 *
 *   npx srk certify --impl "node adapters/js/examples/ripa.mjs"
 *
 * `--families a,b` (or `--families=a,b`) declares a smaller profile, any non-empty subset of the
 * four families (profile.mjs), so that every certifiable profile has a program here:
 *
 *   npx srk certify --impl "node adapters/js/examples/ripa.mjs --families advaita,ripa"
 */
import { mint, projectWrite, serveWorld } from "./world.mjs";
import { lifecycleOperations } from "./lifecycle.mjs";
import { lineageOperations } from "./lineage.mjs";
import { continuityOperations } from "./continuity.mjs";
import { migrationOperations } from "./migration.mjs";
import { allowedOperations, declaredFamilies } from "./profile.mjs";

const FAMILIES = ["janma", "samskara", "advaita", "ripa"];

const families = declaredFamilies(process.argv.slice(2), FAMILIES);
const operations = {
  "advaita.mint": mint,
  "advaita.project_write": projectWrite,
  ...lifecycleOperations,
  ...lineageOperations,
  ...continuityOperations,
  ...migrationOperations,
};

serveWorld({
  implementation: { name: "js-example-ripa", version: "1.0.0" },
  families,
  operations: allowedOperations(operations, families),
});
