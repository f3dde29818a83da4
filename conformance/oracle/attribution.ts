/**
 * Attribution: which invariant a disagreement between the reference model and an implementation
 * violates (D-035). The rules, in order:
 *
 * 1. Outcomes differ. The model rejected under invariant M and the implementation accepted: M was
 *    not protected, so M. The implementation rejected under I where the model accepted: I was
 *    misapplied, so I. Both rejected with different codes: M, else I.
 * 2. Replies agree but events or the world view differ: the field that differs names the
 *    invariant (the store's lineage links: S-3; its state and retained distillates: AD-3 after a
 *    merge, S-5 after an excision, S-4 after a replay; momentum: S-4; held trace entries: S-1;
 *    obligations and quarantine: J-4; when several fields differ, the most specific wins; substrate identity, memory, body: I1, I2, I3; authority, effects,
 *    attempts, replicas (executions that must hold no authority, OP-6.10): I4; providers and capability deltas: I5; surfaces and labels: I6); otherwise
 * 3. the first invariant (catalog order) guarding the operation; an operation no invariant guards
 *    falls back to its family's first invariant.
 */
import { INVARIANTS, type InvariantId } from "../../spec/catalog.ts";
import { familyOfOp, guardsOf } from "./families.ts";

export interface Disagreement {
  readonly op: string;
  /** The model's rejection invariant (null if it accepted or rejected with a generic code). */
  readonly modelRejected: { readonly code: string; readonly invariant: string | null } | null;
  readonly implRejected: { readonly code: string; readonly invariant: string | null } | null;
  /** Path of the first differing field ($events… or $world…), when the replies agreed. */
  readonly path: string | null;
  /** Every differing path found (bounded), for the priority rule; defaults to [path]. */
  readonly paths?: readonly string[];
}

const isInvariant = (s: string | null | undefined): s is InvariantId => s !== null && s !== undefined && INVARIANTS.some((i) => i.id === s);

/**
 * Fields of the world view and the invariant they show, in priority order: when several fields
 * differ (a wrong aggregate also changes the head digest that hashes it), the most specific
 * cause wins — the retained distillates and the aggregate before the lineage links that digest them.
 */
const FIELD_RULES: readonly { readonly test: RegExp; readonly by: (op: string) => InvariantId }[] = [
  { test: /\.store\.distillates/, by: (op) => (op === "samskara.excise" ? "S-5" : op === "samskara.replay" ? "S-4" : "AD-3") },
  { test: /\.store\.state/, by: (op) => (op === "samskara.replay" ? "S-4" : "AD-3") },
  { test: /\.store\.quarantined/, by: () => "J-4" },
  { test: /\.store\.(chain|head|batches)/, by: (op) => (op === "samskara.excise" ? "S-5" : op === "samskara.replay" ? "S-4" : "S-3") },
  { test: /\.store\.momentum/, by: () => "S-4" },
  { test: /\.store\.excisions/, by: () => "S-5" },
  { test: /\.trace_entries/, by: () => "S-1" },
  { test: /\.obligations/, by: () => "J-4" },
  { test: /\.substrate\.identity|\.identity\.designation/, by: () => "I1" },
  { test: /\.substrate\.memory/, by: () => "I2" },
  { test: /\.substrate\.body/, by: () => "I3" },
  { test: /\.ripa\.(authority|effects|live_attempts|fences|marker|replicas)/, by: () => "I4" },
  { test: /\.ripa\.(providers|required_capabilities)|\.delta/, by: () => "I5" },
  { test: /\.(surfaces|labels)/, by: () => "I6" },
];

const fallback = (op: string): InvariantId => {
  const g = guardsOf(op)[0];
  if (g !== undefined) return g;
  const fam = familyOfOp(op);
  const first = INVARIANTS.find((i) => i.protocol === fam);
  if (first === undefined) throw new Error(`no invariant in family ${fam}`);
  return first.id;
};

export const attribute = (d: Disagreement): InvariantId => {
  const m = d.modelRejected;
  const i = d.implRejected;
  if (m !== null && i === null) return isInvariant(m.invariant) ? m.invariant : fallback(d.op);
  if (m === null && i !== null) return isInvariant(i.invariant) ? i.invariant : fallback(d.op);
  if (m !== null && i !== null) {
    if (isInvariant(m.invariant)) return m.invariant;
    if (isInvariant(i.invariant)) return i.invariant;
    return fallback(d.op);
  }
  const paths = d.paths ?? (d.path === null ? [] : [d.path]);
  const rule = FIELD_RULES.find((r) => paths.some((p) => r.test.test(p)));
  if (rule !== undefined) return rule.by(d.op);
  return fallback(d.op);
};
