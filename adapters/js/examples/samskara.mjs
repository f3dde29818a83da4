#!/usr/bin/env node
/**
 * Step 3 of the implementer's path: the profile ["janma", "samskara", "advaita"]. Step 2's world
 * and lives (world.mjs, lifecycle.mjs) plus the Samskara store: merge, excision and replay
 * (lineage.mjs) over the algebra of OP-1 (store.mjs). srk certifies J-1..J-4, S-1..S-5 and
 * AD-1..AD-4 (D-049). From the kit's root:
 *
 *   npx srk certify --impl "node adapters/js/examples/samskara.mjs"
 *
 * `--families a,b` (or `--families=a,b`) declares a smaller profile, any non-empty subset of
 * these three families, so that every certifiable profile without ripa has a program here:
 *
 *   npx srk certify --impl "node adapters/js/examples/samskara.mjs --families janma,samskara"
 *
 * The operations of an undeclared family are left out, and the adapter answers a well-formed
 * command of that family UNSUPPORTED (W-5.2), except `advaita.mint`, which every profile with a
 * family needs to create an agent (D-034).
 */
import { mint, projectWrite, serveWorld } from "./world.mjs";
import { lifecycleOperations } from "./lifecycle.mjs";
import { lineageOperations } from "./lineage.mjs";
import { allowedOperations, declaredFamilies } from "./profile.mjs";

const FAMILIES = ["janma", "samskara", "advaita"];

const families = declaredFamilies(process.argv.slice(2), FAMILIES);
const operations = {
  "advaita.mint": mint,
  "advaita.project_write": projectWrite,
  ...lifecycleOperations,
  ...lineageOperations,
};

serveWorld({
  implementation: { name: "js-example-samskara", version: "1.0.0" },
  families,
  operations: allowedOperations(operations, families),
});
