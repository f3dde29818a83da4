/**
 * Runs the kit's `srk` command line (bin/srk.mjs) from the repository root, as a user's shell
 * would, and returns its exit code and output whether it succeeded or not: the tests of the
 * command line read the code and the text of failures too.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

export interface SrkRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const srk = async (...args: string[]): Promise<SrkRun> => {
  try {
    const r = await run(process.execPath, ["bin/srk.mjs", ...args], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
};
