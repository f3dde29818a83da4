/**
 * Wire-level error codes (spec/wire/PROTOCOL.md, section "Errors").
 *
 * These complement the operation codes of `spec/errors.ts` (`ERROR_CODES`): an operation code
 * says why a well-formed command was refused; a wire code says why a message could not be
 * taken as a request at all, or that the implementation failed. Rows have the same shape as
 * `ErrorCodeRow`, so the combined table is `[...ERROR_CODES, ...WIRE_ERROR_CODES]`.
 */
import type { ErrorCodeRow } from "../errors.ts";

/** Meaning of each wire code. Every wire code protects no invariant (`invariant: null`). */
export const WIRE_ERRORS = {
  BAD_ENCODING: "The line is not valid UTF-8. Nothing was executed.",
  BAD_JSON: "The line is not a single valid JSON value. Nothing was executed.",
  LINE_TOO_LONG:
    "The line exceeds the maximum line length (MAX_LINE_BYTES); it was discarded unread up to its newline. Nothing was executed.",
  NESTING_TOO_DEEP: "The JSON value nests arrays/objects deeper than MAX_NESTING_DEPTH. Nothing was executed.",
  BAD_REQUEST:
    "The message is JSON but not a well-formed request envelope (not an object, bad or missing id, unknown or missing envelope field, bad query parameters, second hello). The path names the field. Nothing was executed.",
  UNKNOWN_OP:
    "The message type, or the query name, is not defined by the negotiated protocol version. Nothing was executed.",
  DUPLICATE_REQUEST_ID:
    "The request id was already used on this connection (since the process started). Nothing was executed.",
  NOT_HANDSHAKEN: "A request other than hello arrived before a successful handshake. Nothing was executed.",
  UNSUPPORTED_VERSION:
    "The hello offered no protocol version the implementation speaks. The connection stays un-handshaken.",
  UNSUPPORTED:
    "The request needs a capability outside the implementation's declared profile (e.g. crash_after without the crash hook). Nothing was executed.",
  INTERNAL:
    "The implementation failed while executing the request (I/O error, bug). The operation may or may not have happened: this is the only indefinite code.",
} as const;
export type WireErrorCode = keyof typeof WIRE_ERRORS;

export const WIRE_ERROR_CODE_LIST = Object.keys(WIRE_ERRORS) as readonly WireErrorCode[];

/** The wire rows of the error-code table, in the order above. */
export const WIRE_ERROR_CODES: readonly ErrorCodeRow[] = WIRE_ERROR_CODE_LIST.map((code) => ({
  code,
  invariant: null,
  meaning: WIRE_ERRORS[code],
}));

/**
 * Whether an error with this code is definite (the operation certainly did not happen).
 * Every operation rejection (spec/errors.ts) is definite: a rejected command writes nothing (D-027).
 */
export const isDefiniteCode = (code: string): boolean => code !== "INTERNAL";
