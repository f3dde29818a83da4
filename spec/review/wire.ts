/**
 * Spec review 1, the wire-level items (G-7 … G-20): how each was closed. The wire golden session
 * (conformance/golden/wire-session.jsonl, W-9.1) holds the lines whose step names start with the
 * item id; the mutants are the wire mutants of properties/mutants/catalog.ts (`invariant: null`),
 * each killed by that session replayed against its process (conformance/mutants/wire.test.ts), and
 * the wire catalog (conformance/stages/wire-catalog.ts) checks the same points exactly.
 */
import type { ReviewRow } from "./types.ts";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-7",
    status: "decided",
    where: ["W-1.8", "W-2.1", "D-043"],
    summary:
      "A JSON number is the binary64 value nearest to its decimal; if integral it is that integer wherever an integer is expected: `\"tick\": 1.0` is tick 1, the id 1e2 is 100 and -0 is 0 (both collide with the integer, as the review's section H saw), and canonical JSON and digests see only the integer. The review's guess (normalise integral floats) is the decided reading. A number is never BAD_JSON for its size: a request id of 5000 digits is BAD_REQUEST with id null and a tick of 5000 digits MALFORMED (not an integer), where a parser with a digit limit (Python's int) answers BAD_JSON (an independent implementer's finding, W-1.8).",
    golden: ["wire-session"],
    mutants: ["G-7.integral-float-not-an-integer", "G-7.long-integer-bad-json"],
  },
  {
    item: "G-8",
    status: "decided",
    where: ["W-1.8", "W-4", "D-044"],
    summary:
      'A duplicate member name anywhere in the line (compared after unescaping) makes it BAD_JSON with id null, as I-JSON (RFC 7493 §2.3) requires; the implementation now checks it (impl/wire/strict-json.ts). The review read last-wins; D-028\'s "duplicate key" remains the duplicate disposition key, a schema failure.',
    golden: ["wire-session"],
    mutants: ["G-8.duplicate-names-last-wins"],
  },
  {
    item: "G-9",
    status: "decided",
    where: ["W-1.8", "W-4", "D-044"],
    summary:
      "A lone surrogate escape in any string (high without a following low, or a low alone) makes the line BAD_JSON with id null (RFC 7493 §2.1), so no lone surrogate reaches a schema, the store or ENC-2; escaped pairs are the character they encode, noncharacters are accepted. The review guessed acceptance with a \\udxxx escape in canonical JSON. Member names are strings too: a lone surrogate in a name is BAD_JSON, not an unknown field (an independent implementer's finding, W-1.8).",
    golden: ["wire-session"],
    mutants: ["G-9.lone-surrogates-accepted", "G-9.lone-surrogate-names-accepted"],
  },
  {
    item: "G-10",
    status: "decided",
    where: ["D-045", "D-010"],
    summary:
      "The D-010 tokeniser uses Unicode 17.0 data (what ICU 78.2 in the kit's Node 20.20.2 implements); code points unassigned in 17.0 are Cn: separators, unchanged by NFKC and lower-casing. An implementation on other data (Python 3.11: 14.0) must bring 17.0 tables; the review's guess (the runtime's own version) makes verdicts differ on characters assigned since.",
    golden: [],
    mutants: [],
    unpinned:
      "The reference model and the implementation run on the same runtime, so no golden line or mutant of one of them can take another Unicode version. model/samskara/unicode-version.test.ts fails on a runtime whose Unicode data is not 17.0 and shows a guidance (with U+1E4D0, assigned in 15.0) whose verdict differs between 14.0 and 17.0.",
  },
  {
    item: "G-11",
    status: "decided",
    where: ["W-4.1"],
    summary:
      "A `type` that is absent or not a string (5, null, an array) is BAD_REQUEST: a malformed envelope. Only a string naming no W-2.2 type is UNKNOWN_OP. The review guessed UNKNOWN_OP for a non-string type; the kit's implementation already answered BAD_REQUEST.",
    golden: ["wire-session"],
    mutants: ["G-11.non-string-type-unknown-op"],
  },
  {
    item: "G-12",
    status: "decided",
    where: ["W-4.1", "W-2.3"],
    summary:
      "An absent `command` field is BAD_REQUEST (the envelope misses a required field); a present one, whatever JSON value (null, a string, an array, an object failing the schema), is the operation's MALFORMED. This is the review's reading and the implementation's.",
    golden: ["wire-session"],
    mutants: ["G-12.missing-command-malformed"],
  },
  {
    item: "G-13",
    status: "decided",
    where: ["W-4.1", "W-6"],
    summary:
      "Queries are checked in order: envelope (BAD_REQUEST), `query` not an object or `name` absent or not a string (BAD_REQUEST), unknown name (UNKNOWN_OP, whatever the parameters), parameters failing the Query schema (BAD_REQUEST, never MALFORMED nor NOT_FOUND), then an unknown agent (NOT_FOUND). This is the review's guessed order.",
    golden: ["wire-session"],
    mutants: ["G-13.unknown-name-after-parameters", "G-13.query-parameters-malformed"],
  },
  {
    item: "G-14",
    status: "decided",
    where: ["W-2.1"],
    summary:
      'The string "1" and the integer 1 are different ids, each colliding only with itself; an integer id is read by value (1e2 is 100, G-7). W-2.1 already said so; it now also says how integers are read, and the session pins both.',
    golden: ["wire-session"],
    mutants: ["G-14.ids-compared-as-text"],
  },
  {
    item: "G-15",
    status: "decided",
    where: ["W-1.4"],
    summary:
      "MAX_LINE_BYTES counts every byte before the \\n, a trailing \\r included (exactly 1 MiB ending in \\r is within, 1 MiB then \\r\\n is LINE_TOO_LONG), and the length comes first, so an over-long all-whitespace line is LINE_TOO_LONG. W-1.4 now also states the runner's 64 MiB reply cap (MAX_REPLY_BYTES), which it enforced without the spec saying so.",
    golden: ["wire-session"],
    mutants: ["G-15.cr-not-counted"],
  },
  {
    item: "G-16",
    status: "decided",
    where: ["W-1.9", "W-1.2"],
    summary:
      "All-whitespace means JSON whitespace (space, tab, CR) after UTF-8 decoding; U+00A0, U+2028, U+3000, a BOM (alone or before a value) and other Unicode White_Space make the line BAD_JSON. The implementation used trim() (Unicode White_Space, as the review's section H saw) and its decoder silently dropped a leading BOM; both are fixed in impl/wire/server.ts.",
    golden: ["wire-session"],
    mutants: ["G-16.unicode-whitespace-ignored"],
  },
  {
    item: "G-17",
    status: "decided",
    where: ["W-1.5"],
    summary:
      "Depth is a lexical running count over the decoded line, valid JSON or not: strings (with \\ skipping a character, unterminated ones running to the end) are skipped, [ and { add one, ] and } subtract one unmatched or not (the count may go below zero), and the line is too deep iff the count ever exceeds 64. This is the review's reading, made exact.",
    golden: ["wire-session"],
    mutants: ["G-17.depth-only-on-valid-json"],
  },
  {
    item: "G-18",
    status: "decided",
    where: ["W-3.4"],
    summary:
      "INTERNAL is definite iff the implementation knows the request had no effect (a failure before its durable write began, with the state rolled back, or in a query); it is indefinite at or after the start of a durable write (commit, reset) and whenever it cannot tell (a failure outside the request's handling). This is the review's guess and what the implementation does.",
    golden: [],
    mutants: [],
    unpinned:
      "No input provokes INTERNAL in a conforming implementation, so no golden line can, and a mutant flipping `definite` is invisible to the golden sessions and the differential. impl/test/wire-decisions.test.ts checks both sides on the wire face with a storage whose writes fail and a command that throws inside the handler.",
  },
  {
    item: "G-19",
    status: "decided",
    where: ["W-7.2"],
    summary:
      "W-7.2 now states the runner's rule: it greps for seeded marker words only (the trace marker after distil; the excised distillate's guidance and key markers that the model's world no longer holds after excise, and after a restart), as UTF-8 and JSON-escaped bytes. Shared guidance text and whatever the model's world still shows legitimately stays and is never grepped for.",
    golden: [],
    mutants: [],
    unpinned:
      "A rule of the runner's forgetting stage, not of an implementation's replies: there is no reply for a golden line to pin and no reading of the wire for a mutant to take. conformance/stages/forgetting.test.ts checks the stage passes the implementation and finds a kept trace or excised guidance.",
  },
  {
    item: "G-20",
    status: "decided",
    where: ["W-5.3", "W-2.5", "W-4"],
    summary:
      "Hello is exact: settings values are any JSON and unknown keys are ignored; field errors are BAD_REQUEST before UNSUPPORTED_VERSION; a refused hello leaves the process un-handshaken and its id used; every hello after a successful one is BAD_REQUEST; before the handshake a non-hello is NOT_HANDSHAKEN even when its own fields are invalid. The review found no gap; the session now pins each variation.",
    golden: ["wire-session"],
    mutants: ["G-20.unknown-settings-refused", "G-20.refused-hello-handshakes"],
  },
];
