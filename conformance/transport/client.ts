/**
 * Runner-side client of the wire protocol (spec/wire/PROTOCOL.md): spawns an implementation,
 * performs the handshake, sends requests with fresh ids and matches replies by id, with
 * per-request timeouts. Replies that match no pending request (id null after a framing or
 * JSON error, or an id the runner reused on purpose) are queued as `unmatched`. Malformed
 * output is recorded as a protocol violation. `restart()` starts the same command again, on the
 * same data directory, for crash-cut testing.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { CrashAfterRequest, HelloResult, Query, QueryName, QueryResult, Reply } from "../../spec/wire/index.ts";
import { HelloResult as HelloResultSchema, PROTOCOL_VERSION, Reply as ReplySchema } from "../../spec/wire/index.ts";
import { ImplementationProcess, type ExitInfo, type SpawnSpec } from "./process.ts";

export class ProcessExited extends Error {
  override readonly name = "ProcessExited";
  constructor(readonly exit: ExitInfo, readonly stderr: string) {
    super(`implementation exited (code ${exit.code}, signal ${exit.signal})`);
  }
}

export class RequestTimeout extends Error {
  override readonly name = "RequestTimeout";
}

export class ProtocolViolation extends Error {
  override readonly name = "ProtocolViolation";
}

export class RequestFailed extends Error {
  override readonly name = "RequestFailed";
  constructor(readonly reply: Extract<Reply, { ok: false }>) {
    super(`${reply.error.code}: ${reply.error.message}`);
  }
}

export interface ClientOptions {
  readonly timeoutMs?: number;
  readonly protocolVersions?: readonly string[];
  readonly settings?: Record<string, unknown>;
}

interface Pending {
  resolve(r: Reply): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

type Outgoing = { type: string; [k: string]: unknown };

export class WireClient {
  private proc: ImplementationProcess;
  private readonly pending = new Map<string, Pending>();
  private readonly unmatchedQueue: Reply[] = [];
  private unmatchedWaiters: ((r: Reply) => void)[] = [];
  private nextId = 1;
  readonly violations: string[] = [];
  private helloResult: HelloResult | null = null;

  private constructor(readonly spec: SpawnSpec, readonly options: ClientOptions) {
    this.proc = this.spawn();
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
    return new ImplementationProcess(this.spec, (line) => this.onLine(line), (info) => this.onExit(info));
  }

  get hello(): HelloResult {
    if (this.helloResult === null) throw new Error("not handshaken");
    return this.helloResult;
  }
  get stderr(): string {
    return this.proc.stderr;
  }
  get exited(): Promise<ExitInfo> {
    return this.proc.exited;
  }
  get hasExited(): boolean {
    return this.proc.hasExited;
  }
  get pid(): number | undefined {
    return this.proc.pid;
  }

  private onLine(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.violations.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const parsed = ReplySchema.safeParse(json);
    if (!parsed.success) {
      this.violations.push(`stdout message is not a Reply: ${line.slice(0, 200)}`);
      const id = (json as { id?: unknown } | null)?.id;
      const p = id === undefined ? undefined : this.pending.get(JSON.stringify(id));
      if (p !== undefined) {
        this.pending.delete(JSON.stringify(id));
        clearTimeout(p.timer);
        p.reject(new ProtocolViolation(`malformed reply: ${line.slice(0, 200)}`));
      }
      return;
    }
    const reply = parsed.data;
    const key = JSON.stringify(reply.id);
    const p = reply.id === null ? undefined : this.pending.get(key);
    if (p === undefined) {
      const w = this.unmatchedWaiters.shift();
      if (w !== undefined) w(reply);
      else this.unmatchedQueue.push(reply);
      return;
    }
    this.pending.delete(key);
    clearTimeout(p.timer);
    p.resolve(reply);
  }

  private onExit(info: ExitInfo): void {
    const err = new ProcessExited(info, this.proc.stderr);
    for (const [key, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(key);
    }
  }

  /** Send a request object; `id` is assigned unless given. Resolves with its reply. */
  request(msg: Outgoing, timeoutMs = this.options.timeoutMs ?? 15_000): Promise<Reply> {
    const id = msg["id"] ?? `r${this.nextId++}`;
    const key = JSON.stringify(id);
    if (this.proc.hasExited) return Promise.reject(new ProcessExited({ code: null, signal: null }, this.proc.stderr));
    if (this.pending.has(key)) return Promise.reject(new Error(`request id ${key} is already pending`));
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new RequestTimeout(`no reply to ${key} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(key, { resolve, reject, timer });
      this.proc.write(`${JSON.stringify({ ...msg, id })}\n`);
    });
  }

  /** Write raw bytes (hostile-input tests). Replies come back through `nextUnmatched`. */
  sendRaw(data: string | Buffer): void {
    this.proc.write(data);
  }

  /** The next reply that matched no pending request. */
  nextUnmatched(timeoutMs = this.options.timeoutMs ?? 15_000): Promise<Reply> {
    const r = this.unmatchedQueue.shift();
    if (r !== undefined) return Promise.resolve(r);
    return new Promise((resolve, reject) => {
      const waiter = (x: Reply): void => {
        clearTimeout(timer);
        resolve(x);
      };
      const timer = setTimeout(() => {
        this.unmatchedWaiters = this.unmatchedWaiters.filter((w) => w !== waiter);
        reject(new RequestTimeout(`no unmatched reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.unmatchedWaiters.push(waiter);
    });
  }

  async handshake(): Promise<HelloResult> {
    const reply = await this.request({
      type: "hello",
      protocol_versions: [...(this.options.protocolVersions ?? [PROTOCOL_VERSION])],
      settings: this.options.settings ?? {},
    });
    if (!reply.ok) throw new RequestFailed(reply);
    const hello = HelloResultSchema.safeParse(reply.result);
    if (!hello.success) throw new ProtocolViolation(`hello result does not match HelloResult: ${hello.error.message}`);
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

  /** Ask for a clean exit and wait for it. */
  async shutdown(): Promise<ExitInfo> {
    if (!this.proc.hasExited) {
      await this.request({ type: "shutdown" }).catch(() => undefined);
    }
    return this.proc.exited;
  }

  /** Kill the process (default SIGKILL, a black-box crash) and wait for it to be gone. */
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
