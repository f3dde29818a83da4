/**
 * Attribution: which invariant a disagreement between the reference model and an implementation
 * violates (D-035). The rules, in order:
 *
 * 1. Outcomes differ. The model rejected under invariant M and the implementation accepted: M was
 *    not protected, so M. The implementation rejected under I where the model accepted: I was
 *    misapplied, so I. Both rejected with different codes: M, else I (an invariant a reply names
 *    comes before one inferred from a check, below). A rejection with a generic
 *    code (MALFORMED, NOT_FOUND, DUPLICATE_ID, TICK_REGRESSED) names no invariant on the wire; it
 *    stands for the invariant its check protects (spec/checks.ts `protects`, or for a MALFORMED
 *    from a uniqueness rule the rule's, spec/rules.ts): the model's check is known (the golden
 *    line's or the plan's `model` note); the implementation's only when every check of the
 *    operation that rejects with its code protects the same invariant. Else rule (3).
 * 2. Replies agree in outcome but events or the world view differ: the field that differs names
 *    the invariant that owns it (conformance/oracle/field-owners.ts: D-035's list, and the owners
 *    the spec names for fields the list leaves out). An event names the owner of what it reports
 *    (trace.destroyed: S-1, custody.discharged: J-4, ...); when several world fields differ, the
 *    most specific wins (the aggregate before the head that digests it). Otherwise
 * 3. the first invariant (catalog order) guarding the operation; an operation no invariant guards
 *    falls back to its family's first invariant.
 */
import { INVARIANTS, type InvariantId } from "../../spec/catalog.ts";
import { checksOf, check as checkClause, type CheckTarget } from "../../spec/checks.ts";
import { SCHEMA_RULES } from "../../spec/rules.ts";
import type { CommandOp } from "../../spec/schemas/commands.ts";
import { familyOfOp, guardsOf } from "./families.ts";
import { dottedPath, type JsonPath } from "../../properties/json-diff.ts";
import { agentRelative, EVENT_OWNERS, reportFieldOwner, WORLD_FIELDS } from "./field-owners.ts";

/** Where a difference is: in a reply (`$reply`) or in a world view (`$world`), and the path in it, as data. */
export interface Place {
  readonly in: "reply" | "world";
  readonly path: JsonPath;
}

/** A place as the runner's messages and certificates write it (`$reply.events.0.type`), for display only. */
export const placeText = (p: Place): string => dottedPath(p.in === "reply" ? "$reply" : "$world", p.path);

export interface Disagreement {
  readonly op: string;
  /**
   * The model's rejection (null if it accepted): its invariant (null for a generic code) and, when
   * known, the check clause and uniqueness rule it failed at.
   */
  readonly modelRejected: {
    readonly code: string;
    readonly invariant: string | null;
    readonly check?: string;
    readonly rule?: string;
  } | null;
  readonly implRejected: { readonly code: string; readonly invariant: string | null } | null;
  /** The first differing field (in the reply's events or in the world view), when the replies agreed. */
  readonly path: Place | null;
  /** Every differing field found (bounded), for the priority rule; defaults to [path]. */
  readonly paths?: readonly Place[];
  /** The events of both replies, when the difference is in them: an event's type names its owner. */
  readonly events?: { readonly expected: readonly unknown[]; readonly actual: readonly unknown[] };
}

const isInvariant = (s: string | null | undefined): s is InvariantId =>
  s !== null && s !== undefined && INVARIANTS.some((i) => i.id === s);

/** Rule (3). */
export const fallback = (op: string): InvariantId => {
  const g = guardsOf(op)[0];
  if (g !== undefined) return g;
  const fam = familyOfOp(op);
  const first = INVARIANTS.find((i) => i.protocol === fam);
  if (first === undefined) throw new Error(`no invariant in family ${fam}`);
  return first.id;
};

const typeOf = (e: unknown): string | undefined => {
  const t = (e as { type?: unknown } | null | undefined)?.type;
  return typeof t === "string" ? t : undefined;
};

/**
 * The event a difference in a reply's events is about (`path` inside the reply: `events`, the
 * index, then the field): the event at the differing index when both replies have one of the same
 * type there; else (an event missing, extra or of another type) the first type that one reply emits
 * more often than the other, which is the event a person would look for; else the expected event at
 * that index. `rest` is the path inside the event.
 */
