/**
 * Where committed state lives: an embedded SQLite database (better-sqlite3) holding the rows of
 * impl/core/persist.ts in one table. One durable write = one `commit(world)` = one SQLite
 * transaction writing only the rows the command changed (D-027: one accepted command = one
 * atomic durable change).
 *
 * Data directory layout:
 *   state.db          the database
 *   state.db-journal  SQLite's rollback journal: empty between transactions (see below)
 *
 * Settings, and why:
 *   journal_mode = TRUNCATE   a rollback journal. A transaction copies each page it is about to
 *                             change into the journal, writes the database, then commits by
 *                             truncating the journal to zero bytes. So the old page images (which
 *                             hold what a distillation or an excision deletes) exist only until
 *                             the commit point itself: no file under the directory keeps them
 *                             (W-7.2), without a checkpoint step as WAL would need.
 *   synchronous = FULL        the journal is fsynced before the database is written, the database
 *                             before the journal is truncated, and the truncation itself (the
 *                             commit point) is fsynced: a transaction is durable when COMMIT
 *                             returns.
 *   secure_delete = ON        deleted rows and freed pages are overwritten with zeros, so a deleted
 *                             trace or excised distillate is not left in free space.
 *   temp_store = MEMORY       no temporary files anywhere.
 *
 * Crash-cut hook (W-7.3): the N-th durable write from now dies at `before_commit` after all its
 * statements ran (the journal holds the old pages, nothing is committed) and before COMMIT; at
 * `after_commit` right after COMMIT returned (durable), before the reply.
 *
 * Recovery (W-7.1): opening the database rolls back a journal left by an interrupted transaction
 * (SQLite does this itself), then the rows are read into a World: O(state), no replay from genesis
 * (impl/core/persist.ts decodeWorld, impl/core/store.ts Lineage.fromSteps).
 *
 * Without a directory the same store runs on an in-memory database (volatile, no crash hook).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { compareCodeUnits } from "../../spec/index.ts";
import {
  ROWS_FORMAT,
  RowWriter,
  decodeWorld,
  emptyWorldRows,
  encodeWorld,
  type Row,
  type RowOp,
} from "../core/persist.ts";
import type { World } from "../core/world.ts";
import { dieNow, type CrashPlan, type CrashPoint } from "./crash.ts";

/** What one durable write wrote (the storage-level counter behind the O(change) tests). */
export interface CommitStats {
  /** Rows inserted or updated. */
  readonly rowsWritten: number;
  /** Rows deleted. */
  readonly rowsDeleted: number;
  /** UTF-8 bytes of the keys and values written. */
  readonly bytesWritten: number;
}

export interface Storage {
  /** Recovery: the committed world (empty if nothing was ever committed). */
  load(): World;
  /**
   * One durable write: what `world` changed since it was loaded or last committed. Throws on I/O
   * failure (the state on disk is then the old one or the new one; the caller reloads).
   */
  commit(world: World): void;
  /** One durable write: the empty world. Returns it. */
  reset(): World;
  /** Arm the crash-cut hook (on-disk storage only). */
  armCrash(writes: number, at: CrashPoint): void;
  readonly supportsCrash: boolean;
  /** What the last durable write wrote. */
  readonly lastCommit: CommitStats;
  close(): void;
}

