/**
 * The hostile-input catalog of the wire stage, as data: one raw line per entry (bytes exactly as
 * written to the implementation's stdin, `\n` included) with the rule it exercises and the reply
 * spec/wire/PROTOCOL.md fixes for it (W-1, W-2.1, W-2.3, W-3, W-4).
 *
 * Entries are in sending order and some depend on earlier ones (a duplicate id reuses an id an
 * earlier line made used), so the catalog is only meaningful sent whole, in order, to a process
 * whose only earlier requests are its hello and the setup requests named below.
 *
 * Every expectation is exact: the points spec review 1 found open (G-7 … G-17) are decided in
 * spec/wire/PROTOCOL.md W-1.4 … W-4.1, and the entries for them name the review item. The
 * `either` kind stays for a future point the spec deliberately leaves open.
 */
import type { Reply } from "../../spec/wire/index.ts";
import { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from "../../spec/wire/index.ts";

type Id = string | number;

export type Expectation =
  /** An error reply with this code and id, `definite: true`, `invariant: null` (W-3.2, W-4). */
  | { readonly kind: "error"; readonly code: string; readonly id: Id | null }
  /** A successful reply echoing this id, with `events: []` and a `result` (a query, W-3.1). */
  | { readonly kind: "ok"; readonly id: Id }
  /** No reply at all (W-1.2: empty and all-whitespace lines are ignored). */
  | { readonly kind: "none" }
  /** Any one of these (the spec leaves the choice open). */
  | { readonly kind: "either"; readonly options: readonly Expectation[] };

export interface CatalogEntry {
  /** The rule the entry exercises, e.g. `W-1.4`; the finding's check is `wire/<rule>`. */
  readonly rule: string;
  /** What the line is, for a person reading a finding. */
  readonly label: string;
  /** The raw line, `\n` included. */
  readonly line: Buffer;
  readonly expect: Expectation;
}

/** Ids the stage uses for its own requests around the catalog (unique in the process, W-2.1). */
export const SETUP_MINT_ID = "wire-setup-mint";
export const WORLD_BEFORE_ID = "wire-world-before";
export const WORLD_AFTER_ID = "wire-world-after";
/** The sentinel after a batch of lines: its reply marks the end of the replies to the batch. */
export const sentinelId = (n: number): string => `wire-sentinel-${n}`;

// The setup command lives with the shared vocabulary (the wire session of the golden transcripts
// sends it too); re-exported for the wire stage.
export { setupMint } from "../core/setup-mint.ts";
import { setupMint } from "../core/setup-mint.ts";

/** A digest-shaped agent that names no agent. */
const NO_AGENT = `sha256:${"0".repeat(64)}`;

const err = (code: string, id: Id | null): Expectation => ({ kind: "error", code, id });
const ok = (id: Id): Expectation => ({ kind: "ok", id });
const none: Expectation = { kind: "none" };

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat([
    ...parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))),
    Buffer.from("\n"),
  ]);
const json = (v: unknown): Buffer => bytes(JSON.stringify(v));
const worldQuery = (id: unknown): Record<string, unknown> => ({ type: "query", id, query: { name: "world" } });

/** A valid world query padded with trailing spaces (insignificant JSON whitespace), then `tail`, to exactly `n` bytes before the `\n`. */
const paddedTo = (n: number, id: string, tail = ""): Buffer => {
  const text = JSON.stringify(worldQuery(id));
  return bytes(text + " ".repeat(n - Buffer.byteLength(text) - tail.length) + tail);
};
/** `depth` levels of arrays, opened and closed. */
const nest = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
/** A world query with an extra envelope field `deep` holding arrays, so the whole line nests `depth` deep. */
const deepQuery = (id: string, depth: number): Buffer =>
  bytes(`{"type":"query","id":${JSON.stringify(id)},"query":{"name":"world"},"deep":${nest(depth - 1)}}`);

