/**
 * srk record's shortcuts (bench "Log record") write the log L-1 asks for: a line that is one JSON
 * value is embedded as its own text, which reads back as exactly the entry entryOf describes; and
 * the batches are appended while the proxy runs, burst after burst, not only when it ends (L-1.4).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { LogLine } from "../../spec/log.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { appendEntry, entryOf, entryText, LineCutter, LogText, record } from "./record.ts";
import { JSON_ASCII, JSON_HIGH, jsonTextOf, NOT_JSON } from "./json-text.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The log line entryText makes, read back. */
const readBack = (dir: "request" | "reply", bytes: Buffer, total: number): unknown => {
  const text = `{"seq":1,"t_us":0,${entryText(dir, bytes, total)}`;
  expect(text.endsWith("\n")).toBe(true);
  expect(text.slice(0, -1)).not.toContain("\n");
  return JSON.parse(text) as unknown;
};

describe("entryText, the recorder's log text of a line", () => {
  it("reads back as the entry entryOf gives, for JSON texts as written and for any bytes (fast-check)", () => {
    const spaced = fc
      .tuple(fc.json(), fc.constantFrom("", " ", "\t", "\r", " \r"))
      .map(([j, ws]) => Buffer.from(`${ws}${j}${ws}`));
    const anyBytes = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a.filter((b) => b !== 10)));
    fc.assert(
      fc.property(fc.oneof(spaced, anyBytes), fc.constantFrom("request" as const, "reply" as const), (bytes, dir) => {
        const back = readBack(dir, bytes, bytes.length);
        expect(back).toEqual({ seq: 1, t_us: 0, ...entryOf(dir, bytes, bytes.length) });
        expect(LogLine.safeParse(back).success).toBe(true);
      }),
      { numRuns: 3000, seed: 23 },
    );
  });
  it("keeps the implementation's own text of a JSON line, and falls back to raw for what is not one JSON value", () => {
    const own = Buffer.from('{"id":1,  "x":1e400,"y":[ ]}\r');
    expect(entryText("reply", own, own.length)).toBe(`"dir":"reply","msg":{"id":1,  "x":1e400,"y":[ ]}\r}\n`);
    const two = Buffer.from("{} {}");
    expect(readBack("request", two, two.length)).toEqual({ seq: 1, t_us: 0, dir: "request", raw: "{} {}" });
    const cut = Buffer.from('{"a":1}');
    // A line cut at the bound is never embedded, even when its start is JSON: it is raw with its full length.
    expect(readBack("request", cut, 100)).toEqual({ seq: 1, t_us: 0, dir: "request", raw: '{"a":1}', raw_bytes: 100 });
    // Larger than the text buffer's first size: it grows, keeping what it held.
    const big = Buffer.from(JSON.stringify({ pad: "é".repeat(200_000) }));
    expect(readBack("reply", big, big.length)).toEqual({
      seq: 1,
      t_us: 0,
      dir: "reply",
      msg: { pad: "é".repeat(200_000) },
    });
    const latin1 = Buffer.from([0x22, 0xe9, 0x22]);
    expect(readBack("reply", latin1, latin1.length)).toMatchObject({ dir: "reply", invalid_utf8: true });
  });
});

