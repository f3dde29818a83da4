/**
 * Which protocol family an operation belongs to, and which invariants a family owns (W-5.2).
 *
 * D-034: an operation's family is the prefix of its `op` (`janma.`, `samskara.`, `advaita.`,
 * `ripa.`), and `custody.*` (the delivery of a distillation, guarded by J-4) belongs to `janma`.
 * `advaita.mint` is the bootstrap of every agent: the runner sends it to any implementation that
 * declares at least one family, because no other operation can name an agent before it; AD-1 is
 * still reported not applicable unless `advaita` is in the profile.
 */
import { INVARIANTS, type InvariantId, type Protocol } from "../../spec/catalog.ts";

export type Family = Protocol;

export const BOOTSTRAP_OP = "advaita.mint";

export const familyOfOp = (op: string): Family => {
  const prefix = op.split(".")[0];
  switch (prefix) {
    case "janma":
    case "custody":
      return "janma";
    case "samskara":
      return "samskara";
    case "advaita":
      return "advaita";
    default:
      return "ripa";
  }
};

export const familyOfInvariant = (id: InvariantId): Family => {
  const inv = INVARIANTS.find((i) => i.id === id);
  if (inv === undefined) throw new Error(`unknown invariant ${id}`);
  return inv.protocol;
};

/** May the runner send `op` to an implementation with these families? (D-034) */
export const opAllowed = (op: string, families: readonly Family[]): boolean =>
  families.length > 0 && (op === BOOTSTRAP_OP || families.includes(familyOfOp(op)));

/** The invariants guarding `op`, in catalog order. */
export const guardsOf = (op: string): InvariantId[] => INVARIANTS.filter((i) => i.guards.includes(op)).map((i) => i.id);
