/**
 * The in-process face of the implementation, for fast property tests:
 *
 *   const impl = openImplementation({ dataDir });   // durable (SQLite database in dataDir)
 *   const impl = openImplementation({});            // volatile (in-memory SQLite), same logic
 *   impl.apply(command) -> { ok: true, events } | { ok: false, error }
 *   impl.query({ name: "store", agent }) / impl.world() / impl.reset() / impl.close()
 *   impl.lastCommit                                 // rows and bytes the last durable write wrote
 *
 * Opening a data directory runs recovery (impl/durable/storage.ts): the world is exactly the
 * last committed command's state.
 */
import type { Query, QueryName } from "../spec/wire/index.ts";
import type { WorldView } from "../spec/index.ts";
import { Engine, type ApplyOutcome, type QueryOutcome } from "./engine.ts";
import { SqliteStorage, type CommitStats } from "./durable/storage.ts";

export type { ApplyOutcome, QueryOutcome, OutcomeError } from "./engine.ts";
export type { CommitStats } from "./durable/storage.ts";

export interface Implementation {
  apply(command: unknown): ApplyOutcome;
  query<N extends QueryName>(q: Query & { name: N }): QueryOutcome<N>;
  world(): WorldView;
  reset(): void;
  /** What the last durable write wrote: rows put, rows deleted, bytes of keys and values put. */
  readonly lastCommit: CommitStats;
  close(): void;
}

export interface OpenOptions {
  /** Data directory; omitted = volatile in-memory storage. */
  readonly dataDir?: string;
  /** Check after every commit that the store holds exactly the world (O(state) per command; tests). */
  readonly verifyStore?: boolean;
}

export const IMPLEMENTATION_NAME = "samsara-ripa-kit/impl";
export const IMPLEMENTATION_VERSION = "0.1.0";

export const openEngine = (opts: OpenOptions): Engine => {
  const storage = new SqliteStorage({
    ...(opts.dataDir === undefined ? {} : { dir: opts.dataDir }),
    ...(opts.verifyStore === undefined ? {} : { verify: opts.verifyStore }),
  });
  try {
    return new Engine(storage);
  } catch (e) {
    storage.close(); // recovery failed: leave the directory as it is
    throw e;
  }
};

export const openImplementation = (opts: OpenOptions = {}): Implementation => {
  const engine = openEngine(opts);
  return {
    apply: (command) => engine.apply(command),
    query: <N extends QueryName>(q: Query & { name: N }) => engine.query<N>(q),
    world: () => engine.worldView(),
    reset: () => engine.reset(),
    get lastCommit() {
      return engine.lastCommit;
    },
    close: () => engine.close(),
  };
};
