/**
 * Hostile wire logs (spec/LOG.md L-1, D-050): every defect gets an error naming the file, the line
 * and the rule, and a 1 GiB line is refused after reading at most the line bound. The recordings
 * (real traffic of the bundled implementation and of a mutant) are in recordings.test.ts, a long test.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { LogLine, RAW_KEEP_CHARS } from "../../spec/log.ts";
import { checkLog } from "./check.ts";
import { isPlainLine } from "./read.ts";
import { entryOf } from "./record.ts";
import { LogFileError } from "./lines.ts";

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "srk-log-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const writeLog = (file: string, lines: readonly unknown[]): string => {
  writeFileSync(file, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return file;
};
const HELLO = { type: "hello", id: "h", protocol_versions: ["1"], settings: {} };

describe("hostile logs: a clear error naming the line", () => {
  const header = { srk_log: 1, recorder: "t", impl: null, started_at: null };
  const hello = (seq: number) => ({ seq, t_us: seq, dir: "request", msg: HELLO });
  const reject = async (lines: readonly unknown[], pattern: RegExp): Promise<void> => {
    const f = writeLog(join(temp(), "bad.log"), lines);
    await expect(checkLog(f)).rejects.toThrow(LogFileError);
    await expect(checkLog(f)).rejects.toThrow(pattern);
  };
  it("a truncated last line", async () => {
    await reject([header, hello(1), '{"seq":2,"t_us":2,"dir":"re'], /bad\.log:3: not a JSON value/);
  });
  it("timestamps that go back", async () => {
    await reject(
      [header, hello(1), { seq: 2, t_us: 0, dir: "reply", msg: { id: "h", ok: true } }],
      /bad\.log:3: t_us 0 is before the previous entry's 1/,
    );
  });
  it("a repeated seq", async () => {
    await reject([header, hello(1), { ...hello(1) }], /bad\.log:3: seq 1 after 1/);
  });
  it("a reply to an unknown id", async () => {
    await reject(
      [header, hello(1), { seq: 2, t_us: 2, dir: "reply", msg: { id: "nobody", ok: true, events: [] } }],
      /bad\.log:3: a reply with id "nobody" answers no request/,
    );
  });
  it("no header, an empty file, a missing file, an entry with both msg and raw, an entry after the exit", async () => {
    await reject([hello(1)], /bad\.log:1: not a log header/);
    const empty = join(temp(), "empty.log");
    writeFileSync(empty, "");
    await expect(checkLog(empty)).rejects.toThrow(/empty\.log: empty: a log starts with its header line/);
    await expect(checkLog(join(temp(), "absent.log"))).rejects.toThrow(/absent\.log: no such file/);
    await reject(
      [header, { seq: 1, t_us: 1, dir: "request", msg: {}, raw: "x" }],
      /bad\.log:2: not a log entry \(L-1\.2\): exactly one of msg and raw/,
    );
    await reject(
      [header, { seq: 1, t_us: 1, exit: { code: 0, signal: null } }, hello(2)],
      /bad\.log:3: an entry after the exit on line 2/,
    );
  });
  it("bytes that are not UTF-8", async () => {
    const f = join(temp(), "latin1.log");
    writeFileSync(
      f,
      Buffer.concat([
        Buffer.from(`${JSON.stringify(header)}\n{"seq":1,"t_us":1,"dir":"request","raw":"`),
        Buffer.from([0xe9]),
        Buffer.from('"}\n'),
      ]),
    );
    await expect(checkLog(f)).rejects.toThrow(/latin1\.log:2: the line is not valid UTF-8/);
  });
  it("a 1 GiB file of one line is refused at that line, after reading at most the line bound", async () => {
    const f = join(temp(), "huge.log");
    writeFileSync(f, `${JSON.stringify(header)}\n`);
    const fd = openSync(f, "r+");
    ftruncateSync(fd, 1 << 30); // sparse: 1 GiB of zero bytes, no newline
    closeSync(fd);
    const before = process.memoryUsage().rss;
    await expect(checkLog(f)).rejects.toThrow(/huge\.log:2: the line is longer than \d+ bytes \(L-1\.3\)/);
    // Bounded: the line bound (64 MiB and a little) plus the runtime's slack, far from the file's size.
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  }, 60_000);
});

describe("the reader's fast path and the recorder agree with the LogLine schema", () => {
  it("every entry the fast path accepts, the schema accepts (fast-check, 2000 entries: valid ones and each broken one way)", () => {
    const valid = fc
      .record({
        seq: fc.integer({ min: 1, max: 1e9 }),
        t_us: fc.nat(),
        dir: fc.constantFrom("request", "reply"),
        body: fc.oneof(
          fc.jsonValue().map((msg) => ({ msg })),
          fc.string().map((raw) => ({ raw })),
          fc.string().map((raw) => ({ raw, raw_bytes: 9, invalid_utf8: true })),
        ),
      })
      .map(({ body, ...rest }) => ({ ...rest, ...body }) as Record<string, unknown>);
    const breaks: readonly ((e: Record<string, unknown>) => Record<string, unknown>)[] = [
      (e) => ({ ...e, seq: 0 }),
      (e) => ({ ...e, seq: 1.5 }),
      (e) => ({ ...e, seq: Number.MAX_SAFE_INTEGER + 2 }),
      (e) => ({ ...e, seq: "1" }),
      (e) => ({ ...e, t_us: -1 }),
      (e) => ({ ...e, t_us: null }),
      (e) => ({ ...e, dir: "stderr" }),
      (e) => ({ ...e, extra: 1 }),
      (e) => ({ ...e, msg: 1, raw: "x" }),
      (e) => {
        const { msg: _m, raw: _r, ...x } = e;
        return x;
      },
      (e) => ({ ...e, raw: "x".repeat(RAW_KEEP_CHARS + 1), msg: undefined }),
      (e) => ({ ...e, raw_bytes: -1 }),
      (e) => ({ ...e, invalid_utf8: false }),
      (e) => ({ ...e, raw: 7, msg: undefined }),
    ];
    const almost = fc
      .tuple(valid, fc.option(fc.integer({ min: 0, max: breaks.length - 1 }), { freq: 1 }))
      .map(([e, k]) => (k === null ? e : (breaks[k] as (x: Record<string, unknown>) => Record<string, unknown>)(e)));
    let accepted = 0;
    fc.assert(
      fc.property(almost, (v) => {
        if (!isPlainLine(v)) return;
        accepted++;
        expect(LogLine.safeParse(v).success, JSON.stringify(v).slice(0, 200)).toBe(true);
      }),
      { numRuns: 2000, seed: 50 },
    );
    // The property is not vacuous: some entries took the fast path.
    expect(accepted).toBeGreaterThan(20);
  });
  it("the recorder's raw entries fit the schema: a cut line keeps at most RAW_KEEP_CHARS units, never half a surrogate pair", () => {
    const long = Buffer.from(`${"a".repeat(RAW_KEEP_CHARS - 1)}\u{1F680}tail`, "utf8");
    const e = entryOf("request", long, long.length);
    expect(LogLine.safeParse({ seq: 1, t_us: 0, ...e }).success).toBe(true);
    expect(e.raw?.length).toBe(RAW_KEEP_CHARS - 1);
    expect(e.raw_bytes).toBe(long.length);
    const json = Buffer.from('{"type":"hello"}');
    expect(entryOf("request", json, json.length)).toEqual({ dir: "request", msg: { type: "hello" } });
    const bad = Buffer.from([0x7b, 0xe9, 0x7d]);
    expect(entryOf("reply", bad, bad.length)).toMatchObject({ dir: "reply", invalid_utf8: true });
  });
});
