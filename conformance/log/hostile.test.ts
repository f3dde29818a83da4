/**
 * Hostile wire logs (spec/LOG.md L-1, D-050): every defect gets an error naming the file, the line
 * and the rule, and a 1 GiB line is refused after reading at most the line bound. The recordings
 * (real traffic of the bundled implementation and of a mutant) are in recordings.test.ts, a long test.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLog } from "./check.ts";
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
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
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
    await reject([header, hello(1), { seq: 2, t_us: 0, dir: "reply", msg: { id: "h", ok: true } }], /bad\.log:3: t_us 0 is before the previous entry's 1/);
  });
  it("a repeated seq", async () => {
    await reject([header, hello(1), { ...hello(1) }], /bad\.log:3: seq 1 after 1/);
  });
  it("a reply to an unknown id", async () => {
    await reject([header, hello(1), { seq: 2, t_us: 2, dir: "reply", msg: { id: "nobody", ok: true, events: [] } }], /bad\.log:3: a reply with id "nobody" answers no request/);
  });
  it("no header, an empty file, a missing file, an entry with both msg and raw, an entry after the exit", async () => {
    await reject([hello(1)], /bad\.log:1: not a log header/);
    const empty = join(temp(), "empty.log");
    writeFileSync(empty, "");
    await expect(checkLog(empty)).rejects.toThrow(/empty\.log: empty: a log starts with its header line/);
    await expect(checkLog(join(temp(), "absent.log"))).rejects.toThrow(/absent\.log: no such file/);
    await reject([header, { seq: 1, t_us: 1, dir: "request", msg: {}, raw: "x" }], /bad\.log:2: not a log entry \(L-1\.2\): exactly one of msg and raw/);
    await reject([header, { seq: 1, t_us: 1, exit: { code: 0, signal: null } }, hello(2)], /bad\.log:3: an entry after the exit on line 2/);
  });
  it("bytes that are not UTF-8", async () => {
    const f = join(temp(), "latin1.log");
    writeFileSync(f, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n{"seq":1,"t_us":1,"dir":"request","raw":"`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
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

