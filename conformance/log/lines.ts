/**
 * Reads a log file line by line in bounded memory: a line is buffered only up to `maxBytes`, and a
 * longer one is refused with its line number before the rest of it is read into memory (a hostile
 * or broken log of one 1 GiB line costs at most `maxBytes`). Bytes that are not UTF-8 are refused
 * too: a log is JSON text (RFC 8259 §8.1).
 *
 * The lines come in batches, one per chunk read (READ_CHUNK bytes), as bytes: a checker takes them
 * in a plain loop, with one await per chunk rather than one per line, and decodes and parses each
 * line only when it comes to it, so a parsed line dies young instead of waiting, with a whole
 * chunk's, to be promoted by the garbage collector (bench "Log check"). A chunk is read
 * synchronously: a read from the page cache takes microseconds, and a read through the thread
 * pool would wait for another thread to be scheduled (on a busy machine, longer than the read).
 * A defect of a line (too long) is thrown after the batch of the lines before it, and one of its
 * bytes (not UTF-8) when the line is decoded, so a reader meets defects in file order, as line by
 * line.
 */
import { closeSync, openSync, readSync } from "node:fs";

export class LogFileError extends Error {
  override readonly name = "LogFileError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    message: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${message}`);
  }
}

export interface RawLine {
  /** 1-based line number in the file. */
  readonly n: number;
  readonly text: string;
}

/** Consecutive lines of a file, without their `\n`: `lines[i]` is line `first + i` (1-based). */
export interface LineBatch {
  readonly first: number;
  readonly lines: readonly Buffer[];
}

/** Bytes per read: a batch holds hundreds to thousands of typical lines, and the buffer stays bounded. */
export const READ_CHUNK = 1 << 18;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Line `n`'s text; a LogFileError naming the line when its bytes are not UTF-8. */
export const decodeLine = (file: string, n: number, bytes: Buffer): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new LogFileError(file, n, "the line is not valid UTF-8");
  }
};

/** The lines of `file`, a batch per chunk read; a batch may be empty (a chunk inside one long line). */
export async function* readLineBatches(file: string, maxBytes: number): AsyncGenerator<LineBatch> {
  let fd: number | null = null;
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  const finish = (): Buffer => {
    n++;
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    parts = [];
    size = 0;
    return bytes;
  };
  const tooLong = (): LogFileError =>
    new LogFileError(file, n + 1, `the line is longer than ${maxBytes} bytes (L-1.3)`);
  try {
    fd = openSync(file, "r");
    for (;;) {
      // A fresh buffer per chunk: the lines handed out are views of it.
      const buffer = Buffer.allocUnsafeSlow(READ_CHUNK);
      const got = readSync(fd, buffer, 0, READ_CHUNK, null);
      if (got === 0) break;
      const chunk = got === READ_CHUNK ? buffer : buffer.subarray(0, got);
      const batch = { first: n + 1, lines: [] as Buffer[] };
      let defect: LogFileError | null = null;
      let start = 0;
      for (let i = chunk.indexOf(10, start); i !== -1; i = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, i);
        if (size + piece.length > maxBytes) {
          defect = tooLong();
          break;
        }
        parts.push(piece);
        size += piece.length;
        batch.lines.push(finish());
        start = i + 1;
      }
      if (defect === null) {
        const rest = chunk.subarray(start);
        if (size + rest.length > maxBytes) defect = tooLong();
        else if (rest.length > 0) {
          // A copy: a partial line does not keep its chunk alive.
          parts.push(Buffer.from(rest));
          size += rest.length;
        }
      }
      if (batch.lines.length > 0 || defect === null) yield batch;
      if (defect !== null) throw defect;
    }
    if (size > 0) yield { first: n + 1, lines: [finish()] };
  } catch (e) {
    if (e instanceof LogFileError) throw e;
    const code = (e as { code?: string }).code;
    throw new LogFileError(file, null, code === "ENOENT" ? "no such file" : `cannot be read: ${(e as Error).message}`);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The lines of `file` one by one, decoded (for readers that need no speed: adapters). */
export async function* readLines(file: string, maxBytes: number): AsyncGenerator<RawLine> {
  for await (const { first, lines } of readLineBatches(file, maxBytes)) {
    for (let i = 0; i < lines.length; i++)
      yield { n: first + i, text: decodeLine(file, first + i, lines[i] as Buffer) };
  }
}
