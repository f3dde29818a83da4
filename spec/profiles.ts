/**
 * Profiles (W-5.2, D-034, D-049): which operations an implementation's declared families admit, and
 * which invariants a profile can certify.
 *
 * An invariant is applicable to a profile when its own family is declared and at least one of the
 * operations it guards can reach that guard with only the declared families. An operation "reaches"
 * its guards when its family is declared (or it is the bootstrap `advaita.mint`) and the state it
 * acts on can be built with the declared families: a store receives distillates only from
 * `janma.distil`, and a projection is a janma instance. An invariant that fails that test could
 * never be witnessed (the vacuity guard would leave it inconclusive for ever), so the runner
 * reports it not applicable with the families it needs, never inconclusive.
 */
import { INVARIANTS, PROTOCOLS, type InvariantId, type Protocol } from "./catalog.ts";

/** A protocol family, as `hello` declares it (W-5.2). */
export type Family = Protocol;

/** Sent to every non-empty profile: no other operation can name an agent before it (D-034). */
export const BOOTSTRAP_OP = "advaita.mint";

/** D-034: an operation's family is the prefix of its `op`; `custody.*` (the delivery of a distillation) is janma's. */
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

/**
 * The families whose operations build the state an operation acts on, beyond its own family
 * (D-049). Every other operation needs only an agent, which `advaita.mint` gives any profile.
 * - the store operations act on merged distillates, and a distillate is made only by
 *   `janma.distil` (OP-2.7): without janma a merge, a replay and an excision see an empty store;
 * - a projection that tries to write the store (OP-4.4) is a janma instance: without janma the
 *   operation can only answer NOT_FOUND (OP-4.4.c1), never reach its AD-2 check.
 */
export const OP_NEEDS: Readonly<Record<string, readonly Family[]>> = {
  "samskara.merge": ["janma"],
  "samskara.excise": ["janma"],
  "samskara.replay": ["janma"],
  "advaita.project_write": ["janma"],
};

/**
 * Families an invariant needs whatever its guards (D-049): AD-3 is a statement about merging
 * ("merging the same set of distillates MUST produce the identical store state"), and without
 * `samskara.merge` nothing merges. Its check at distillation (a reused distillate id, OP-2.7) alone
 * would let a profile without samskara "certify" convergent reconciliation with no merge at all.
 */
export const INVARIANT_NEEDS: Readonly<Partial<Record<InvariantId, readonly Family[]>>> = {
  "AD-3": ["samskara"],
};

/** May the runner send `op` to an implementation with these families? (W-5.2, D-034) */
export const opAllowed = (op: string, families: readonly Family[]): boolean =>
  families.length > 0 && (op === BOOTSTRAP_OP || families.includes(familyOfOp(op)));

/** Can `op` reach its guards with these families: allowed, and the state it acts on buildable? */
export const opReaches = (op: string, families: readonly Family[]): boolean =>
  opAllowed(op, families) && (OP_NEEDS[op] ?? []).every((f) => families.includes(f));

export type Applicability =
  | { readonly applicable: true }
  | { readonly applicable: false; readonly needs: readonly Family[]; readonly reason: string };

const byId = new Map(INVARIANTS.map((i) => [i.id, i]));

/** The families an operation needs besides those declared: its own (unless it is the bootstrap) and OP_NEEDS. */
const missingFor = (op: string, families: readonly Family[]): Family[] => {
  const wanted = [...(op === BOOTSTRAP_OP ? [] : [familyOfOp(op)]), ...(OP_NEEDS[op] ?? [])];
  return PROTOCOLS.filter((f) => wanted.includes(f) && !families.includes(f));
};

/** Whether a profile can certify `id`, and if not, what it would need (D-049). */
export const applicability = (id: InvariantId, families: readonly Family[]): Applicability => {
  const inv = byId.get(id);
  if (inv === undefined) throw new Error(`unknown invariant ${id}`);
  if (!families.includes(inv.protocol)) {
    return {
      applicable: false,
      needs: [inv.protocol],
      reason: `family ${inv.protocol} is not in the declared profile (W-5.2)`,
    };
  }
  const lacking = PROTOCOLS.filter((f) => (INVARIANT_NEEDS[id] ?? []).includes(f) && !families.includes(f));
  if (lacking.length > 0) {
    return {
      applicable: false,
      needs: lacking,
      reason: `needs ${lacking.join(" and ")}: ${id} is about what ${lacking.join(" and ")} operations do, which the profile ${families.join(", ")} does not declare (D-049)`,
    };
  }
  if (inv.guards.some((op) => opReaches(op, families))) return { applicable: true };
  // The fewest families that would let one of its guards reach it (ties: the first guard in catalog order).
  const options = inv.guards.map((op) => missingFor(op, families));
  const needs = options.reduce((best, m) => (m.length < best.length ? m : best));
  return {
    applicable: false,
    needs,
    reason: `needs ${needs.join(" and ")}: none of its guards (${inv.guards.join(", ")}) can reach it with the profile ${families.join(", ")} (D-049)`,
  };
};

/** The invariants a profile certifies, in catalog order. */
export const certifiedBy = (families: readonly Family[]): InvariantId[] =>
  INVARIANTS.filter((i) => applicability(i.id, families).applicable).map((i) => i.id);

/** Every non-empty set of families, in a fixed order (each subset of PROTOCOLS, by size then catalog order). */
export const ALL_PROFILES: readonly (readonly Family[])[] = (() => {
  const out: Family[][] = [];
  for (let mask = 1; mask < 1 << PROTOCOLS.length; mask++)
    out.push(PROTOCOLS.filter((_, i) => (mask & (1 << i)) !== 0));
  return out.sort(
    (a, b) => a.length - b.length || PROTOCOLS.indexOf(a[0] as Family) - PROTOCOLS.indexOf(b[0] as Family),
  );
})();

/** D-049: a profile is certifiable when it certifies at least one invariant; the others end inconclusive (nothing certified, D-036). */
export const isCertifiable = (families: readonly Family[]): boolean => certifiedBy(families).length > 0;
