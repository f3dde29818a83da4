/**
 * The implementation under test, as the runner drives it: a command line that can be started any
 * number of times, each on a data directory the runner creates (and removes at the end), each
 * process handshaken before use. A `Session` is one live process on one data directory; it can
 * be restarted on the same directory (crash cuts) and its replies are checked into `Reply` or
 * turned into the stage errors `Undrivable` (exit, hang) and `WireBreak` (protocol violation).
 *
 * Every process is started under the target's current `signal` (certify sets it to each stage's,
 * core/abort.ts): when it fires, the process is stopped and its requests reject with a CutShort,
 * and `dispose` waits until every process so stopped is gone.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { match } from "ts-pattern";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Reply } from "../../spec/wire/index.ts";
import {
  ProcessExited,
  ProtocolViolation,
  RequestFailed,
  RequestTimeout,
  WireClient,
  type Outcome,
  type Violation,
} from "../transport/client.ts";
import { describeExit, type SpawnSpec } from "../transport/process.ts";
import { CannotStart, Undrivable, WireBreak } from "../core/driver-errors.ts";
import { implSpawnSpec, UsageError } from "./command-line.ts";

export interface TargetOptions {
  readonly commandLine: string;
  /** Where data directories are made; a fresh temporary directory by default. */
  readonly dataRoot?: string;
  /** Use exactly this data directory for the first session (`--data-dir`). */
  readonly dataDir?: string;
  readonly cwd?: string;
  readonly requestTimeoutMs: number;
  readonly startupTimeoutMs: number;
  /** Environment of the implementation (default: the runner's). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Explains why a process could not be driven, with its exit, a reply cut short, and the tail of its stderr. */
export const explain = (client: WireClient, what: string): string => {
  const exit = client.exitInfo;
  const tail = client.stderrTail(10);
  const cut = client.unterminatedStdout;
  const partial =
    cut === null
      ? ""
      : `; ${cut.bytes} bytes of an unterminated line on stdout (a reply ends with \\n, W-1.2): ${cut.head}${cut.bytes > cut.head.length ? "…" : ""}`;
  return `${what}${exit === null ? "" : ` (the implementation ${describeExit(exit)})`}${partial}${tail === "" ? "" : `; last stderr lines:\n${tail}`}`;
};

export class Session {
  private uses = 0;
  constructor(
    readonly client: WireClient,
    readonly dataDir: string,
  ) {}

  /**
   * A fresh prefix for the ids of one planned exchange: request ids must be unique for the whole
   * life of a process (W-2.1), while a plan's own ids (t1, t2, …) stay short and portable.
   */
  nextIdPrefix(): string {
    return `u${++this.uses}.`;
  }

  /** The reply to a request, or Undrivable / WireBreak. */
  async reply(msg: { type: string; [k: string]: unknown }, timeoutMs?: number): Promise<Reply> {
    return this.check(await this.client.send(msg, timeoutMs), `${msg.type} ${JSON.stringify(msg["id"] ?? "")}`.trim());
  }

  check(o: Outcome, what: string): Reply {
    return match(o)
      .with({ kind: "reply" }, (x) => x.reply)
      .with({ kind: "timeout" }, (x) => {
        throw new Undrivable(explain(this.client, `no reply to ${what} within ${x.ms} ms`));
      })
      .with({ kind: "exited" }, () => {
        throw new Undrivable(explain(this.client, `the implementation ended before replying to ${what}`));
      })
      .with({ kind: "violation" }, (x) => {
        throw new WireBreak(x.violation.rule, `${x.violation.message} (in reply to ${what})`, x.violation.raw);
      })
      .exhaustive();
  }

  /** A successful reply's result, or a WireBreak naming the unexpected error. */
  async ok(msg: { type: string; [k: string]: unknown }, timeoutMs?: number): Promise<Reply & { ok: true }> {
    const r = await this.reply(msg, timeoutMs);
    if (!r.ok)
      throw new WireBreak("W-3", `${msg.type} was refused with ${r.error.code}: ${r.error.message}`, JSON.stringify(r));
    return r;
  }

  async restart(): Promise<void> {
    await handshakeOrThrow(() => this.client.restart(), this.client);
  }

  async close(): Promise<void> {
    await this.client.shutdown();
  }
}

/** The spawn errors that mean the program cannot be run as given: a mistake in the command line, not a fault of a running implementation. */
export const CANNOT_START_CODES: Readonly<Record<string, (program: string) => string>> = {
  ENOENT: (p) => (p.includes("/") ? "no such file" : "no such program on PATH"),
  EACCES: (p) =>
    p.includes("/")
      ? "the file is not executable, or a folder on its path cannot be searched"
      : "found on PATH but not executable",
  ENOTDIR: () => "a part of its path is not a folder",
};

const cannotStart = (client: WireClient): CannotStart | null => {
  const e = client.spawnError;
  if (e === null) return null;
  const program = client.spec.command;
  const code = e.code ?? "";
  const hint = CANNOT_START_CODES[code];
  if (hint === undefined) return null;
  const cwd = client.spec.cwd;
  // Node reports a missing working directory as ENOENT of the program: name the real cause.
  const why =
    code === "ENOENT" && cwd !== undefined && !existsSync(cwd)
      ? `the working directory ${cwd} does not exist`
      : hint(program);
  return new CannotStart(`--impl: cannot start "${program}": ${e.message} (${why})`, program, code);
};

