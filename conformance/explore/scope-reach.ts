/**
 * What an exploration did not reach, as data, with the reason for each: every operation of the
 * protocol (tried, and accepted at least once) and every check clause of spec/CHECKS.md both
 * ways, fired (a command was refused at it) and held (a command passed it: an accepted one, or a
 * refused one whose failing check comes later in OP-0.2 order).
 *
 * A clause may be out of reach by construction, which spec/checks.ts already says: `unreachable`
 * (no command can fail it against a conforming system: it never fires), `alwaysRejects` (nothing
 * passes it: it never holds), or no rejection target (the branch accepts, so it never fires as
 * a refusal). Anything else not reached is the scope's limit, and is said to be.
 */
import type { CommandOp } from "../../spec/index.ts";
import { CHECKS, type CheckClause } from "../../spec/checks.ts";
import type { ExploreResult } from "./explore.ts";

export type Way = "fired" | "held";

export interface UnreachedClause {
  readonly id: string;
  /** The ways not reached: fired, held or both. */
  readonly missing: readonly Way[];
  /** Whether spec/checks.ts says no conforming run can reach it that way (else the scope did not). */
  readonly byConstruction: boolean;
  readonly reason: string;
}

export interface UnreachedOperation {
  readonly op: CommandOp;
  /** Never tried (no maker makes it), or tried but never accepted. */
  readonly missing: "tried" | "accepted";
  readonly byConstruction: boolean;
  readonly reason: string;
}

export interface ScopeReach {
  readonly checks: number;
  /** Clauses that both fired and held. */
  readonly firedAndHeld: number;
  readonly unreachedClauses: readonly UnreachedClause[];
  readonly operations: number;
  readonly operationsTried: number;
  readonly operationsAccepted: number;
  readonly unreachedOperations: readonly UnreachedOperation[];
}

/** Every operation, in CHECKS order (each has at least the common checks of OP-0.2). */
export const ALL_OPS: readonly CommandOp[] = [...new Set(CHECKS.flatMap((c) => c.ops))];

const NEVER_FIRES_ACCEPTS =
  "it branches without refusing (no rejection target): a command meeting it is accepted, as a no-op, so it never fires as a refusal";

/** Why a clause cannot be reached `way` by construction, or null when only the scope can say. */
const constructionReason = (c: CheckClause, way: Way): string | null => {
  if (way === "fired" && c.unreachable !== undefined)
    return `never fails against a conforming system: ${c.unreachable}`;
  if (way === "fired" && c.targets.length === 0) return NEVER_FIRES_ACCEPTS;
  if (way === "held" && c.alwaysRejects === true) return "always rejects (D-017): no command passes it";
  return null;
};

const scopeReason = (r: ExploreResult, c: CheckClause, missing: readonly Way[]): string => {
  const tried = c.ops.filter((op) => (r.perOp[op]?.accepted ?? 0) + (r.perOp[op]?.rejected ?? 0) > 0);
  if (tried.length === 0) return `not reached in scope ${r.scope}: no maker of the scope makes ${c.ops.join(", ")}`;
  return `not reached in scope ${r.scope}: no state within its depth bound has a command of ${tried.join(", ")} that ${missing.length === 2 ? "meets" : missing[0] === "fired" ? "fails" : "passes"} it`;
};

/** The operations and clauses an exploration did not reach, each with why. */
export const scopeReach = (r: ExploreResult): ScopeReach => {
  const count = (id: string) => r.perCheck[id] ?? { fired: 0, held: 0 };
  const unreachedClauses: UnreachedClause[] = [];
  let firedAndHeld = 0;
  for (const c of CHECKS) {
    const n = count(c.id);
    const missing: Way[] = [
      ...(n.fired === 0 ? (["fired"] as const) : []),
      ...(n.held === 0 ? (["held"] as const) : []),
    ];
    if (missing.length === 0) {
      firedAndHeld++;
      continue;
    }
    const reasons = missing.map((w) => constructionReason(c, w));
    const byConstruction = reasons.every((x) => x !== null);
    const known = reasons.filter((x): x is string => x !== null);
    const scopeMissing = missing.filter((_, k) => reasons[k] === null);
    const reason = [...known, ...(scopeMissing.length > 0 ? [scopeReason(r, c, scopeMissing)] : [])].join("; ");
    unreachedClauses.push({ id: c.id, missing, byConstruction, reason });
  }
  const unreachedOperations: UnreachedOperation[] = [];
  for (const op of ALL_OPS) {
    const n = r.perOp[op] ?? { accepted: 0, rejected: 0 };
    if (n.accepted + n.rejected === 0)
      unreachedOperations.push({
        op,
        missing: "tried",
        byConstruction: false,
        reason: `no maker of scope ${r.scope} makes ${op}`,
      });
    else if (n.accepted === 0) {
      const always = CHECKS.find((c) => c.ops.includes(op) && c.alwaysRejects === true);
      unreachedOperations.push({
        op,
        missing: "accepted",
        byConstruction: always !== undefined,
        reason:
          always !== undefined
            ? `always rejected at ${always.id} (D-017)`
            : `tried ${n.rejected} times in scope ${r.scope}, never accepted`,
      });
    }
  }
  const tried = ALL_OPS.filter((op) => (r.perOp[op]?.accepted ?? 0) + (r.perOp[op]?.rejected ?? 0) > 0).length;
  return {
    checks: CHECKS.length,
    firedAndHeld,
    unreachedClauses,
    operations: ALL_OPS.length,
    operationsTried: tried,
    operationsAccepted: ALL_OPS.filter((op) => (r.perOp[op]?.accepted ?? 0) > 0).length,
    unreachedOperations,
  };
};
