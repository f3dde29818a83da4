/** `srk golden`: the golden stage alone, against any implementation, with a short report. */
import { match } from "ts-pattern";
import { goldenStage } from "../stages/golden.ts";
import { Target } from "../driver/target.ts";
import { Undrivable, WireBreak } from "../core/driver-errors.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";
import { streamProgress } from "../core/progress.ts";

export const runGolden = async (
  commandLine: string,
  startupTimeoutMs = 30_000,
  signal?: AbortSignal,
): Promise<{ text: string; exitCode: 0 | 1 | 2 }> => {
  const target = new Target({ commandLine, requestTimeoutMs: 15_000, startupTimeoutMs });
  target.signal = signal;
  try {
    // A program that cannot be started is a usage error (exit 64), thrown to the command line.
    const first = await target.openFirst();
    const hello = first.client.hello;
    await first.close();
    const settings = { seed: 1, runs: 0, timeBudgetMs: 300_000, requestTimeoutMs: 15_000, startupTimeoutMs, only: [] };
    const out = await goldenStage({
      settings,
      hello,
      families: hello.profile.families,
      crashHook: hello.profile.crash_hook,
      target,
      witnesses: new WitnessBook(),
      progress: streamProgress(process.stderr),
      deadline: Date.now() + settings.timeBudgetMs,
      ...(signal === undefined ? {} : { signal }),
    });
    const lines = [
      `golden: ${out.verdict} — ${out.reason}`,
      ...out.notes.map((n) => `  ${n}`),
      ...out.findings.map((f) => `  ${f.invariant ?? "wire"}: ${f.summary}`),
    ];
    // Nothing to replay (no session fits the profile) is no self-check: inconclusive, like a hang.
    const exitCode = match(out.verdict)
      .with("pass", () => 0 as const)
      .with("fail", () => 1 as const)
      .with("inconclusive", "not-applicable", "not-selected", () => 2 as const)
      .exhaustive();
    return { text: `${lines.join("\n")}\n`, exitCode };
  } catch (e) {
    if (e instanceof Undrivable || e instanceof WireBreak)
      return { text: `golden: inconclusive — ${e.message}\n`, exitCode: e instanceof WireBreak ? 1 : 2 };
    throw e;
  } finally {
    await target.dispose();
  }
};
