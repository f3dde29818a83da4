/** Spawn specs for the kit's own implementation (impl/main.ts), run with tsx from the repository root. */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SpawnSpec } from "./process.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `node --import tsx impl/main.ts --data-dir DIR` (the same as `npx tsx`, without npx's start-up cost). */
export const kitImplementation = (dataDir: string): SpawnSpec => ({
  command: process.execPath,
  args: ["--import", "tsx", "impl/main.ts", "--data-dir", dataDir],
  cwd: REPO_ROOT,
});
