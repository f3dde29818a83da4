/**
 * One JSON snapshot of the whole state under the data directory, replaced atomically (W-7.1):
 * each accepted command and each `reset` is one `save`, which writes the new snapshot to a
 * temporary file, fsyncs it, renames it over the old one and fsyncs the directory. A crash at any
 * instant leaves either the old snapshot or the new one, never a mixture; a temporary file left by
 * an interrupted write is removed by `openSnapshot` before anything is served.
 *
 * Rewriting the whole file is also what W-7.2 asks for: once a life is distilled its trace is no
 * longer in the state, so it is in no file either (an append-only log of commands would keep it).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const FILE = "state.json";
const TEMP = "state.json.tmp";

/** @param {string} path */
const fsyncPath = (path) => {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * @template T
 * @param {string} dir the data directory (created if absent)
 * @param {() => T} empty the state of a fresh directory
 * @returns {{ state: T, save: (next: T) => void }} the recovered state, and the durable write
 */
export const openSnapshot = (dir, empty) => {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, FILE);
  const temp = join(dir, TEMP);
  rmSync(temp, { force: true }); // an interrupted write that never committed (W-7.1)
  let state = empty();
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8");
    try {
      state = JSON.parse(text);
    } catch (e) {
      throw new Error(
        `${file} is not the JSON snapshot this program writes (${/** @type {Error} */ (e).message}); was the data directory used by another program?`,
      );
    }
  }
  const save = (next) => {
    const fd = openSync(temp, "w");
    try {
      writeSync(fd, JSON.stringify(next));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file); // the commit
    fsyncPath(dir);
  };
  return { state, save };
};