export const differingEvent = (
  path: JsonPath,
  events: NonNullable<Disagreement["events"]>,
): { type: string; rest: JsonPath } | null => {
  if (path[0] !== "events") return null;
  const k = typeof path[1] === "number" ? path[1] : undefined;
  const e = k === undefined ? undefined : events.expected[k];
  const a = k === undefined ? undefined : events.actual[k];
  if (typeOf(e) !== undefined && typeOf(e) === typeOf(a)) return { type: typeOf(e) as string, rest: path.slice(2) };
  const count = (list: readonly unknown[]): Map<string, number> => {
    const c = new Map<string, number>();
    for (const x of list) c.set(typeOf(x) ?? "?", (c.get(typeOf(x) ?? "?") ?? 0) + 1);
    return c;
  };
  const ce = count(events.expected);
  const ca = count(events.actual);
  const uneven = [...events.expected, ...events.actual]
    .map(typeOf)
    .find((t) => t !== undefined && ce.get(t) !== ca.get(t));
  const type = uneven ?? typeOf(e) ?? typeOf(a);
  return type === undefined ? null : { type, rest: [] };
};

/** Rule (2) for one reply's events. */
const eventOwner = (op: string, path: JsonPath, events: NonNullable<Disagreement["events"]>): InvariantId | null => {
  const ev = differingEvent(path, events);
  if (ev === null) return null;
  if (ev.type === "migration.resumed")
    return reportFieldOwner(dottedPath("", ev.rest[0] === "report" ? ev.rest.slice(1) : ev.rest)) ?? "I4";
  return EVENT_OWNERS[ev.type]?.by(op) ?? null;
};

/** Rule (2) for world-view paths: the first row (in priority order) that some differing path matches. */
const worldOwner = (op: string, places: readonly Place[]): InvariantId | null => {
  const relative = places.filter((p) => p.in === "world").map((p) => agentRelative(p.path));
  const row = WORLD_FIELDS.find((r) => relative.some((p) => r.test.test(p)));
  return row === undefined ? null : row.by(op);
};

/** Rule (1) for the model's generic-code rejection: what its check, or its uniqueness rule, protects. */
export const modelProtects = (m: NonNullable<Disagreement["modelRejected"]>): InvariantId | null => {
  if (m.rule !== undefined) {
    const rule = SCHEMA_RULES.find((r) => r.id === m.rule);
    if (rule !== undefined) return rule.protects;
  }
  if (m.check === undefined) return null;
  return checkClause(m.check).protects?.invariant ?? null;
};

/**
 * Rule (1) for the implementation's generic-code rejection: its check is not on the wire, so the
 * code stands for an invariant only when every check of the operation that rejects with that code
 * protects the same one (advaita.mint's only DUPLICATE_ID check is OP-5.1.c2, I5's; a NOT_FOUND can
 * always be the agent lookup, which protects none).
 */
export const implProtects = (op: string, code: string): InvariantId | null => {
  const candidates = checksOf(op as CommandOp).filter((c) => c.targets.includes(code as CheckTarget));
  const owners = new Set(candidates.map((c) => c.protects?.invariant ?? null));
  const [only] = owners;
  return owners.size === 1 && only !== undefined ? only : null;
};

const byModel = (m: NonNullable<Disagreement["modelRejected"]>): InvariantId | null =>
  isInvariant(m.invariant) ? m.invariant : modelProtects(m);
const byImpl = (op: string, i: NonNullable<Disagreement["implRejected"]>): InvariantId | null =>
  isInvariant(i.invariant) ? i.invariant : implProtects(op, i.code);

export const attribute = (d: Disagreement): InvariantId => {
  const m = d.modelRejected;
  const i = d.implRejected;
  if (m !== null && i === null) return byModel(m) ?? fallback(d.op);
  if (m === null && i !== null) return byImpl(d.op, i) ?? fallback(d.op);
  // Both rejected: an invariant a reply names on the wire comes before one inferred from a check.
  if (m !== null && i !== null) {
    if (isInvariant(m.invariant)) return m.invariant;
    if (isInvariant(i.invariant)) return i.invariant;
    return modelProtects(m) ?? implProtects(d.op, i.code) ?? fallback(d.op);
  }
  const paths = d.paths ?? (d.path === null ? [] : [d.path]);
  const first = paths[0];
  if (d.events && first?.in === "reply" && first.path[0] === "events") {
    const owner = eventOwner(d.op, first.path, d.events);
    if (owner !== null) return owner;
  }
  return worldOwner(d.op, paths) ?? fallback(d.op);
};