const ID_128 = `w-id128-${"x".repeat(120)}`;
const ID_129 = `w-id129-${"x".repeat(121)}`;
const MAX_ID = Number.MAX_SAFE_INTEGER;

/** The catalog, in sending order (the line number of an entry in findings is its index + 1). */
export const buildCatalog = (): readonly CatalogEntry[] => [
  // --- W-1.4 line length (order 1) ---
  {
    rule: "W-1.4",
    label: `oversized line of ${MAX_LINE_BYTES + 1} bytes (a valid request padded with spaces)`,
    line: paddedTo(MAX_LINE_BYTES + 1, "w-long"),
    expect: err("LINE_TOO_LONG", null),
  },
  {
    rule: "W-1.4",
    label: `line of exactly ${MAX_LINE_BYTES} bytes (the limit; a valid request padded with spaces)`,
    line: paddedTo(MAX_LINE_BYTES, "w-limit"),
    expect: ok("w-limit"),
  },
  {
    rule: "W-4",
    label: `oversized line of ${MAX_LINE_BYTES + 1} bytes that is also invalid UTF-8 (row 1 before row 2)`,
    line: bytes([0xff], "x".repeat(MAX_LINE_BYTES)),
    expect: err("LINE_TOO_LONG", null),
  },
  {
    rule: "W-2.1",
    label: "a request reusing the id of the discarded oversized line (its id was never read)",
    line: json(worldQuery("w-long")),
    expect: ok("w-long"),
  },

  // --- W-1.2 encoding (order 2) ---
  {
    rule: "W-1.2",
    label: "invalid UTF-8 (byte 0xFF inside the id string)",
    line: bytes('{"type":"query","id":"w-enc-', [0xff], '","query":{"name":"world"}}'),
    expect: err("BAD_ENCODING", null),
  },
  {
    rule: "W-1.2",
    label: "invalid UTF-8 (overlong encoding C0 AF)",
    line: bytes('{"type":"query","id":"w-enc-', [0xc0, 0xaf], '","query":{"name":"world"}}'),
    expect: err("BAD_ENCODING", null),
  },
  {
    rule: "W-1.2",
    label: "invalid UTF-8 (a UTF-16 surrogate encoded as ED A0 80)",
    line: bytes('{"type":"query","id":"w-enc-', [0xed, 0xa0, 0x80], '","query":{"name":"world"}}'),
    expect: err("BAD_ENCODING", null),
  },
  {
    rule: "W-1.2",
    label: "invalid UTF-8 (a multi-byte sequence cut short by the end of the line)",
    line: bytes('{"type":"query","id":"w-enc-x","query":{"name":"world"}} ', [0xe2, 0x82]),
    expect: err("BAD_ENCODING", null),
  },
  {
    rule: "W-4",
    label: `invalid UTF-8 that also nests ${MAX_NESTING_DEPTH + 1} deep (row 2 before row 3)`,
    line: bytes([0xff], nest(MAX_NESTING_DEPTH + 1)),
    expect: err("BAD_ENCODING", null),
  },
  {
    rule: "W-1.2",
    label: "valid multi-byte UTF-8 in the id (é, ☕, 🚀 as raw bytes)",
    line: json(worldQuery("w-utf8-é☕🚀")),
    expect: ok("w-utf8-é☕🚀"),
  },
  {
    rule: "W-1.2",
    label: "an escaped surrogate pair in the id (\\ud83d\\ude80)",
    line: bytes('{"type":"query","id":"w-pair-\\ud83d\\ude80","query":{"name":"world"}}'),
    expect: ok("w-pair-🚀"),
  },
  {
    rule: "W-1.2",
    label: "escaped newline, NUL, quote and backslash in the id (the reply must escape them again)",
    line: json(worldQuery('w-esc-\n\u0000"\\')),
    expect: ok('w-esc-\n\u0000"\\'),
  },
  // Valid UTF-8 and valid JSON grammar, but not Unicode text: BAD_JSON (W-1.8, D-044, review G-9).
  {
    rule: "W-1.8",
    label: "G-9: a lone surrogate escaped in a string (\\ud800 as the query's agent)",
    line: bytes('{"type":"query","id":"w-lone-surrogate","query":{"name":"agent","agent":"\\ud800"}}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.8",
    label: "G-9: a lone low surrogate escaped in the id (\\udc00)",
    line: bytes('{"type":"query","id":"w-lone-low-\\udc00","query":{"name":"world"}}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-2.1",
    label: "G-9: the id of the lone-surrogate line (never read, so unused)",
    line: json(worldQuery("w-lone-surrogate")),
    expect: ok("w-lone-surrogate"),
  },
  // Duplicate member names: BAD_JSON, never last-wins (W-1.8, D-044, review G-8).
  {
    rule: "W-1.8",
    label: "G-8: a request with two id members",
    line: bytes('{"type":"query","id":"w-dup-a","query":{"name":"world"},"id":"w-dup-b"}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.8",
    label: "G-8: a request whose second query member is spelled with an escape",
    line: bytes('{"type":"query","id":"w-dup-q","query":{"name":"world"},"\\u0071uery":{"name":"secrets"}}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-2.1",
    label: "G-8: the last id of the duplicate-name line (never read, so unused)",
    line: json(worldQuery("w-dup-b")),
    expect: ok("w-dup-b"),
  },

  // --- W-1.2 framing ---
  {
    rule: "W-1.2",
    label: "a valid request terminated by \\r\\n",
    line: Buffer.from(`${JSON.stringify(worldQuery("w-crlf"))}\r\n`),
    expect: ok("w-crlf"),
  },
  { rule: "W-1.2", label: "an empty line", line: bytes(""), expect: none },
  { rule: "W-1.2", label: "an all-whitespace line (spaces and a tab)", line: bytes("   \t  "), expect: none },
  { rule: "W-1.2", label: "a line holding only \\r", line: bytes("\r"), expect: none },
  {
    rule: "W-1.2",
    label: "a valid request with whitespace around it",
    line: bytes(`  \t${JSON.stringify(worldQuery("w-spaces"))}  `),
    expect: ok("w-spaces"),
  },
  // "All-whitespace" is JSON whitespace only (W-1.9, review G-16).
  {
    rule: "W-1.2",
    label: "G-16: spaces, a tab and two \\r (JSON whitespace only, W-1.9)",
    line: bytes(" \t\r \r"),
    expect: none,
  },
  {
    rule: "W-1.9",
    label: "G-16: a line holding only U+00A0 NO-BREAK SPACE",
    line: bytes("\u00a0"),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.9",
    label: "G-16: a line holding only U+2028 LINE SEPARATOR",
    line: bytes(" \u2028 "),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.9",
    label: "G-16: a line holding only a byte-order mark",
    line: bytes("\ufeff"),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.9",
    label: "G-16: a byte-order mark before a valid request",
    line: bytes(`\ufeff${JSON.stringify(worldQuery("w-bom"))}`),
    expect: err("BAD_JSON", null),
  },
  // The bound counts a trailing \r, and comes before the whitespace rule (W-1.4, review G-15).
  {
    rule: "W-1.4",
    label: `G-15: a valid request padded to exactly ${MAX_LINE_BYTES} bytes, the last being \\r`,
    line: paddedTo(MAX_LINE_BYTES, "w-limit-cr", "\r"),
    expect: ok("w-limit-cr"),
  },
  {
    rule: "W-1.4",
    label: `G-15: a valid request of ${MAX_LINE_BYTES} bytes, then \\r\\n (the \\r counts)`,
    line: paddedTo(MAX_LINE_BYTES + 1, "w-over-cr", "\r"),
    expect: err("LINE_TOO_LONG", null),
  },
  {
    rule: "W-1.4",
    label: `G-15: ${MAX_LINE_BYTES + 1} spaces (over the bound although all whitespace)`,
    line: bytes(" ".repeat(MAX_LINE_BYTES + 1)),
    expect: err("LINE_TOO_LONG", null),
  },

  // --- W-1.5 nesting (order 3) ---
  {
    rule: "W-1.5",
    label: `nesting ${MAX_NESTING_DEPTH + 1} deep (one level over the limit, in an extra field)`,
    line: deepQuery("w-depth-65", MAX_NESTING_DEPTH + 1),
    expect: err("NESTING_TOO_DEEP", null),
  },
  {
    rule: "W-1.5",
    label: `nesting exactly ${MAX_NESTING_DEPTH} deep (the limit; then the extra field is a BAD_REQUEST)`,
    line: deepQuery("w-depth-64", MAX_NESTING_DEPTH),
    expect: err("BAD_REQUEST", "w-depth-64"),
  },
  {
    rule: "W-1.5",
    label: "arrays nested 100000 deep (a stack-exhaustion attack)",
    line: bytes(nest(100_000)),
    expect: err("NESTING_TOO_DEEP", null),
  },
  {
    rule: "W-1.5",
    label: "70 brackets inside the id string (brackets in strings do not count)",
    line: json(worldQuery(`w-brackets-${"[{".repeat(35)}`)),
    expect: ok(`w-brackets-${"[{".repeat(35)}`),
  },
  {
    rule: "W-1.5",
    label: "an escaped quote then 70 brackets inside the id string",
    line: json(worldQuery(`w-quote-"${"[".repeat(70)}`)),
    expect: ok(`w-quote-"${"[".repeat(70)}`),
  },
  {
    rule: "W-1.5",
    label: `a string ending in an escaped backslash, then nesting ${MAX_NESTING_DEPTH + 1} deep outside it`,
    line: bytes(`{"type":"query","id":"w-backslash\\\\","query":{"name":"world"},"deep":${nest(MAX_NESTING_DEPTH)}}`),
    expect: err("NESTING_TOO_DEEP", null),
  },
  {
    rule: "W-4",
    label: `an unclosed line nesting ${MAX_NESTING_DEPTH + 1} deep (too deep and bad JSON: row 3 before row 4)`,
    line: bytes(`{"type":"query","id":"w-open","deep":${"[".repeat(MAX_NESTING_DEPTH)}`),
    expect: err("NESTING_TOO_DEEP", null),
  },
  // Depth is a lexical running count over any text (W-1.5, review G-17).
  {
    rule: "W-1.5",
    label: `G-17: an unterminated string holding ${MAX_NESTING_DEPTH + 5} [ (they do not count)`,
    line: bytes(`"${"[".repeat(MAX_NESTING_DEPTH + 5)}`),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.5",
    label: `G-17: ] then ${MAX_NESTING_DEPTH + 1} [ (the count starts at -1, reaches ${MAX_NESTING_DEPTH})`,
    line: bytes(`]${"[".repeat(MAX_NESTING_DEPTH + 1)}`),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-1.5",
    label: `G-17: ] then ${MAX_NESTING_DEPTH + 2} [ (the count reaches ${MAX_NESTING_DEPTH + 1})`,
    line: bytes(`]${"[".repeat(MAX_NESTING_DEPTH + 2)}`),
    expect: err("NESTING_TOO_DEEP", null),
  },

  // --- BAD_JSON (order 4) ---
  {
    rule: "W-4",
    label: "a truncated JSON object carrying an id",
    line: bytes('{"type":"query","id":"w-unread","query":'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-2.1",
    label: "a request reusing the id of the earlier unparsable line (its id was never read)",
    line: json(worldQuery("w-unread")),
    expect: ok("w-unread"),
  },
  {
    rule: "W-1.2",
    label: "two JSON values on one line",
    line: bytes(`${JSON.stringify(worldQuery("w-two-a"))} ${JSON.stringify(worldQuery("w-two-b"))}`),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-4",
    label: "a raw tab inside a JSON string",
    line: bytes('{"type":"query","id":"w-tab\t","query":{"name":"world"}}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-4",
    label: "a trailing comma",
    line: bytes('{"type":"query","id":"w-comma","query":{"name":"world"},}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-4",
    label: "plain text (this is not json)",
    line: bytes("this is not json"),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-4",
    label: "a NUL byte between JSON tokens",
    line: bytes('{"type":"query",\u0000"id":"w-nul","query":{"name":"world"}}'),
    expect: err("BAD_JSON", null),
  },
  {
    rule: "W-4",
    label: "single-quoted strings",
    line: bytes("{'type':'query','id':'w-single','query':{'name':'world'}}"),
    expect: err("BAD_JSON", null),
  },

  // --- BAD_REQUEST with id null: not an object, id missing or invalid (order 5, W-2.1) ---
  {
    rule: "W-4",
    label: "a JSON array",
    line: bytes('[{"type":"query","id":"w-in-array","query":{"name":"world"}}]'),
    expect: err("BAD_REQUEST", null),
  },
  { rule: "W-4", label: "a JSON number", line: bytes("42"), expect: err("BAD_REQUEST", null) },
  { rule: "W-4", label: "a JSON string", line: bytes('"hello"'), expect: err("BAD_REQUEST", null) },
  { rule: "W-4", label: "JSON null", line: bytes("null"), expect: err("BAD_REQUEST", null) },
  {
    rule: "W-2.1",
    label: "a request without an id",
    line: json({ type: "query", query: { name: "world" } }),
    expect: err("BAD_REQUEST", null),
  },
  { rule: "W-2.1", label: "an empty string id", line: json(worldQuery("")), expect: err("BAD_REQUEST", null) },
  {
    rule: "W-2.1",
    label: "an id of 129 characters (one over the limit)",
    line: json(worldQuery(ID_129)),
    expect: err("BAD_REQUEST", null),
  },
  {
    rule: "W-2.1",
    label: "an id of exactly 128 characters (the limit)",
    line: json(worldQuery(ID_128)),
    expect: ok(ID_128),
  },
  { rule: "W-2.1", label: "a negative id (-1)", line: json(worldQuery(-1)), expect: err("BAD_REQUEST", null) },
  {
    rule: "W-2.1",
    label: "an id of 1e400 (overflows a double)",
    line: bytes('{"type":"query","id":1e400,"query":{"name":"world"}}'),
    expect: err("BAD_REQUEST", null),
  },
  {
    rule: "W-2.1",
    label: "an id of 2^53 (one over the largest safe integer)",
    line: bytes('{"type":"query","id":9007199254740992,"query":{"name":"world"}}'),
    expect: err("BAD_REQUEST", null),
  },
  {
    rule: "W-2.1",
    label: "an id of 2^53-1 (the largest safe integer)",
    line: json(worldQuery(MAX_ID)),
    expect: ok(MAX_ID),
  },
  { rule: "W-2.1", label: "an id of 0 (the smallest integer id)", line: json(worldQuery(0)), expect: ok(0) },
  // Integral numbers are integers whatever their spelling (W-1.8, D-043, review G-7); "1" and 1 are different ids (review G-14).
  { rule: "W-2.1", label: "G-7: an id of 100", line: json(worldQuery(100)), expect: ok(100) },
  {
    rule: "W-1.8",
    label: "G-7: an id of 1e2 (the id 100 again)",
    line: bytes('{"type":"query","id":1e2,"query":{"name":"world"}}'),
    expect: err("DUPLICATE_REQUEST_ID", 100),
  },
  {
    rule: "W-1.8",
    label: "G-7: an id of -0 (the id 0 again, echoed as 0)",
    line: bytes('{"type":"query","id":-0,"query":{"name":"world"}}'),
    expect: err("DUPLICATE_REQUEST_ID", 0),
  },
  {
    rule: "W-1.8",
    label: "G-7: an id of 5.0E0 (the id 5)",
    line: bytes('{"type":"query","id":5.0E0,"query":{"name":"world"}}'),
    expect: ok(5),
  },
  { rule: "W-2.1", label: "G-14: an id of 1", line: json(worldQuery(1)), expect: ok(1) },
  { rule: "W-2.1", label: 'G-14: an id of "1" (not the integer 1)', line: json(worldQuery("1")), expect: ok("1") },
  { rule: "W-2.1", label: "a fractional id (1.5)", line: json(worldQuery(1.5)), expect: err("BAD_REQUEST", null) },
  { rule: "W-2.1", label: "a boolean id", line: json(worldQuery(true)), expect: err("BAD_REQUEST", null) },
  {
    rule: "W-2.1",
    label: "an object id",
    line: json(worldQuery({ id: "w-object" })),
    expect: err("BAD_REQUEST", null),
  },
  { rule: "W-2.1", label: "an explicit null id", line: json(worldQuery(null)), expect: err("BAD_REQUEST", null) },
  {
    rule: "W-4",
    label: "an invalid id with an unknown type (row 5 before row 7)",
    line: json({ type: "teleport", id: -5 }),
    expect: err("BAD_REQUEST", null),
  },

  // --- W-4 row 7 and row 9 with the id ---
  {
    rule: "W-4",
    label: "a request without a type",
    line: json({ id: "w-no-type", query: { name: "world" } }),
    expect: err("BAD_REQUEST", "w-no-type"),
  },
  {
    rule: "W-4.1",
    label: "G-11: a type that is a number",
    line: json({ type: 5, id: "w-type-5" }),
    expect: err("BAD_REQUEST", "w-type-5"),
  },
  {
    rule: "W-4.1",
    label: "G-11: a type that is null",
    line: json({ type: null, id: "w-type-null", query: { name: "world" } }),
    expect: err("BAD_REQUEST", "w-type-null"),
  },
  {
    rule: "W-4",
    label: "an unknown type (teleport)",
    line: json({ type: "teleport", id: "w-teleport" }),
    expect: err("UNKNOWN_OP", "w-teleport"),
  },
  {
    rule: "W-4",
    label: "the type __proto__",
    line: json({ type: "__proto__", id: "w-proto" }),
    expect: err("UNKNOWN_OP", "w-proto"),
  },
  {
    rule: "W-4",
    label: "the type reply (a reply is not a request)",
    line: json({ type: "reply", id: "w-reply", ok: true, events: [] }),
    expect: err("UNKNOWN_OP", "w-reply"),
  },
  {
    rule: "W-4",
    label: "an unknown type with an extra field (row 7 before row 9)",
    line: json({ type: "Hello", id: "w-Hello", protocol_versions: ["1"], settings: {}, extra: 1 }),
    expect: err("UNKNOWN_OP", "w-Hello"),
  },
  {
    rule: "W-4",
    label: "an extra envelope field on a query",
    line: json({ ...worldQuery("w-extra"), extra: true }),
    expect: err("BAD_REQUEST", "w-extra"),
  },
  {
    rule: "W-4",
    label: "a reset with an extra envelope field (it must not reset)",
    line: json({ type: "reset", id: "w-reset-extra", extra: true }),
    expect: err("BAD_REQUEST", "w-reset-extra"),
  },
  {
    rule: "W-4",
    label: "a second hello",
    line: json({ type: "hello", id: "w-hello-2", protocol_versions: ["1"], settings: {} }),
    expect: err("BAD_REQUEST", "w-hello-2"),
  },
  {
    rule: "W-4",
    label: "an unknown query name (secrets)",
    line: json({ type: "query", id: "w-q-secrets", query: { name: "secrets" } }),
    expect: err("UNKNOWN_OP", "w-q-secrets"),
  },
  {
    rule: "W-4",
    label: "the query name constructor",
    line: json({ type: "query", id: "w-q-ctor", query: { name: "constructor" } }),
    expect: err("UNKNOWN_OP", "w-q-ctor"),
  },
  {
    rule: "W-4",
    label: "a query request without its query",
    line: json({ type: "query", id: "w-q-missing" }),
    expect: err("BAD_REQUEST", "w-q-missing"),
  },
  {
    rule: "W-4",
    label: "a query whose agent is not a digest",
    line: json({ type: "query", id: "w-q-agent", query: { name: "store", agent: "not-a-digest" } }),
    expect: err("BAD_REQUEST", "w-q-agent"),
  },
  {
    rule: "W-4",
    label: "crash_after with writes 0 (row 9 before row 10, whatever the profile)",
    line: json({ type: "crash_after", id: "w-crash-0", writes: 0, at: "after_commit" }),
    expect: err("BAD_REQUEST", "w-crash-0"),
  },
  {
    rule: "W-4",
    label: "crash_after with an unknown at",
    line: json({ type: "crash_after", id: "w-crash-at", writes: 1, at: "whenever" }),
    expect: err("BAD_REQUEST", "w-crash-at"),
  },
  {
    rule: "W-4",
    label: "a command request without its command",
    line: json({ type: "command", id: "w-c-missing" }),
    expect: err("BAD_REQUEST", "w-c-missing"),
  },
  {
    rule: "W-4.1",
    label: "G-12: a command request whose command is null (present: MALFORMED)",
    line: json({ type: "command", id: "w-c-null", command: null }),
    expect: err("MALFORMED", "w-c-null"),
  },
  {
    rule: "W-4.1",
    label: "G-13: an unknown query name with invalid and extra parameters (the name first)",
    line: json({ type: "query", id: "w-q-unknown-bad", query: { name: "secrets", agent: "not-a-digest", x: 1 } }),
    expect: err("UNKNOWN_OP", "w-q-unknown-bad"),
  },
  {
    rule: "W-4.1",
    label: "G-13: a query that is null",
    line: json({ type: "query", id: "w-q-null", query: null }),
    expect: err("BAD_REQUEST", "w-q-null"),
  },
  {
    rule: "W-4.1",
    label: "G-13: a query whose name is a number",
    line: json({ type: "query", id: "w-q-name-5", query: { name: 5 } }),
    expect: err("BAD_REQUEST", "w-q-name-5"),
  },
  {
    rule: "W-4.1",
    label: "G-13: a store query with an extra parameter",
    line: json({ type: "query", id: "w-q-extra-param", query: { name: "store", agent: NO_AGENT, x: 1 } }),
    expect: err("BAD_REQUEST", "w-q-extra-param"),
  },

  // --- W-2.1 duplicates (order 6) ---
  {
    rule: "W-2.1",
    label: "the id of the setup mint again",
    line: json(worldQuery(SETUP_MINT_ID)),
    expect: err("DUPLICATE_REQUEST_ID", SETUP_MINT_ID),
  },
  {
    rule: "W-2.1",
    label: "the id of an earlier answered query again",
    line: json(worldQuery("w-crlf")),
    expect: err("DUPLICATE_REQUEST_ID", "w-crlf"),
  },
  { rule: "W-2.1", label: "the integer id 0 again", line: json(worldQuery(0)), expect: err("DUPLICATE_REQUEST_ID", 0) },
  {
    rule: "W-2.1",
    label: 'G-14: the string id "1" again',
    line: json(worldQuery("1")),
    expect: err("DUPLICATE_REQUEST_ID", "1"),
  },
  {
    rule: "W-1.8",
    label: "G-7: the integer id 5 again (first spelled 5.0E0)",
    line: json(worldQuery(5)),
    expect: err("DUPLICATE_REQUEST_ID", 5),
  },
  {
    rule: "W-2.1",
    label: "the id of an earlier rejected request again (every id read counts as used)",
    line: json(worldQuery("w-no-type")),
    expect: err("DUPLICATE_REQUEST_ID", "w-no-type"),
  },
  {
    rule: "W-4",
    label: "a duplicate id with an unknown type (row 6 before row 7)",
    line: json({ type: "teleport", id: "w-teleport" }),
    expect: err("DUPLICATE_REQUEST_ID", "w-teleport"),
  },
  {
    rule: "W-4",
    label: "a duplicate id with an extra envelope field (row 6 before row 9)",
    line: json({ ...worldQuery("w-extra"), extra: true }),
    expect: err("DUPLICATE_REQUEST_ID", "w-extra"),
  },

  // --- W-2.3 a command failing the Command schema is MALFORMED, not a wire error ---
  {
    rule: "W-2.3",
    label: "a command with an unknown op",
    line: json({ type: "command", id: "w-m-op", command: { op: "janma.teleport", tick: 1 } }),
    expect: err("MALFORMED", "w-m-op"),
  },
  {
    rule: "W-2.3",
    label: "a command whose tick is not an integer",
    line: json({
      type: "command",
      id: "w-m-tick",
      command: { op: "ripa.task_start", tick: "soon", agent: NO_AGENT, task_id: "task-1" },
    }),
    expect: err("MALFORMED", "w-m-tick"),
  },
  {
    rule: "W-2.3",
    label: "a command that is a string",
    line: json({ type: "command", id: "w-m-string", command: "advaita.mint" }),
    expect: err("MALFORMED", "w-m-string"),
  },
  {
    rule: "W-2.3",
    label: "a valid mint with an extra field (it must not mint)",
    line: json({ type: "command", id: "w-m-extra", command: { ...setupMint(2, "wire-root-2"), backdoor: true } }),
    expect: err("MALFORMED", "w-m-extra"),
  },
];

// --- Judging a reply against an entry ----------------------------------------------------------

const idText = (id: unknown): string => JSON.stringify(id) ?? String(id);

export const describeExpectation = (e: Expectation): string => {
  switch (e.kind) {
    case "error":
      return `${e.code} with id ${idText(e.id)}`;
    case "ok":
      return `a success with id ${idText(e.id)}`;
    case "none":
      return "no reply";
    case "either":
      return e.options.map(describeExpectation).join(" or ");
  }
};

/** The normative part of a reply, in words: code, id, and whatever else is off (definite, invariant, events). */
export const describeReply = (r: Reply): string => {
  if (r.ok) {
    const extra = [
      r.events.length > 0 ? `${r.events.length} events` : "",
      r.result === undefined ? "no result" : "",
    ].filter((s) => s !== "");
    return `a success with id ${idText(r.id)}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
  }
  const extra = [
    r.error.definite ? "" : "definite: false",
    r.error.invariant === null ? "" : `invariant: ${r.error.invariant}`,
  ].filter((s) => s !== "");
  return `${r.error.code} with id ${idText(r.id)}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
};

/** Whether one reply is what `e` asks for, every normative field included (W-3, W-4). */
export const matches = (e: Expectation, r: Reply): boolean => {
  switch (e.kind) {
    case "error":
      return (
        !r.ok && r.error.code === e.code && Object.is(r.id, e.id) && r.error.definite && r.error.invariant === null
      );
    case "ok":
      // W-3.1: a query's success carries its result and no events.
      return r.ok && Object.is(r.id, e.id) && r.events.length === 0 && r.result !== undefined;
    case "none":
      return false;
    case "either":
      return e.options.some((o) => matches(o, r));
  }
};

/** null when the replies to one line are what the entry expects; otherwise what came instead. */
export const judge = (e: Expectation, replies: readonly Reply[]): string | null => {
  if (e.kind === "none") return replies.length === 0 ? null : `got ${replies.map(describeReply).join(", then ")}`;
  const [first] = replies;
  if (first === undefined) return "got no reply";
  if (replies.length > 1) return `got ${replies.length} replies: ${replies.map(describeReply).join(", then ")}`;
  return matches(e, first) ? null : `got ${describeReply(first)}`;
};

/** How many replies the catalog must get: one per non-empty line (W-1.6). */
export const repliesExpected = (catalog: readonly CatalogEntry[]): number =>
  catalog.filter((c) => c.expect.kind !== "none").length;
