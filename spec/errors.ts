/**
 * Rejections and the error-code table, derived from the catalog.
 *
 * Like zod's issues, a rejection is data (code, invariant, path) kept apart from its wording
 * (message); comparisons between the model and an implementation use the code only.
 */
import { z } from "zod";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "./catalog.ts";

/**
 * Codes for rejections that protect no invariant: the command names something that does not
 * exist, reuses an id, or is not well-formed (D-032).
 */
export const GENERIC_ERRORS = {
  NOT_FOUND: "The command names an agent, instance, obligation, task, provider or migration that does not exist.",
  DUPLICATE_ID: "The command reuses an id that must be fresh (instance, obligation, excision, migration, execution).",
  TICK_REGRESSED: "The command's tick is earlier than the latest accepted tick; logical time never runs backwards.",
  MALFORMED: "The command is not well-formed: it fails its schema. The issue path names the field.",
} as const;
export type GenericErrorCode = keyof typeof GENERIC_ERRORS;

export interface ErrorCodeRow {
  readonly code: string;
  readonly invariant: InvariantId | null;
  readonly meaning: string;
}

/** The full error-code table: one row per invariant, then the generic codes. */
export const ERROR_CODES: readonly ErrorCodeRow[] = [
  ...INVARIANTS.map((i) => ({ code: i.errorCode, invariant: i.id, meaning: `Rejected to protect ${i.id} (${i.name}).` })),
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
