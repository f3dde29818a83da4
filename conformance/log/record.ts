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
 * cut into lines in the order the proxy saw them, each line checked to be one JSON value and
 * copied into its entry as its own bytes (appendEntry), keeping the time its last bytes were
 * seen, and appended in one write. When the implementation exits,
 * everything seen is appended before the exit entry and the log is closed before the proxy exits
 * (an error that ends the proxy's process appends it too). A proxy killed outright loses at most
 * the lines of its last few milliseconds, and the reader refuses a torn last line by its line
 * number rather than guess.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, statSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { isUtf8 } from "node:buffer";
import {
  LOG_VERSION,
  MAX_LOG_LINE_BYTES,
  RAW_KEEP_CHARS,
  type LogExit,
  type LogHeader,
  type LogLine,
} from "../../spec/log.ts";
import { splitCommandLine, UsageError } from "../driver/command-line.ts";
import { JSON_ASCII, JSON_HIGH, jsonTextOf } from "./json-text.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * One direction's bytes cut into lines, keeping at most `keep` bytes of a line (its length counted
 * in full). A line whole inside one pushed range is handed out as that range of the buffer it came
 * in (no copy); onLine is done with the bytes when it returns, so the buffer may be reused after.
 */
export class LineCutter {
  private parts: Buffer[] = [];
  private kept = 0;
  private total = 0;
  constructor(
    private readonly keep: number,
    private readonly onLine: (bytes: Buffer, start: number, end: number, total: number) => void,
  ) {}

  /** The bytes buf[from, to) (all of buf by default). */
  push(buf: Buffer, from = 0, to = buf.length): void {
    let start = from;
    for (let i = buf.indexOf(10, start); i !== -1 && i < to; i = buf.indexOf(10, start)) {
      if (this.total === 0) {
        const length = i - start;
        this.onLine(buf, start, start + Math.min(length, this.keep), length);
      } else {
        this.take(buf, start, i);
        this.emit();
      }
      start = i + 1;
    }
    this.take(buf, start, to);
  }

  /** The bytes after the last newline, as a line of their own (the stream ended). */
  end(): void {
    if (this.total > 0) this.emit();
  }