export const DB_FILE = "state.db";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rows (
  agent TEXT NOT NULL,
  part  TEXT NOT NULL,
  key   TEXT NOT NULL,
  seq   INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (agent, part, key)
);
CREATE INDEX IF NOT EXISTS rows_by_seq ON rows (agent, part, seq);
`;

export interface SqliteOptions {
  /** Data directory; omitted = an in-memory database (volatile). */
  readonly dir?: string;
  /** How the crash hook dies (tests may replace it). */
  readonly die?: () => never;
  /**
   * Check after every commit that the database holds exactly the rows of the in-memory world and
   * that they decode back to it (O(state) per command: for tests).
   */
  readonly verify?: boolean;
}

const NO_WRITES: CommitStats = { rowsWritten: 0, rowsDeleted: 0, bytesWritten: 0 };

const byRow = (a: Row, b: Row): number =>
  compareCodeUnits(a.agent, b.agent) || compareCodeUnits(a.part, b.part) || compareCodeUnits(a.key, b.key);

export class SqliteStorage implements Storage {
  readonly supportsCrash: boolean;
  private readonly db: Database.Database;
  private readonly die: () => never;
  private readonly verify: boolean;
  private readonly writer = new RowWriter();
  private crash: CrashPlan | null = null;
  private nextSeq = 1;
  private last: CommitStats = NO_WRITES;
  private readonly stmt: {
    put: Database.Statement<[string, string, string, number, string]>;
    delete: Database.Statement<[string, string, string]>;
    deletePart: Database.Statement<[string, string]>;
    deleteFrom: Database.Statement<[string, string, number]>;
    deleteAgent: Database.Statement<[string]>;
    deleteAll: Database.Statement<[]>;
    all: Database.Statement<[], Row>;
    maxSeq: Database.Statement<[], { m: number | null }>;
  };

  constructor(opts: SqliteOptions = {}) {
    this.die = opts.die ?? dieNow;
    this.verify = opts.verify ?? false;
    this.supportsCrash = opts.dir !== undefined;
    if (opts.dir !== undefined) {
      mkdirSync(opts.dir, { recursive: true });
      if (existsSync(join(opts.dir, "state.json"))) {
        throw new Error(
          `${opts.dir} holds state.json, the snapshot of an earlier version of this implementation; it is not migrated`,
        );
      }
    }
    this.db = new Database(opts.dir === undefined ? ":memory:" : join(opts.dir, DB_FILE));
    try {
      this.db.pragma(`journal_mode = ${opts.dir === undefined ? "MEMORY" : "TRUNCATE"}`);
      this.db.pragma("synchronous = FULL");
      this.db.pragma("secure_delete = ON");
      this.db.pragma("temp_store = MEMORY");
      const fresh = this.db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'rows'").get() as {
        n: number;
      };
      if (fresh.n > 0) {
        const format = this.db
          .prepare("SELECT value FROM rows WHERE agent = '' AND part = 'meta' AND key = 'format'")
          .get() as { value: string } | undefined;
        if (format?.value !== JSON.stringify(ROWS_FORMAT))
          throw new Error(`unknown state format ${format?.value ?? "(none)"}`);
      }
      this.db.exec(`BEGIN IMMEDIATE; ${SCHEMA}`);
      this.stmt = {
        put: this.db.prepare(
          "INSERT INTO rows (agent, part, key, seq, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (agent, part, key) DO UPDATE SET value = excluded.value",
        ),
        delete: this.db.prepare("DELETE FROM rows WHERE agent = ? AND part = ? AND key = ?"),
        deletePart: this.db.prepare("DELETE FROM rows WHERE agent = ? AND part = ?"),
        deleteFrom: this.db.prepare("DELETE FROM rows WHERE agent = ? AND part = ? AND seq >= ?"),
        deleteAgent: this.db.prepare("DELETE FROM rows WHERE agent = ?"),
        deleteAll: this.db.prepare("DELETE FROM rows"),
        all: this.db.prepare("SELECT agent, part, key, value FROM rows ORDER BY agent, part, seq"),
        maxSeq: this.db.prepare("SELECT max(seq) AS m FROM rows"),
      };
      // A fresh store gets the empty world. Every open also writes and deletes a scratch row, so
      // this first transaction changes a page and commits by truncating the journal: a journal
      // left by a transaction killed before its commit began (its header is still zero, so
      // SQLite rightly ignores it) holds old page images, and is emptied before anything else.
      if (fresh.n === 0) this.apply(emptyWorldRows());
      this.db.prepare("INSERT INTO rows (agent, part, key, seq, value) VALUES ('', 'open', '', 0, '')").run();
      this.db.prepare("DELETE FROM rows WHERE agent = '' AND part = 'open'").run();
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      this.db.close();
      throw e;
    }
  }

  load(): World {
    const w = this.readWorld();
    this.nextSeq = (this.stmt.maxSeq.get()?.m ?? 0) + 1;
    this.writer.prime(w);
    return w;
  }

  private readWorld(): World {
    return decodeWorld(this.stmt.all.iterate());
  }

  get lastCommit(): CommitStats {
    return this.last;
  }

  armCrash(writes: number, at: CrashPoint): void {
    if (!this.supportsCrash) throw new Error("an in-memory store has no crash hook");
    this.crash = { remaining: writes, at };
  }

  commit(world: World): void {
    this.transaction(this.writer.delta(world));
    if (this.verify) this.check(world);
  }

  reset(): World {
    this.transaction([{ op: "deleteAll" }, ...emptyWorldRows()]);
    return this.load();
  }

  private apply(ops: readonly (RowOp | { op: "deleteAll" })[]): CommitStats {
    let rowsWritten = 0;
    let rowsDeleted = 0;
    let bytesWritten = 0;
    for (const o of ops) {
      switch (o.op) {
        case "put":
          this.stmt.put.run(o.agent, o.part, o.key, o.seq ?? this.nextSeq++, o.value);
          rowsWritten++;
          bytesWritten += Buffer.byteLength(o.key) + Buffer.byteLength(o.value);
          break;
        case "delete":
          rowsDeleted += this.stmt.delete.run(o.agent, o.part, o.key).changes;
          break;
        case "deletePart":
          rowsDeleted += this.stmt.deletePart.run(o.agent, o.part).changes;
          break;
        case "deleteFrom":
          rowsDeleted += this.stmt.deleteFrom.run(o.agent, o.part, o.seq).changes;
          break;
        case "deleteAgent":
          rowsDeleted += this.stmt.deleteAgent.run(o.agent).changes;
          break;
        case "deleteAll":
          rowsDeleted += this.stmt.deleteAll.run().changes;
          break;
      }
    }
    return { rowsWritten, rowsDeleted, bytesWritten };
  }

  /** One durable write: one transaction, with the crash hook on both sides of COMMIT. */
  private transaction(ops: readonly (RowOp | { op: "deleteAll" })[]): void {
    let fire: CrashPoint | null = null;
    if (this.crash !== null && --this.crash.remaining === 0) {
      fire = this.crash.at;
      this.crash = null;
    }
    this.db.exec("BEGIN IMMEDIATE");
    try {
      this.last = this.apply(ops);
      if (fire === "before_commit") this.die();
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw e;
    }
    if (fire === "after_commit") this.die();
  }

  /** The store check (`verify`): the rows are exactly the world's, and they decode back to it. */
  private check(world: World): void {
    const stored = [...this.stmt.all.iterate()];
    const expected = encodeWorld(world);
    const diff = firstRowDifference([...stored].sort(byRow), [...expected].sort(byRow));
    if (diff !== null) throw new Error(`store check: the database differs from the world after the commit: ${diff}`);
    const again = firstRowDifference(encodeWorld(decodeWorld(stored)).sort(byRow), [...expected].sort(byRow));
    if (again !== null) throw new Error(`store check: the rows do not decode back to the world: ${again}`);
  }

  close(): void {
    this.crash = null;
    if (this.db.open) this.db.close();
  }
}

const rowName = (r: Row | undefined): string =>
  r === undefined ? "no row" : `row ${r.agent.slice(0, 20)}…/${r.part}/${r.key}`;

const firstRowDifference = (a: readonly Row[], b: readonly Row[]): string | null => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || byRow(x, y) !== 0) return `stored ${rowName(x)}, expected ${rowName(y)}`;
    if (x.value !== y.value) {
      let at = 0;
      while (x.value[at] === y.value[at]) at++;
      const from = Math.max(0, at - 40);
      return `${rowName(x)}: stored …${x.value.slice(from, at + 80)}, expected …${y.value.slice(from, at + 80)}`;
    }
  }
  return null;
};
