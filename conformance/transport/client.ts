/**
 * Runner-side client of the wire protocol (spec/wire/PROTOCOL.md): spawns an implementation,
 * performs the handshake, sends requests with fresh ids and matches replies by id, with
 * per-request and start-up timeouts.
 *
 * `send` never throws: it returns an `Outcome` (a reply, a timeout, the process's exit, or a
 * protocol violation that blames the implementation), so a hostile implementation is diagnosed,
 * not fatal. `request` and the helpers built on it throw typed errors for callers that want that.
 *
 * Replies that match no pending request (id null after a framing or JSON error, or an id the
 * runner reused on purpose) are queued as `unmatched`. Outside raw mode, lines are answered in
 * order (W-1.6), so a stdout line that answers no request in flight — not UTF-8, not JSON, not a
 * Reply, or a reply whose id the runner never sent — takes the place of the reply to the oldest
 * request in flight: that request's outcome is the violation (at once, not after a timeout), and
 * its genuine reply, if it still comes, is dropped. Every violation is kept in `violations` with
 * the rule it breaks and the offending bytes. `restart()` starts the same command again, on the
 * same data directory (crash cuts); replies from an earlier process generation are dropped.
 *
 * The one exception to "never throws": once the client's `signal` fires (the certification is cut
 * short, core/abort.ts), every request in flight and every later one rejects with that CutShort at
 * once, since no reply could be judged any more; the process is stopped by the transport
 * (process.ts) and `shutdown` only waits for it to be gone.
 */
import { match } from "ts-pattern";
import type { Command, WorldView } from "../../spec/index.ts";
import type { CrashAfterRequest, HelloResult, Query, QueryName, QueryResult, Reply } from "../../spec/wire/index.ts";
import { HelloResult as HelloResultSchema, PROTOCOL_VERSION, Reply as ReplySchema } from "../../spec/wire/index.ts";
import { replyIssue, replyIssueText } from "./reply-issue.ts";
import { cutShortOf, onAbort } from "../core/abort.ts";
import {
  describeExit,
  ImplementationProcess,
  MAX_REPLY_BYTES,
  type ExitInfo,
  type SpawnSpec,
  type StdoutLine,
} from "./process.ts";

export class ProcessExited extends Error {
  override readonly name = "ProcessExited";
  constructor(
    readonly exit: ExitInfo,
    readonly stderr: string,
  ) {
    super(`implementation ${describeExit(exit)}`);
  }
}

export class RequestTimeout extends Error {
  override readonly name = "RequestTimeout";
}

export class ProtocolViolation extends Error {
  override readonly name = "ProtocolViolation";
  constructor(readonly violation: Violation) {
    super(`${violation.rule}: ${violation.message}`);
  }
}

export class RequestFailed extends Error {
  override readonly name = "RequestFailed";
  constructor(readonly reply: Extract<Reply, { ok: false }>) {
    super(`${reply.error.code}: ${reply.error.message}`);
  }
}

/** A break of the wire protocol by the implementation: the rule (W-x.y), what, and the raw bytes. */
export interface Violation {
  readonly rule: string;
  readonly message: string;
  readonly raw: string;
}

export type Outcome =
  | { readonly kind: "reply"; readonly reply: Reply }
  | { readonly kind: "timeout"; readonly ms: number }
  | { readonly kind: "exited"; readonly exit: ExitInfo; readonly stderrTail: string }
  | { readonly kind: "violation"; readonly violation: Violation };

export interface ClientOptions {
  /** Per-request timeout (default 15 s). */
  readonly timeoutMs?: number;
  /** Time allowed from spawn to the reply to hello (default 30 s). */
  readonly startupTimeoutMs?: number;
  readonly protocolVersions?: readonly string[];
  readonly settings?: Record<string, unknown>;
  /** Told when the implementation answered `shutdown` but had to be killed (W-2.2). */
  readonly onShutdownIgnored?: (v: Violation) => void;
  /** Stops everything when it fires: requests reject with its CutShort, the process is terminated, no new one starts. */
  readonly signal?: AbortSignal;
}

