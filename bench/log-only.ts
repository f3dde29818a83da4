/**
 * The wire-log section of the benchmark alone (bench/log.ts), for work on check-log or srk record
 * without the full run's minutes: prints the section's figures and its three goals as `npm run
 * bench` would evaluate them, and writes nothing.
 *
 *   nice -n 15 npx tsx bench/log-only.ts          (BENCH_QUICK=1 for small sizes)
 */
import { makeContext } from "./context.ts";
import { logGoals, runLog } from "./log.ts";

const main = async (): Promise<void> => {
  const ctx = makeContext(process.env["BENCH_QUICK"] === "1");
  try {
    const r = await runLog(ctx);
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    for (const g of logGoals(r))
      process.stdout.write(
        `${g.status}: ${g.name}: ${g.ratio === null ? "" : `${g.ratio.toFixed(3)}× (goal ${g.goal.text})`}\n  ${g.note}\n`,
      );
  } finally {
    ctx.cleanup();
  }
};
void main();
