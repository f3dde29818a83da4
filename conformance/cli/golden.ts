/** `srk golden`: the golden stage alone, against any implementation, with a short report. */
import { goldenStage } from "../stages/golden.ts";
import { Target } from "../driver/target.ts";
import { Undrivable, WireBreak } from "../stages/types.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";
import { streamProgress } from "./progress.ts";

export const runGolden = async (commandLine: string): Promise<{ text: string; exitCode: 0 | 1 | 2 }> => {
  const target = new Target({ commandLine, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000 });
  try {
    const first = await target.open();
    const hello = first.client.hello;
    await first.close();
    const settings = { seed: 1, runs: 0, timeBudgetMs: 300_000, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000, only: [] };
    const out = await goldenStage({
      settings, hello, families: hello.profile.families, crashHook: hello.profile.crash_hook, target,
      witnesses: new WitnessBook(), progress: streamProgress(process.stderr), deadline: Date.now() + settings.timeBudgetMs,
    });
    const lines = [`golden: ${out.verdict} — ${out.reason}`, ...out.notes.map((n) => `  ${n}`), ...out.findings.map((f) => `  ${f.invariant ?? "wire"}: ${f.summary}`)];
    return { text: `${lines.join("\n")}\n`, exitCode: out.verdict === "fail" ? 1 : out.verdict === "pass" ? 0 : 2 };
  } catch (e) {
    if (e instanceof Undrivable || e instanceof WireBreak) return { text: `golden: inconclusive — ${e.message}\n`, exitCode: e instanceof WireBreak ? 1 : 2 };
    throw e;
  } finally {
    await target.dispose();
  }
};
