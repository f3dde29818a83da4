/**
 * Protocol constants (spec/wire/PROTOCOL.md, sections "Framing" and "Handshake").
 */

/** The protocol version this document defines. Versions are opaque strings compared for equality. */
export const PROTOCOL_VERSION = "1";

/** Maximum length of one line in bytes, excluding the terminating `\n` (1 MiB). */
export const MAX_LINE_BYTES = 1_048_576;

/**
 * Maximum nesting depth of a JSON value on the wire: a scalar has depth 0, `[]` and `{}` depth 1,
 * `[[1]]` depth 2. The deepest legitimate message (a termination predicate nested inside a
 * command) stays far below it.
 */
export const MAX_NESTING_DEPTH = 64;

/** The protocol families an implementation may declare in its profile. Same as `PROTOCOLS` in spec/catalog.ts. */
export const PROFILE_FAMILIES = ["janma", "samskara", "advaita", "ripa"] as const;
