"""The protocol's fixed numbers (spec/wire/PROTOCOL.md). Each is normative where its clause is."""

#: W-1.4: the longest request line, in bytes before its "\n" (a trailing "\r" counts).
MAX_LINE_BYTES = 1_048_576

#: W-1.5: the deepest nesting of arrays and objects a request line may have ("{}" has depth 1).
MAX_NESTING_DEPTH = 64

#: W-2.1: the largest integer request id, 2^53 - 1.
MAX_SAFE_INTEGER = 2**53 - 1

#: The protocol versions this adapter speaks (W-5.1); version "1" is the only one defined.
SPOKEN_VERSIONS = ("1",)

#: W-2.2: every request type. Anything else is UNKNOWN_OP (W-4 row 7).
REQUEST_TYPES = ("hello", "command", "query", "reset", "crash_after", "shutdown")
