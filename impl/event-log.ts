/**
 * The implementation's own event log, opt-in: started with `SRK_IMPL_EVENT_LOG=<file>`, the wire
 * process appends one JSON line per command the engine handled, and one per reset. It is the
 * example of an implementation that logs in ITS OWN shape, not the kit's wire log (spec/LOG.md):
 * `conformance/log/adapters/impl-events.ts` maps it to an L-1 log that `srk check-log` checks
 * (spec/LOG.md L-3, D-067). The shape, one line each:
 *
 *   {"at_ms", "kind": "command.accepted", "request_id", "op", "command", "events"}
 *   {"at_ms", "kind": "command.rejected", "request_id", "op", "command", "error": {code, invariant, definite, message}}
 *   {"at_ms", "kind": "store.reset", "request_id"}
 *
 * `at_ms` is milliseconds since the process started, from a monotonic clock (microsecond
 * resolution); it starts again at 0 in a new process appending to the same file. Queries, hello,
 * shutdown and wire-level refusals (UNSUPPORTED, BAD_REQUEST, ...) are not logged: they change no
 * state, and an implementation's own log typically records state changes only. A reset is logged
 * because it does change state: without it, the commands after it could not be checked.
 *
 * This log is for testing and checking. It keeps every command and its events verbatim, so it
 * keeps what the protocol requires to be forgotten (trace content once distilled, an excised
 * distillate's content: W-7.2). That is why it must lie outside the data directory (the
 * forgetting stage byte-scans every file under it, and would rightly fail), and why a production
 * system that keeps such a log must treat it as holding personal content: retention, access and
 * deletion are then its obligations, outside what the kit certifies.
 */
import { closeSync, openSync, realpathSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type { Event } from "../spec/index.ts";
import type { RequestId } from "../spec/wire/index.ts";
import type { ApplyOutcome, Engine } from "./engine.ts";

/** The environment variable that turns the log on (impl/main.ts). */
export const EVENT_LOG_ENV = "SRK_IMPL_EVENT_LOG";

interface Base {
  /** Milliseconds since this process started (monotonic; microsecond resolution). */
  readonly at_ms: number;
  readonly request_id: RequestId;
}

export type ImplEvent =
  | (Base & {
      readonly kind: "command.accepted";
      readonly op: string | null;
      readonly command: unknown;
      readonly events: readonly Event[];
    })
  | (Base & {
      readonly kind: "command.rejected";
      readonly op: string | null;
      readonly command: unknown;
      readonly error: {
        readonly code: string;
        readonly invariant: string | null;
        readonly definite: boolean;
        readonly message: string;
      };
    })
  | (Base & { readonly kind: "store.reset" });

/** A path with every existing ancestor resolved through symlinks (the rest kept as written). */
const real = (p: string): string => {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(real(parent), basename(abs));
  }
};

/** Whether `file` is `dir` or lies under it, symlinks resolved. */
export const isInside = (dir: string, file: string): boolean => {
  const rel = relative(real(dir), real(file));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

export class EventLogRefused extends Error {
  override readonly name = "EventLogRefused";
}

const opOf = (command: unknown): string | null => {
  const op =
    typeof command === "object" && command !== null && !Array.isArray(command)
      ? (command as { op?: unknown }).op
      : undefined;
  return typeof op === "string" ? op : null;
};

/** What the engine did for the request being handled, waiting for the reply that names its id. */
type Pending =
  | { readonly kind: "command"; readonly command: unknown; readonly outcome: ApplyOutcome }
  | { readonly kind: "reset" };

export class EventLog {
  private pending: Pending | null = null;

  private constructor(private readonly fd: number) {}

  /**
   * Opens `file` for appending. Refused (EventLogRefused) when it lies inside `dataDir`, before
   * anything is created, or when it cannot be opened.
   */
  static open(file: string, dataDir: string): EventLog {
    if (isInside(dataDir, file)) {
      throw new EventLogRefused(
        `${EVENT_LOG_ENV}=${file} lies inside the data directory ${dataDir}: the event log keeps content the protocol forgets (W-7.2), and every file under the data directory is byte-scanned for it; put the log outside`,
      );
    }
    try {
      return new EventLog(openSync(file, "a"));
    } catch (e) {
      throw new EventLogRefused(
        `${EVENT_LOG_ENV}=${file}: cannot be opened for appending (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  }

  /**
   * Watches `engine`: its apply and reset are wrapped on this instance (the engine's own code is
   * unchanged), so what the engine decided is known without the wire server knowing of a log. The
   * request id is not known down there; the reply carries it, so the line is written by `answered`.
   */
  observe(engine: Engine): void {
    const apply = engine.apply.bind(engine);
    const reset = engine.reset.bind(engine);
    engine.apply = (command: unknown): ApplyOutcome => {
      const outcome = apply(command);
      this.pending = { kind: "command", command, outcome };
      return outcome;
    };
    engine.reset = (): void => {
      reset(); // a reset that throws is answered INTERNAL and changed nothing: not logged
      this.pending = { kind: "reset" };
    };
  }

  /**
   * Called with each reply before it is written to stdout. The engine has returned, so an accepted
   * command is already committed: a line is never written for a command that did not happen.
   * Writing before the reply means a client that has seen a reply can rely on its line being in the
   * log (the log is never behind the client). The one window left is between the commit and this
   * write (where the crash hook's after_commit point kills): a command committed there has no line,
   * as it has no reply. A production log that must not miss one would be written in the commit's
   * transaction; this one is for testing and checking.
   */
  answered(reply: { readonly id: RequestId | null }): void {
    const p = this.pending;
    this.pending = null;
    if (p === null || reply.id === null) return;
    const at_ms = Math.round(performance.now() * 1000) / 1000;
    const request_id = reply.id;
    let event: ImplEvent;
    if (p.kind === "reset") event = { at_ms, kind: "store.reset", request_id };
    else if (p.outcome.ok)
      event = {
        at_ms,
        kind: "command.accepted",
        request_id,
        op: opOf(p.command),
        command: p.command,
        events: p.outcome.events,
      };
    else {
      const { code, invariant, definite, message } = p.outcome.error;
      event = {
        at_ms,
        kind: "command.rejected",
        request_id,
        op: opOf(p.command),
        command: p.command,
        error: { code, invariant, definite, message },
      };
    }
    // One synchronous append per line: lines stay whole and in the order the requests were handled.
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
