/**
 * The in-process face of the implementation, for fast property tests:
 *
 *   const impl = openImplementation({ dataDir });   // durable (FileStorage)
 *   const impl = openImplementation({});            // volatile (MemoryStorage), same logic
 *   impl.apply(command) -> { ok: true, events } | { ok: false, error }
 *   impl.query({ name: "store", agent }) / impl.world() / impl.reset() / impl.close()
 *
 * Opening a data directory runs recovery (impl/durable/storage.ts): the world is exactly the
 * last committed command's state.
 */
import type { Query, QueryName } from "../spec/wire/index.ts";
import type { WorldView } from "../spec/index.ts";
import { Engine, type ApplyOutcome, type QueryOutcome } from "./engine.ts";
import { FileStorage, MemoryStorage } from "./durable/storage.ts";

export type { ApplyOutcome, QueryOutcome, OutcomeError } from "./engine.ts";

export interface Implementation {
  apply(command: unknown): ApplyOutcome;
  query<N extends QueryName>(q: Query & { name: N }): QueryOutcome<N>;
  world(): WorldView;
  reset(): void;
  close(): void;
}

export interface OpenOptions {
  /** Data directory; omitted = volatile in-memory storage. */
  readonly dataDir?: string;
}

export const IMPLEMENTATION_NAME = "samsara-ripa-kit/impl";
export const IMPLEMENTATION_VERSION = "0.1.0";

export const openEngine = (opts: OpenOptions): Engine =>
  new Engine(opts.dataDir === undefined ? new MemoryStorage() : new FileStorage(opts.dataDir));

export const openImplementation = (opts: OpenOptions = {}): Implementation => {
  const engine = openEngine(opts);
  return {
    apply: (command) => engine.apply(command),
    query: <N extends QueryName>(q: Query & { name: N }) => engine.query<N>(q),
    world: () => engine.worldView(),
    reset: () => engine.reset(),
    close: () => engine.close(),
  };
};
