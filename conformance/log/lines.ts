/**
 * Reads a log file line by line in bounded memory: a line is buffered only up to `maxBytes`, and a
 * longer one is refused with its line number before the rest of it is read into memory (a hostile
 * or broken log of one 1 GiB line costs at most `maxBytes`). Bytes that are not UTF-8 are refused
 * too: a log is JSON text (RFC 8259 §8.1).
 */
import { createReadStream } from "node:fs";

export class LogFileError extends Error {
  override readonly name = "LogFileError";
  constructor(readonly file: string, readonly line: number | null, message: string) {
    super(`${file}${line === null ? "" : `:${line}`}: ${message}`);
  }
}

export interface RawLine {
  /** 1-based line number in the file. */
  readonly n: number;
  readonly text: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function* readLines(file: string, maxBytes: number): AsyncGenerator<RawLine> {
  const stream = createReadStream(file, { highWaterMark: 1 << 16 });
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  const finish = (): RawLine => {
    n++;
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    parts = [];
    size = 0;
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new LogFileError(file, n, "the line is not valid UTF-8");
    }
    return { n, text };
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = chunk.indexOf(10, start); i !== -1; i = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, i);
        if (size + piece.length > maxBytes) throw new LogFileError(file, n + 1, `the line is longer than ${maxBytes} bytes (L-1.3)`);
        parts.push(piece);
        size += piece.length;
        yield finish();
        start = i + 1;
      }
      const rest = chunk.subarray(start);
      if (size + rest.length > maxBytes) throw new LogFileError(file, n + 1, `the line is longer than ${maxBytes} bytes (L-1.3)`);
      if (rest.length > 0) {
        parts.push(Buffer.from(rest));
        size += rest.length;
      }
    }
    if (size > 0) yield finish();
  } catch (e) {
    if (e instanceof LogFileError) throw e;
    const code = (e as { code?: string }).code;
    throw new LogFileError(file, null, code === "ENOENT" ? "no such file" : `cannot be read: ${(e as Error).message}`);
  } finally {
    stream.destroy();
  }
}
