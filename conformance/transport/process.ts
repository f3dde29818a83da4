/**
 * An implementation under test as a child process: stdin for requests, stdout split into lines
 * (protocol messages only, W-1.3), stderr captured separately and never parsed, and its exit
 * observed (crash cuts).
 *
 * A hostile or broken implementation must never hang or exhaust the runner, so:
 * - the child leads its own process group, and `kill` signals the whole group (an implementation
 *   that spawns children, or a wrapper such as `npx`, leaves no orphan holding the pipes);
 * - only the last `STDERR_KEEP_BYTES` of stderr are kept (a flood costs nothing), and a diagnosis
 *   quotes at most `STDERR_TAIL_CHARS` of it;
 * - a stdout line longer than `MAX_REPLY_BYTES` kills the process instead of growing a buffer;
 * - bytes on stdout that are not valid UTF-8 are reported with the line, not decoded silently.
 *
 * A certification that is cut short (an interrupt, a stage's time limit: core/abort.ts) stops its
 * processes through the signal given at spawn: the group gets SIGTERM, then SIGKILL after
 * `TERMINATE_GRACE_MS`, and `exited` settles once the leader is reaped; a process is never started
 * on a signal that has already fired.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { MAX_REPLY_BYTES as SPEC_MAX_REPLY_BYTES } from "../../spec/wire/limits.ts";
import { onAbort, throwIfCut } from "../core/abort.ts";

export interface SpawnSpec {
  /** Executable, e.g. process.execPath or "python3". */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A line longer than this on stdout is a protocol violation (W-1.4; replies carry at most a world view). */
export const MAX_REPLY_BYTES = SPEC_MAX_REPLY_BYTES;
/** How long the runner waits, after the process exits, for its pipes to drain. */
const EXIT_DRAIN_MS = 500;
/** How much of stderr is kept: the tail is what explains a crash. */
export const STDERR_KEEP_BYTES = 64 * 1024;
/** At most this much of the stderr tail goes into a diagnosis (a flood of long lines stays small). */
export const STDERR_TAIL_CHARS = 4 * 1024;
/** After an abort, how long the group has between SIGTERM and SIGKILL (time to flush and exit cleanly). */
export const TERMINATE_GRACE_MS = 2_000;

/** One stdout line: its text, and whether its bytes were valid UTF-8 (W-1.2). */
export interface StdoutLine {
  readonly text: string;
  readonly validUtf8: boolean;
  readonly bytes: number;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

const HEAD_BYTES = 300;
/** The first HEAD_BYTES of a line kept in parts, decoded leniently (for a diagnosis only). */
const headOf = (parts: readonly Buffer[]): string => {
  const head: Buffer[] = [];
  let size = 0;
  for (const p of parts) {
    if (size >= HEAD_BYTES) break;
    head.push(p.subarray(0, HEAD_BYTES - size));
    size += Math.min(p.length, HEAD_BYTES - size);
  }
  return Buffer.concat(head).toString("utf8");
};

/** Every process group still alive, so that the runner never leaves one behind when it exits. */
const LIVE = new Set<ImplementationProcess>();
process.once("exit", () => {
  for (const p of LIVE) p.kill("SIGKILL");
});

export const describeExit = (e: ExitInfo): string =>
  e.signal !== null ? `killed by ${e.signal}` : e.code === null ? "could not be started" : `exited with code ${e.code}`;

export class ImplementationProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stdoutParts: Buffer[] = [];
  private stdoutSize = 0;
  private stderrBuf = "";
  private stderrDropped = 0;
  private exitInfo: ExitInfo | null = null;
  /** Set when the runner itself killed the process because a reply line was too long. */
  oversizedReply = false;
  /** The first bytes of that line, for the diagnosis. */
  oversizedHead = "";
  /** Why the program could not be started at all (ENOENT, EACCES, …), from the operating system; null once it started. */
  spawnError: NodeJS.ErrnoException | null = null;
  /** True once the program is running, false if it could not be started. */
  readonly started: Promise<boolean>;
  readonly exited: Promise<ExitInfo>;

