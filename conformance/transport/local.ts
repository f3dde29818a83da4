/** Spawn specs for the kit's own implementation (impl/main.ts), run with tsx from the repository root. */
import { KIT_ROOT } from "../kit-root.ts";
import type { SpawnSpec } from "./process.ts";

/** The repository root: the implementation runs from a clone of the kit only (it is not in the package). */
export const REPO_ROOT = KIT_ROOT;

/** `node --import tsx impl/main.ts --data-dir DIR` (the same as `npx tsx`, without npx's start-up cost). */
export const kitImplementation = (dataDir: string): SpawnSpec => ({
  command: process.execPath,
  args: ["--import", "tsx", "impl/main.ts", "--data-dir", dataDir],
  cwd: REPO_ROOT,
});