interface Pending {
  settle(o: Outcome): void;
  fail(e: Error): void;
  timer: NodeJS.Timeout;
}

type Outgoing = { type: string; [k: string]: unknown };

/** How much of an offending line a finding shows: whole replies, up to this cap, saying when cut. */
export const RAW_SHOWN = 8192;
/**
 * A rejection by the abort that nobody may be waiting for yet: stages create several requests'
 * promises before awaiting them in turn (pipelining), which never mattered while `send` could not
 * reject. Marked handled here, it still rejects for whoever awaits it, without an unhandled
 * rejection ending the runner.
 */
const quietly = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

const shown = (s: string): string =>
  s.length > RAW_SHOWN ? `${s.slice(0, RAW_SHOWN)}… (cut: the first ${RAW_SHOWN} of ${s.length} characters shown)` : s;

export class WireClient {
  private proc: ImplementationProcess;
  private generation = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly order: string[] = [];
  /** Requests whose outcome was a violation in place of their reply: their late reply is dropped. */
  private readonly settledByViolation = new Set<string>();
  private readonly unmatchedQueue: Reply[] = [];
  private unmatchedWaiters: { take(r: Reply): void; fail(e: Error): void }[] = [];
  private nextId = 1;
  /** While true, replies that match nothing are expected (hostile-input tests), not violations. */
  rawMode = false;
  readonly violations: Violation[] = [];
  private helloResult: HelloResult | null = null;

  private constructor(
    readonly spec: SpawnSpec,
    readonly options: ClientOptions,
  ) {
    this.proc = this.spawn();
  }

  /** True once the client's signal fired: nothing more is sent, and its processes are being stopped. */
  get aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Every request in flight and every waiter rejects with the signal's CutShort, synchronously. */
  private abortAll(): void {
    const signal = this.options.signal;
    if (signal === undefined) return;
    const e = cutShortOf(signal);
    for (const [key, p] of [...this.pending]) {
      this.pending.delete(key);
      clearTimeout(p.timer);
      p.fail(e);
    }
    this.order.length = 0;
    for (const w of this.unmatchedWaiters.splice(0)) w.fail(e);
  }

  /** Spawn and handshake. */
  static async start(spec: SpawnSpec, options: ClientOptions = {}): Promise<WireClient> {
    const c = new WireClient(spec, options);
    await c.handshake();
    return c;
  }

  /** Spawn without handshaking (to test the handshake itself). */
  static spawnRaw(spec: SpawnSpec, options: ClientOptions = {}): WireClient {
    return new WireClient(spec, options);
  }

  private spawn(): ImplementationProcess {
    const gen = ++this.generation;
    const proc = new ImplementationProcess(
      this.spec,
      (line) => {
        if (gen === this.generation) this.onLine(line);
      },
      (info) => {
        if (gen === this.generation) this.onExit(info);
      },
      this.options.signal,
    );
    // Listening for as long as this process runs: once it has exited, every request in flight has
    // its outcome, and a later one sees `aborted` itself; a restart listens again. (A stage's signal
    // would otherwise collect a listener per client it ever started.)
    const stop = onAbort(this.options.signal, () => this.abortAll());
    void proc.exited.then(stop);
    return proc;
  }

  get hello(): HelloResult {
    if (this.helloResult === null) throw new Error("not handshaken");
    return this.helloResult;
  }
  get handshaken(): boolean {
    return this.helloResult !== null;
  }
  get stderr(): string {
    return this.proc.stderr;
  }
  /** Why the current process could not be started at all (from the operating system), or null. */
  get spawnError(): NodeJS.ErrnoException | null {
    return this.proc.spawnError;
  }
  /** True once the current process is running, false if it could not be started. */
  get started(): Promise<boolean> {
    return this.proc.started;
  }
  stderrTail(n = 20): string {
    return this.proc.stderrTail(n);
  }
  get exited(): Promise<ExitInfo> {
    return this.proc.exited;
  }
  get hasExited(): boolean {
    return this.proc.hasExited;
  }
  get exitInfo(): ExitInfo | null {
    return this.proc.exit;
  }
  get pid(): number | undefined {
    return this.proc.pid;
  }
  get killedForOversizedReply(): boolean {
    return this.proc.oversizedReply;
  }
  /** An unterminated line left on stdout (a reply cut short), if any. */
  get unterminatedStdout(): { readonly bytes: number; readonly head: string } | null {
    return this.proc.unterminatedStdout;
  }

