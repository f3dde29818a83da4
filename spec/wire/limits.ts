/**
 * Protocol constants (spec/wire/PROTOCOL.md, sections "Framing" and "Handshake").
 */

/** The protocol version this document defines. Versions are opaque strings compared for equality. */
export const PROTOCOL_VERSION = "1";

/** Maximum length of one line in bytes, excluding the terminating `\n` (1 MiB); a trailing `\r` counts (W-1.4). */
export const MAX_LINE_BYTES = 1_048_576;

/**
 * The longest reply line a runner must accept, excluding the `\n` (64 MiB, W-1.4): replies are not
 * bound by MAX_LINE_BYTES (a world view can be large), but a runner may treat a longer line as a
 * protocol break and kill the process rather than buffer without bound.
 */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * Maximum nesting depth of a JSON value on the wire: a scalar has depth 0, `[]` and `{}` depth 1,
 * `[[1]]` depth 2. The deepest legitimate message (a termination predicate nested inside a
 * command) stays far below it.
 */
export const MAX_NESTING_DEPTH = 64;

/** The protocol families an implementation may declare in its profile. Same as `PROTOCOLS` in spec/catalog.ts. */
export const PROFILE_FAMILIES = ["janma", "samskara", "advaita", "ripa"] as const;
