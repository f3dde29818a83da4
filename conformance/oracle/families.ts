/**
 * Which protocol family an operation belongs to, and which invariants a family owns (W-5.2).
 *
 * D-034: an operation's family is the prefix of its `op` (`janma.`, `samskara.`, `advaita.`,
 * `ripa.`), and `custody.*` (the delivery of a distillation, guarded by J-4) belongs to `janma`.
 * `advaita.mint` is the bootstrap of every agent: the runner sends it to any implementation that
 * declares at least one family, because no other operation can name an agent before it; AD-1 is
 * still reported not applicable unless `advaita` is in the profile. The rules are the spec's
 * (spec/profiles.ts, with D-049's applicability); this module adds the runner's lookups.
 */
import { INVARIANTS, type InvariantId } from "../../spec/catalog.ts";
import { BOOTSTRAP_OP, familyOfOp, opAllowed, type Family } from "../../spec/profiles.ts";

export { BOOTSTRAP_OP, familyOfOp, opAllowed, type Family };

export const familyOfInvariant = (id: InvariantId): Family => {
  const inv = INVARIANTS.find((i) => i.id === id);
  if (inv === undefined) throw new Error(`unknown invariant ${id}`);
  return inv.protocol;
};

/** The invariants guarding `op`, in catalog order. */
export const guardsOf = (op: string): InvariantId[] => INVARIANTS.filter((i) => i.guards.includes(op)).map((i) => i.id);
