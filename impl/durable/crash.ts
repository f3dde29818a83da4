/**
 * The crash-cut hook (spec/wire/PROTOCOL.md W-7.3): armed with "die at the N-th durable write from
 * now", either right before that write commits (its SQLite transaction has run every statement,
 * COMMIT is not issued) or right after it is durable (COMMIT returned) and before anything else
 * happens, notably before the reply.
 */
export type CrashPoint = "before_commit" | "after_commit";

export interface CrashPlan {
  remaining: number;
  readonly at: CrashPoint;
}

/** Dies abruptly, as a power cut would: no exit handlers, no flushing. Never returns. */
export const dieNow = (): never => {
  process.kill(process.pid, "SIGKILL");
  // SIGKILL is delivered asynchronously to ourselves; block until it lands.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  process.exit(137);
};