  private violate(rule: string, message: string, raw: string, id?: unknown): void {
    const v: Violation = { rule, message, raw: shown(raw) };
    this.violations.push(v);
    if (id !== undefined && id !== null) {
      const key = JSON.stringify(id);
      if (this.settle(key, { kind: "violation", violation: v }) || this.settledByViolation.delete(key)) return;
    }
    this.inPlaceOfOldest(v);
  }

  /** Outside raw mode, a line that answers nothing in flight stands where the oldest request's reply belongs (W-1.6). */
  private inPlaceOfOldest(v: Violation): void {
    const oldest = this.order[0];
    if (this.rawMode || oldest === undefined) return;
    this.settledByViolation.add(oldest);
    this.settle(oldest, { kind: "violation", violation: v });
  }

  private settle(key: string, o: Outcome): boolean {
    const p = this.pending.get(key);
    if (p === undefined) return false;
    this.pending.delete(key);
    const at = this.order.indexOf(key);
    if (at >= 0) this.order.splice(at, 1);
    clearTimeout(p.timer);
    p.settle(o);
    return true;
  }

  private onLine(line: StdoutLine): void {
    if (!line.validUtf8) {
      this.violate("W-1.2", "a stdout line is not valid UTF-8", line.text);
      return;
    }
    const text = line.text.endsWith("\r") ? line.text.slice(0, -1) : line.text;
    if (text.trim() === "") {
      this.violate("W-1.3", "an empty line on stdout (stdout carries one reply per line)", JSON.stringify(line.text));
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.violate("W-1.3", "a stdout line is not one JSON value (logs belong on stderr)", text);
      return;
    }
    const id =
      typeof json === "object" && json !== null && !Array.isArray(json) ? (json as { id?: unknown }).id : undefined;
    const parsed = ReplySchema.safeParse(json);
    if (!parsed.success) {
      const issue = replyIssue(json);
      this.violate(
        "W-3",
        `a stdout message is not a Reply: ${issue === null ? "invalid" : replyIssueText(issue)}`,
        text,
        id,
      );
      return;
    }
    const reply = parsed.data;
    const key = JSON.stringify(reply.id);
    if (reply.id !== null && this.pending.has(key)) {
      const first = this.order[0];
      if (first !== undefined && first !== key && !this.rawMode) {
        this.violations.push({
          rule: "W-1.6",
          message: `the reply to ${key} came before the reply to ${first}, which was sent earlier`,
          raw: shown(text),
        });
      }
      this.settle(key, { kind: "reply", reply });
      return;
    }
    if (this.settledByViolation.delete(key)) return; // the genuine reply, after the line that took its place
    if (!this.rawMode && (reply.id !== null || this.order.length > 0)) {
      const v: Violation = {
        rule: "W-3",
        message: `a reply with id ${key} matches no request in flight (a reply echoes its request's id${this.order[0] === undefined ? "" : `; the oldest in flight is ${this.order[0]}`})`,
        raw: shown(text),
      };
      this.violations.push(v);
      if (this.order.length > 0) {
        this.inPlaceOfOldest(v);
        return;
      }
    }
    const w = this.unmatchedWaiters.shift();
    if (w !== undefined) w.take(reply);
    else this.unmatchedQueue.push(reply);
  }

