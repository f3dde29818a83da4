/** `srk list`: the invariants (with the stages that check them), the stages, and the operations. */
import { INVARIANTS } from "../../spec/catalog.ts";
import { COMMAND_OP_NAMES, STAGES, type StageName } from "../../spec/names.ts";
import { familyOfOp, guardsOf } from "../oracle/families.ts";
import { STAGE_CONCERNS } from "../verdicts/decide.ts";

export const STAGE_DESCRIPTIONS: Readonly<Record<StageName, string>> = {
  handshake:
    "W-5: NOT_HANDSHAKEN before hello, UNSUPPORTED_VERSION, version choice, HelloResult, a second hello refused; reads the profile",
  golden: "W-9: the committed golden sessions, every normative reply part compared, for the families in the profile",
  wire: "W-1, W-2.1, W-4: the hostile-input catalog, each line's wire code in W-4 order, one reply per line, data directory unchanged",
  exhaustive:
    "every edge (state, command) of a scope of the model (quick; --exhaustive <scope>), explored breadth first with the profile's operations, driven over the wire from the initial world; every reply and every distinct state's world view compared",
  differential:
    "generated runs (swarm testing) with the reference model as oracle: every reply and the world view at checkpoints; failures shrunk over the wire",
  algebra:
    "AD-3 merge order-independence over orders, batchings and duplicates; S-4 replay claims; S-5 excision equals never having merged",
  crash:
    "W-7: crash hook at every durable write (before and after commit) and SIGKILL with requests in flight; recovery to the right prefix",
  forgetting:
    "W-7.2: no trace byte after distillation (S-1), no excised content after excision (S-5), in any file under the data directory",
};

const pad = (s: string, n: number): string => s.padEnd(n);

export const renderList = (): string => {
  const out: string[] = ["Invariants", ""];
  out.push(`${pad("id", 6)}${pad("family", 10)}${pad("error code", 38)}name`);
  for (const i of INVARIANTS) {
    const stages = STAGES.filter((s) => STAGE_CONCERNS[s].includes(i.id));
    out.push(`${pad(i.id, 6)}${pad(i.protocol, 10)}${pad(i.errorCode, 38)}${i.name}`);
    out.push(`${pad("", 16)}guards: ${i.guards.join(", ")}`);
    out.push(`${pad("", 16)}checked by: ${stages.join(", ")}`);
  }
  out.push("", "Stages (in the order srk certify runs them)", "");
  for (const s of STAGES) out.push(`${pad(s, 14)}${STAGE_DESCRIPTIONS[s]}`);
  out.push("", "Operations", "");
  out.push(`${pad("op", 30)}${pad("family", 10)}guarded by`);
  for (const op of COMMAND_OP_NAMES)
    out.push(`${pad(op, 30)}${pad(familyOfOp(op), 10)}${guardsOf(op).join(", ") || "—"}`);
  return `${out.join("\n")}\n`;
};
