/**
 * `srk certify --jobs N`: the N shards of one campaign as N runner processes side by side on this
 * machine (each drives its own implementation processes), then `srk merge` of their certificates.
 * Each child's progress lines are passed on prefixed with its shard; its summary is not printed
 * (the merged one is). A child that writes no certificate is named with its exit and stderr tail.
 *
 * Interrupts: the children run in their own process groups, so that a Ctrl-C on the terminal
 * reaches the parent only, which passes it on to each child exactly once (`signal`, fired by srk
 * certify's interrupt listener); each child then writes its partial certificate and they are
 * merged as usual. Were they in the terminal's group, they would get the Ctrl-C and the parent's
 * copy of it, a second interrupt, which makes srk quit without a certificate. Should the parent
 * exit before its children (a second interrupt), it passes that on too.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CertifyResult } from "../core/certify-result.ts";
import { KIT_ROOT } from "../kit-root.ts";
import { mergeCertificates } from "./merge.ts";
import { UsageError } from "../driver/command-line.ts";
import { cutShortOf, onAbort } from "../core/abort.ts";

/** srk's exit code of a usage error (conformance/cli/main.ts EXIT_USAGE). */
const EXIT_USAGE_CODE = 64;

export class JobFailed extends Error {
  override readonly name = "JobFailed";
}

/** Runs `srk certify <args> --shard i/N --out <outDir>/shards/i` for i = 1..N and merges them. */
export const certifyInJobs = async (
  args: readonly string[],
  jobs: number,
  outDir: string,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  signal?: AbortSignal,
): Promise<CertifyResult> => {
  const shardDir = (i: number): string => join(outDir, "shards", `shard-${i}`);
  const running = new Set<ReturnType<typeof spawn>>();
  /** The interrupt to pass on: the one the parent received (SIGTERM when the abort came from elsewhere). */
  const interrupt = (): NodeJS.Signals =>
    signal === undefined ? "SIGTERM" : (cutShortOf(signal).osSignal ?? "SIGTERM");
  const passOn = (): void => {
    for (const child of running) child.kill(interrupt());
  };
  const stopListening = onAbort(signal, passOn);
  process.once("exit", passOn);
  const runs = Array.from({ length: jobs }, (_, k) => k + 1).map(
    (i) =>
      new Promise<{ i: number; code: number | null; tail: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [join(KIT_ROOT, "bin", "srk.mjs"), "certify", ...args, "--shard", `${i}/${jobs}`, "--out", shardDir(i)],
          {
            stdio: ["ignore", "ignore", "pipe"],
            detached: true,
          },
        );
        running.add(child);
        // An interrupt that came while the children were being started reaches this one too.
        if (signal?.aborted === true) child.kill(interrupt());
        let tail = "";
        let partial = "";
        child.stderr.on("data", (chunk: Buffer) => {
          const text = partial + chunk.toString("utf8");
          const lines = text.split("\n");
          partial = lines.pop() ?? "";
          for (const l of lines) log(`[shard ${i}/${jobs}] ${l}`);
          tail = (tail + text).slice(-4_000);
        });
        child.on("close", (code) => {
          running.delete(child);
          resolve({ i, code, tail });
        });
      }),
  );
  const done = await Promise.all(runs).finally(() => {
    stopListening();
    process.off("exit", passOn);
  });
  const lost = done.filter((d) => !existsSync(join(shardDir(d.i), "certificate.json")));
  // A usage error (exit 64: a program that cannot be started, say) is the same in every shard: said once, as srk certify says it.
  const usage = lost.find((d) => d.code === EXIT_USAGE_CODE);
  if (usage !== undefined && lost.length === done.length) {
    const line = usage.tail.split("\n").find((l) => l.startsWith("srk: "));
    if (line !== undefined) throw new UsageError(line.slice("srk: ".length));
  }
  if (lost.length > 0) {
    throw new JobFailed(
      lost.map((d) => `shard ${d.i}/${jobs} wrote no certificate (exit ${d.code}); stderr tail:\n${d.tail}`).join("\n"),
    );
  }
  return mergeCertificates(
    done.map((d) => join(shardDir(d.i), "certificate.json")),
    outDir,
  );
};
