/**
 * The core both faces share (impl/api.ts in-process, impl/wire/ over stdin/stdout): a World in
 * memory plus a Storage holding the committed rows (impl/durable/storage.ts).
 *
 * apply: run the command against the in-memory world; on rejection nothing was mutated (every
 * handler checks before it writes) and nothing is written; on acceptance what the command changed
 * is committed as ONE durable write (D-027) whose size is proportional to the change. If anything
 * fails after a handler started mutating (a bug, or an I/O error while committing), the in-memory
 * world is discarded and reloaded from the store: undo-free, disk is the truth.
 */
import type { Event, WorldView } from "../spec/index.ts";
import type { InvariantId } from "../spec/index.ts";
import type { Query, QueryName, QueryResult } from "../spec/wire/index.ts";
import { applyCommand } from "./core/dispatch.ts";
import { Rejection } from "./core/rejection.ts";
import type { World } from "./core/world.ts";
import { runQuery } from "./queries.ts";
import type { CommitStats, Storage } from "./durable/storage.ts";
import type { CrashPoint } from "./durable/crash.ts";

export interface OutcomeError {
  code: string;
  invariant: InvariantId | null;
  message: string;
  path?: (string | number)[];
  /** false only for INTERNAL failures during or after the commit: the command may have happened. */
  definite: boolean;
}

export type ApplyOutcome = { ok: true; events: Event[] } | { ok: false; error: OutcomeError };
export type QueryOutcome<N extends QueryName = QueryName> =
  | { ok: true; result: QueryResult<N> }
  | { ok: false; error: OutcomeError };

const rejectionError = (r: Rejection): OutcomeError => ({ ...r.toData(), definite: true });

const internal = (e: unknown, definite: boolean): OutcomeError => ({
  code: "INTERNAL",
  invariant: null,
  message: `internal error: ${e instanceof Error ? e.message : String(e)}`,
  definite,
});

export class Engine {
  private world: World;

  constructor(private readonly storage: Storage) {
    this.world = storage.load();
  }

  apply(command: unknown): ApplyOutcome {
    let events: Event[];
    try {
      events = applyCommand(this.world, command);
    } catch (e) {
      if (e instanceof Rejection) {
        this.world.forgetTouches();
        return { ok: false, error: rejectionError(e) };
      }
      // A handler failed midway: nothing was committed, so the command certainly did not happen.
      this.world = this.storage.load();
      return { ok: false, error: internal(e, true) };
    }
    try {
      this.storage.commit(this.world);
    } catch (e) {
      // The commit may or may not have reached the disk: reload whatever is there.
      this.world = this.storage.load();
      return { ok: false, error: internal(e, false) };
    }
    return { ok: true, events };
  }

  query<N extends QueryName>(q: Query & { name: N }): QueryOutcome<N> {
    try {
      return { ok: true, result: runQuery(this.world, q) as QueryResult<N> };
    } catch (e) {
      if (e instanceof Rejection) return { ok: false, error: rejectionError(e) };
      return { ok: false, error: internal(e, true) };
    }
  }

  /** The whole observable state (a deep copy: callers may keep or mutate it). */
  worldView(): WorldView {
    return runQuery(this.world, { name: "world" }) as WorldView;
  }

  /** A fresh empty world, committed durably (one durable write). */
  reset(): void {
    try {
      this.world = this.storage.reset();
    } catch (e) {
      this.world = this.storage.load();
      throw e;
    }
  }

  /** What the last durable write wrote (rows and bytes). */
  get lastCommit(): CommitStats {
    return this.storage.lastCommit;
  }

  get supportsCrash(): boolean {
    return this.storage.supportsCrash;
  }

  armCrash(writes: number, at: CrashPoint): void {
    this.storage.armCrash(writes, at);
  }

  close(): void {
    this.storage.close();
  }
}
