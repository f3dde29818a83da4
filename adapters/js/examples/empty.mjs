#!/usr/bin/env node
/**
 * The empty profile on the adapter: no family, no crash hook, no handler. srk reports every
 * invariant not applicable and certifies the handshake and the wire protocol only (exit 2 by
 * D-036: nothing of the protocols is certified). From the kit's root:
 *
 *   npx srk certify --impl "node adapters/js/examples/empty.mjs"
 */
import { serve } from "../index.mjs";

serve({
  implementation: { name: "js-adapter-empty", version: "1.0.0" },
  profile: { families: [], crash_hook: false },
  handlers: {},
});
