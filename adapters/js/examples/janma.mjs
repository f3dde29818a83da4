#!/usr/bin/env node
/**
 * Step 2 of the implementer's path: the profile ["janma", "advaita"]. Step 1's world (world.mjs:
 * mint, project_write, the queries, reset, durability) plus the janma lifecycle and custody
 * (lifecycle.mjs). srk certifies J-1..J-4, AD-1, AD-2 and AD-4 and reports the rest not applicable
 * (D-049): AD-3 needs samskara, whose merge is the only way to reconcile distillates. From the
 * kit's root:
 *
 *   npx srk certify --impl "node adapters/js/examples/janma.mjs"
 */
import { mint, projectWrite, serveWorld } from "./world.mjs";
import { lifecycleOperations } from "./lifecycle.mjs";

serveWorld({
  implementation: { name: "js-example-janma", version: "1.0.0" },
  families: ["janma", "advaita"],
  operations: {
    "advaita.mint": mint,
    // Now that instances exist, OP-4.4 refuses a write from one of them with AD-2.
    "advaita.project_write": projectWrite,
    ...lifecycleOperations,
  },
});
