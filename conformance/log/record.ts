/**
 * `srk record` (spec/LOG.md L-1, D-050): a transparent proxy between a client and an
 * implementation. It starts the implementation with the command line as given, copies every byte
 * of its own stdin to the implementation's stdin and every byte of the implementation's stdout to
 * its own stdout, unchanged and at once (the implementation's stderr is its stderr), and exits as
 * the implementation exited. Beside that it appends each protocol line of either direction, with
 * a monotonic timestamp, to the log. A client or test suite pointed at `srk record --impl X --log
 * F` instead of X sees X.
 *
 * The log is written with one synchronous append per line, in the order the proxy saw the lines,
 * so a crash of the proxy loses at most the line being written, and the reader refuses that torn
 * last line by its line number rather than guess.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, statSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { LOG_VERSION, MAX_LOG_LINE_BYTES, RAW_KEEP_CHARS, type LogHeader, type LogLine } from "../../spec/log.ts";
import { splitCommandLine, UsageError } from "../driver/command-line.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/** One direction's bytes cut into lines, keeping at most `keep` bytes of a line (its length counted in full). */
export class LineCutter {
  private parts: Buffer[] = [];
  private kept = 0;
  private total = 0;
  constructor(private readonly keep: number, private readonly onLine: (bytes: Buffer, total: number) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(10, start); i !== -1; i = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, i));
      this.emit();
      start = i + 1;
    }
    this.take(chunk.subarray(start));
  }

  /** The bytes after the last newline, as a line of their own (the stream ended). */
  end(): void {
    if (this.total > 0) this.emit();
  }

  private take(piece: Buffer): void {
    this.total += piece.length;
    const room = this.keep - this.kept;
    if (room > 0 && piece.length > 0) {
      const p = Buffer.from(piece.subarray(0, room));
      this.parts.push(p);
      this.kept += p.length;
    }
  }

  private emit(): void {
    const bytes = Buffer.concat(this.parts);
    const total = this.total;
    this.parts = [];
    this.kept = 0;
    this.total = 0;
    this.onLine(bytes, total);
  }
}

/** The log entry of one protocol line (without seq and t_us). */
export const entryOf = (dir: LogLine["dir"], bytes: Buffer, total: number): Omit<LogLine, "seq" | "t_us"> => {
  if (bytes.length === total) {
    try {
      const text = utf8.decode(bytes);
      return { dir, msg: JSON.parse(text) as LogLine["msg"] };
    } catch {
      // not UTF-8 or not JSON: kept as raw below
    }
  }
  let valid = true;
  try {
    utf8.decode(bytes);
  } catch {
    valid = bytes.length < total; // a cut in the middle of a character is not a defect of the line
  }
  const text = lenient.decode(bytes);
  // At most RAW_KEEP_CHARS UTF-16 units (the schema's measure), never half a surrogate pair.
  let raw = text.slice(0, RAW_KEEP_CHARS);
  if (raw.length < text.length && /[\uD800-\uDBFF]$/.test(raw)) raw = raw.slice(0, -1);
  return { dir, raw, ...(raw.length < text.length || bytes.length < total ? { raw_bytes: total } : {}), ...(valid ? {} : { invalid_utf8: true as const }) };
};

export interface RecordOptions {
  readonly commandLine: string;
  readonly log: string;
  readonly recorder: string;
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

/** Runs the proxy until the implementation exits; resolves to the exit status to give. */
export const record = (o: RecordOptions): Promise<number> => {
  if (existsSync(o.log) && statSync(o.log).size > 0) throw new UsageError(`--log: ${o.log} exists and is not empty; srk record never overwrites a log (remove it or name another file)`);
  const argv = splitCommandLine(o.commandLine);
  const [command, ...args] = argv;
  if (command === undefined) throw new UsageError("--impl: the command line is empty");
  const fd = openSync(o.log, "w");
  const start = process.hrtime.bigint();
  let seq = 0;
  const write = (value: unknown): void => {
    writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  const header: LogHeader = { srk_log: LOG_VERSION, recorder: o.recorder, impl: o.commandLine, started_at: new Date().toISOString() };
  write(header);
  const stamp = (): { seq: number; t_us: number } => ({ seq: ++seq, t_us: Number((process.hrtime.bigint() - start) / 1000n) });
  const keep = MAX_LOG_LINE_BYTES - 64 * 1024;
  const requests = new LineCutter(keep, (bytes, total) => write({ ...stamp(), ...entryOf("request", bytes, total) }));
  const replies = new LineCutter(keep, (bytes, total) => write({ ...stamp(), ...entryOf("reply", bytes, total) }));
  const input = o.stdin ?? process.stdin;
  const output = o.stdout ?? process.stdout;

  return new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    const onData = (chunk: Buffer): void => {
      child.stdin.write(chunk);
      requests.push(chunk);
    };
    input.on("data", onData);
    input.on("end", () => {
      requests.end();
      child.stdin.end();
    });
    // A client that goes away while the implementation still reads is the implementation's EPIPE, not ours.
    child.stdin.on("error", () => {});
    child.stdout.on("data", (chunk: Buffer) => {
      output.write(chunk);
      replies.push(chunk);
    });
    child.on("error", (e) => {
      closeSync(fd);
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      const code = (e as { code?: string }).code;
      reject(new UsageError(`--impl: cannot start ${command}: ${code === "ENOENT" ? "no such program" : e.message}`));
    });
    child.on("close", (code, signal) => {
      replies.end();
      write({ ...stamp(), exit: { code, signal } });
      closeSync(fd);
      input.off("data", onData);
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      (input as { pause?: () => void }).pause?.();
      resolve(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
    });
  });
};
