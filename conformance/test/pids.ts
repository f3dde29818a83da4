/**
 * Whether processes are still running, for the tests that check a runner leaves none behind: by
 * pid, a zombie (dead, not yet reaped by its new parent after the runner exited) counting as gone.
 */
import { existsSync, readFileSync } from "node:fs";

export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", comm may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return !existsSync("/proc/self"); // no /proc: trust kill(0)
  }
};

/** The pids the record-pid fixture (fixtures/record-pid.mjs) wrote to `log`, none if it was never written. */
export const recordedPids = (log: string): number[] =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map(Number)
    : [];

/** A command line of the kit's implementation that records its pid (fixtures/record-pid.mjs); run from the repository root. */
export const PID_RECORDING_KIT = `${process.execPath} --import tsx --import ./conformance/test/fixtures/record-pid.mjs impl/main.ts`;
