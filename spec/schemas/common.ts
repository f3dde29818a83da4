/**
 * Primitive wire types shared by every protocol family.
 *
 * All schemas are strict (unknown keys are rejected; S-1 relies on it) and every error
 * message names what was expected, so a zod issue path plus message tells an implementer
 * exactly which field was wrong.
 */
import { z } from "zod";
import { DIGEST_PATTERN } from "../digest.ts";

/** Fixed decimal scale of every signed unit quantity on the wire (D-001): 1.0 = 1_000_000. */
export const MICRO = 1_000_000;

/**
 * Identifier supplied by the runner (instance ids, nonces, obligation ids...). ASCII only, so
 * that every language orders them identically by byte (D-003).
 */
export const Id = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$/, {
    error: "expected an identifier: 1-128 ASCII letters, digits or ._:@/+- starting with a letter or digit",
  })
  .meta({ id: "Id", description: "Runner-supplied identifier; ASCII, 1-128 characters." });
export type Id = z.infer<typeof Id>;

export const DigestText = z
  .string()
  .regex(DIGEST_PATTERN, { error: "expected a digest: 'sha256:' followed by 64 lowercase hex digits" })
  .meta({ id: "Digest", description: "SHA-256 digest text: 'sha256:' + 64 lowercase hex digits (D-004)." });

/** Logical time. Never wall-clock (D-014). */
export const Tick = z
  .int({ error: "expected a logical tick: a non-negative safe integer" })
  .min(0, { error: "expected a logical tick: a non-negative safe integer" })
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ id: "Tick", description: "Logical time in ticks; non-negative integer; never wall-clock time." });

/** A signed quantity in [-1, 1] at scale 10^6 (D-001). */
export const SignedMicro = z
  .int({ error: "expected an integer in millionths between -1000000 and 1000000" })
  .min(-MICRO, { error: "must be >= -1000000 (that is, -1.0)" })
  .max(MICRO, { error: "must be <= 1000000 (that is, 1.0)" })
  .meta({ id: "SignedMicro", description: "Signed quantity in [-1, 1] written as an integer number of millionths." });

/** An unsigned quantity in [0, 1] at scale 10^6 (D-001). */
export const UnitMicro = z
  .int({ error: "expected an integer in millionths between 0 and 1000000" })
  .min(0, { error: "must be >= 0" })
  .max(MICRO, { error: "must be <= 1000000 (that is, 1.0)" })
  .meta({ id: "UnitMicro", description: "Quantity in [0, 1] written as an integer number of millionths." });

/** A count (retries, acts...). */
export const Count = z.int({ error: "expected a non-negative integer" }).min(0).max(1_000_000_000);

/**
 * A capability: dot-separated lowercase segments, e.g. `fare.search`. A grant may end in `.*`
 * to cover every capability below that prefix (D-016); a required or exercised capability may not.
 */
export const CapabilityId = z
  .string()
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, {
    error: "expected a capability: dot-separated lowercase segments such as 'fare.search'",
  })
  .max(200)
  .meta({ id: "CapabilityId", description: "Capability name: dot-separated lowercase segments." });

export const CapabilityGrant = z
  .string()
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(\.\*)?$/, {
    error: "expected a capability grant: a capability, optionally ending in '.*'",
  })
  .max(200)
  .meta({
    id: "CapabilityGrant",
    description: "A capability, or a prefix ending in '.*' covering every capability below it.",
  });

/**
 * A governance authorisation (D-022): names the custodian who decided and the decision id.
 * It is valid when the custodian is one of the agent's declared custodians.
 */
export const Authorization = z
  .strictObject({
    custodian: Id,
    decision_id: Id,
  })
  .meta({ id: "Authorization", description: "A custodian's decision authorising a governed change." });
export type Authorization = z.infer<typeof Authorization>;

/**
 * The length of a string in Unicode code points (scalar values), the unit every string bound of
 * the spec uses (D-041, review G-6): what JSON Schema's `maxLength` and Python's `len` count. zod's
 * own `.max()` counts UTF-16 code units (an astral character such as an emoji counts 2), so no
 * schema of the spec bounds a string with `.min()`/`.max()`; they all go through `Text`. A lone
 * surrogate counts as one code point, as JSON Schema validators count it.
 */
export const codePointLength = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one astral code point: skip the low half.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
};

/**
 * Free text of `min`..`max` code points (D-041), bounded so that no single field can exhaust a
 * reader (D-027). The exported JSON Schema carries the same bounds as `minLength`/`maxLength`,
 * which count code points too, so JSON Schema and zod agree on every string (spec/json-schema/
 * rules.json lists no length rule; spec/rules.test.ts checks the boundaries).
 */
export const Text = (max: number, min = 0, emptyError?: string) =>
  z
    .string()
    .refine((s) => codePointLength(s) >= min, {
      error: emptyError ?? `must be at least ${min} characters (code points)`,
      abort: true,
    })
    .refine((s) => codePointLength(s) <= max, { error: `must be at most ${max} characters (code points)` })
    .meta({ ...(min > 0 ? { minLength: min } : {}), maxLength: max });
