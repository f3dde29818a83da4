/**
 * Reads a wire log (spec/LOG.md) entry by entry: the header first, then entries whose `seq` rises
 * (by one in a complete log; a gap says entries were left out, L-1.2) and whose `t_us` never goes back, at most one `exit`, and nothing after it. Every
 * defect is a LogFileError naming the file, the line and what was wrong (L-1); nothing is skipped
 * silently, since a checker that drops what it cannot read would report consistency it never saw.
 */
import { z } from "zod";
import { LogExit, LogHeader, LogLine, MAX_LOG_LINE_BYTES, RAW_KEEP_CHARS, type LogEntry } from "../../spec/log.ts";
import { LogFileError, readLines } from "./lines.ts";

export { LogFileError };

export interface Numbered<T> {
  /** 1-based line of the log file. */
  readonly line: number;
  readonly entry: T;
}

const issueText = (e: z.ZodError): string => {
  const i = e.issues[0];
  if (i === undefined) return "invalid";
  const path = i.path.length === 0 ? "" : `${i.path.map(String).join(".")}: `;
  return `${path}${i.message}`;
};

const parseJson = (file: string, n: number, text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new LogFileError(file, n, `not a JSON value (${(e as Error).message})${text.length === 0 ? "; an empty line" : ""}`);
  }
};

const LINE_KEYS: ReadonlySet<string> = new Set(["seq", "t_us", "dir", "msg", "raw", "raw_bytes", "invalid_utf8"]);
const count = (x: unknown): boolean => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;

/**
 * The LogLine schema's own test, without walking `msg`: a value JSON.parse returned is JSON
 * already, so what z.json() would check of it holds by construction. Exactly the values the schema
 * accepts pass (hostile.test.ts checks that every value it accepts the schema accepts); anything else goes to
 * the schema, which words the error.
 */
export const isPlainLine = (v: unknown): v is LogLine => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  for (const k of Object.keys(e)) if (!LINE_KEYS.has(k)) return false;
  if (!count(e["seq"]) || (e["seq"] as number) < 1 || !count(e["t_us"])) return false;
  if (e["dir"] !== "request" && e["dir"] !== "reply") return false;
  const hasMsg = "msg" in e && e["msg"] !== undefined;
  const hasRaw = "raw" in e && e["raw"] !== undefined;
  if (hasMsg === hasRaw) return false;
  if (hasRaw && (typeof e["raw"] !== "string" || (e["raw"] as string).length > RAW_KEEP_CHARS)) return false;
  if ("raw_bytes" in e && !count(e["raw_bytes"])) return false;
  if ("invalid_utf8" in e && e["invalid_utf8"] !== true) return false;
  return true;
};

/** The header and an async sequence of checked entries. */
export const openLog = async (file: string, maxLineBytes = MAX_LOG_LINE_BYTES): Promise<{ header: LogHeader; entries: AsyncGenerator<Numbered<LogEntry>> }> => {
  const lines = readLines(file, maxLineBytes);
  const first = await lines.next();
  if (first.done === true) throw new LogFileError(file, null, "empty: a log starts with its header line (L-1.1)");
  const h = LogHeader.safeParse(parseJson(file, first.value.n, first.value.text));
  if (!h.success) throw new LogFileError(file, first.value.n, `not a log header (L-1.1): ${issueText(h.error)}`);
  async function* entries(): AsyncGenerator<Numbered<LogEntry>> {
    let seq = 0;
    let t = 0;
    let exited: number | null = null;
    for await (const { n, text } of lines) {
      const value = parseJson(file, n, text);
      if (exited !== null) throw new LogFileError(file, n, `an entry after the exit on line ${exited} (L-1.2)`);
      const isExit = typeof value === "object" && value !== null && "exit" in value;
      let entry: LogEntry;
      if (!isExit && isPlainLine(value)) entry = value;
      else {
        // The schemas decide, and word the error, for everything the fast path does not accept.
        const parsed = isExit ? LogExit.safeParse(value) : LogLine.safeParse(value);
        if (!parsed.success) throw new LogFileError(file, n, `not a log entry (L-1.2): ${issueText(parsed.error)}`);
        entry = parsed.data as LogEntry;
      }
      if (entry.seq <= seq) throw new LogFileError(file, n, `seq ${entry.seq} after ${seq}: an entry is repeated or out of order (L-1.2)`);
      if (entry.t_us < t) throw new LogFileError(file, n, `t_us ${entry.t_us} is before the previous entry's ${t}: timestamps must not go back (L-1.2)`);
      seq = entry.seq;
      t = entry.t_us;
      if ("exit" in entry) exited = n;
      yield { line: n, entry };
    }
  }
  return { header: h.data, entries: entries() };
};
