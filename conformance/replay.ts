/**
 * `srk replay <trace.json> --impl "<command line>"`: re-runs a portable trace (spec/certificate.ts)
 * on any implementation, on a fresh data directory, and says whether it still fails and where.
 * A trace that arms the crash hook (`crash_after`) expects the process to die: the runner then
 * restarts it on the same directory and carries on with the next request, as the crash stage did.
 * An accepted `shutdown` is followed the same way: a restart on the same directory, then the rest.
 */
import type { PortableTrace } from "../spec/certificate.ts";
import type { Reply } from "../spec/wire/index.ts";
import type { ExpectedReply } from "./core/reply.ts";
import { Target, type Session } from "./driver/target.ts";
import { comparePlanned, type PlannedStep } from "./oracle/planned.ts";
import { Undrivable, WireBreak } from "./core/driver-errors.ts";

export type ReplayVerdict =
  | { readonly kind: "still-fails"; readonly step: number; readonly summary: string }
  | { readonly kind: "passes"; readonly steps: number }
  | { readonly kind: "undrivable"; readonly reason: string };

export interface ReplayOptions {
  readonly commandLine: string;
  readonly cwd?: string;
  readonly requestTimeoutMs?: number;
  readonly startupTimeoutMs?: number;
  /** Stops the implementation's processes when it fires (srk replay's interrupt): the replay rejects with a CutShort. */
  readonly signal?: AbortSignal;
}

export const replayTrace = async (trace: PortableTrace, o: ReplayOptions): Promise<ReplayVerdict> => {
  const target = new Target({
    commandLine: o.commandLine,
    requestTimeoutMs: o.requestTimeoutMs ?? 15_000,
    startupTimeoutMs: o.startupTimeoutMs ?? 30_000,
    ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
  });
  target.signal = o.signal;
  const steps: PlannedStep[] = trace.steps.map((s) => ({
    request: s.request as PlannedStep["request"],
    expected: s.expected as ExpectedReply,
    ...(s.model === undefined
      ? {}
      : {
          rejectedAt:
            s.model.rule === undefined ? { check: s.model.check } : { check: s.model.check, rule: s.model.rule },
        }),
  }));
  let session: Session | null = null;
  let armed = false;
  try {
    session = await target.openFirst();
    for (const [i, step] of steps.entries()) {
      if (step.request.type === "crash_after") armed = true;
      const o2 = await session.client.send({ ...step.request });
      if (o2.kind === "exited" && armed) {
        // The hook fired at this request: restart on the same directory and go on (W-7.3).
        armed = false;
        await session.restart();
        continue;
      }
      if (step.request.type === "shutdown" && o2.kind === "reply" && o2.reply.ok) {
        // A clean stop (W-2.2) inside a trace: the process is started again on the same directory
        // and the trace goes on, as the golden recovery check did (W-7.1).
        await session.restart();
        continue;
      }
      let reply: Reply;
      try {
        reply = session.check(o2, `step ${i + 1}`);
      } catch (e) {
        if (e instanceof WireBreak)
          return { kind: "still-fails", step: i + 1, summary: `${e.rule}: ${e.message}; raw: ${e.raw}` };
        throw e;
      }
      const m = comparePlanned(steps, i, reply);
      if (m !== null)
        return {
          kind: "still-fails",
          step: i + 1,
          summary: `${m.summary}${m.invariant === null ? "" : ` [${m.invariant}]`}`,
        };
    }
    return { kind: "passes", steps: steps.length };
  } catch (e) {
    if (e instanceof Undrivable) return { kind: "undrivable", reason: e.message };
    if (e instanceof WireBreak)
      return { kind: "still-fails", step: -1, summary: `${e.rule}: ${e.message}; raw: ${e.raw}` };
    throw e;
  } finally {
    await target.dispose();
  }
};
