/**
 * `srk record` (spec/LOG.md L-1, D-050): a transparent proxy between a client and an
 * implementation. It starts the implementation with the command line as given, copies every byte
 * of its own stdin to the implementation's stdin and every byte of the implementation's stdout to
 * its own stdout, unchanged and at once (the implementation's stderr is its stderr), and exits as
 * the implementation exited. Beside that it appends each protocol line of either direction, with
 * a monotonic timestamp, to the log. A client or test suite pointed at `srk record --impl X --log
 * F` instead of X sees X.
 *
 * The forwarding path does nothing but forward: a chunk is written on to the other side first,
 * then only its arrival time is taken and it is queued. The log's work runs off that path, in
 * batches (LogWriter): at most LOG_DELAY_MS (5 ms) after the proxy saw them, the queued bytes are
 * cut into lines, parsed and serialised in the order the proxy saw them, each line keeping the
 * time its last bytes were seen, and appended in one write. When the implementation exits,
 * everything seen is appended before the exit entry and the log is closed before the proxy exits
 * (an error that ends the proxy's process appends it too). A proxy killed outright loses at most
 * the lines of its last few milliseconds, and the reader refuses a torn last line by its line
 * number rather than guess.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, statSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { LOG_VERSION, MAX_LOG_LINE_BYTES, RAW_KEEP_CHARS, type LogExit, type LogHeader, type LogLine } from "../../spec/log.ts";
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
      if (this.total === 0) {
        // A whole line inside the chunk (the usual case): no copy. The chunk is not reused (a
        // stream's chunks are fresh buffers), and onLine is done with the bytes when it returns.
        const length = i - start;
        this.onLine(chunk.subarray(start, start + Math.min(length, this.keep)), length);
      } else {
        this.take(chunk.subarray(start, i));
        this.emit();
      }
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

type Dir = LogLine["dir"];

/** The longest the bytes the proxy saw wait before they are logged (ms), and the most that wait (bytes). */
export const LOG_DELAY_MS = 5;
export const LOG_BATCH_BYTES = 1 << 20;

/**
 * The log's side of the proxy. The forwarding path calls `saw` and `ended` only: a timestamp and a
 * queue push. The queue is drained at most LOG_DELAY_MS after its first chunk came, or as soon as
 * LOG_BATCH_BYTES wait: cut into lines, parsed and serialised in the order seen, each line stamped
 * with the time its last bytes were seen, and appended in one synchronous write. Batching keeps
 * the work in a hot loop between round trips instead of on every one: a write and a cut per line
 * cost a relayed round trip about as much again (bench/log.ts). Everything queued is appended at
 * once when the implementation exits, or when the proxy's process does.
 */
class LogWriter {
  private queue: { dir: Dir; chunk: Buffer | null; t: number }[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private seq = 0;
  /** The time of the chunk being cut (its lines' t_us). */
  private t = 0;
  private out: string[] = [];
  private readonly cutters: Record<Dir, LineCutter>;

  constructor(private readonly fd: number, private readonly start: bigint, keep: number) {
    this.cutters = {
      request: new LineCutter(keep, (bytes, total) => this.line("request", bytes, total)),
      reply: new LineCutter(keep, (bytes, total) => this.line("reply", bytes, total)),
    };
    // A proxy that exits another way (an uncaught error, process.exit) still appends what it saw.
    process.on("exit", this.drain);
  }

  private now(): number {
    return Number((process.hrtime.bigint() - this.start) / 1000n);
  }

  /** Bytes of one direction, already forwarded. */
  saw(dir: Dir, chunk: Buffer): void {
    if (this.closed) return;
    this.queue.push({ dir, chunk, t: this.now() });
    this.queued += chunk.length;
    this.schedule();
  }

  /** One direction's stream ended (the bytes after its last newline are a line of their own). */
  ended(dir: Dir): void {
    if (this.closed) return;
    this.queue.push({ dir, chunk: null, t: this.now() });
    this.schedule();
  }

  private schedule(): void {
    if (this.immediate !== null) return;
    if (this.queued >= LOG_BATCH_BYTES) {
      this.immediate = setImmediate(this.drain);
    } else if (this.timer === null) {
      this.timer = setTimeout(this.drain, LOG_DELAY_MS);
      this.timer.unref();
    }
  }

  private line(dir: Dir, bytes: Buffer, total: number): void {
    // The same text as JSON.stringify({ seq, t_us, ...entryOf(…) }): entryOf's first key is dir.
    this.out.push(`{"seq":${++this.seq},"t_us":${this.t},${JSON.stringify(entryOf(dir, bytes, total)).slice(1)}\n`);
  }

  /** Everything queued, cut into lines, serialised and appended in one write. */
  private readonly drain = (): void => {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (this.closed) return;
    const queue = this.queue;
    this.queue = [];
    this.queued = 0;
    for (const e of queue) {
      this.t = e.t;
      if (e.chunk === null) this.cutters[e.dir].end();
      else this.cutters[e.dir].push(e.chunk);
    }
    if (this.out.length === 0) return;
    const text = this.out.length === 1 ? (this.out[0] as string) : this.out.join("");
    this.out = [];
    writeSync(this.fd, text);
  };

  /** Appends everything seen, then the exit entry when given, and closes the log. */
  close(exit: LogExit["exit"] | null): void {
    if (this.closed) return;
    this.drain();
    if (exit !== null) writeSync(this.fd, `${JSON.stringify({ seq: ++this.seq, t_us: this.now(), exit })}\n`);
    this.closed = true;
    process.off("exit", this.drain);
    closeSync(this.fd);
  }
}

/** Runs the proxy until the implementation exits; resolves to the exit status to give. */
export const record = (o: RecordOptions): Promise<number> => {
  if (existsSync(o.log) && statSync(o.log).size > 0) throw new UsageError(`--log: ${o.log} exists and is not empty; srk record never overwrites a log (remove it or name another file)`);
  const argv = splitCommandLine(o.commandLine);
  const [command, ...args] = argv;
  if (command === undefined) throw new UsageError("--impl: the command line is empty");
  const fd = openSync(o.log, "w");
  const start = process.hrtime.bigint();
  const header: LogHeader = { srk_log: LOG_VERSION, recorder: o.recorder, impl: o.commandLine, started_at: new Date().toISOString() };
  writeSync(fd, `${JSON.stringify(header)}\n`);
  const log = new LogWriter(fd, start, MAX_LOG_LINE_BYTES - 64 * 1024);
  const input = o.stdin ?? process.stdin;
  const output = o.stdout ?? process.stdout;

  return new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    // The hot path: forward first, unchanged; then only a timestamp and a queue push.
    const onData = (chunk: Buffer): void => {
      child.stdin.write(chunk);
      log.saw("request", chunk);
    };
    input.on("data", onData);
    input.on("end", () => {
      log.ended("request");
      child.stdin.end();
    });
    // A client that goes away while the implementation still reads is the implementation's EPIPE, not ours.
    child.stdin.on("error", () => {});
    child.stdout.on("data", (chunk: Buffer) => {
      output.write(chunk);
      log.saw("reply", chunk);
    });
    child.on("error", (e) => {
      log.close(null);
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      const code = (e as { code?: string }).code;
      reject(new UsageError(`--impl: cannot start ${command}: ${code === "ENOENT" ? "no such program" : e.message}`));
    });
    child.on("close", (code, signal) => {
      log.ended("reply");
      log.close({ code, signal });
      input.off("data", onData);
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      (input as { pause?: () => void }).pause?.();
      resolve(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
    });
  });
};
