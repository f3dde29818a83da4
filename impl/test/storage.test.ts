/**
 * The SQLite storage itself (impl/durable/storage.ts, impl/durable/crash.ts), below the engine:
 * opening a data directory, the journal that keeps no old pages (W-7.2), the crash-cut hook on
 * both sides of COMMIT (W-7.3) and recovery of what was committed (W-7.1), the insertion order
 * of rows across reopens, the commit counters, and the store check (`verify`).
 */
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ROWS_FORMAT } from "../core/persist.ts";
import { dieNow } from "../durable/crash.ts";
import { DB_FILE, SqliteStorage } from "../durable/storage.ts";
import { Engine } from "../engine.ts";
import * as f from "./fixtures.ts";
import { tempDir } from "./wire-driver.ts";

const dirs: string[] = [];
const newDir = (): string => {
  const d = tempDir("impl-storage-");
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

class Died extends Error {}
const die = (): never => {
  throw new Died("crash hook fired");
};

/** Runs SQL on the database file through a second connection (the store must be closed or idle). */
const tamper = (dir: string, sql: string): void => {
  const db = new Database(join(dir, DB_FILE));
  db.prepare(sql).run();
  db.close();
};

describe("the SQLite storage", () => {
  it("opens a data directory that does not exist yet, and only an on-disk store has the crash hook (W-7.3)", () => {
    const dir = join(newDir(), "nested", "data");
    const disk = new SqliteStorage({ dir, die });
    expect(disk.supportsCrash).toBe(true);
    expect(() => disk.armCrash(1, "after_commit")).not.toThrow();
    expect(existsSync(join(dir, DB_FILE))).toBe(true);
    disk.close();

    const memory = new SqliteStorage({ die });
    expect(memory.supportsCrash).toBe(false);
    expect(() => memory.armCrash(1, "after_commit")).toThrow();
    memory.close();
  });

  it("refuses a directory holding the state.json snapshot of an earlier version (not migrated)", () => {
    const dir = newDir();
    writeFileSync(join(dir, "state.json"), "{}");
    expect(() => new SqliteStorage({ dir })).toThrow(/state\.json/);
    expect(existsSync(join(dir, DB_FILE))).toBe(false);
  });

  it("refuses a database of an unknown row format or with no format row, with the format error", () => {
    const dir = newDir();
    new SqliteStorage({ dir }).close();
    tamper(dir, `UPDATE rows SET value = '"some-other/rows/v9"' WHERE agent = '' AND part = 'meta' AND key = 'format'`);
    expect(() => new SqliteStorage({ dir })).toThrow(/unknown state format "some-other\/rows\/v9"/);
    tamper(dir, "DELETE FROM rows WHERE agent = '' AND part = 'meta' AND key = 'format'");
    expect(() => new SqliteStorage({ dir })).toThrow(/unknown state format \(none\)/);
    tamper(dir, `INSERT INTO rows VALUES ('', 'meta', 'format', 1, '${JSON.stringify(ROWS_FORMAT)}')`);
    const s = new SqliteStorage({ dir });
    expect(s.load().tick).toBe(0);
    s.close();
  });

  it("keeps a rollback journal that is truncated to zero bytes at every commit (journal_mode TRUNCATE, W-7.2)", () => {
    const dir = newDir();
    const s = new SqliteStorage({ dir });
    const w = s.load();
    w.tick = 4;
    s.commit(w);
    const journal = join(dir, `${DB_FILE}-journal`);
    expect(existsSync(journal)).toBe(true);
    expect(statSync(journal).size).toBe(0);
    s.close();
  });

  it("dies at before_commit with nothing committed, and at after_commit with the write durable (W-7.3, W-7.1)", () => {
    const dir = newDir();
    const s = new SqliteStorage({ dir, die });
    let w = s.load();

    s.armCrash(1, "before_commit");
    w.tick = 7;
    expect(() => s.commit(w)).toThrow(Died);
    w = s.load(); // what the engine does after a failed commit
    expect(w.tick).toBe(0);
    const other = new SqliteStorage({ dir });
    expect(other.load().tick).toBe(0);
    other.close();

    // The hook fired once and is disarmed.
    w.tick = 8;
    s.commit(w);
    expect(s.load().tick).toBe(8);

    // The second durable write from now dies after its COMMIT: the first one does not die.
    w = s.load();
    s.armCrash(2, "after_commit");
    w.tick = 9;
    s.commit(w);
    w.tick = 10;
    expect(() => s.commit(w)).toThrow(Died);
    s.close();
    const reopened = new SqliteStorage({ dir });
    expect(reopened.load().tick).toBe(10);
    reopened.close();
  });

  it("keeps the insertion order of a part's rows, also for rows added after a reopen", () => {
    const dir = newDir();
    const s = new SqliteStorage({ dir });
    const w = s.load();
    for (const r of ["root-b", "root-c", "root-a"]) w.rootsUsed.add(r);
    s.commit(w);
    expect([...s.load().rootsUsed]).toEqual(["root-b", "root-c", "root-a"]);
    s.close();

    const again = new SqliteStorage({ dir });
    const w2 = again.load();
    expect([...w2.rootsUsed]).toEqual(["root-b", "root-c", "root-a"]);
    w2.rootsUsed.add("root-0");
    again.commit(w2);
    again.close();
    const third = new SqliteStorage({ dir });
    expect([...third.load().rootsUsed]).toEqual(["root-b", "root-c", "root-a", "root-0"]);
    third.close();
  });

  it("counts the rows and bytes of a durable write (reset: every row out, the empty world's two rows in)", () => {
    const s = new SqliteStorage();
    const w = s.load();
    w.tick = 12;
    for (const r of ["r1", "r2", "r3"]) w.rootsUsed.add(r);
    s.commit(w);
    expect(s.lastCommit).toEqual({
      rowsWritten: 4,
      rowsDeleted: 0,
      bytesWritten: "tick".length + "12".length + 3 * "r1".length,
    });
    const empty = s.reset();
    expect(empty.tick).toBe(0);
    expect(s.lastCommit).toEqual({
      rowsWritten: 2,
      rowsDeleted: 2 + 3, // meta format and tick, three roots
      bytesWritten: "format".length + JSON.stringify(ROWS_FORMAT).length + "tick".length + "0".length,
    });
    s.close();
  });

  it("rewrites an agent set again in the world as a whole: its rows out, then in, and nothing else touched", () => {
    const s = new SqliteStorage({ verify: true });
    const engine = new Engine(s);
    const minted = engine.apply(f.mint(1, "root-storage"));
    expect(minted.ok).toBe(true);
    const w = s.load();
    const id = f.identityOfRoot("root-storage");
    const agent = w.agents.get(id);
    expect(agent).toBeDefined();
    w.agents.set(id, agent as NonNullable<typeof agent>);
    s.commit(w); // the store check (verify) holds: every row is the world's
    const { rowsWritten, rowsDeleted } = s.lastCommit;
    expect(rowsDeleted).toBeGreaterThan(0);
    expect(rowsDeleted).toBe(rowsWritten);
    const again = s.load();
    expect(again.tick).toBe(1);
    expect([...again.rootsUsed]).toEqual(["root-storage"]);
    expect([...again.agents.keys()]).toEqual([id]);
    s.close();
  });

  it("is unusable once closed, and closing twice is harmless", () => {
    const s = new SqliteStorage();
    s.close();
    expect(() => s.load()).toThrow();
    expect(() => s.close()).not.toThrow();
  });

  // The store check (`verify`) compares every row with the world after each commit: a database
  // changed behind the store's back must be reported as differing from the world.
  const tampered: [string, string][] = [
    ["a row's value", "UPDATE rows SET value = 'x' WHERE agent = '' AND part = 'root' AND key = 'r1'"],
    ["a row's key", "UPDATE rows SET key = 'r0' WHERE agent = '' AND part = 'root' AND key = 'r1'"],
    ["an extra row sorting last", "INSERT INTO rows VALUES ('', 'zzz', 'k', 99, '')"],
    ["a missing row sorting last", "DELETE FROM rows WHERE agent = '' AND part = 'root' AND key = 'r1'"],
    [
      "a value that differs after a common prefix",
      `UPDATE rows SET value = '"samsara-ripa-impl/rows/v0"' WHERE agent = '' AND part = 'meta' AND key = 'format'`,
    ],
  ];
  it("the store check reports a database changed behind the store's back (a value, a key, a last row extra or missing)", () => {
    for (const [what, sql] of tampered) {
      const dir = newDir();
      const s = new SqliteStorage({ dir, verify: true });
      const w = s.load();
      w.rootsUsed.add("r1");
      s.commit(w);
      tamper(dir, sql);
      w.tick = 1;
      expect(() => s.commit(w), what).toThrow(/the database differs from the world/);
      s.close();
    }
  });

  it("the crash hook dies by SIGKILL to its own process (no exit handlers run)", () => {
    class Killed extends Error {}
    const kill = vi.spyOn(process, "kill").mockImplementation(() => {
      throw new Killed();
    });
    expect(() => dieNow()).toThrow(Killed);
    expect(kill).toHaveBeenCalledWith(process.pid, "SIGKILL");
  });
});
