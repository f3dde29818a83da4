/**
 * The process around the wire face (spec/wire/PROTOCOL.md W-1, W-2.2): reads stdin in chunks,
 * frames lines (framing.mjs), answers each in order through wire.mjs, writes one reply per line to
 * stdout, and exits with status 0 after the reply to `shutdown` (dropping whatever follows it, even
 * in the same chunk, D-040) or at the end of input (an unterminated last line is ignored, W-1.7).
 *
 * Handlers may return promises: lines are still answered strictly one after another (W-1.6). When
 * stdout is not being read fast enough, reading stdin pauses until it drains, so a runner that
 * pipelines thousands of requests never makes the process buffer their replies without bound.
 */
import { LineFramer } from "./framing.mjs";
import { createWire } from "./wire.mjs";

/**
 * Serves the wire protocol until shutdown or the end of input.
 * @param {Parameters<typeof createWire>[0] & { input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream, exit?: boolean }} options
 *   `input`/`output`: the streams (default stdin/stdout); `exit`: call process.exit(0) at the end
 *   (default: true when serving stdin).
 * @returns {Promise<"shutdown" | "end">} how serving ended
 */
export const serve = (options) => {
  const { input = process.stdin, output = process.stdout, exit = input === process.stdin, ...wireOptions } = options;
  const wire = createWire(wireOptions); // throws on a bad configuration, before any line is read
  const framer = new LineFramer();
  /** @type {ReturnType<LineFramer["push"]>} */
  const queue = [];
  let ended = false;
  let pumping = false;
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });

  let stopping = false;
  const stop = (how) => {
    if (stopping) return;
    stopping = true;
    input.removeListener("data", onData);
    input.removeListener("end", onEnd);
    if (typeof input.pause === "function") input.pause();
    queue.length = 0;
    // Exit only once stdout has taken the last reply (a write's callback runs when it is flushed).
    output.write("", () => {
      finish(how);
      if (exit) process.exit(0);
    });
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    while (queue.length > 0) {
      const frame = /** @type {NonNullable<(typeof queue)[number]>} */ (queue.shift());
      const reply = await wire.handle(frame);
      if (reply !== null) {
        let text;
        try {
          text = JSON.stringify(reply);
        } catch (e) {
          // A result JSON cannot write (a BigInt, a cycle): INTERNAL, indefinite (a command may have run).
          process.stderr.write(
            `the reply to request ${JSON.stringify(reply.id)} cannot be written as JSON: ${e instanceof Error ? e.message : String(e)}\n`,
          );
          text = JSON.stringify({
            type: "reply",
            id: reply.id,
            ok: false,
            error: {
              code: "INTERNAL",
              invariant: null,
              message: "INTERNAL: the handler's result is not JSON",
              definite: false,
            },
          });
        }
        if (!output.write(`${text}\n`)) {
          if (typeof input.pause === "function") input.pause();
          await new Promise((r) => output.once("drain", r));
          if (!wire.stopped && !ended && typeof input.resume === "function") input.resume();
        }
      }
      if (wire.stopped) {
        pumping = false;
        stop("shutdown");
        return;
      }
    }
    pumping = false;
    if (ended) stop("end");
  };

  const onData = (chunk) => {
    if (wire.stopped) return;
    for (const f of framer.push(chunk)) queue.push(f);
    void pump();
  };
  const onEnd = () => {
    if (stopping) return;
    ended = true; // W-1.7: what the framer still holds is an unterminated line, ignored
    void pump();
  };
  input.on("data", onData);
  input.on("end", onEnd);
  // A read error of stdin ends the input like its end does (W-1.7), after the lines already framed.
  input.on("error", onEnd);
  // The runner closing stdout (it killed the session) ends the process quietly.
  output.on("error", () => {
    if (exit) process.exit(0);
  });
  return done;
};
