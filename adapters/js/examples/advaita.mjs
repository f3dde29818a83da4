#!/usr/bin/env node
/**
 * Step 1 of the implementer's path: the profile ["advaita"]. It mints agents (OP-5.1) and answers
 * every query of W-6; srk certifies AD-1 (single identity) and reports every other invariant not
 * applicable (D-049). From the kit's root:
 *
 *   npx srk certify --impl "node adapters/js/examples/advaita.mjs"
 *
 * Everything is in world.mjs, which step 2 (janma.mjs) reuses.
 */
import { mint, projectWrite, serveWorld } from "./world.mjs";

serveWorld({
  implementation: { name: "js-example-advaita", version: "1.0.0" },
  families: ["advaita"],
  operations: {
    "advaita.mint": mint,
    // Without janma no instance ever exists, so this is always NOT_FOUND (OP-4.4.c1).
    "advaita.project_write": projectWrite,
  },
});
