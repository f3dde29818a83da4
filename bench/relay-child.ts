/**
 * The bare relay of bench/log.ts: a process between a client and an implementation that only
 * copies its stdin to the implementation's stdin and the implementation's stdout to its stdout
 * (each chunk written on as it arrives, as `srk record` does), logging nothing, and exits as the
 * implementation exited. Its round trip is the floor for any proxy process: the two extra pipe
 * hops and the extra process's event loop, with no work of its own.
 *
 *   node --import tsx bench/relay-child.ts <command> [args…]
 */
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write("usage: relay-child.ts <command> [args…]\n");
  process.exit(64);
}
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.on("data", (chunk: Buffer) => child.stdin.write(chunk));
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk: Buffer) => process.stdout.write(chunk));
child.on("close", (code, signal) => {
  process.exitCode = code ?? (signal === null ? 0 : 128);
  process.stdin.pause();
});