  constructor(
    readonly spec: SpawnSpec,
    private readonly onLine: (line: StdoutLine) => void,
    private readonly onExit: (info: ExitInfo) => void,
    signal?: AbortSignal,
  ) {
    // Nothing new starts once the work is cut short (throws the signal's CutShort).
    throwIfCut(signal);
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    LIVE.add(this);
    this.started = new Promise((resolve) => {
      this.child.once("spawn", () => resolve(true));
      this.child.once("error", () => resolve(this.child.pid !== undefined));
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => this.appendStderr(chunk.toString("utf8")));
    // Writing to a dead process must not crash the runner; exit is reported through `exited`.
    this.child.stdin.on("error", () => {});
    this.child.stdout.on("error", () => {});
    this.child.stderr.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        if (this.exitInfo !== null) return;
        this.exitInfo = { code, signal };
        LIVE.delete(this);
        // The leader is gone; make sure nothing it started survives holding our pipes.
        this.signalGroup("SIGKILL");
        // Node may report the exit before the last stdout and stderr bytes are read: report it once
        // the pipes have closed (so a diagnosis has the last lines), or after a short cap.
        const info = this.exitInfo;
        let reported = false;
        const report = (): void => {
          if (reported) return;
          reported = true;
          clearTimeout(cap);
          this.onExit(info);
          resolve(info);
        };
        const cap = setTimeout(report, EXIT_DRAIN_MS);
        this.child.once("close", report);
      });
      this.child.on("error", (e: NodeJS.ErrnoException) => {
        this.appendStderr(`spawn error: ${e.message}\n`);
        // No pid: the program never ran (an error of a running child, such as a failed kill, has one).
        if (this.child.pid === undefined && this.spawnError === null) this.spawnError = e;
        if (this.exitInfo === null) {
          this.exitInfo = { code: null, signal: null };
          LIVE.delete(this);
          this.onExit(this.exitInfo);
          resolve(this.exitInfo);
        }
      });
    });
    // Listening ends with the process, so a long-lived signal does not collect dead listeners.
    const stopListening = onAbort(signal, () => this.terminate());
    void this.exited.then(stopListening);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  /** The kept tail of stderr (the last STDERR_KEEP_BYTES), with a note of what was dropped. */
  get stderr(): string {
    return this.stderrDropped > 0
      ? `[… ${this.stderrDropped} earlier bytes of stderr dropped]\n${this.stderrBuf}`
      : this.stderrBuf;
  }
  /** The last `n` lines of stderr, for a diagnosis: at most STDERR_TAIL_CHARS, the end kept. */
  stderrTail(n = 20): string {
    const lines = this.stderrBuf.trimEnd().split("\n");
    const tail = lines.slice(-n).join("\n");
    return tail.length > STDERR_TAIL_CHARS ? `[…]${tail.slice(-STDERR_TAIL_CHARS)}` : tail;
  }
  /** An unterminated line left on stdout (a reply cut short, W-1.2): its size and how it begins. */
  get unterminatedStdout(): { readonly bytes: number; readonly head: string } | null {
    if (this.stdoutSize === 0 || this.oversizedReply) return null;
    return { bytes: this.stdoutSize, head: headOf(this.stdoutParts) };
  }
  get hasExited(): boolean {
    return this.exitInfo !== null;
  }
  get exit(): ExitInfo | null {
    return this.exitInfo;
  }

  private appendStderr(text: string): void {
    this.stderrBuf += text;
    if (this.stderrBuf.length > 2 * STDERR_KEEP_BYTES) {
      const cut = this.stderrBuf.length - STDERR_KEEP_BYTES;
      this.stderrDropped += cut;
      this.stderrBuf = this.stderrBuf.slice(cut);
    }
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        if (this.oversizedReply) return;
        this.stdoutParts.push(chunk.subarray(start));
        this.stdoutSize += chunk.length - start;
        if (this.stdoutSize > MAX_REPLY_BYTES) {
          this.oversizedReply = true;
          this.oversizedHead = headOf(this.stdoutParts);
          this.stdoutParts = [];
          this.appendStderr(`runner: a stdout line exceeds ${MAX_REPLY_BYTES} bytes; the implementation was killed\n`);
          this.kill("SIGKILL");
        }
        return;
      }
      if (this.oversizedReply) return;
      this.stdoutParts.push(chunk.subarray(start, nl));
      const bytes = Buffer.concat(this.stdoutParts);
      this.stdoutParts = [];
      this.stdoutSize = 0;
      let text: string;
      let validUtf8 = true;
      try {
        text = utf8.decode(bytes);
      } catch {
        validUtf8 = false;
        text = bytes.toString("utf8");
      }
      this.onLine({ text, validUtf8, bytes: bytes.length });
      start = nl + 1;
    }
  }

  write(data: string | Buffer): void {
    if (!this.hasExited) this.child.stdin.write(data);
  }

  /** Close stdin (an implementation exits on end of input, W-1.7). */
  endInput(): void {
    this.child.stdin.end();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  /**
   * SIGTERM to the group, then SIGKILL once `graceMs` have passed without the leader's exit; the
   * returned promise settles when the leader is reaped (the group is SIGKILLed then, see `exited`).
   */
  terminate(graceMs = TERMINATE_GRACE_MS): Promise<ExitInfo> {
    if (this.hasExited) return this.exited;
    this.signalGroup("SIGTERM");
    const timer = setTimeout(() => this.kill("SIGKILL"), graceMs);
    return this.exited.finally(() => clearTimeout(timer));
  }

  /** Signals the whole process group (the implementation and anything it started). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    if (this.hasExited) return;
    this.signalGroup(signal);
  }
}
