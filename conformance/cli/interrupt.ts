/**
 * SIGINT (Ctrl-C) and SIGTERM during `srk certify`: the first one aborts the certification's
 * signal, whose reason says which signal it was ("interrupted by SIGINT"); the certification then
 * stops the implementation's processes, writes a partial certificate and exits with its code (2,
 * inconclusive, or 1 when a violation was found before the interrupt). A second signal means the
 * user will not wait for that: the runner exits at once with 128 + the signal's number, and the
 * exit hook of transport/process.ts SIGKILLs every process group still alive.
 */
import { constants } from "node:os";
import { CutShort, manyListeners } from "../core/abort.ts";

export const INTERRUPTS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export interface Interrupt {
  /** Aborted by the first interrupt, with a CutShort reason. */
  readonly signal: AbortSignal;
  /** Stops listening (the default behaviour of the signals is back). */
  dispose(): void;
  /**
   * After an interrupted certification has written its certificate: exits now with `code`. The
   * stage that was cut short may still be unwinding in the background (its own timers, a process
   * it started without the signal) and nothing it does is recorded any more, so the runner does
   * not wait for it; the exit hook of transport/process.ts SIGKILLs any process group still alive.
   * Does nothing when there was no interrupt.
   */
  exitIfInterrupted(code: number): void;
}

/** Listens for `signals` (while listening, they no longer kill the process); `onFirst` is told of the first. */
export const listenForInterrupts = (
  onFirst: (s: NodeJS.Signals) => void,
  signals: readonly NodeJS.Signals[] = INTERRUPTS,
): Interrupt => {
  const c = new AbortController();
  manyListeners(c.signal);
  const handler = (s: NodeJS.Signals): void => {
    if (c.signal.aborted) {
      process.exit(128 + constants.signals[s]);
    }
    onFirst(s);
    c.abort(new CutShort(`interrupted by ${s}`, s));
  };
  for (const s of signals) process.on(s, handler);
  return {
    signal: c.signal,
    dispose: () => {
      for (const s of signals) process.off(s, handler);
    },
    exitIfInterrupted: (code) => {
      if (c.signal.aborted) process.exit(code);
    },
  };
};

/**
 * Runs `work` under the interrupts, for the commands that drive an implementation without writing a
 * certificate (srk replay, srk golden): the first SIGINT or SIGTERM says so on stderr and aborts the
 * signal `work` started its processes under, so they are stopped (SIGTERM, then SIGKILL) and the
 * work rejects with a CutShort; once `work` has let its processes go, the command exits with 128 +
 * the signal's number, as a shell reports a command a signal ended. A second signal exits at once.
 */
export const interruptible = async <T>(command: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
  const interrupt = listenForInterrupts((s) =>
    process.stderr.write(`srk ${command}: ${s}: stopping the implementation\n`),
  );
  try {
    return await work(interrupt.signal);
  } catch (e) {
    if (e instanceof CutShort && interrupt.signal.aborted) {
      const s = (interrupt.signal.reason as CutShort).osSignal ?? "SIGINT";
      process.stderr.write(`srk ${command}: ${e.message}; no implementation process is left\n`);
      process.exit(128 + constants.signals[s]);
    }
    throw e;
  } finally {
    interrupt.dispose();
  }
};
