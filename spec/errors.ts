/**
 * Rejections and the error-code table, derived from the catalog.
 *
 * Like zod's issues, a rejection is data (code, invariant, path) kept apart from its wording
 * (message); comparisons between the model and an implementation use the code only.
 */
import { z } from "zod";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "./catalog.ts";
import { GENERIC_ERRORS } from "./generic-errors.ts";

// The generic codes live in generic-errors.ts, which imports nothing: the check clauses name them,
// and this module imports the catalog, which imports the clauses.
export { GENERIC_ERRORS, type GenericErrorCode } from "./generic-errors.ts";

export interface ErrorCodeRow {
  readonly code: string;
  readonly invariant: InvariantId | null;
  readonly meaning: string;
}

/** The full error-code table: one row per invariant, then the generic codes. */
export const ERROR_CODES: readonly ErrorCodeRow[] = [
  ...INVARIANTS.map((i) => ({
    code: i.errorCode,
    invariant: i.id,
    meaning: `Rejected to protect ${i.id} (${i.name}).`,
  })),
  ...Object.entries(GENERIC_ERRORS).map(([code, meaning]) => ({ code, invariant: null, meaning })),
];

export const ALL_ERROR_CODES = ERROR_CODES.map((r) => r.code) as readonly string[];

/** A rejection as it crosses the wire and as the model returns it. */
export const RejectionSchema = z
  .strictObject({
    code: z.enum(ALL_ERROR_CODES as [string, ...string[]]),
    invariant: z.union([z.enum(INVARIANT_IDS), z.null()]),
    message: z.string(),
    path: z.array(z.union([z.string(), z.number()])).optional(),
  })
  .meta({ id: "Rejection", description: "A typed rejection: stable code, the invariant it protects, a message." });
export type RejectionData = z.infer<typeof RejectionSchema>;

const codeToInvariant = new Map<string, InvariantId>(INVARIANTS.map((i) => [i.errorCode, i.id]));

/** The invariant a code protects, or null for a generic code. */
export const invariantOfCode = (code: string): InvariantId | null => codeToInvariant.get(code) ?? null;
