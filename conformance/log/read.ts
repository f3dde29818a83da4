/**
 * Reads a wire log (spec/LOG.md) entry by entry: the header first, then entries whose `seq` rises
 * (by one in a complete log; a gap says entries were left out, L-1.2) and whose `t_us` never goes back, at most one `exit`, and nothing after it. Every
 * defect is a LogFileError naming the file, the line and what was wrong (L-1); nothing is skipped
 * silently, since a checker that drops what it cannot read would report consistency it never saw.
 */
import type { z } from "zod";
import { LogExit, LogHeader, LogLine, MAX_LOG_LINE_BYTES, RAW_KEEP_CHARS, type LogEntry } from "../../spec/log.ts";
import { decodeLine, LogFileError, readLineBatches, type LineBatch } from "./lines.ts";

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
    throw new LogFileError(
      file,
      n,
      `not a JSON value (${(e as Error).message})${text.length === 0 ? "; an empty line" : ""}`,
    );
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

/**
 * The checks of L-1.2 across entries: seq rises, t_us never goes back, nothing after the exit. One
 * reader per log, given its lines in file order.
 */
class EntryReader {
  private seq = 0;
  private t = 0;
  private exited: number | null = null;
  constructor(private readonly file: string) {}

  readonly read = (n: number, bytes: Buffer): Numbered<LogEntry> => {
    const { file } = this;
    const value = parseJson(file, n, decodeLine(file, n, bytes));
    if (this.exited !== null) throw new LogFileError(file, n, `an entry after the exit on line ${this.exited} (L-1.2)`);
    const isExit = typeof value === "object" && value !== null && "exit" in value;
    let entry: LogEntry;
    if (!isExit && isPlainLine(value)) entry = value;
    else {
      // The schemas decide, and word the error, for everything the fast path does not accept.
      const parsed = isExit ? LogExit.safeParse(value) : LogLine.safeParse(value);
      if (!parsed.success) throw new LogFileError(file, n, `not a log entry (L-1.2): ${issueText(parsed.error)}`);
      entry = parsed.data as LogEntry;
    }
    if (entry.seq <= this.seq)
      throw new LogFileError(
        file,
        n,
        `seq ${entry.seq} after ${this.seq}: an entry is repeated or out of order (L-1.2)`,
      );
    if (entry.t_us < this.t)
      throw new LogFileError(
        file,
        n,
        `t_us ${entry.t_us} is before the previous entry's ${this.t}: timestamps must not go back (L-1.2)`,
      );
    this.seq = entry.seq;
    this.t = entry.t_us;
    if ("exit" in entry) this.exited = n;
    return { line: n, entry };
  };
}

export interface LogBatches {
  readonly header: LogHeader;
  /** The entries' lines after the header, in batches (lines.ts); give each, in order, to `read`. */
  readonly batches: AsyncGenerator<LineBatch>;
  /** Line `n`'s entry, checked (L-1.2, with every line before it); a LogFileError naming the line otherwise. */
  readonly read: (n: number, bytes: Buffer) => Numbered<LogEntry>;
}

/**
 * The header, and the rest as batches of lines that `read` turns into checked entries one by one:
 * the fast way through a log (check-log), with one await per chunk and each line parsed only when
 * its turn comes.
 */
export const openLogBatches = async (file: string, maxLineBytes = MAX_LOG_LINE_BYTES): Promise<LogBatches> => {
  const source = readLineBatches(file, maxLineBytes);
  let rest: LineBatch;
  for (;;) {
    const b = await source.next();
    if (b.done === true) throw new LogFileError(file, null, "empty: a log starts with its header line (L-1.1)");
    if (b.value.lines.length > 0) {
      rest = b.value;
      break;
    }
  }
  const n = rest.first;
  const text = decodeLine(file, n, rest.lines[0] as Buffer);
  const h = LogHeader.safeParse(parseJson(file, n, text));
  if (!h.success) {
    await source.return(undefined);
    throw new LogFileError(file, n, `not a log header (L-1.1): ${issueText(h.error)}`);
  }
  const after = { first: n + 1, lines: rest.lines.slice(1) };
  async function* batches(): AsyncGenerator<LineBatch> {
    try {
      if (after.lines.length > 0) yield after;
      yield* source;
    } finally {
      await source.return(undefined);
    }
  }
  return { header: h.data, batches: batches(), read: new EntryReader(file).read };
};

/** The header and an async sequence of checked entries. */
export const openLog = async (
  file: string,
  maxLineBytes = MAX_LOG_LINE_BYTES,
): Promise<{ header: LogHeader; entries: AsyncGenerator<Numbered<LogEntry>> }> => {
  const { header, batches, read } = await openLogBatches(file, maxLineBytes);
  async function* entries(): AsyncGenerator<Numbered<LogEntry>> {
    for await (const { first, lines } of batches)
      for (let i = 0; i < lines.length; i++) yield read(first + i, lines[i] as Buffer);
  }
  return { header, entries: entries() };
};
