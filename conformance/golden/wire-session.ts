/**
 * The wire golden session (spec/wire/PROTOCOL.md W-9.1): raw lines, sent to a fresh process before
 * any handshake, with the reply each must get. It pins what the command sessions cannot see: wire
 * errors and their check order (W-4), hello variations (W-5), MALFORMED commands (W-2.3) and the
 * wire decisions of spec review 1 (G-7 … G-20).
 *
 * Every line below states its expected reply and the clause that decides it. Wire errors are
 * written out from the W-4 table, never taken from an implementation's output; only accepted
 * commands and world queries are the reference model's answers (`npm run golden` writes the file,
 * conformance/golden/golden.test.ts fails when it is stale).
 *
 * Its only operation is `advaita.mint` (W-9.1), which D-034 lets the runner send to any profile
 * that declares a family. Every line that needs no family comes first, then a world query of the
 * world they left (empty), then the G-7 mints and the closing world query, then shutdown: the
 * empty profile is sent the lines before the mints and the shutdown, which is a session of its own
 * with the same expected replies (conformance/golden/applicability.ts computes the split from the
 * lines; golden.test.ts replays both against the kit's implementation).
 */
import { Result } from "effect";
import type { Command, Event } from "../../spec/index.ts";
import { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from "../../spec/wire/index.ts";
import { initialWorld, toRejectionData, transition, view, type World } from "../../model/index.ts";
import { setupMint } from "../core/setup-mint.ts";

/** A piece of a raw line: UTF-8 text, bytes in hex, or a text repeated (lines at the 1 MiB bound stay small in the file). */
export type Segment =
  | { readonly text: string }
  | { readonly hex: string }
  | { readonly repeat: string; readonly times: number };

type Id = string | number | null;

/** The normative part of a reply, with the id it must echo (W-3, W-9). */
export type WireExpected =
  | {
      readonly id: Id;
      readonly ok: false;
      readonly error: { readonly code: string; readonly invariant: string | null; readonly definite: boolean };
    }
  | { readonly id: Id; readonly ok: true; readonly events: readonly Event[]; readonly result?: unknown };

export interface WireStep {
  /** "G-15.2": the review item it pins and a serial; "o.N" pins a W-4 check order no review item asked about; "s.N" ends the session. */
  readonly step: string;
  /** The review item pinned ("G-15"), or null. */
  readonly pins: string | null;
  /** The clause that decides the reply. */
  readonly clause: string;
  /** What the line is, for a person reading a mismatch. */
  readonly what: string;
  /** The raw line without its `\n`. */
  readonly send: readonly Segment[];
  /** null: no reply (W-1.2). */
  readonly reply: WireExpected | null;
}

export const WIRE_SESSION_PATH = "conformance/golden/wire-session.jsonl";

/** The bytes of a line, its terminating `\n` included. */
export const lineBytes = (send: readonly Segment[]): Buffer =>
  Buffer.concat([
    ...send.map((s) =>
      "text" in s
        ? Buffer.from(s.text, "utf8")
        : "hex" in s
          ? Buffer.from(s.hex.replaceAll(" ", ""), "hex")
          : Buffer.from(s.repeat.repeat(s.times), "utf8"),
    ),
    Buffer.from("\n"),
  ]);

/** A digest that names no agent: a query for it is NOT_FOUND (W-6), which proves the line was read as a request with that id. */
const NO_AGENT = `sha256:${"0".repeat(64)}`;
const probeText = (idJson: string): string =>
  `{"type":"query","id":${idJson},"query":{"name":"agent","agent":"${NO_AGENT}"}}`;

const wireErr = (id: Id, code: string): WireExpected => ({
  id,
  ok: false,
  error: { code, invariant: null, definite: true },
});
const notFound = (id: Id): WireExpected => wireErr(id, "NOT_FOUND");
const helloOk = (id: string): WireExpected => ({ id, ok: true, events: [], result: { protocol_version: "1" } });
const text = (t: string): Segment[] => [{ text: t }];

/** Builds the session; the model holds the world the accepted commands make. */
export const wireSession = (): WireStep[] => {
  const steps: WireStep[] = [];
  let world: World = initialWorld();
  const serial = new Map<string, number>();
  const nextStep = (pins: string): string => {
    const n = (serial.get(pins) ?? 0) + 1;
    serial.set(pins, n);
    return `${pins}.${n}`;
  };
  /** A line pinning `pins`; `reply(step)` gets the step name, which is also the request id where the line has a readable one. */
  const line = (
    pins: string,
    clause: string,
    what: string,
    send: (step: string) => Segment[],
    reply: (step: string) => WireExpected | null,
  ): void => {
    const step = nextStep(pins);
    steps.push({ step, pins: pins.startsWith("G-") ? pins : null, clause, what, send: send(step), reply: reply(step) });
  };
  /** A command line whose accepted or rejected reply is the model's (the raw text may spell the command differently, e.g. 1.0 for 1). */
  const modelCommand = (
    pins: string,
    clause: string,
    what: string,
    command: Command,
    spell: (json: string) => string,
  ): readonly Event[] => {
    let events: readonly Event[] = [];
    line(
      pins,
      clause,
      what,
      (step) => text(spell(JSON.stringify({ type: "command", id: step, command }))),
      (step) => {
        const r = transition(world, command);
        if (Result.isSuccess(r)) {
          world = r.success.world;
          events = r.success.events;
          return { id: step, ok: true, events };
        }
        const d = toRejectionData(r.failure);
        return { id: step, ok: false, error: { code: d.code, invariant: d.invariant, definite: true } };
      },
    );
    return events;
  };
  const once = (json: string, from: string, to: string): string => {
    if (json.split(from).length !== 2)
      throw new Error(`wire session: ${from} must occur exactly once in ${json.slice(0, 120)}`);
    return json.replace(from, to);
  };
  const probe = (
    pins: string,
    clause: string,
    what: string,
    idJson?: (step: string) => string,
    reply?: (step: string) => WireExpected | null,
  ): void =>
    line(
      pins,
      clause,
      what,
      (step) => text(probeText(idJson?.(step) ?? JSON.stringify(step))),
      reply ?? ((step) => notFound(step)),
    );

  // --- G-20 / W-5: before the handshake, hello variations -------------------------------------
  line(
    "G-20",
    "W-5.3, W-4 rows 8-9",
    "an invalid query (unknown name, extra field) before hello: NOT_HANDSHAKEN comes first",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"secrets"},"extra":1}`),
    (s) => wireErr(s, "NOT_HANDSHAKEN"),
  );
  line(
    "G-20",
    "W-5.3, W-4 rows 7-8",
    "an unknown type before hello: UNKNOWN_OP (row 7 before row 8)",
    (s) => text(`{"type":"teleport","id":"${s}"}`),
    (s) => wireErr(s, "UNKNOWN_OP"),
  );
  line(
    "G-20",
    "W-5.3, W-4 rows 9-10",
    "a hello with settings [] that also offers no common version: BAD_REQUEST before UNSUPPORTED_VERSION",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["9"],"settings":[]}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-20",
    "W-5.3",
    "a hello with an empty protocol_versions",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":[],"settings":{}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-20",
    "W-5.3",
    "a hello with an extra field",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["1"],"settings":{},"extra":true}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-20",
    "W-5.1",
    "a hello offering only an unknown version",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["0.unknown"],"settings":{}}`),
    (s) => wireErr(s, "UNSUPPORTED_VERSION"),
  );
  line(
    "G-20",
    "W-5.3, W-2.1",
    "a hello reusing the id of the refused hello (its id was used)",
    () => text('{"type":"hello","id":"G-20.6","protocol_versions":["1"],"settings":{}}'),
    () => wireErr("G-20.6", "DUPLICATE_REQUEST_ID"),
  );
  line(
    "G-20",
    "W-5.1",
    "a world query after refused hellos: still un-handshaken",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"world"}}`),
    (s) => wireErr(s, "NOT_HANDSHAKEN"),
  );
  line(
    "G-20",
    "W-5.3, W-2.5",
    "a hello preferring an unknown version, with unknown settings of any JSON value: accepted, version 1",
    (s) =>
      text(
        `{"type":"hello","id":"${s}","protocol_versions":["0.unknown","1"],"settings":{"srk.unknown":{"nested":[1,null,"x",{"k":2.5}]},"flag":false,"n":null}}`,
      ),
    (s) => helloOk(s),
  );
  line(
    "G-20",
    "W-5.3",
    "a second, valid hello",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["1"],"settings":{}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-20",
    "W-5.3",
    "a second hello that is also malformed and offers no common version",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["9"],"settings":[]}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );

  // --- G-7: integral numbers (the commands spelling them are at the end: they need advaita.mint) -
  probe(
    "G-7",
    "W-2.1",
    "request id 100",
    () => "100",
    () => notFound(100),
  );
  probe(
    "G-7",
    "W-1.8, W-2.1, D-043",
    "request id 1e2: the id 100 again",
    () => "1e2",
    () => wireErr(100, "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-7",
    "W-1.8, W-2.1, D-043",
    "request id 100.0: the id 100 again",
    () => "100.0",
    () => wireErr(100, "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-7",
    "W-2.1",
    "request id 0",
    () => "0",
    () => notFound(0),
  );
  probe(
    "G-7",
    "W-1.8, W-2.1, D-043",
    "request id -0: the id 0 again, echoed as 0",
    () => "-0",
    () => wireErr(0, "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-7",
    "W-1.8, W-2.1, D-043",
    "request id 7.0E0: the id 7",
    () => "7.0E0",
    () => notFound(7),
  );
  probe(
    "G-7",
    "W-2.1",
    "request id 7: the id of 7.0E0 again",
    () => "7",
    () => wireErr(7, "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-7",
    "W-2.1, W-1.8",
    "request id 1.5: not an integer, BAD_REQUEST with id null",
    () => "1.5",
    () => wireErr(null, "BAD_REQUEST"),
  );
  // A number is never BAD_JSON for its size (W-1.8): 5000 digits denote a value no binary64 holds (infinite, as 1e400), not an integer.
  probe(
    "G-7",
    "W-1.8, W-2.1",
    "request id of 5000 digits: valid JSON, not an integer, BAD_REQUEST with id null (not BAD_JSON)",
    () => "9".repeat(5000),
    () => wireErr(null, "BAD_REQUEST"),
  );
  probe(
    "G-7",
    "W-1.8, W-2.1",
    "request id 1 followed by 4999 zeros: BAD_REQUEST with id null",
    () => `1${"0".repeat(4999)}`,
    () => wireErr(null, "BAD_REQUEST"),
  );

  // --- G-14: string and integer ids ---------------------------------------------------------------
  probe(
    "G-14",
    "W-2.1",
    "request id 1",
    () => "1",
    () => notFound(1),
  );
  probe(
    "G-14",
    "W-2.1",
    'request id "1": a different id',
    () => '"1"',
    () => notFound("1"),
  );
  probe(
    "G-14",
    "W-2.1",
    'request id "1" again',
    () => '"1"',
    () => wireErr("1", "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-14",
    "W-2.1",
    "request id 1 again",
    () => "1",
    () => wireErr(1, "DUPLICATE_REQUEST_ID"),
  );
  probe(
    "G-14",
    "W-2.1",
    'request id "100": not the integer 100',
    () => '"100"',
    () => notFound("100"),
  );

  // --- G-15: the line bound -----------------------------------------------------------------------
  const padded = (step: string, total: number, tail: string): Segment[] => {
    const head = probeText(JSON.stringify(step));
    return [
      { text: head },
      { repeat: " ", times: total - Buffer.byteLength(head) - tail.length },
      ...(tail === "" ? [] : [{ text: tail }]),
    ];
  };
  line(
    "G-15",
    "W-1.4",
    `a request padded to exactly ${MAX_LINE_BYTES} bytes`,
    (s) => padded(s, MAX_LINE_BYTES, ""),
    (s) => notFound(s),
  );
  line(
    "G-15",
    "W-1.4",
    `a request padded to exactly ${MAX_LINE_BYTES} bytes, the last being \\r`,
    (s) => padded(s, MAX_LINE_BYTES, "\r"),
    (s) => notFound(s),
  );
  line(
    "G-15",
    "W-1.4",
    `a request of ${MAX_LINE_BYTES} bytes then \\r\\n: the \\r counts, LINE_TOO_LONG`,
    (s) => padded(s, MAX_LINE_BYTES + 1, "\r"),
    () => wireErr(null, "LINE_TOO_LONG"),
  );
  line(
    "G-15",
    "W-1.4",
    `a request of ${MAX_LINE_BYTES + 1} bytes`,
    (s) => padded(s, MAX_LINE_BYTES + 1, ""),
    () => wireErr(null, "LINE_TOO_LONG"),
  );
  probe(
    "G-15",
    "W-1.4, W-2.1",
    "the id of the discarded line G-15.3 (never read, so unused)",
    () => '"G-15.3"',
    () => notFound("G-15.3"),
  );
  line(
    "G-15",
    "W-1.2, W-1.9",
    `${MAX_LINE_BYTES} spaces: all whitespace, no reply`,
    () => [{ repeat: " ", times: MAX_LINE_BYTES }],
    () => null,
  );
  line(
    "G-15",
    "W-1.2, W-1.4",
    `${MAX_LINE_BYTES - 1} spaces and \\r: all whitespace, no reply`,
    () => [{ repeat: " ", times: MAX_LINE_BYTES - 1 }, { text: "\r" }],
    () => null,
  );
  line(
    "G-15",
    "W-1.4",
    `${MAX_LINE_BYTES + 1} spaces: over the bound, LINE_TOO_LONG although all whitespace`,
    () => [{ repeat: " ", times: MAX_LINE_BYTES + 1 }],
    () => wireErr(null, "LINE_TOO_LONG"),
  );
  line(
    "G-15",
    "W-1.4",
    `${MAX_LINE_BYTES} spaces and \\r: LINE_TOO_LONG`,
    () => [{ repeat: " ", times: MAX_LINE_BYTES }, { text: "\r" }],
    () => wireErr(null, "LINE_TOO_LONG"),
  );

  // --- G-16: whitespace -----------------------------------------------------------------------------
  line(
    "G-16",
    "W-1.2",
    "an empty line",
    () => text(""),
    () => null,
  );
  line(
    "G-16",
    "W-1.9",
    "spaces, tab, \\r and \\r",
    () => text(" \t\r \r"),
    () => null,
  );
  for (const [name, ch] of [
    ["U+00A0 NO-BREAK SPACE", "\u00a0"],
    ["U+FEFF BYTE ORDER MARK", "\ufeff"],
    ["U+2028 LINE SEPARATOR", "\u2028"],
    ["U+3000 IDEOGRAPHIC SPACE", "\u3000"],
    ["U+000B VERTICAL TAB", "\u000b"],
    ["U+0085 NEXT LINE", "\u0085"],
  ] as const) {
    line(
      "G-16",
      "W-1.9",
      `a line holding only ${name} (Unicode White_Space, not JSON whitespace)`,
      () => text(` ${ch} `),
      () => wireErr(null, "BAD_JSON"),
    );
  }
  line(
    "G-16",
    "W-1.9",
    "a byte-order mark before a valid request",
    (s) => text(`\ufeff${probeText(JSON.stringify(s))}`),
    () => wireErr(null, "BAD_JSON"),
  );
  probe(
    "G-16",
    "W-2.1",
    "the id of the BOM line (never read, so unused)",
    () => '"G-16.9"',
    () => notFound("G-16.9"),
  );
  line(
    "G-16",
    "W-1.9, W-4 row 2",
    "spaces around an invalid UTF-8 byte: BAD_ENCODING, not ignored",
    () => [{ text: " " }, { hex: "ff" }, { text: " " }],
    () => wireErr(null, "BAD_ENCODING"),
  );

  // --- G-17: depth of text that is not JSON ----------------------------------------------------------
  const over = MAX_NESTING_DEPTH + 1;
  line(
    "G-17",
    "W-1.5",
    `${over} unclosed [ (too deep and bad JSON: row 3 first)`,
    () => text("[".repeat(over)),
    () => wireErr(null, "NESTING_TOO_DEEP"),
  );
  line(
    "G-17",
    "W-1.5",
    `${MAX_NESTING_DEPTH} unclosed [: not too deep, bad JSON`,
    () => text("[".repeat(MAX_NESTING_DEPTH)),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-17",
    "W-1.5",
    `an unterminated string holding ${over + 5} [ (inside a string, they do not count)`,
    () => text(`"${"[".repeat(over + 5)}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-17",
    "W-1.5",
    `an unterminated string: an escaped quote, then ${over + 5} [`,
    () => text(`"\\"${"[".repeat(over + 5)}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-17",
    "W-1.5",
    `a string ending in an escaped backslash, then ${over} unclosed [ outside it`,
    () => text(`"\\\\" ${"[".repeat(over)}`),
    () => wireErr(null, "NESTING_TOO_DEEP"),
  );
  line(
    "G-17",
    "W-1.5",
    `] then ${over} [: the count goes to -1 first, reaches ${MAX_NESTING_DEPTH} only`,
    () => text(`]${"[".repeat(over)}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-17",
    "W-1.5",
    `] then ${over + 1} [: the count reaches ${over}`,
    () => text(`]${"[".repeat(over + 1)}`),
    () => wireErr(null, "NESTING_TOO_DEEP"),
  );
  line(
    "G-17",
    "W-1.5",
    `${over} { then garbage`,
    () => text(`${"{".repeat(over)}garbage`),
    () => wireErr(null, "NESTING_TOO_DEEP"),
  );

  // --- G-8: duplicate member names ----------------------------------------------------------------
  line(
    "G-8",
    "W-1.8, D-044",
    "a request with two ids",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"${NO_AGENT}"},"id":"${s}-b"}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-8",
    "W-1.8, D-044",
    "a request whose second id is spelled with an escape (\\u0069d)",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"${NO_AGENT}"},"\\u0069d":"${s}-b"}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-8",
    "W-1.8, D-044",
    "a query naming its agent twice",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"${NO_AGENT}","agent":"${NO_AGENT}"}}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-8",
    "W-1.8, D-044",
    "a valid mint whose root is given twice (last-wins would mint)",
    (s) =>
      text(
        once(
          JSON.stringify({ type: "command", id: s, command: setupMint(3, "wire-golden-root-3") }),
          '"root":"wire-golden-root-3",',
          '"root":"wire-golden-root-1","root":"wire-golden-root-3",',
        ),
      ),
    () => wireErr(null, "BAD_JSON"),
  );
  probe(
    "G-8",
    "W-2.1",
    "the id of G-8.1 (its line was not read, so the id is unused)",
    () => '"G-8.1"',
    () => notFound("G-8.1"),
  );

  // --- G-9: lone surrogates -----------------------------------------------------------------------
  line(
    "G-9",
    "W-1.8, D-044",
    "a lone high surrogate \\ud800 as the query's agent",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"\\ud800"}}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8, D-044",
    "a lone low surrogate \\udc00 in the id",
    (s) => text(probeText(`"${s}-\\udc00"`)),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8, D-044",
    "a high surrogate followed by \\u0041",
    (s) => text(probeText(`"${s}-\\ud800\\u0041"`)),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8, D-044",
    "a mint whose designation ends in a lone surrogate (not MALFORMED, not accepted)",
    (s) =>
      text(
        once(
          JSON.stringify({ type: "command", id: s, command: setupMint(3, "wire-golden-root-3") }),
          '"designation":"wire stage agent"',
          '"designation":"wire stage agent \\udbff"',
        ),
      ),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8",
    "an escaped surrogate pair in the id is the character it encodes",
    (s) => text(probeText(`"${s}-\\ud83d\\ude80"`)),
    (s) => notFound(`${s}-🚀`),
  );
  line(
    "G-9",
    "W-1.8",
    "noncharacters U+FFFF and U+FDD0 in the id are accepted",
    (s) => text(probeText(`"${s}-\\uffff\\ufdd0"`)),
    (s) => notFound(`${s}-\uffff\ufdd0`),
  );
  // Member names are strings too (W-1.8): a lone surrogate in a name is BAD_JSON, not an unknown field (BAD_REQUEST).
  line(
    "G-9",
    "W-1.8, D-044",
    "a lone high surrogate \\ud800 in a member name of the envelope",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"${NO_AGENT}"},"\\ud800":1}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8, D-044",
    "a lone low surrogate \\udc00 in a member name of the query",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"agent","agent":"${NO_AGENT}","x\\udc00":1}}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8, D-044",
    "a member name ending in a high surrogate, in a hello's settings (unknown settings are ignored, W-2.5)",
    (s) => text(`{"type":"hello","id":"${s}","protocol_versions":["1"],"settings":{"srk.x\\udbff":true}}`),
    () => wireErr(null, "BAD_JSON"),
  );
  line(
    "G-9",
    "W-1.8",
    "an escaped surrogate pair in a member name is the character it encodes (an unknown envelope field)",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"world"},"\\ud83d\\ude80":1}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );

  // --- G-11: type ---------------------------------------------------------------------------------
  line(
    "G-11",
    "W-4.1",
    "type 5",
    (s) => text(`{"type":5,"id":"${s}"}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-11",
    "W-4.1",
    "type null",
    (s) => text(`{"type":null,"id":"${s}"}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-11",
    "W-4.1",
    'type ["query"]',
    (s) => text(`{"type":["query"],"id":"${s}","query":{"name":"world"}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-11",
    "W-4.1",
    "no type",
    (s) => text(`{"id":"${s}","query":{"name":"world"}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-11",
    "W-4.1",
    'type "Query" (case matters)',
    (s) => text(`{"type":"Query","id":"${s}","query":{"name":"world"}}`),
    (s) => wireErr(s, "UNKNOWN_OP"),
  );

  // --- G-12: command ------------------------------------------------------------------------------
  line(
    "G-12",
    "W-4.1",
    "a command envelope without command",
    (s) => text(`{"type":"command","id":"${s}"}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-12",
    "W-4.1",
    "a command envelope with an extra field",
    (s) => text(`{"type":"command","id":"${s}","command":{},"extra":1}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  for (const [what, value] of [
    ["null", "null"],
    ["a string", '"advaita.mint"'],
    ["an array", "[]"],
    ["an empty object", "{}"],
    ["a number", "1.0"],
    ["an unknown op", '{"op":"janma.teleport","tick":3}'],
  ] as const) {
    line(
      "G-12",
      "W-4.1, W-2.3",
      `command ${what}: MALFORMED`,
      (s) => text(`{"type":"command","id":"${s}","command":${value}}`),
      (s) => wireErr(s, "MALFORMED"),
    );
  }
  line(
    "G-12",
    "W-2.3",
    "a valid mint with an extra field: MALFORMED, nothing minted",
    (s) =>
      text(
        JSON.stringify({ type: "command", id: s, command: { ...setupMint(3, "wire-golden-root-3"), backdoor: true } }),
      ),
    (s) => wireErr(s, "MALFORMED"),
  );
  line(
    "G-12",
    "W-2.3",
    'a mint whose tick is "3"',
    (s) =>
      text(
        once(
          JSON.stringify({ type: "command", id: s, command: setupMint(3, "wire-golden-root-3") }),
          '"tick":3,',
          '"tick":"3",',
        ),
      ),
    (s) => wireErr(s, "MALFORMED"),
  );

  // --- G-13: query --------------------------------------------------------------------------------
  line(
    "G-13",
    "W-4.1 (a)",
    "an unknown query name with an extra envelope field: the envelope first",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"secrets"},"extra":1}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-13",
    "W-4.1 (a)",
    "a query envelope without query",
    (s) => text(`{"type":"query","id":"${s}"}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  for (const [what, value] of [
    ["null", "null"],
    ["an array", '["world"]'],
    ["a string", '"world"'],
    ["{} (no name)", "{}"],
    ["name 5", '{"name":5}'],
    ["name null", '{"name":null}'],
  ] as const) {
    line(
      "G-13",
      "W-4.1 (b)",
      `query ${what}`,
      (s) => text(`{"type":"query","id":"${s}","query":${value}}`),
      (s) => wireErr(s, "BAD_REQUEST"),
    );
  }
  line(
    "G-13",
    "W-4.1 (c)",
    "an unknown query name with invalid and extra parameters: UNKNOWN_OP",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"secrets","agent":"not-a-digest","x":1}}`),
    (s) => wireErr(s, "UNKNOWN_OP"),
  );
  line(
    "G-13",
    "W-4.1 (d)",
    "a store query whose agent is not a digest: BAD_REQUEST, not NOT_FOUND nor MALFORMED",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"store","agent":"not-a-digest"}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-13",
    "W-4.1 (d)",
    "a store query with an extra parameter",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"store","agent":"${NO_AGENT}","x":1}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-13",
    "W-4.1 (d)",
    "a store query without its agent",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"store"}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-13",
    "W-4.1 (d)",
    "a world query with a parameter",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"world","agent":"${NO_AGENT}"}}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );
  line(
    "G-13",
    "W-4.1 (e), W-6",
    "a well-formed store query naming no agent",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"store","agent":"${NO_AGENT}"}}`),
    (s) => notFound(s),
  );

  // --- W-4: orders between rows that no review item asked about ------------------------------------
  line(
    "o",
    "W-4 rows 1-2",
    `${MAX_LINE_BYTES + 1} bytes that are also invalid UTF-8`,
    () => [{ hex: "ff" }, { repeat: "x", times: MAX_LINE_BYTES }],
    () => wireErr(null, "LINE_TOO_LONG"),
  );
  line(
    "o",
    "W-4 rows 2-3",
    `invalid UTF-8 that also nests ${over} deep`,
    () => [{ hex: "ff" }, { text: "[".repeat(over) }],
    () => wireErr(null, "BAD_ENCODING"),
  );
  line(
    "o",
    "W-4 rows 5-7",
    "an invalid id (-1) with an unknown type",
    () => text('{"type":"teleport","id":-1}'),
    () => wireErr(null, "BAD_REQUEST"),
  );
  line(
    "o",
    "W-4 rows 6-7",
    "a reused id with an unknown type",
    () => text('{"type":"teleport","id":"G-20.2"}'),
    () => wireErr("G-20.2", "DUPLICATE_REQUEST_ID"),
  );
  line(
    "o",
    "W-4 rows 6-9",
    "a reused id with an extra envelope field",
    () => text(`{"type":"query","id":"G-13.1","query":{"name":"world"},"extra":1}`),
    () => wireErr("G-13.1", "DUPLICATE_REQUEST_ID"),
  );
  line(
    "o",
    "W-4 rows 9-10",
    "crash_after with writes 0 (row 9, whatever the profile)",
    (s) => text(`{"type":"crash_after","id":"${s}","writes":0,"at":"after_commit"}`),
    (s) => wireErr(s, "BAD_REQUEST"),
  );

  // --- The lines that need a family: advaita.mint, the session's only operation -------------------
  // D-034 sends it to every profile that declares a family; the empty profile is sent everything
  // above and the shutdown (conformance/golden/applicability.ts). First the world all of that left:
  // nothing above may change it (W-4), so it is the empty world.
  line(
    "s",
    "W-4, W-9",
    "the whole world after every line that needs no family: still empty",
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"world"}}`),
    (s) => ({ id: s, ok: true, events: [], result: view(world) }),
  );
  const minted = [
    modelCommand(
      "G-7",
      "W-1.8, D-043",
      "advaita.mint with tick spelled 1.0: tick 1",
      setupMint(1, "wire-golden-root-1"),
      (j) => once(j, '"tick":1,', '"tick":1.0,'),
    ),
    modelCommand(
      "G-7",
      "W-1.8, D-043",
      "advaita.mint with tick spelled 20E-1: tick 2",
      setupMint(2, "wire-golden-root-2"),
      (j) => once(j, '"tick":2,', '"tick":20E-1,'),
    ),
    modelCommand(
      "G-7",
      "W-1.8, D-043",
      "advaita.mint with tick spelled 0.3e1: tick 3",
      setupMint(3, "wire-golden-root-3"),
      (j) => once(j, '"tick":3,', '"tick":0.3e1,'),
    ),
  ];
  if (!minted.every((events) => events[0]?.type === "agent.minted"))
    throw new Error("wire session: the model did not mint the three G-7 agents");
  const mintSteps = steps.slice(-3).map((x) => x.step);
  line(
    "G-7",
    "W-2.3, D-043",
    "advaita.mint with tick 2.5: not an integer, MALFORMED",
    (s) =>
      text(
        once(
          JSON.stringify({ type: "command", id: s, command: setupMint(4, "wire-golden-root-4") }),
          '"tick":4,',
          '"tick":2.5,',
        ),
      ),
    (s) => wireErr(s, "MALFORMED"),
  );
  line(
    "G-7",
    "W-1.8, W-2.3",
    "advaita.mint with a tick of 5000 digits: valid JSON, not an integer, MALFORMED (not BAD_JSON)",
    (s) =>
      text(
        once(
          JSON.stringify({ type: "command", id: s, command: setupMint(4, "wire-golden-root-4") }),
          '"tick":4,',
          `"tick":${"9".repeat(5000)},`,
        ),
      ),
    (s) => wireErr(s, "MALFORMED"),
  );

  // --- The end: the world the accepted commands made, then shutdown (nothing may follow it) --------
  line(
    "s",
    "W-9",
    `the whole world: the agents of ${mintSteps.join(", ")} at tick 3; nothing else changed it`,
    (s) => text(`{"type":"query","id":"${s}","query":{"name":"world"}}`),
    (s) => ({ id: s, ok: true, events: [], result: view(world) }),
  );
  line(
    "s",
    "W-2.2",
    "shutdown",
    (s) => text(`{"type":"shutdown","id":"${s}"}`),
    (s) => ({ id: s, ok: true, events: [] }),
  );
  return steps;
};

export const renderWireSession = (): string =>
  `${wireSession()
    .map((s) => JSON.stringify(s))
    .join("\n")}\n`;

export const readWireSession = (fileText: string): WireStep[] =>
  fileText
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as WireStep);
