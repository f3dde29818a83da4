/**
 * The vocabulary of a reply the runner expects: its normative part (W-9: what is compared), where
 * the model's rejection failed (informative, read by D-035 attribution), and the normative part of
 * an actual wire reply. Shared by the oracle, the stages, golden sessions, traces and log checks,
 * so it lives below all of them and imports nothing of theirs.
 */
import type { Event, WorldView } from "../../spec/index.ts";

/** The normative part of a reply. */
export type ExpectedReply =
  | { readonly ok: true; readonly events: readonly Event[]; readonly result?: WorldView }
  | {
      readonly ok: false;
      readonly error: { readonly code: string; readonly invariant: string | null; readonly definite: boolean };
    };

/**
 * Where the model's rejection failed: the check clause (spec/CHECKS.md) and, for a MALFORMED from a
 * uniqueness rule, the rule (spec/json-schema/rules.json). Informative, never compared (W-9): the
 * runner reads it to attribute a disagreement over a generic code to the invariant that check or
 * rule protects (D-035 rule 1).
 */
export interface RejectedAt {
  readonly check: string;
  readonly rule?: string;
}

/** The informative note of a model rejection. */
export const rejectedAt = (r: { readonly check: string; readonly rule?: string | undefined }): RejectedAt =>
  r.rule === undefined ? { check: r.check } : { check: r.check, rule: r.rule };

/** The normative part of an actual wire reply, for comparison with an expected one. */
export const normativePart = (reply: {
  ok: boolean;
  events?: readonly unknown[];
  result?: unknown;
  error?: { code: string; invariant: string | null; definite: boolean };
}): unknown =>
  reply.ok
    ? { ok: true, events: reply.events ?? [], ...(reply.result === undefined ? {} : { result: reply.result }) }
    : {
        ok: false,
        error: { code: reply.error?.code, invariant: reply.error?.invariant ?? null, definite: reply.error?.definite },
      };