  private onExit(info: ExitInfo): void {
    if (this.proc.oversizedReply) {
      // The runner killed it for a line it would not buffer: that line is the violation.
      const v: Violation = {
        rule: "W-1.4",
        message: `a stdout line is longer than ${MAX_REPLY_BYTES} bytes, the runner's limit for one reply (no reply to the runner's requests comes near it); the runner killed the implementation`,
        raw: shown(this.proc.oversizedHead),
      };
      this.violations.push(v);
      this.inPlaceOfOldest(v);
    }
    const o: Outcome = { kind: "exited", exit: info, stderrTail: this.proc.stderrTail() };
    for (const key of [...this.pending.keys()]) this.settle(key, o);
  }

  /** Send a request object (`id` assigned unless given); resolves with what happened, never rejects — unless the client's signal fired (a CutShort). */
  send(msg: Outgoing, timeoutMs = this.options.timeoutMs ?? 15_000): Promise<Outcome> {
    const id = msg["id"] ?? `r${this.nextId++}`;
    const key = JSON.stringify(id);
    if (this.aborted) return quietly(Promise.reject(cutShortOf(this.options.signal as AbortSignal)));
    const exit = this.proc.exit;
    if (exit !== null) return Promise.resolve({ kind: "exited", exit, stderrTail: this.proc.stderrTail() });
    if (this.pending.has(key)) return Promise.reject(new Error(`runner bug: request id ${key} is already pending`));
    return quietly(
      new Promise<Outcome>((resolve, reject) => {
        const timer = setTimeout(() => this.settle(key, { kind: "timeout", ms: timeoutMs }), timeoutMs);
        this.pending.set(key, { settle: resolve, fail: reject, timer });
        this.order.push(key);
        this.proc.write(`${JSON.stringify({ ...msg, id })}\n`);
      }),
    );
  }

  /** Send a request object; resolves with its reply, rejects with a typed error otherwise. */
  async request(msg: Outgoing, timeoutMs?: number): Promise<Reply> {
    const o = await this.send(msg, timeoutMs);
    return match(o)
      .with({ kind: "reply" }, (x) => x.reply)
      .with({ kind: "timeout" }, (x) => {
        throw new RequestTimeout(`no reply to ${JSON.stringify(msg["id"] ?? msg["type"])} within ${x.ms} ms`);
      })
      .with({ kind: "exited" }, (x) => {
        throw new ProcessExited(x.exit, this.proc.stderr);
      })
      .with({ kind: "violation" }, (x) => {
        throw new ProtocolViolation(x.violation);
      })
      .exhaustive();
  }

  /** Write raw bytes (hostile-input tests). Replies come back through `nextUnmatched`. */
  sendRaw(data: string | Buffer): void {
    this.proc.write(data);
  }

  /** The next reply that matched no pending request. */
  nextUnmatched(timeoutMs = this.options.timeoutMs ?? 15_000): Promise<Reply> {
    const r = this.unmatchedQueue.shift();
    if (r !== undefined) return Promise.resolve(r);
    if (this.aborted) return quietly(Promise.reject(cutShortOf(this.options.signal as AbortSignal)));
    if (this.proc.hasExited)
      return Promise.reject(new ProcessExited(this.proc.exit ?? { code: null, signal: null }, this.proc.stderr));
    return quietly(
      new Promise<Reply>((resolve, reject) => {
        const waiter = {
          take: (x: Reply): void => {
            clearTimeout(timer);
            resolve(x);
          },
          fail: (e: Error): void => {
            clearTimeout(timer);
            reject(e);
          },
        };
        const timer = setTimeout(() => {
          this.unmatchedWaiters = this.unmatchedWaiters.filter((w) => w !== waiter);
          reject(new RequestTimeout(`no unmatched reply within ${timeoutMs} ms`));
        }, timeoutMs);
        this.unmatchedWaiters.push(waiter);
      }),
    );
  }

