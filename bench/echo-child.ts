/**
 * The bare echo child of bench/runner.ts: answers every line with an empty success,
 * `{"type":"reply","id":<id>,"ok":true,"events":[]}`, doing nothing else — the fastest a process
 * behind the wire can answer, so the runner's client against it is the transport's ceiling.
 *
 *   node --import tsx bench/echo-child.ts
 */
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let id: unknown = null;
  try {
    id = (JSON.parse(line) as { id?: unknown }).id ?? null;
  } catch {
    id = null;
  }
  process.stdout.write(`{"type":"reply","id":${JSON.stringify(id)},"ok":true,"events":[]}\n`);
});
lines.on("close", () => process.exit(0));
