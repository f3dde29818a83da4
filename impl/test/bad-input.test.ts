/**
 * Hostile and malformed input over the wire: each gets a definite error naming the problem,
 * the process stays up, and the data directory's committed bytes and the world are unchanged.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Reply } from "../../spec/wire/index.ts";
import { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from "../../spec/wire/index.ts";
import { WireClient } from "../../conformance/transport/client.ts";
import { kitImplementation } from "../../conformance/transport/local.ts";
import * as f from "./fixtures.ts";
import { tempDir } from "./wire-driver.ts";
import { DB_FILE } from "../durable/storage.ts";

const dir = tempDir("impl-bad-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const codeOf = (r: Reply): string => (r.ok ? "ok" : r.error.code);

describe("bad input", () => {
  it("answers every kind of malformed or hostile input with a definite, named error and keeps the data intact", async () => {
    const c = WireClient.spawnRaw(kitImplementation(dir));
    // Hostile lines are written raw and their replies read as unmatched, ids and all.
    c.rawMode = true;

    // 1. Requests before the handshake.
    const early = await c.request({ type: "query", query: { name: "world" } });
    expect(codeOf(early)).toBe("NOT_HANDSHAKEN");
    await c.handshake();
    // 2. A second hello.
    expect(codeOf(await c.request({ type: "hello", protocol_versions: ["1"], settings: {} }))).toBe("BAD_REQUEST");

    const minted = await c.command(f.mint(1, "root-bad"));
    expect(minted.ok).toBe(true);
    const stateBefore = readFileSync(join(dir, DB_FILE));
    const worldBefore = await c.world();

    const raw = async (data: string | Buffer): Promise<Reply> => {
      c.sendRaw(data);
      return c.nextUnmatched();
    };
    const expectErr = (r: Reply, code: string, mention?: RegExp): void => {
      expect(codeOf(r)).toBe(code);
      if (!r.ok) {
        expect(r.error.definite).toBe(true);
        expect(r.error.invariant).toBeNull();
        if (mention !== undefined) expect(r.error.message).toMatch(mention);
      }
    };

    // 3. Malformed JSON.
    expectErr(await raw('{"type":"query","id":"x1",\n'), "BAD_JSON");
    // 4. Binary garbage (invalid UTF-8).
    expectErr(await raw(Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x0a])), "BAD_ENCODING", /UTF-8/);
    // 5. An oversized line (twice the limit), discarded without being buffered.
    expectErr(await raw(`${"x".repeat(2 * MAX_LINE_BYTES)}\n`), "LINE_TOO_LONG", /exceeds/);
    // 6. Deeply nested JSON.
    expectErr(await raw(`${"[".repeat(100_000)}${"]".repeat(100_000)}\n`), "NESTING_TOO_DEEP");
    expectErr(
      await raw(
        `{"type":"command","id":"deep","command":${'{"a":'.repeat(MAX_NESTING_DEPTH)}1${"}".repeat(MAX_NESTING_DEPTH)}}\n`,
      ),
      "NESTING_TOO_DEEP",
    );
    // 7. Not an object; missing or unreadable id (huge number).
    expectErr(await raw("[1,2,3]\n"), "BAD_REQUEST", /object/);
    expectErr(await raw('{"type":"query","query":{"name":"world"}}\n'), "BAD_REQUEST", /id/);
    expectErr(await raw('{"type":"query","id":1e400,"query":{"name":"world"}}\n'), "BAD_REQUEST", /id/);
    // 8. Unknown message type and unknown query.
    expectErr(await c.request({ type: "teleport" }), "UNKNOWN_OP", /teleport/);
    expectErr(await c.request({ type: "query", query: { name: "secrets" } }), "UNKNOWN_OP", /secrets/);
    // 9. Envelope schema violations: unknown envelope field; bad query parameter; bad crash_after.
    expectErr(await c.request({ type: "reset", extra: true }), "BAD_REQUEST");
    expectErr(
      await c.request({ type: "query", query: { name: "store", agent: "not-a-digest" } }),
      "BAD_REQUEST",
      /digest/,
    );
    expectErr(await c.request({ type: "crash_after", writes: 0, at: "after_commit" }), "BAD_REQUEST");
    // 10. Duplicate request id.
    await c.request({ id: "dup", type: "query", query: { name: "world" } });
    expectErr(
      await c
        .request({ id: "dup-2", type: "query", query: { name: "world" } })
        .then(() => raw('{"id":"dup","type":"query","query":{"name":"world"}}\n')),
      "DUPLICATE_REQUEST_ID",
    );
    // 11. Commands that fail their schema: operation code MALFORMED with the path (huge number, unknown op, extra field).
    const huge = await c.request({
      type: "command",
      // biome-ignore lint/correctness/noPrecisionLoss: a tick beyond double range, which must be refused as MALFORMED
      command: { op: "samskara.replay", tick: 1e400, agent: worldBefore.agents[0]?.identity.identity },
    });
    expect(codeOf(huge)).toBe("MALFORMED");
    if (!huge.ok) expect(huge.error.path).toEqual(["tick"]);
    expect(codeOf(await c.command({ op: "janma.teleport", tick: 1 }))).toBe("MALFORMED");
    expect(codeOf(await c.command({ ...f.mint(2, "root-x"), backdoor: true }))).toBe("MALFORMED");
    // 12. A __proto__ key and a 1 MiB-sized string field inside a command.
    expect(
      codeOf(await raw('{"type":"command","id":"proto","command":{"__proto__":{"op":"advaita.mint"},"tick":1}}\n')),
    ).toBe("MALFORMED");
    expect(codeOf(await c.command({ ...f.mint(2, "root-y"), designation: "d".repeat(MAX_LINE_BYTES - 1000) }))).toBe(
      "MALFORMED",
    );
    // 13. Empty lines are ignored; CRLF line endings are accepted.
    c.sendRaw("\n\n");
    c.sendRaw('{"type":"query","id":"crlf","query":{"name":"world"}}\r\n');
    const crlf = await c.nextUnmatched();
    expect(crlf.id).toBe("crlf");
    expect(crlf.ok).toBe(true);

    // The process is alive, the world and the committed bytes are unchanged.
    expect(c.hasExited).toBe(false);
    expect(await c.world()).toEqual(worldBefore);
    expect(readFileSync(join(dir, DB_FILE)).equals(stateBefore)).toBe(true);
    expect(c.violations).toEqual([]);
    // And it still accepts work.
    expect(
      (await c.command({ op: "samskara.replay", tick: 2, agent: worldBefore.agents[0]?.identity.identity })).ok,
    ).toBe(true);
    await c.shutdown();
  });
});
