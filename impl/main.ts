/**
 * The implementation as a process speaking the JSON Lines wire protocol on stdin/stdout
 * (spec/wire/PROTOCOL.md). Logs go to stderr only.
 *
 *   npx tsx impl/main.ts --data-dir DIR        (or IMPL_DATA_DIR=DIR)
 *   npx tsx impl/main.ts --data-dir DIR --families janma,samskara
 *
 * `--families` declares a smaller profile (W-5.2; default all four), so every profile of D-049 can
 * be certified with this implementation; commands of the other families are refused (UNSUPPORTED).
 *
 * `SRK_IMPL_EVENT_LOG=FILE` (opt-in, for testing and checking) appends one line per command and
 * reset to FILE in the implementation's own shape (impl/event-log.ts), which
 * `srk adapt-log impl-events` turns into a wire log (spec/LOG.md L-3, D-067). FILE must lie outside
 * the data directory: it keeps what the protocol forgets (W-7.2). An environment variable rather
 * than a flag, so it reaches the process through any runner's command line unchanged.
 *
 * Exit status: 0 on shutdown or end of input; 2 on bad usage; 3 if the data directory cannot
 * be recovered (it is left untouched for inspection).
 */
import { openEngine } from "./api.ts";
import type { Engine } from "./engine.ts";
import { MAX_LINE_BYTES } from "../spec/wire/index.ts";
import { LineFramer } from "./wire/framing.ts";
import { WireServer } from "./wire/server.ts";
import { PROTOCOLS } from "../spec/catalog.ts";
import type { Family } from "../spec/profiles.ts";
import { EVENT_LOG_ENV, EventLog } from "./event-log.ts";

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

const familiesFromArgs = (argv: readonly string[]): readonly Family[] => {
  const i = argv.indexOf("--families");
  const eq = argv.find((a) => a.startsWith("--families="));
  const text = i >= 0 ? argv[i + 1] : eq?.slice("--families=".length);
  if (text === undefined) return PROTOCOLS;
  const names = text === "" ? [] : text.split(",");
  const unknown = names.filter((n) => !(PROTOCOLS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    log(
      `--families: unknown famil${unknown.length === 1 ? "y" : "ies"} ${unknown.join(", ")}; expected a comma-separated subset of ${PROTOCOLS.join(", ")}`,
    );
    process.exit(2);
  }
  return PROTOCOLS.filter((f) => names.includes(f));
};

const families = familiesFromArgs(process.argv.slice(2));
const dataDir = dataDirFromArgs(process.argv.slice(2));
if (dataDir === undefined || dataDir === "") {
  log("usage: impl/main.ts --data-dir DIR (or IMPL_DATA_DIR=DIR)");
  process.exit(2);
}

// Checked before the data directory is opened, so a refused log leaves everything untouched.
let eventLog: EventLog | null = null;
const eventLogFile = process.env[EVENT_LOG_ENV];
if (eventLogFile !== undefined && eventLogFile !== "") {
  try {
    eventLog = EventLog.open(eventLogFile, dataDir);
  } catch (e) {
    log(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
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

eventLog?.observe(engine);
const server = new WireServer(engine, families);
const framer = new LineFramer(MAX_LINE_BYTES);

process.stdin.on("data", (chunk: Buffer) => {
  for (const frame of framer.push(chunk)) {
    const reply = server.handle(frame);
    // On Linux, writes to a pipe are synchronous: a reply is out before the next request runs.
    if (reply !== null) {
      eventLog?.answered(reply); // before the reply: see EventLog.answered
      process.stdout.write(`${JSON.stringify(reply)}\n`);
    }
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
