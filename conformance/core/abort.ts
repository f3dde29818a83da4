/**
 * Cancellation of a certification (issue 22, item 5): one AbortSignal, from `srk certify`'s
 * SIGINT/SIGTERM handler or a library caller, combined with each stage's time limit, reaches the
 * transport, where it rejects the requests in flight, stops the implementation's processes and
 * refuses to start new ones. The reason a signal carries is a `CutShort`, so that whoever catches
 * the rejection can say why the work stopped.
 *
 * `CutShort` is not an `Undrivable`: the implementation did nothing wrong, and a stage that turns
 * every Undrivable into an implementation fault must not blame it for the runner stopping.
 */

import { setMaxListeners } from "node:events";

/** The work was stopped by the runner (an interrupt, or a stage's time limit), not by the implementation. */
export class CutShort extends Error {
  override readonly name = "CutShort";
  /**
   * `why` completes "cut short: …", e.g. "interrupted by SIGINT"; `osSignal` is the signal that
   * interrupted the runner, if one did (`srk certify --jobs` passes it on to its shards).
   */
  constructor(
    readonly why: string,
    readonly osSignal?: NodeJS.Signals,
  ) {
    super(`cut short: ${why}`);
  }
}

/** The CutShort an aborted signal stands for (a reason of another kind, from a foreign caller, is described). */
export const cutShortOf = (signal: AbortSignal): CutShort => {
  const r: unknown = signal.reason;
  if (r instanceof CutShort) return r;
  if (r instanceof Error) return new CutShort(r.name === "TimeoutError" ? "a time limit ended" : r.message);
  return new CutShort(r === undefined ? "aborted" : String(r));
};

/** Throws the signal's CutShort when it has fired. */
export const throwIfCut = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted === true) throw cutShortOf(signal);
};

/**
 * Lets `signal` carry a listener per live process without Node's leak warning (its default limit
 * is 10): every client and every implementation process listens while it runs and stops listening
 * when it exits (client.ts, process.ts), so the count is bounded by the processes alive at once,
 * which a stage with a dozen sessions exceeds. A real leak still shows past this limit.
 */
export const MAX_SIGNAL_LISTENERS = 1_000;
export const manyListeners = (signal: AbortSignal): AbortSignal => {
  setMaxListeners(MAX_SIGNAL_LISTENERS, signal);
  return signal;
};

/** Runs `f` once when `signal` fires (at once if it already has); the returned function stops listening. */
export const onAbort = (signal: AbortSignal | undefined, f: () => void): (() => void) => {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    f();
    return () => {};
  }
  signal.addEventListener("abort", f, { once: true });
  return () => signal.removeEventListener("abort", f);
};

/**
 * A signal that fires after `ms` with `reason`, and a `clear` that stops its timer. Unlike
 * AbortSignal.timeout, the timer keeps the process alive: a stage stuck on a promise that holds no
 * handle is still cut short, as withDeadline's timer did; `clear` must run when the stage is over.
 */
export const timeLimit = (ms: number, reason: CutShort): { readonly signal: AbortSignal; clear(): void } => {
  const c = new AbortController();
  manyListeners(c.signal);
  const timer = setTimeout(() => c.abort(reason), Math.max(0, ms));
  return { signal: c.signal, clear: () => clearTimeout(timer) };
};

/** A promise that rejects with the signal's CutShort when it fires (never settles otherwise); `stop` detaches it. */
export const whenAborted = (signal: AbortSignal): { readonly promise: Promise<never>; stop(): void } => {
  let stop = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    stop = onAbort(signal, () => reject(cutShortOf(signal)));
  });
  return { promise, stop };
};
