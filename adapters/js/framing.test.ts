/**
 * The adapter's framing (framing.mjs) against W-1.2, W-1.4 and W-1.7: lines end at `\n` only, the
 * 1 MiB bound counts every byte before the `\n` (a trailing `\r` included), an over-long line is one
 * frame however it is chunked and never held, and an unterminated last line yields nothing.
 */
import { describe, expect, it } from "vitest";
import { LineFramer, MAX_LINE_BYTES } from "./index.mjs";

const text = (f: { kind: string; bytes?: Buffer }): string =>
  f.kind === "line" && f.bytes !== undefined ? f.bytes.toString("utf8") : f.kind;

describe("LineFramer", () => {
  it("the bound is 1 MiB (W-1.4)", () => {
    expect(MAX_LINE_BYTES).toBe(1024 * 1024);
  });

  it("splits at \\n only, across chunk boundaries, keeping \\r and every other byte", () => {
    const f = new LineFramer();
    expect(f.push(Buffer.from('{"a":'))).toEqual([]);
    expect(f.push(Buffer.from('1}\n{"b"')).map(text)).toEqual(['{"a":1}']);
    expect(f.push(Buffer.from(":2}\r\n\n\r\u2028x\n")).map(text)).toEqual(['{"b":2}\r', "", "\r\u2028x"]);
  });

  it(`a line of exactly ${MAX_LINE_BYTES} bytes is a line; one byte more is too_long with its length`, () => {
    const f = new LineFramer();
    const [atBound] = f.push(Buffer.concat([Buffer.alloc(MAX_LINE_BYTES, 0x20), Buffer.from("\n")]));
    expect(atBound?.kind).toBe("line");
    expect(atBound?.kind === "line" && atBound.bytes.length).toBe(MAX_LINE_BYTES);
    expect(f.push(Buffer.concat([Buffer.alloc(MAX_LINE_BYTES + 1, 0x20), Buffer.from("\n")]))).toEqual([
      { kind: "too_long", length: MAX_LINE_BYTES + 1 },
    ]);
  });

  it("the trailing \\r counts (review G-15): bound bytes ending in \\r are a line, bound bytes then \\r\\n are too long", () => {
    const f = new LineFramer(8);
    expect(f.push(Buffer.from("1234567\r\n")).map(text)).toEqual(["1234567\r"]);
    expect(f.push(Buffer.from("12345678\r\n"))).toEqual([{ kind: "too_long", length: 9 }]);
  });

  it("an over-long line fed in many chunks is one frame; the line after it is intact", () => {
    const f = new LineFramer(8);
    const frames = [..."abcdefghijklmnop"].flatMap((c) => f.push(Buffer.from(c)));
    expect(frames).toEqual([]);
    expect(f.pending).toBe(16);
    expect(f.push(Buffer.from('xyz\n"ok"\n'))).toEqual([
      { kind: "too_long", length: 19 },
      expect.objectContaining({ kind: "line" }),
    ]);
    expect(f.pending).toBe(0);
  });

  it("an over-long line is counted, not held: 3 MiB without a newline keep nothing but the count", () => {
    const f = new LineFramer();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 48; i++) f.push(chunk);
    expect(f.pending).toBe(48 * 64 * 1024);
    expect((f as unknown as { parts: unknown[] }).parts).toEqual([]);
  });

  it("an unterminated last line yields no frame (W-1.7)", () => {
    const f = new LineFramer();
    expect(f.push(Buffer.from('{"type":"shutdown","id":"s"}'))).toEqual([]);
    expect(f.pending).toBe(28);
  });

  it("does not keep the caller's chunk memory: a reused buffer does not change a held line", () => {
    const f = new LineFramer();
    const buf = Buffer.from("abc");
    f.push(buf);
    buf.write("xyz");
    expect(f.push(Buffer.from("\n")).map(text)).toEqual(["abc"]);
  });
});