  /** Hello, within the start-up timeout; throws RequestFailed, ProtocolViolation, RequestTimeout or ProcessExited. */
  async handshake(): Promise<HelloResult> {
    const reply = await this.request(
      {
        type: "hello",
        protocol_versions: [...(this.options.protocolVersions ?? [PROTOCOL_VERSION])],
        settings: this.options.settings ?? {},
      },
      this.options.startupTimeoutMs ?? 30_000,
    );
    if (!reply.ok) throw new RequestFailed(reply);
    const hello = HelloResultSchema.safeParse(reply.result);
    if (!hello.success) {
      const v: Violation = {
        rule: "W-5.1",
        message: `the hello result does not match HelloResult: ${hello.error.issues[0]?.message ?? ""} at ${hello.error.issues[0]?.path.join(".") ?? ""}`,
        raw: shown(JSON.stringify(reply.result)),
      };
      this.violations.push(v);
      throw new ProtocolViolation(v);
    }
    this.helloResult = hello.data;
    return hello.data;
  }

  command(command: Command | Record<string, unknown>): Promise<Reply> {
    return this.request({ type: "command", command });
  }

  async query<N extends QueryName>(query: Query & { name: N }): Promise<QueryResult<N>> {
    const reply = await this.request({ type: "query", query });
    if (!reply.ok) throw new RequestFailed(reply);
    return reply.result as QueryResult<N>;
  }

  world(): Promise<WorldView> {
    return this.query({ name: "world" });
  }

  async reset(): Promise<void> {
    const reply = await this.request({ type: "reset" });
    if (!reply.ok) throw new RequestFailed(reply);
  }

  async crashAfter(writes: number, at: CrashAfterRequest["at"]): Promise<void> {
    const reply = await this.request({ type: "crash_after", writes, at });
    if (!reply.ok) throw new RequestFailed(reply);
  }

  /**
   * Ask for a clean exit and wait for it; an implementation that ignores `shutdown` (or end of
   * input) is killed, with its whole process group. The reply to `shutdown` is waited for as any
   * reply (at most `graceMs`); once it answered, the process has `graceMs` to exit, and one that
   * does not broke W-2.2 (a violation, reported to `onShutdownIgnored`). One that did not answer is
   * stuck or broken, which its other requests diagnose: it gets the shorter wait, and no violation.
   */
  async shutdown(graceMs = 5_000): Promise<ExitInfo> {
    const proc = this.proc;
    // Cut short: the transport is already stopping the process; asking it anything is pointless.
    if (proc.hasExited || this.aborted) return proc.exited;
    const waitMs = Math.min(graceMs, this.options.timeoutMs ?? graceMs);
    const answer = await this.send({ type: "shutdown" }, waitMs).catch((e: unknown) => {
      if (this.aborted) return null;
      throw e;
    });
    if (answer === null) return proc.exited;
    const answered = answer.kind === "reply" && answer.reply.ok;
    proc.endInput();
    let killed = false;
    const timer = setTimeout(
      () => {
        killed = !proc.hasExited;
        proc.kill("SIGKILL");
      },
      answered ? graceMs : waitMs,
    );
    const info = await proc.exited;
    clearTimeout(timer);
    if (killed && answered) {
      const v: Violation = {
        rule: "W-2.2",
        message: `the implementation answered shutdown but did not exit within ${graceMs} ms, nor at the end of its input (W-1.7); the runner killed its process group`,
        raw: shown(JSON.stringify(answer.reply)),
      };
      this.violations.push(v);
      this.options.onShutdownIgnored?.(v);
    }
    return info;
  }

  /** Kill the process group (default SIGKILL, a black-box crash) and wait for it to be gone. */
  kill(signal: NodeJS.Signals = "SIGKILL"): Promise<ExitInfo> {
    this.proc.kill(signal);
    return this.proc.exited;
  }

  /** Start the same command again (same data directory) and handshake; the old process must be gone. */
  async restart(): Promise<HelloResult> {
    if (!this.proc.hasExited) await this.kill();
    this.unmatchedQueue.length = 0;
    this.proc = this.spawn();
    this.helloResult = null;
    return this.handshake();
  }
}
