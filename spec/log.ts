/**
 * The wire log (spec/LOG.md, D-050): what `srk record` writes and `srk check-log` reads. One JSON
 * value per line: a header, then one entry per protocol line seen on the implementation's stdin
 * (`request`) or stdout (`reply`), in the order the recorder saw them, and at most one `exit`.
 *
 * A log is evidence about a system the runner did not drive, so its reader trusts nothing: every
 * line is parsed strictly against these schemas, sequence numbers must rise by one, timestamps
 * must not go back, and a line longer than MAX_LOG_LINE_BYTES is refused before it is buffered.
 */
import { z } from "zod";
import { MAX_REPLY_BYTES } from "./wire/limits.ts";

/** L-1: the format's version, the header's `srk_log`. */
export const LOG_VERSION = 1;

/**
 * L-1.3: the longest log line a reader accepts. An entry holds one protocol line as a JSON value
 * (`msg`, at most MAX_REPLY_BYTES long on the wire, W-1.4, and no longer embedded) or the first
 * RAW_KEEP_CHARS of a line that is not JSON (`raw`, at most six bytes per character once escaped),
 * plus the entry's own fields.
 */
export const RAW_KEEP_CHARS = 65_536;
export const MAX_LOG_LINE_BYTES = MAX_REPLY_BYTES + 64 * 1024;

const Count = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

export const LogHeader = z
  .strictObject({
    srk_log: z.literal(LOG_VERSION).describe("the log format's version (L-1)"),
    recorder: z.string().max(256).describe("what wrote the log, e.g. srk record 0.9.0, or an adapter's name"),
    impl: z.union([z.string().max(4096), z.null()]).describe("the implementation's command line, when known"),
    started_at: z
      .union([z.iso.datetime(), z.null()])
      .describe("wall-clock start (informative; never read by the checker)"),
  })
  .meta({ id: "LogHeader" });
export type LogHeader = z.infer<typeof LogHeader>;

const entryBase = {
  seq: Count.min(1).describe("1 for the first entry after the header, then one more per entry (L-1.2)"),
  t_us: Count.describe("microseconds since the recorder started, never decreasing (L-1.2)"),
};

/**
 * A protocol line: `msg` when its text is one JSON value, else `raw` (its text, decoded leniently
 * when its bytes were not UTF-8, which `invalid_utf8` then says).
 */
export const LogLine = z
  .strictObject({
    ...entryBase,
    dir: z.enum(["request", "reply"]).describe("request: a line on the implementation's stdin; reply: on its stdout"),
    msg: z.json().optional().describe("the line's JSON value"),
    raw: z
      .string()
      .max(RAW_KEEP_CHARS)
      .optional()
      .describe("the line's text, when it is not one JSON value (its first RAW_KEEP_CHARS characters)"),
    raw_bytes: Count.optional().describe("with raw: the line's length in bytes, when raw holds only its start"),
    invalid_utf8: z.literal(true).optional().describe("the line's bytes were not valid UTF-8"),
  })
  .refine((e) => (e.msg === undefined) !== (e.raw === undefined), { message: "exactly one of msg and raw" })
  // The refinement as JSON Schema states it, so the export rejects what this schema rejects.
  .meta({ id: "LogLine", oneOf: [{ required: ["msg"] }, { required: ["raw"] }] });
export type LogLine = z.infer<typeof LogLine>;

export const LogExit = z
  .strictObject({
    ...entryBase,
    exit: z.strictObject({ code: z.union([z.int(), z.null()]), signal: z.union([z.string(), z.null()]) }),
  })
  .meta({ id: "LogExit" });
export type LogExit = z.infer<typeof LogExit>;

export type LogEntry = LogLine | LogExit;
