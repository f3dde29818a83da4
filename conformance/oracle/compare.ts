/**
 * Comparing one actual reply with the model's expected normative part (W-9, D-032): codes,
 * invariants, definiteness, events and results are compared; messages and paths are not. A
 * disagreement is described for a person and attributed to an invariant (D-035).
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { normativePart, type ExpectedReply, type RejectedAt } from "../core/reply.ts";
import { describeDifference, differingPaths, firstDifferenceOf } from "../../properties/json-diff.ts";
import { attribute, implProtects, modelProtects, type Disagreement, type Place } from "./attribution.ts";

export interface Mismatch {
  readonly invariant: InvariantId;
  /** One sentence: model accepted / implementation rejected with X, or the first differing field. */
  readonly summary: string;
  /** The first differing field, when the outcomes agreed (data; placeText writes it). */
  readonly path: Place | null;
}

const rejection = (
  r: ExpectedReply | ReturnType<typeof normativePart>,
): { code: string; invariant: string | null } | null => {
  const x = r as { ok: boolean; error?: { code: string; invariant: string | null } };
  return x.ok ? null : { code: x.error?.code ?? "?", invariant: x.error?.invariant ?? null };
};

const says = (r: { code: string; invariant: string | null } | null): string =>
  r === null ? "accepted" : `rejected with ${r.code}${r.invariant === null ? "" : ` (${r.invariant})`}`;

/** For a generic code: the check (and rule) the model's rejection failed at, and what it protects (D-035 rule 1). */
const where = (m: NonNullable<Disagreement["modelRejected"]>): string => {
  if (m.invariant !== null || m.check === undefined) return "";
  const p = modelProtects(m);
  const at = m.rule === undefined ? m.check : `${m.check}, rule ${m.rule}`;
  return p === null ? ` at ${at}, which protects no invariant` : ` at ${at}, which protects ${p}`;
};

const implWhere = (op: string, i: { code: string; invariant: string | null }): string => {
  if (i.invariant !== null) return "";
  const p = implProtects(op, i.code);
  return p === null ? "" : ` (at ${op} every check rejecting with ${i.code} protects ${p})`;
};

const enumerable = Object.prototype.propertyIsEnumerable;

/**
 * True exactly when firstDifferenceOf(a, b) is null, without building its paths: the same leaf test
 * (Object.is), the same shapes, the same union of own enumerable keys, where a key missing on one
 * side reads as undefined there. Almost every reply agrees, so the comparison runs this first and
 * builds the difference's description only when there is one (bench "Log check").
 */
export const sameValue = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  // The usual case: the same keys in the same order, so no key of y is missing from x.
  let sameKeys = kx.length === ky.length;
  for (let i = 0; i < kx.length; i++) {
    const k = kx[i] as string;
    if (sameKeys && ky[i] !== k) sameKeys = false;
    if (!sameValue(x[k], y[k])) return false;
  }
  if (!sameKeys) for (const k of ky) if (!enumerable.call(x, k) && !sameValue(x[k], y[k])) return false;
  return true;
};

/** Null when the actual reply's normative part equals the expected one. */
export const compareReply = (
  op: string,
  expected: ExpectedReply,
  actual: Reply,
  rejectedAt?: RejectedAt,
): Mismatch | null => {
  const a = normativePart(actual as never);
  if (sameValue(expected, a)) return null;
  const d = firstDifferenceOf(expected, a);
  if (d === null) return null;
  const diff = describeDifference(d, "$reply");
  const m = rejection(expected);
  const i = rejection(a as ExpectedReply);
  const sameOutcome =
    (m === null) === (i === null) && (m === null || (m.code === i?.code && m.invariant === i.invariant));
  const path: Place | null = sameOutcome ? { in: "reply", path: d.path } : null;
  const eventsOf = (r: unknown): readonly unknown[] => (r as { events?: readonly unknown[] }).events ?? [];
  const events = sameOutcome && m === null ? { expected: eventsOf(expected), actual: eventsOf(a) } : undefined;
  const modelRejected = m === null || rejectedAt === undefined ? m : { ...m, ...rejectedAt };
  const invariant = attribute({
    op,
    modelRejected,
    implRejected: i,
    path,
    ...(events === undefined ? {} : { events }),
  });
  const summary = sameOutcome
    ? `${op}: the model and the implementation both ${says(m)}, but ${diff.replace(": model ", ": expected ").replace(" vs impl ", ", got ")}`
    : `${op}: the model ${says(m)}${modelRejected === null ? "" : where(modelRejected)}, the implementation ${says(i)}${i === null ? "" : implWhere(op, i)}`;
  return { invariant, summary, path };
};

/** Null when the implementation's world view equals the model's. */
export const compareWorld = (op: string, expected: unknown, actual: unknown): Mismatch | null => {
  if (sameValue(expected, actual)) return null;
  const d = firstDifferenceOf(expected, actual);
  if (d === null) return null;
  const path: Place = { in: "world", path: d.path };
  return {
    invariant: attribute({
      op,
      modelRejected: null,
      implRejected: null,
      path,
      paths: differingPaths(expected, actual).map((p): Place => ({ in: "world", path: p })),
    }),
    summary: `after ${op} the world views differ at ${describeDifference(d, "$world").replace(": model ", ": expected ").replace(" vs impl ", ", got ")}`,
    path,
  };
};
