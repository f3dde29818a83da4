/** `srk list`: the invariants (with the stages that check them), the stages, and the operations. */
import { INVARIANTS } from "../../spec/catalog.ts";
import { COMMAND_OP_NAMES, STAGES } from "../../spec/names.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { familyOfOp, guardsOf } from "../oracle/families.ts";
import { STAGE_CONCERNS } from "../verdicts/decide.ts";

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
  for (const s of STAGES) out.push(`${pad(s, 14)}${STAGE_CATALOG[s].listed}`);
  out.push("", "Operations", "");
  out.push(`${pad("op", 30)}${pad("family", 10)}guarded by`);
  for (const op of COMMAND_OP_NAMES)
    out.push(`${pad(op, 30)}${pad(familyOfOp(op), 10)}${guardsOf(op).join(", ") || "—"}`);
  return `${out.join("\n")}\n`;
};
