/**
 * The wire stage's setup command (W-8): the `advaita.mint` every profile accepts (D-034), sent
 * before the wire catalog's lines by the wire stage and by the wire session of the golden
 * transcripts.
 */
import { type Command, DOMAIN, digestOf } from "../../spec/index.ts";

const BASE = digestOf(DOMAIN.manifest, { conformance: "wire-stage" });

/** The setup command: an `advaita.mint` (the bootstrap every profile accepts, D-034), as in W-8. */
export const setupMint = (tick: number, root: string): Command => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation: "wire stage agent",
  body_revision: "body-1",
  custodians: ["custodian-1"],
  execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host-1" },
  providers: [],
  required_capabilities: [],
  authority_token: "tok-1",
});
