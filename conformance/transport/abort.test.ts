/**
 * Cancellation in the transport (core/abort.ts): when the signal a client was started under
 * fires, its requests in flight reject with the signal's CutShort (not a timeout, not an exit),
 * its process group gets SIGTERM and, if that is ignored, SIGKILL after the grace; no process is
 * started on a signal that has already fired; `shutdown` sends nothing and waits for the exit.
 * Each rule is also checked where it does not apply: without a signal, or before it fires.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CutShort, cutShortOf, onAbort, throwIfCut } from "../core/abort.ts";
import { Target } from "../driver/target.ts";
import { isRunning } from "../test/pids.ts";
import { REPO_ROOT } from "./local.ts";
import { WireClient } from "./client.ts";
import { ImplementationProcess, type SpawnSpec } from "./process.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-abort-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Answers hello, then nothing: every later request stays in flight (with DEAF, SIGTERM is ignored too). */
const SILENT = "conformance/test/fixtures/silent-after-hello.mjs";
const HELLO_THEN_SILENT: SpawnSpec = { command: process.execPath, args: [SILENT], cwd: REPO_ROOT };
const DEAF: SpawnSpec = { ...HELLO_THEN_SILENT, args: [SILENT, "--deaf"] };

const node = (script: string): SpawnSpec => ({ command: process.execPath, args: ["-e", script] });
const STOP = new CutShort("interrupted by SIGINT");

describe("a client's signal", () => {
  it("rejects the request in flight with the CutShort at once, and the process exits on SIGTERM", async () => {
    const c = new AbortController();
    const client = await WireClient.start(HELLO_THEN_SILENT, { signal: c.signal, timeoutMs: 600_000 });
    const pid = client.pid as number;
    const pending = client.send({ type: "query", query: { name: "world" } });
    c.abort(STOP);
    await expect(pending).rejects.toBe(STOP);
    const exit = await client.exited;
    expect(exit.signal).toBe("SIGTERM");
    expect(isRunning(pid)).toBe(false);
    // Later requests reject too, without writing anything.
    await expect(client.send({ type: "reset" })).rejects.toBe(STOP);
    await expect(client.nextUnmatched()).rejects.toBe(STOP);
  });

  it("kills a process that ignores SIGTERM with SIGKILL after the grace", async () => {
    const c = new AbortController();
    const exits: string[] = [];
    let ready = (): void => {};
    const readyNow = new Promise<void>((r) => (ready = r));
    // It says so once its handler is in: a SIGTERM before that would end it (and prove nothing).
    const script = `process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000);`;
    const proc = new ImplementationProcess(
      node(script),
      () => ready(),
      (e) => exits.push(String(e.signal)),
      c.signal,
    );
    await readyNow;
    c.abort(STOP);
    const info = await proc.exited;
    expect(info.signal).toBe("SIGKILL");
    expect(exits).toEqual(["SIGKILL"]);
  });

  it("ends a process that honours SIGTERM with SIGTERM, before the grace", async () => {
    const proc = new ImplementationProcess(
      node("setInterval(() => {}, 1000)"),
      () => {},
      () => {},
    );
    await proc.started;
    // A grace of ten minutes: the test would time out had it come to SIGKILL.
    expect((await proc.terminate(600_000)).signal).toBe("SIGTERM");
  });

  it("rejects a waiting nextUnmatched", async () => {
    const c = new AbortController();
    const client = await WireClient.start(HELLO_THEN_SILENT, { signal: c.signal, timeoutMs: 600_000 });
    const waiting = client.nextUnmatched(600_000);
    c.abort(STOP);
    await expect(waiting).rejects.toBe(STOP);
    await client.exited;
  });

  it("starts no process once it has fired", () => {
    const c = new AbortController();
    c.abort(STOP);
    expect(() => WireClient.spawnRaw(HELLO_THEN_SILENT, { signal: c.signal })).toThrow(STOP);
  });

  it("makes shutdown wait for the stopped process instead of asking it", async () => {
    const c = new AbortController();
    const client = await WireClient.start(DEAF, { signal: c.signal, timeoutMs: 600_000 });
    c.abort(STOP);
    // The deaf process never answers shutdown, and it was not killed for ignoring it: no W-2.2.
    const info = await client.shutdown(600_000);
    expect(info.signal).toBe("SIGKILL");
    expect(client.violations).toEqual([]);
  });

  it("leaves a client without one, or before it fires, as it was: a silent process times out", async () => {
    const c = new AbortController();
    const client = await WireClient.start(HELLO_THEN_SILENT, { signal: c.signal, timeoutMs: 200 });
    expect(await client.send({ type: "query", query: { name: "world" } })).toEqual({ kind: "timeout", ms: 200 });
    const plain = await WireClient.start(HELLO_THEN_SILENT, { timeoutMs: 200 });
    expect(await plain.send({ type: "query", query: { name: "world" } })).toEqual({ kind: "timeout", ms: 200 });
    await Promise.all([client.kill(), plain.kill()]);
  });
});

describe("a target's signal", () => {
  it("stops raw clients and sessions alike, dispose waits for them, and nothing starts afterwards", async () => {
    const t = new Target({
      commandLine: `${process.execPath} ${SILENT}`,
      cwd: REPO_ROOT,
      requestTimeoutMs: 600_000,
      startupTimeoutMs: 30_000,
      dataRoot: tmp,
    });
    const c = new AbortController();
    t.signal = c.signal;
    const session = await t.open();
    const raw = t.spawnRaw(t.freshDir());
    await raw.started;
    const pids = [session.client.pid as number, raw.pid as number];
    const pending = session.reply({ type: "query", query: { name: "world" } });
    c.abort(STOP);
    await expect(pending).rejects.toBe(STOP);
    await t.dispose(true);
    for (const pid of pids) expect(isRunning(pid), `pid ${pid}`).toBe(false);
    await expect(t.open()).rejects.toBe(STOP);
  });
});

describe("the helpers", () => {
  it("name why a signal fired, whatever its reason", () => {
    const own = new AbortController();
    own.abort(STOP);
    expect(cutShortOf(own.signal)).toBe(STOP);
    const bare = new AbortController();
    bare.abort();
    expect(cutShortOf(bare.signal).message).toMatch(/^cut short: /);
    const timeout = new AbortController();
    timeout.abort(new DOMException("t", "TimeoutError"));
    expect(cutShortOf(timeout.signal).why).toBe("a time limit ended");
    expect(() => throwIfCut(own.signal)).toThrow(STOP);
    expect(() => throwIfCut(new AbortController().signal)).not.toThrow();
    expect(() => throwIfCut(undefined)).not.toThrow();
  });

  it("run an abort listener once, at once on a fired signal, never after it is stopped", () => {
    const seen: string[] = [];
    const c = new AbortController();
    const stop = onAbort(c.signal, () => seen.push("a"));
    onAbort(c.signal, () => seen.push("b"))();
    c.abort();
    c.abort();
    onAbort(c.signal, () => seen.push("late"));
    stop();
    expect(seen).toEqual(["a", "late"]);
  });
});
