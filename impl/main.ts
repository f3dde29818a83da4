/**
 * The implementation as a process speaking the JSON Lines wire protocol on stdin/stdout
 * (spec/wire/PROTOCOL.md). Logs go to stderr only.
 *
 *   npx tsx impl/main.ts --data-dir DIR        (or IMPL_DATA_DIR=DIR)
 *
 * Exit status: 0 on shutdown or end of input; 2 on bad usage; 3 if the data directory cannot
 * be recovered (it is left untouched for inspection).
 */
import { openEngine } from "./api.ts";
import type { Engine } from "./engine.ts";
import { MAX_LINE_BYTES } from "../spec/wire/index.ts";
import { LineFramer } from "./wire/framing.ts";
import { WireServer } from "./wire/server.ts";

const log = (msg: string): void => {
  process.stderr.write(`impl[${process.pid}]: ${msg}\n`);
};

const dataDirFromArgs = (argv: readonly string[]): string | undefined => {
  const i = argv.indexOf("--data-dir");
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith("--data-dir="));
  if (eq !== undefined) return eq.slice("--data-dir=".length);
  return process.env["IMPL_DATA_DIR"];
};

const dataDir = dataDirFromArgs(process.argv.slice(2));
if (dataDir === undefined || dataDir === "") {
  log("usage: impl/main.ts --data-dir DIR (or IMPL_DATA_DIR=DIR)");
  process.exit(2);
}

let engine: Engine;
try {
  engine = openEngine({ dataDir });
  const w = engine.worldView();
  log(`recovered ${w.agents.length} agent(s) at tick ${w.tick} from ${dataDir}`);
} catch (e) {
  log(`cannot recover ${dataDir}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(3);
}

const server = new WireServer(engine);
const framer = new LineFramer(MAX_LINE_BYTES);

process.stdin.on("data", (chunk: Buffer) => {
  for (const frame of framer.push(chunk)) {
    const reply = server.handle(frame);
    // On Linux, writes to a pipe are synchronous: a reply is out before the next request runs.
    if (reply !== null) process.stdout.write(`${JSON.stringify(reply)}\n`);
    if (server.shutDown) {
      // W-2.2: shutdown was answered; the rest of this chunk and anything after it is neither
      // read nor executed.
      process.stdin.pause();
      engine.close();
      process.exit(0);
    }
  }
});
process.stdin.on("end", () => {
  if (framer.pending > 0) log(`ignoring ${framer.pending} bytes of an unterminated last line`);
  engine.close();
  process.exit(0);
});
process.stdout.on("error", (e) => {
  log(`stdout closed (${e.message}); exiting`);
  process.exit(0);
});