const handshakeOrThrow = async (f: () => Promise<unknown>, client: WireClient): Promise<void> => {
  // The same default as WireClient.handshake's.
  const startupTimeoutMs = client.options.startupTimeoutMs ?? 30_000;
  try {
    await f();
  } catch (e) {
    const notStarted = cannotStart(client);
    if (notStarted !== null) throw notStarted;
    if (e instanceof RequestFailed) throw new Undrivable(explain(client, `hello was refused: ${e.message}`));
    if (e instanceof ProtocolViolation) throw new WireBreak(e.violation.rule, e.violation.message, e.violation.raw);
    if (e instanceof RequestTimeout) {
      throw new Undrivable(
        explain(
          client,
          `no reply to hello within ${startupTimeoutMs} ms (--startup-timeout ${startupTimeoutMs}; raise it if the implementation takes longer to start)`,
        ),
      );
    }
    if (e instanceof ProcessExited)
      throw new Undrivable(explain(client, "the implementation ended before answering hello"));
    throw e;
  }
};

export class Target {
  private readonly root: string;
  private readonly ownRoot: boolean;
  private readonly sessions = new Set<Session>();
  private count = 0;
  private readonly ignoredShutdowns: Violation[] = [];
  /**
   * Every client started (sessions and raw clients alike), for `dispose` after an abort. Kept to
   * the end, as `sessions` are: a client's current process changes with each restart.
   */
  private readonly clients = new Set<WireClient>();
  /**
   * What stops the processes started from now on (certify sets each stage's, its time limit and the
   * interrupt combined); none by default. Mutable rather than passed to every call: stages reach the
   * target through their context and need not know about cancellation to honour it.
   */
  signal: AbortSignal | undefined = undefined;

  constructor(readonly options: TargetOptions) {
    this.ownRoot = options.dataRoot === undefined;
    this.root = options.dataRoot ?? mkdtempSync(join(tmpdir(), "srk-"));
  }

  spawnSpec(dataDir: string): SpawnSpec {
    const spec = implSpawnSpec(this.options.commandLine, dataDir, this.options.cwd);
    return this.options.env === undefined ? spec : { ...spec, env: this.options.env };
  }

  /** A new empty data directory the runner owns. */
  freshDir(): string {
    if (this.count === 0 && this.options.dataDir !== undefined) {
      this.count++;
      return this.options.dataDir;
    }
    return mkdtempSync(join(this.root, `run-${this.count++}-`));
  }

  /** A client spawned on `dataDir` but not handshaken (handshake tests). */
  spawnRaw(dataDir: string, protocolVersions?: readonly string[]): WireClient {
    const client = WireClient.spawnRaw(this.spawnSpec(dataDir), {
      timeoutMs: this.options.requestTimeoutMs,
      startupTimeoutMs: this.options.startupTimeoutMs,
      onShutdownIgnored: (v) => this.ignoredShutdowns.push(v),
      ...(protocolVersions === undefined ? {} : { protocolVersions }),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
    });
    this.clients.add(client);
    return client;
  }

  /**
   * Every `shutdown` an implementation process answered and then ignored (W-2.2; it was killed)
   * since the last call. Sessions close in `finally` blocks, where a stage cannot report a finding,
   * so the caller (certify, after each stage) does.
   */
  takeIgnoredShutdowns(): Violation[] {
    return this.ignoredShutdowns.splice(0);
  }

  /** Starts a handshaken session on `dataDir` (a fresh one by default). */
  async open(dataDir = this.freshDir(), onStarted?: () => void): Promise<Session> {
    const client = this.spawnRaw(dataDir);
    if (onStarted !== undefined) void client.started.then((ok) => ok && onStarted());
    await handshakeOrThrow(() => client.handshake(), client).catch(async (e: unknown) => {
      await client.kill();
      throw e;
    });
    const s = new Session(client, dataDir);
    this.sessions.add(s);
    return s;
  }

  /**
   * The first session of a run: as `open`, but a program that cannot be started at all (no such
   * program, not executable) is a usage error (exit 64) naming the program and the operating
   * system's error, since nothing the runner could report about the implementation would be true.
   * `onStarted` runs once the program is running (so a progress line never precedes that error).
   */
  async openFirst(onStarted?: () => void): Promise<Session> {
    try {
      return await this.open(this.freshDir(), onStarted);
    } catch (e) {
      if (e instanceof CannotStart) throw new UsageError(e.message);
      throw e;
    }
  }

  /**
   * Ends every process still running, then removes the data directories the runner made. After an
   * abort it also waits for every process the abort is stopping (raw clients too), so that none
   * outlives the certification.
   */
  async dispose(keepData = false): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close().catch(() => undefined)));
    this.sessions.clear();
    await Promise.all([...this.clients].filter((c) => c.aborted && !c.hasExited).map((c) => c.exited));
    this.clients.clear();
    if (this.ownRoot && !keepData) rmSync(this.root, { recursive: true, force: true });
  }
}