  /** A piece of a line that goes on in a later range: copied, since the buffer may be reused. */
  private take(buf: Buffer, from: number, to: number): void {
    const length = to - from;
    this.total += length;
    const room = this.keep - this.kept;
    if (room > 0 && length > 0) {
      const p = Buffer.from(buf.subarray(from, from + Math.min(length, room)));
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
    this.onLine(bytes, 0, bytes.length, total);
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
  return {
    dir,
    raw,
    ...(raw.length < text.length || bytes.length < total ? { raw_bytes: total } : {}),
    ...(valid ? {} : { invalid_utf8: true as const }),
  };
};

/**
 * The log's text for one write, built as bytes: a protocol line's own bytes are copied in, never
 * decoded into a string and encoded back. The buffer is reused from write to write (the write is
 * synchronous) and let go after a batch much larger than usual.
 */
export class LogText {
  private buf = Buffer.allocUnsafe(1 << 16);
  length = 0;

  private room(k: number): void {
    if (this.length + k <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + k));
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }

  /** Text of ASCII characters only (the entry's own fields). */
  ascii(s: string): void {
    this.room(s.length);
    this.length += this.buf.write(s, this.length, "latin1");
  }

  text(s: string): void {
    this.room(Buffer.byteLength(s, "utf8"));
    this.length += this.buf.write(s, this.length, "utf8");
  }

  bytes(b: Buffer, start = 0, end = b.length): void {
    this.room(end - start);
    this.length += b.copy(this.buf, this.length, start, end);
  }

  /** A non-negative safe integer in decimal (seq, t_us), written as digits without a string. */
  uint(v: number): void {
    this.room(16);
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let at = this.length + digits;
    for (let x = v; ; ) {
      const q = Math.floor(x / 10);
      this.buf[--at] = 48 + (x - q * 10);
      if (q === 0) break;
      x = q;
    }
    this.length += digits;
  }

  /** The bytes so far, valid until the next append; the text starts again empty. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.length);
    this.length = 0;
    if (this.buf.length > 1 << 22) this.buf = Buffer.allocUnsafe(1 << 16);
    return out;
  }
}

const REQUEST_MSG = Buffer.from(`"dir":"request","msg":`, "latin1");
const REPLY_MSG = Buffer.from(`"dir":"reply","msg":`, "latin1");
const ENTRY_END = Buffer.from("}\n", "latin1");

/**
 * Appends the entry of one protocol line, bytes[start, end) of a line of `total` bytes, from
 * `"dir"` on (the caller has written `{"seq":…,"t_us":…,` before it): the entry entryOf describes.
 * A whole line that is one JSON value, the usual case, is embedded as its own bytes, checked
 * (jsonTextOf, then isUtf8 when it holds bytes above ASCII) but not parsed: `msg` is then the
 * line's JSON value (L-1.2) exactly as the implementation or client wrote it, and no value is built
 * or serialised again. The bytes hold no newline (lines are cut at them), and whitespace around
 * the value (a CR before the LF) is whitespace inside the entry too.
 */
export const appendEntry = (
  out: LogText,
  dir: LogLine["dir"],
  bytes: Buffer,
  start: number,
  end: number,
  total: number,
): void => {
  if (end - start === total) {
    const kind = jsonTextOf(bytes, start, end);
    if (kind === JSON_ASCII || (kind === JSON_HIGH && isUtf8(bytes.subarray(start, end)))) {
      out.bytes(dir === "request" ? REQUEST_MSG : REPLY_MSG);
      out.bytes(bytes, start, end);
      out.bytes(ENTRY_END);
      return;
    }
  }
  out.text(`${JSON.stringify(entryOf(dir, bytes.subarray(start, end), total)).slice(1)}\n`);
};

/** appendEntry's text on its own (for tests and readers of one entry). */
export const entryText = (dir: LogLine["dir"], bytes: Buffer, total: number): string => {
  const out = new LogText();
  appendEntry(out, dir, bytes, 0, bytes.length, total);
  return out.take().toString("utf8");
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

const SEQ = Buffer.from(`{"seq":`, "latin1");
const T_US = Buffer.from(`,"t_us":`, "latin1");
const COMMA = Buffer.from(",", "latin1");
/** The staging buffer's first size, and the size above which a drain lets it go. */
const STAGE_BYTES = 1 << 16;
const STAGE_KEEP_BYTES = 1 << 22;

/**
 * The log's side of the proxy. The forwarding path calls `saw` and `ended` only: a clock read, a
 * copy of the chunk's bytes into the staging buffer and three pushes. The queue is drained at most
 * LOG_DELAY_MS after its first chunk came, or as soon as LOG_BATCH_BYTES wait: cut into lines,
 * checked and copied into entries in the order seen, each line stamped with the time its last
 * bytes were seen, and appended in one synchronous write. Batching keeps the work in a hot loop
 * between round trips instead of on every one: a write and a cut per line cost a relayed round
 * trip about as much again (bench/log.ts). Everything queued is appended at once when the
 * implementation exits, or when the proxy's process does.
 *
 * What runs per chunk runs with the caches cold (the proxy sleeps between round trips), so it is
 * kept to the least: the clock is performance.now() (a double, monotonic: no BigInt arithmetic),
 * the queue a reused byte buffer and three flat arrays (the stream's chunk is not kept, so it dies
 * young instead of surviving a scavenge while it waits), and one timer object, made at the first
 * chunk and re-armed with refresh() rather than a new timer per batch (a timer refreshed after it
 * fired runs again; one that a drain forestalled fires once on an empty queue, which does nothing).
 */
class LogWriter {
  private stage = Buffer.allocUnsafe(STAGE_BYTES);
  private staged = 0;
  /** Per queued chunk: where its bytes end in the stage, its direction, and performance.now() when it was seen. */
  private readonly ends: number[] = [];
  /** 0 request, 1 reply; 2 and 3 the same directions' end of stream. */
  private readonly kinds: number[] = [];
  private readonly times: number[] = [];
  private armed = false;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private seq = 0;
  /** The t_us of the chunk being cut (its lines' t_us). */
  private t = 0;
  private readonly out = new LogText();
  private readonly cutters: readonly [LineCutter, LineCutter];

  constructor(
    private readonly fd: number,
    private readonly start: number,
    keep: number,
  ) {
    this.cutters = [
      new LineCutter(keep, (bytes, from, to, total) => this.line("request", bytes, from, to, total)),
      new LineCutter(keep, (bytes, from, to, total) => this.line("reply", bytes, from, to, total)),
    ];
    // A proxy that exits another way (an uncaught error, process.exit) still appends what it saw.
    process.on("exit", this.drain);
  }

  /** Microseconds since the recorder started, from a monotonic clock (never decreasing). */
  private us(at: number): number {
    return Math.max(0, Math.floor((at - this.start) * 1000));
  }

  /** Bytes of one direction, already forwarded. */
  saw(dir: Dir, chunk: Buffer): void {
    if (this.closed) return;
    this.times.push(performance.now());
    const need = this.staged + chunk.length;
    if (need > this.stage.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.stage.length * 2, need));
      this.stage.copy(grown, 0, 0, this.staged);
      this.stage = grown;
    }
    this.staged += chunk.copy(this.stage, this.staged);
    this.ends.push(this.staged);
    this.kinds.push(dir === "request" ? 0 : 1);
    this.schedule();
  }

  /** One direction's stream ended (the bytes after its last newline are a line of their own). */
  ended(dir: Dir): void {
    if (this.closed) return;
    this.times.push(performance.now());
    this.ends.push(this.staged);
    this.kinds.push(dir === "request" ? 2 : 3);
    this.schedule();
  }

  private schedule(): void {
    if (this.immediate !== null) return;
    if (this.staged >= LOG_BATCH_BYTES) {
      this.immediate = setImmediate(this.drain);
    } else if (!this.armed) {
      this.armed = true;
      if (this.timer === null) {
        this.timer = setTimeout(this.drain, LOG_DELAY_MS);
        this.timer.unref(); // the log never keeps the proxy alive: exit and close drain it
      } else this.timer.refresh();
    }
  }

  private line(dir: Dir, bytes: Buffer, from: number, to: number, total: number): void {
    const out = this.out;
    out.bytes(SEQ);
    out.uint(++this.seq);
    out.bytes(T_US);
    out.uint(this.t);
    out.bytes(COMMA);
    appendEntry(out, dir, bytes, from, to, total);
  }

  /** Everything queued, cut into lines, written as log text and appended in one write. */
  private readonly drain = (): void => {
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.armed = false;
    this.immediate = null;
    if (this.closed) return;
    const { ends, kinds, times, stage } = this;
    let from = 0;
    for (let i = 0; i < ends.length; i++) {
      this.t = this.us(times[i] as number);
      const kind = kinds[i] as number;
      const to = ends[i] as number;
      const cutter = this.cutters[kind & 1] as LineCutter;
      if (kind >= 2) cutter.end();
      else cutter.push(stage, from, to);
      from = to;
    }
    ends.length = 0;
    kinds.length = 0;
    times.length = 0;
    this.staged = 0;
    if (this.stage.length > STAGE_KEEP_BYTES) this.stage = Buffer.allocUnsafe(STAGE_BYTES);
    if (this.out.length === 0) return;
    const bytes = this.out.take();
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
  };

  /** Appends everything seen, then the exit entry when given, and closes the log. */
  close(exit: LogExit["exit"] | null): void {
    if (this.closed) return;
    this.drain();
    if (exit !== null)
      writeSync(
        this.fd,
        `${JSON.stringify({ seq: ++this.seq, t_us: Math.max(this.t, this.us(performance.now())), exit })}\n`,
      );
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    process.off("exit", this.drain);
    closeSync(this.fd);
  }
}

/** Runs the proxy until the implementation exits; resolves to the exit status to give. */
export const record = (o: RecordOptions): Promise<number> => {
  if (existsSync(o.log) && statSync(o.log).size > 0)
    throw new UsageError(
      `--log: ${o.log} exists and is not empty; srk record never overwrites a log (remove it or name another file)`,
    );
  const argv = splitCommandLine(o.commandLine);
  const [command, ...args] = argv;
  if (command === undefined) throw new UsageError("--impl: the command line is empty");
  const fd = openSync(o.log, "w");
  const start = performance.now();
  const header: LogHeader = {
    srk_log: LOG_VERSION,
    recorder: o.recorder,
    impl: o.commandLine,
    started_at: new Date().toISOString(),
  };
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
