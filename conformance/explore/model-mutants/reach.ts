/**
 * Does a scope reach a mutant's rule? Explores the correct model over the scope with, in place of
 * the 19 predicates, one probe per mutant: a transition "predicate" that is violated exactly on a
 * step of the mutant's `reach` (catalog.ts): its operation, rejected at its check by the correct
 * model (a guard), or accepted (an effect), under its further condition. Breadth-first, the first
 * such step comes with a shortest path to it. A mutant whose probe never fires cannot be found in
 * that scope whatever the predicates are; the reason says what the scope lacks, from the
 * exploration's own counts (is the operation ever tried, does the check ever fire).
 *
 * The explorer checks at most one predicate per invariant id, so probes are run in batches of 19,
 * each batch borrowing the ids as slots.
 */
import { INVARIANT_IDS, type InvariantId } from "../../../spec/invariant-ids.ts";
import type { Command } from "../../../spec/index.ts";
import type { Predicate, TransitionStep } from "../../../model/index.ts";
import { expect1 } from "../../oracle/model.ts";
import { explore, type ExploreResult } from "../explore.ts";
import type { Scope } from "../scope.ts";
import type { ModelMutant, Reach } from "./catalog.ts";

export type Reached =
  | { readonly reached: true; readonly depth: number; readonly path: readonly Command[] }
  | { readonly reached: false; readonly reason: string };

// The check a rejected step failed at, computed once per step (every probe of a batch asks).
const rejections = new WeakMap<TransitionStep, string | null>();
const rejectedCheck = (s: TransitionStep): string | null => {
  if (s.accepted) return null;
  let c = rejections.get(s);
  if (c === undefined) {
    c = expect1(s.prev, s.command).rejectedAt?.check ?? null;
    rejections.set(s, c);
  }
  return c;
};

/** True when step `s` of the correct model is one `r` describes. */
export const reaches = (r: Reach, s: TransitionStep): boolean => {
  if (s.command.op !== r.op) return false;
  if (r.check !== undefined && rejectedCheck(s) !== r.check) return false;
  if (r.check === undefined && !s.accepted) return false;
  return r.when === undefined || r.when(s);
};

/** Why the scope never reached `r`, from the exploration's counts. */
export const unreachedReason = (r: Reach, x: ExploreResult): string => {
  const op = x.perOp[r.op];
  const within = `within depth ${x.maxDepth} of scope ${x.scope}`;
  if (op === undefined)
    return `the scope never tries ${r.op} (no maker of the scope builds it), so it never reaches ${r.situation}`;
  const tried = `${r.op} is tried (${op.accepted} accepted, ${op.rejected} rejected)`;
  if (r.check !== undefined) {
    const fired = x.perCheck[r.check]?.fired ?? 0;
    if (fired === 0) return `${tried} but ${r.check} never fires ${within}: no step is ${r.situation}`;
    return `${tried} and ${r.check} fires ${fired} times, but never on ${r.situation} ${within}`;
  }
  return `${tried} but no accepted step is ${r.situation} ${within}`;
};

const SLOTS = INVARIANT_IDS.length;

/** For each mutant, in order: the shortest path of `scope` to its rule in the correct model, or why there is none. */
export const reachAll = (
  scope: Scope,
  mutants: readonly ModelMutant[],
  onBatch?: (done: number, total: number) => void,
): Reached[] => {
  const out: Reached[] = [];
  for (let start = 0; start < mutants.length; start += SLOTS) {
    const batch = mutants.slice(start, start + SLOTS);
    const probes = Object.fromEntries(
      batch.map((m, k): [InvariantId, Predicate] => [
        INVARIANT_IDS[k] as InvariantId,
        {
          kind: "transition",
          check: (s: TransitionStep) => (reaches(m.reach, s) ? { violation: m.reach.situation } : true),
        },
      ]),
    ) as Record<InvariantId, Predicate>;
    const x = explore(scope, { predicates: probes });
    for (const [k, m] of batch.entries()) {
      const v = x.violations.find((y) => y.predicate === INVARIANT_IDS[k]);
      out.push(
        v === undefined
          ? { reached: false, reason: unreachedReason(m.reach, x) }
          : { reached: true, depth: v.depth, path: v.path },
      );
    }
    onBatch?.(Math.min(start + SLOTS, mutants.length), mutants.length);
  }
  return out;
};
