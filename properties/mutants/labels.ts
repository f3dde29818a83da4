/**
 * The lock of the mutants' labels (properties/mutants/labels.lock.json): for every mutant of the
 * catalog, its invariant and clause and a digest of its `why`. A label may change only together
 * with the reason it is given for: changing `invariant` or `clause` while `why` stays the same is
 * refused by the lock script and fails labels.test.ts, so a label cannot silently follow a run.
 */
import { createHash } from "node:crypto";
import type { InvariantId } from "../../spec/catalog.ts";
import type { LabelledMutant } from "./catalog.ts";

export const LOCK_FILE = "properties/mutants/labels.lock.json";
export const LOCK_COMMAND = "npx tsx properties/mutants/lock-labels.ts";

export interface LockEntry {
  readonly invariant: InvariantId | null;
  readonly clause: string;
  /** "sha256:<hex>" of the `why` text. */
  readonly why: string;
}

export type Lock = Readonly<Record<string, LockEntry>>;

export const whyDigest = (why: string): string => `sha256:${createHash("sha256").update(why, "utf8").digest("hex")}`;

export const lockOf = (mutants: readonly LabelledMutant[]): Lock =>
  Object.fromEntries(mutants.map((m) => [m.id, { invariant: m.invariant, clause: m.clause, why: whyDigest(m.why) }]));

export interface LockProblem {
  readonly id: string;
  /** "unreasoned": a label changed while its why did not, which the lock script refuses to record. */
  readonly kind: "unreasoned" | "reason-changed" | "not-locked" | "no-mutant";
  readonly message: string;
}

/** How the catalog differs from the lock; empty when the lock is current. */
export const lockProblems = (mutants: readonly LabelledMutant[], lock: Lock): LockProblem[] => {
  const out: LockProblem[] = [];
  for (const m of mutants) {
    const l = lock[m.id];
    if (l === undefined) {
      out.push({
        id: m.id,
        kind: "not-locked",
        message: `${m.id}: not in ${LOCK_FILE} (a new or renamed mutant): run ${LOCK_COMMAND}`,
      });
      continue;
    }
    const changed = [
      ...(l.invariant === m.invariant ? [] : [`invariant ${l.invariant ?? "null"} → ${m.invariant ?? "null"}`]),
      ...(l.clause === m.clause ? [] : [`clause ${l.clause} → ${m.clause}`]),
    ];
    const sameWhy = l.why === whyDigest(m.why);
    if (changed.length > 0 && sameWhy) {
      out.push({
        id: m.id,
        kind: "unreasoned",
        message: `${m.id}: label changed (${changed.join(", ")}) but its why did not: a label follows the rule it breaks, so say in \`why\` why the new one is that rule's, then run ${LOCK_COMMAND}`,
      });
    } else if (!sameWhy) {
      out.push({
        id: m.id,
        kind: "reason-changed",
        message: `${m.id}: its why changed${changed.length > 0 ? ` with the label (${changed.join(", ")})` : ""}: check the label against the new reason, then run ${LOCK_COMMAND}`,
      });
    }
  }
  for (const id of Object.keys(lock)) {
    if (!mutants.some((m) => m.id === id))
      out.push({
        id,
        kind: "no-mutant",
        message: `${id}: in ${LOCK_FILE} but not in the catalog (removed or renamed): run ${LOCK_COMMAND}`,
      });
  }
  return out;
};
