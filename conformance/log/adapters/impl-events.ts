/**
 * An adapter (spec/LOG.md L-3, D-067): the bundled implementation's own event log
 * (impl/event-log.ts, written when it runs with SRK_IMPL_EVENT_LOG) turned into a wire log (L-1)
 * that `srk check-log` checks. It is the worked example for implementers who already log in their
 * own shape: read each line strictly, rebuild the request the implementation received and the
 * reply it sent, and write them as a request and a reply entry.
 *
 * Event line k becomes log lines 2k (request) and 2k + 1 (reply), after the header on line 1, so a
 * violation check-log reports at log line n is event line ⌊n / 2⌋.
 *
 * The event log holds commands and resets only: no hello (so the log has no profile, and check-log
 * judges every family's commands), no queries (so no world view is compared), and no wire-level
 * refusals (they changed nothing). What it holds of a reply is the normative part (W-9: ok, events;
 * or code, invariant, definite) plus the message; a rejection's `path`, which the event log does not
 * keep and no check compares, is left out of the rebuilt reply rather than invented.
 *
 * Read in one pass with bounded memory (one line at a time, at most MAX_LOG_LINE_BYTES each); a line
 * that is not an event of the shape below is a LogFileError naming the event log and the line, and
 * the partial output is removed. An existing non-empty output is never overwritten (as srk record).
 */
import { closeSync, existsSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { z } from "zod";
import { LOG_VERSION, MAX_LOG_LINE_BYTES, type LogHeader, type LogLine } from "../../../spec/log.ts";
import { RequestId } from "../../../spec/wire/index.ts";
import { UsageError } from "../../driver/command-line.ts";
import { LogFileError, readLines } from "../lines.ts";

/** The header's recorder: what wrote the log (L-1.1). */
export const IMPL_EVENTS_RECORDER = "adapter impl-events";

const Common = {
  at_ms: z
    .number()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER / 1000),
  request_id: RequestId,
};
const CommandCommon = { ...Common, op: z.union([z.string(), z.null()]), command: z.json() };

/** The implementation's event line (impl/event-log.ts), read strictly: an unknown field may be another version of the shape. */
export const ImplEvent = z.discriminatedUnion("kind", [
  z.strictObject({ ...CommandCommon, kind: z.literal("command.accepted"), events: z.array(z.json()) }),
  z.strictObject({
    ...CommandCommon,
    kind: z.literal("command.rejected"),
    error: z.strictObject({
      code: z.string(),
      invariant: z.union([z.string(), z.null()]),
      definite: z.boolean(),
      message: z.string(),
    }),
  }),
  z.strictObject({ ...Common, kind: z.literal("store.reset") }),
]);
export type ImplEvent = z.infer<typeof ImplEvent>;

type Json = NonNullable<LogLine["msg"]>;

/** The wire request and reply an event stands for (spec/wire/PROTOCOL.md). */
export const wireOf = (e: ImplEvent): { request: Json; reply: Json } => {
  const id = e.request_id;
  switch (e.kind) {
    case "store.reset":
      return { request: { type: "reset", id }, reply: { type: "reply", id, ok: true, events: [] } };
    case "command.accepted":
      return {
        request: { type: "command", id, command: e.command },
        reply: { type: "reply", id, ok: true, events: e.events },
      };
    case "command.rejected":
      return {
        request: { type: "command", id, command: e.command },
        reply: { type: "reply", id, ok: false, error: { ...e.error } },
      };
  }
};

const parseEvent = (file: string, n: number, text: string): ImplEvent => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new LogFileError(
      file,
      n,
      `not a JSON value (${(e as Error).message})${text.length === 0 ? "; an empty line" : ""}`,
    );
  }
  const p = ImplEvent.safeParse(value);
  if (!p.success) {
    const i = p.error.issues[0];
    const at = i === undefined || i.path.length === 0 ? "" : `${i.path.map(String).join(".")}: `;
    throw new LogFileError(
      file,
      n,
      `not an event of the bundled implementation's log (impl/event-log.ts): ${at}${i?.message ?? "invalid"}`,
    );
  }
  return p.data;
};

export interface AdaptResult {
  readonly events: number;
  readonly entries: number;
}

/** Writes to `out` the wire log of the event log `file`. */
export const adaptImplEvents = async (file: string, out: string): Promise<AdaptResult> => {
  if (existsSync(out) && statSync(out).size > 0)
    throw new UsageError(
      `--out: ${out} exists and is not empty; srk adapt-log never overwrites a log (remove it or name another file)`,
    );
  const lines = readLines(file, MAX_LOG_LINE_BYTES);
  // Read the first line before creating the output, so a missing event log leaves no file behind.
  const first = await lines.next();
  const fd = openSync(out, "w");
  let ok = false;
  // Lines are gathered into chunks of about 1 MiB: one write per chunk, memory bounded by the chunk.
  let buffer: string[] = [];
  let buffered = 0;
  const write = (value: unknown): void => {
    const s = `${JSON.stringify(value)}\n`;
    buffer.push(s);
    buffered += s.length;
    if (buffered >= 1 << 20) flush();
  };
  const flush = (): void => {
    if (buffer.length > 0) writeSync(fd, buffer.join(""));
    buffer = [];
    buffered = 0;
  };
  let seq = 0;
  let events = 0;
  try {
    const header: LogHeader = { srk_log: LOG_VERSION, recorder: IMPL_EVENTS_RECORDER, impl: null, started_at: null };
    write(header);
    // at_ms starts again at 0 when a new process appends to the same event log: time then goes on
    // from the last instant seen, so t_us never goes back (L-1.2) and the order stays the file's.
    let offset = 0;
    let lastAt = 0;
    let lastT = 0;
    const take = (n: number, text: string): void => {
      const e = parseEvent(file, n, text);
      if (e.at_ms < lastAt) offset = lastT;
      lastAt = e.at_ms;
      const t_us = Math.max(lastT, offset + Math.round(e.at_ms * 1000));
      lastT = t_us;
      const { request, reply } = wireOf(e);
      write({ seq: ++seq, t_us, dir: "request", msg: request });
      write({ seq: ++seq, t_us, dir: "reply", msg: reply });
      events++;
    };
    if (first.done !== true) take(first.value.n, first.value.text);
    for await (const { n, text } of lines) take(n, text);
    flush();
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) unlinkSync(out);
  }
  return { events, entries: seq };
};