describe("the recorder's line work reads ranges of the buffer lines came in (no cut per line)", () => {
  it("LineCutter hands out the same lines, in order, however the bytes are chunked and from wherever in a buffer (fast-check)", () => {
    const line = fc.uint8Array({ maxLength: 30 }).map((a) => Buffer.from(a.filter((b) => b !== 10)));
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 40 }), { maxLength: 8 }),
        fc.nat({ max: 20 }),
        (lines, trailing, cuts, keep) => {
          const text = Buffer.concat(
            lines.flatMap((l, k) => (k < lines.length - 1 || trailing ? [l, Buffer.from([10])] : [l])),
          );
          const expected = text.length === 0 ? [] : text.toString("latin1").split("\n");
          if (trailing && expected.at(-1) === "") expected.pop();
          if (!trailing && expected.at(-1) === "") expected.pop();
          const got: { kept: string; total: number }[] = [];
          const c = new LineCutter(keep, (b, from, to, total) =>
            got.push({ kept: b.subarray(from, to).toString("latin1"), total }),
          );
          // The chunks sit at an offset inside a larger buffer, with other bytes (newlines among them) after each.
          let at = 0;
          for (const n of [...cuts, text.length]) {
            const piece = text.subarray(at, Math.min(text.length, at + n));
            at += piece.length;
            const host = Buffer.concat([Buffer.from("x\ny"), piece, Buffer.from("\nzz\n")]);
            c.push(host, 3, 3 + piece.length);
          }
          c.end();
          expect(got).toEqual(expected.map((l) => ({ kept: l.slice(0, keep), total: l.length })));
        },
      ),
      { numRuns: 2000, seed: 5 },
    );
  });

  it("appendEntry on a range inside a buffer writes what it writes for the range alone", () => {
    const host = Buffer.from('garbage{"a":"é","b":[1,2]}more{"x":1}\r tail');
    const first = [host.indexOf("{"), host.indexOf("more")] as const; // byte offsets: é is two bytes
    const second = [host.indexOf('{"x"'), host.indexOf(" tail")] as const;
    const cases: (readonly [number, number])[] = [
      first,
      second,
      [0, first[0]],
      [first[0], host.length],
      [first[1], second[0]],
      [first[0] + 1, first[1]],
    ];
    for (const [from, to] of cases) {
      const out = new LogText();
      appendEntry(out, "reply", host, from, to, to - from);
      const alone = Buffer.from(host.subarray(from, to));
      expect(out.take().toString("utf8"), `${from}-${to}`).toBe(entryText("reply", alone, alone.length));
    }
  });

  it("jsonTextOf tells ASCII texts from texts with bytes above ASCII, and both from what is not JSON", () => {
    expect(jsonTextOf(Buffer.from('{"a":[1,"b"]}'))).toBe(JSON_ASCII);
    expect(jsonTextOf(Buffer.from('{"a":"é"}'))).toBe(JSON_HIGH);
    expect(jsonTextOf(Buffer.from([0x22, 0xe9, 0x22]))).toBe(JSON_HIGH); // not UTF-8: the caller's isUtf8 decides
    expect(jsonTextOf(Buffer.from('{"a":1} é'))).toBe(NOT_JSON);
    const inside = Buffer.from('xx{"a":"é"}yy');
    const end = inside.length - 2;
    expect(jsonTextOf(inside, 2, end)).toBe(JSON_HIGH);
    expect(jsonTextOf(inside, 2, end - 1)).toBe(NOT_JSON);
    expect(jsonTextOf(inside, 2, end + 1)).toBe(NOT_JSON);
    // The flag is per call: an ASCII text after one with high bytes is ASCII.
    expect(jsonTextOf(Buffer.from('"é"'))).toBe(JSON_HIGH);
    expect(jsonTextOf(Buffer.from('"e"'))).toBe(JSON_ASCII);
  });

  it("LogText.uint writes a non-negative safe integer as String() does", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.nat({ max: 1000 }), fc.maxSafeNat(), fc.constantFrom(0, 9, 10, 99, 100, Number.MAX_SAFE_INTEGER)),
        (v) => {
          const out = new LogText();
          out.ascii("<");
          out.uint(v);
          out.ascii(">");
          expect(out.take().toString("latin1")).toBe(`<${v}>`);
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe("the recorder appends while it runs", () => {
  it("logs each burst of traffic before the implementation exits, also after a pause (the batch timer runs again)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "srk-record-"));
    dirs.push(dir);
    const log = join(dir, "wire.log");
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies: string[] = [];
    let pending = "";
    stdout.on("data", (c: Buffer) => {
      pending += c.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      replies.push(...lines);
    });
    const done = record({
      commandLine: `${process.execPath} --import tsx ${join(REPO_ROOT, "bench/echo-child.ts")}`,
      log,
      recorder: "record.test",
      stdin,
      stdout,
    });
    const entries = (): Record<string, unknown>[] =>
      readFileSync(log, "utf8")
        .trimEnd()
        .split("\n")
        .slice(1)
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    /** Polls until `ok` holds: no bound on how soon, only that it comes while the proxy still runs. */
    const eventually = async (ok: () => boolean, what: string): Promise<void> => {
      for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
      if (!ok()) throw new Error(`never happened: ${what}`);
    };
    for (const burst of [1, 2, 3]) {
      for (let k = 0; k < 3; k++) stdin.write(`{"type":"query","id":"b${burst}.${k}","query":{"name":"world"}}\n`);
      await eventually(() => replies.length === 3 * burst, `the replies of burst ${burst}`);
      await eventually(() => entries().length === 6 * burst, `burst ${burst} in the log`);
      // A pause longer than a batch's delay, so the next burst must arm the timer again.
      await new Promise((r) => setTimeout(r, 50));
    }
    const body = entries();
    expect(body.map((e) => e["seq"])).toEqual(body.map((_, i) => i + 1));
    expect(body.filter((e) => e["dir"] === "request").map((e) => (e["msg"] as { id: string }).id)).toEqual(
      [1, 2, 3].flatMap((b) => [0, 1, 2].map((k) => `b${b}.${k}`)),
    );
    stdin.end();
    expect(await done).toBe(0);
    expect(entries().at(-1)).toMatchObject({ exit: { code: 0, signal: null } });
  }, 60_000);
});
