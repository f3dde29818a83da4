/** The transport client against the kit's implementation: handshake, id matching, exits, restarts. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProcessExited, RequestFailed, WireClient } from "./client.ts";
import { kitImplementation } from "./local.ts";

const dir = mkdtempSync(join(tmpdir(), "transport-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("WireClient", () => {
  it("handshakes, matches pipelined replies by id, detects exit and restarts on the same data dir", async () => {
    const c = await WireClient.start(kitImplementation(dir));
    expect(c.hello.protocol_version).toBe("1");
    expect(c.hello.profile).toEqual({ families: ["janma", "samskara", "advaita", "ripa"], crash_hook: true });
    // Pipelined: three requests in flight at once, each resolved by its own id.
    const [a, b, w] = await Promise.all([
      c.request({ type: "query", query: { name: "world" } }),
      c.request({ type: "query", query: { name: "store", agent: `sha256:${"0".repeat(64)}` } }),
      c.world(),
    ]);
    expect(a.ok).toBe(true);
    expect(b.ok ? "ok" : b.error.code).toBe("NOT_FOUND");
    expect(w.tick).toBe(0);
    await expect(c.query({ name: "agent", agent: `sha256:${"1".repeat(64)}` })).rejects.toBeInstanceOf(RequestFailed);
    // Unmatched replies (id null) are queued separately.
    c.sendRaw("not json\n");
    const un = await c.nextUnmatched();
    expect(un.ok ? "ok" : un.error.code).toBe("BAD_JSON");
    // A pending request is rejected when the process dies. The process is stopped first, so it
    // cannot answer before the kill lands (otherwise the reply could race the SIGKILL).
    const pid = c.pid;
    if (pid === undefined) throw new Error("no pid");
    process.kill(pid, "SIGSTOP");
    const pending = c.request({ type: "query", query: { name: "world" } }, 5_000);
    await c.kill("SIGKILL");
    await expect(pending).rejects.toBeInstanceOf(ProcessExited);
    expect((await c.exited).signal).toBe("SIGKILL");
    await c.restart();
    expect((await c.world()).tick).toBe(0);
    expect(c.stderr).toContain("recovered 0 agent(s)");
    expect(c.violations).toEqual([]);
    expect((await c.shutdown()).code).toBe(0);
  });

  it("reports a version mismatch as UNSUPPORTED_VERSION", async () => {
    const c = WireClient.spawnRaw(kitImplementation(dir), { protocolVersions: ["99"] });
    await expect(c.handshake()).rejects.toSatisfy(
      (e) => e instanceof RequestFailed && e.reply.error.code === "UNSUPPORTED_VERSION",
    );
    await c.kill();
  });
});
