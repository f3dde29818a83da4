/**
 * Where committed state lives. One durable write = one call to `commit(text)`; it replaces the
 * whole committed snapshot atomically (D-027: one accepted command = one atomic durable change).
 *
 * FileStorage layout under the data directory:
 *   state.json      the committed snapshot: {"format", "digest", "state"} (digest = SHA-256 of
 *                   the canonical state text, checked on open)
 *   state.json.tmp  a snapshot being written; deleted on open (it never committed)
 *
 * Commit protocol: write state.json.tmp, fsync it, rename it over state.json (atomic on POSIX),
 * fsync the directory. A crash before the rename leaves the previous snapshot; after it, the new
 * one. Because the whole snapshot is rewritten and the old file is unlinked by the rename,
 * content the state no longer holds (a distilled trace, an excised distillate) is no longer in
 * any file under the data directory.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { dieNow, type CrashPlan, type CrashPoint } from "./crash.ts";

export interface Storage {
  /** The committed snapshot text, or null if nothing was ever committed. */
  load(): string | null;
  /** Atomically replace the committed snapshot. Throws on I/O failure (state on disk is then old or new). */
  commit(text: string): void;
  /** Arm the crash-cut hook (FileStorage only). */
  armCrash(writes: number, at: CrashPoint): void;
  readonly supportsCrash: boolean;
  close(): void;
}

const STATE = "state.json";
const TEMP = "state.json.tmp";

const digestText = (text: string): string => `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;

/** The envelope written to disk: the state text plus its digest, so a damaged file is detected. */
const envelope = (stateText: string): string =>
  `{"format":"samsara-ripa-impl/snapshot/v1","digest":"${digestText(stateText)}","state":${stateText}}\n`;

const unwrap = (fileText: string, path: string): string => {
  const m = /^\{"format":"samsara-ripa-impl\/snapshot\/v1","digest":"(sha256:[0-9a-f]{64})","state":([\s\S]*)\}\n$/.exec(fileText);
  if (m === null) throw new Error(`${path} is not a snapshot file`);
  const [, digest, stateText] = m as unknown as [string, string, string];
  if (digestText(stateText) !== digest) throw new Error(`${path} is damaged: its digest does not match`);
  return stateText;
};

const writeFileDurably = (path: string, text: string): void => {
  const fd = openSync(path, "w", 0o600);
  try {
    const bytes = Buffer.from(text, "utf8");
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

const fsyncDir = (dir: string): void => {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

export class FileStorage implements Storage {
  readonly supportsCrash = true;
  private crash: CrashPlan | null = null;

  constructor(readonly dir: string, private readonly die: () => never = dieNow) {
    mkdirSync(dir, { recursive: true });
    this.recover();
  }

  /** Recovery: an uncommitted temp file (a crash mid-write) is discarded; nothing else is ever partial. */
  private recover(): void {
    for (const name of readdirSync(this.dir)) {
      if (name.endsWith(".tmp")) rmSync(join(this.dir, name), { force: true });
    }
    fsyncDir(this.dir);
  }

  load(): string | null {
    const path = join(this.dir, STATE);
    if (!existsSync(path)) return null;
    return unwrap(readFileSync(path, "utf8"), path);
  }

  armCrash(writes: number, at: CrashPoint): void {
    this.crash = { remaining: writes, at };
  }

  commit(text: string): void {
    let fire: CrashPoint | null = null;
    if (this.crash !== null && --this.crash.remaining === 0) {
      fire = this.crash.at;
      this.crash = null;
    }
    const temp = join(this.dir, TEMP);
    writeFileDurably(temp, envelope(text));
    if (fire === "before_commit") this.die();
    renameSync(temp, join(this.dir, STATE));
    fsyncDir(this.dir);
    if (fire === "after_commit") this.die();
  }

  close(): void {
    this.crash = null;
  }
}

/** Volatile storage for fast in-process tests: the same commit discipline, in memory. */
export class MemoryStorage implements Storage {
  readonly supportsCrash = false;
  private committed: string | null = null;
  load(): string | null {
    return this.committed;
  }
  commit(text: string): void {
    this.committed = text;
  }
  armCrash(): void {
    throw new Error("MemoryStorage has no crash hook");
  }
  close(): void {}
}
