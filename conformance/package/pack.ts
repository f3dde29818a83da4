/**
 * `npm pack` of the kit, run in a copy of the clone. `npm pack` builds into dist/ (prepack) and
 * removes it again (postpack): run in the clone itself, anything running `bin/srk.mjs` from the
 * clone meanwhile (another test file, a user's shell) finds a half-built dist/ and runs it. A CI
 * run failed so ("Cannot find module dist/conformance/trace/trace.js" from the Python examples'
 * `srk certify` while the package test packed), and the clone must stay as it was anyway.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { KIT_ROOT } from "../kit-root.ts";

export interface Packed {
  /** Absolute path of the tarball. */
  readonly tarball: string;
  readonly filename: string;
  readonly entryCount: number;
  readonly size: number;
  /** The copy of the clone it was packed from. */
  readonly copy: string;
}

/**
 * Copies the clone's files (tracked, plus new ones not ignored: what a commit of the working tree
 * would hold) into `into`, with the clone's node_modules linked in, so the build finds its tools.
 */
export const copyOfClone = (into: string): string => {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: KIT_ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of listed.split("\0")) {
    // A tracked file deleted in the working tree is not part of what would be committed.
    if (file === "" || !existsSync(join(KIT_ROOT, file))) continue;
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(KIT_ROOT, file), join(into, file));
  }
  symlinkSync(join(KIT_ROOT, "node_modules"), join(into, "node_modules"), "dir");
  return into;
};

/** Packs a copy of the clone (made under `dir`) into `dir`. */
export const packKit = (dir: string): Packed => {
  const copy = copyOfClone(join(dir, "kit"));
  const reported = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: copy,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_update_notifier: "false" },
    }),
  ) as { filename: string; entryCount: number; size: number }[];
  const info = reported[0];
  if (info === undefined) throw new Error("npm pack reported no tarball");
  return {
    tarball: join(dir, info.filename),
    filename: info.filename,
    entryCount: info.entryCount,
    size: info.size,
    copy,
  };
};
