/**
 * The adapter's process loop (serve.mjs): replies in order, one per non-empty line (W-1.6), even
 * when handlers are asynchronous and the input comes in one chunk; nothing after the reply to
 * shutdown (W-2.2, D-040); the end of input with an unterminated last line (W-1.7); an over-long
 * line split over chunks (W-1.4); a slow reader of stdout; and, as a real process, exit status 0.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, serve, type Handlers, type Profile } from "./index.mjs";

const j = (v: unknown): string => JSON.stringify(v);
const HELLO = j({ type: "hello", id: "h", protocol_versions: ["1"], settings: {} });
const world = (id: unknown): string => j({ type: "query", id, query: { name: "world" } });
const EMPTY: Profile = { families: [], crash_hook: false };

type Replied = { id: unknown; ok: boolean; error?: { code: string } };

/** Serves `chunks` (written one after another) and returns how serving ended and the replies. */
const session = async (
  chunks: (string | Buffer)[],
  profile: Profile = EMPTY,
  handlers: Handlers = {},
  outputHighWaterMark?: number,
) => {
  const input = new PassThrough();
  const output = new PassThrough(outputHighWaterMark === undefined ? {} : { highWaterMark: outputHighWaterMark });
  const done = serve({
    implementation: { name: "serve-test", version: "1" },
    profile,
    handlers,
    input,
    output,
    exit: false,
    log: () => undefined,
  });
  let text = "";
  // A slow reader: stdout is read only after everything was written, when a high-water mark is set.
  const read = () => output.on("data", (d: Buffer) => void (text += d.toString("utf8")));
  if (outputHighWaterMark === undefined) read();
  for (const c of chunks) input.write(c);
  input.end();
  if (outputHighWaterMark !== undefined) setTimeout(read, 20);
  const how = await done;
  await new Promise((r) => setImmediate(r));
  return {
    how,
    replies: text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Replied),
  };
};

const MINT_EVENTS = [{ type: "epoch.advanced", generation: 1, holder: "exec-1" }];
const mint = (id: string, tick: number): string =>
  j({
    type: "command",
    id,
    command: {
      op: "advaita.mint",
      tick,
      base_digest: `sha256:${"a".repeat(64)}`,
      root: `root-${id}`,
      designation: "d",
      body_revision: "b",
      custodians: ["c"],
      execution: { execution_id: "e", reasoner: "r", harness: "h", host: "x" },
      providers: [],
      required_capabilities: [],
      authority_token: "t",
    },
  });

describe("serve", () => {
  it("answers lines sent in one chunk in order; after shutdown nothing in the same chunk is answered", async () => {
    const { how, replies } = await session([
      `${[HELLO, world(1), "", "nope", j({ type: "shutdown", id: "s" }), world(2), "garbage"].join("\n")}\n`,
    ]);
    expect(how).toBe("shutdown");
    expect(replies.map((r) => [r.id, r.ok ? "ok" : r.error?.code])).toEqual([
      ["h", "ok"],
      [1, "ok"],
      [null, "BAD_JSON"],
      ["s", "ok"],
    ]);
  });

  it("at the end of input, an unterminated last line is ignored (W-1.7)", async () => {
    const { how, replies } = await session([`${HELLO}\n${world(1)}\n${world(2)}`]);
    expect(how).toBe("end");
    expect(replies.map((r) => r.id)).toEqual(["h", 1]);
  });

  it("asynchronous handlers that finish out of order are still answered in request order (W-1.6)", async () => {
    const delays = [30, 1, 15, 0, 5];
    let n = 0;
    const handlers: Handlers = {
      command: {
        "advaita.mint": async () => {
          await new Promise((r) => setTimeout(r, delays[n++ % delays.length]));
          return MINT_EVENTS;
        },
      },
      query: { world: () => ({ tick: 0, roots_used: [], agents: [] }) },
      reset: () => undefined,
    };
    const lines = [HELLO, ...delays.map((_, i) => mint(`c${i}`, i + 1)), world("w")];
    const { replies } = await session(
      [`${lines.join("\n")}\n`],
      { families: ["advaita"], crash_hook: false },
      handlers,
    );
    expect(replies.map((r) => r.id)).toEqual(["h", "c0", "c1", "c2", "c3", "c4", "w"]);
    expect(replies.every((r) => r.ok)).toBe(true);
  });

  it("an over-long line split over many chunks gets one LINE_TOO_LONG, and the next line its own reply", async () => {
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const chunks: (string | Buffer)[] = [
      `${HELLO}\n`,
      ...Array<Buffer>(Math.ceil((MAX_LINE_BYTES + 1) / piece.length)).fill(piece),
      `\n${world(1)}\n`,
    ];
    const { replies } = await session(chunks);
    expect(replies.map((r) => [r.id, r.ok ? "ok" : r.error?.code])).toEqual([
      ["h", "ok"],
      [null, "LINE_TOO_LONG"],
      [1, "ok"],
    ]);
  });

  it("a slow reader of stdout gets every reply, in order", async () => {
    const lines = [HELLO, ...Array.from({ length: 300 }, (_, i) => world(i))];
    const { replies } = await session([`${lines.join("\n")}\n`], EMPTY, {}, 64);
    expect(replies.map((r) => r.id)).toEqual(["h", ...Array.from({ length: 300 }, (_, i) => i)]);
  });

  it("a read error of stdin ends the input like its end: the lines framed before it are answered", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = "";
    output.on("data", (d: Buffer) => void (text += d.toString("utf8")));
    const done = serve({
      implementation: { name: "serve-test", version: "1" },
      profile: EMPTY,
      input,
      output,
      exit: false,
      log: () => undefined,
    });
    input.write(`${HELLO}\n${world(1)}\n${world(2)}`);
    await new Promise((r) => setImmediate(r));
    input.emit("error", new Error("EIO"));
    expect(await done).toBe("end");
    await new Promise((r) => setImmediate(r));
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as Replied).id),
    ).toEqual(["h", 1]);
  });

  it("a bad configuration throws before any line is read", () => {
    expect(() =>
      serve({
        implementation: { name: "", version: "1" },
        profile: EMPTY,
        input: new PassThrough(),
        output: new PassThrough(),
        exit: false,
      }),
    ).toThrow(TypeError);
  });
});

describe("the example as a process (examples/empty.mjs)", () => {
  const EXAMPLE = join(import.meta.dirname, "examples", "empty.mjs");
  const runProcess = (input: string, end: boolean) =>
    new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const p = spawn(process.execPath, [EXAMPLE, "--data-dir", "/nonexistent"], { stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      p.stdout.on("data", (d: Buffer) => void (stdout += d.toString("utf8")));
      p.on("exit", (status) => setImmediate(() => resolve({ status, stdout })));
      p.stdin.write(input);
      if (end) p.stdin.end();
    });

  it("exits with status 0 after the reply to shutdown, without waiting for stdin to close, answering nothing after it", async () => {
    const { status, stdout } = await runProcess(`${HELLO}\n${j({ type: "shutdown", id: "s" })}\n${world(1)}\n`, false);
    expect(status).toBe(0);
    expect(
      stdout
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as Replied).id),
    ).toEqual(["h", "s"]);
  });

  it("exits with status 0 when stdin closes", async () => {
    const { status, stdout } = await runProcess(`${HELLO}\n${world(1)}\n`, true);
    expect(status).toBe(0);
    expect(stdout.trimEnd().split("\n")).toHaveLength(2);
  });
});
