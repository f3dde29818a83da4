/**
 * The shortcuts check-log takes for speed (bench "Log check") decide exactly what the slow ways
 * decide: the comparison's equality test agrees with firstDifference, and the batched reader gives
 * the same lines, with the same numbers, and meets defects in the same order as line by line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { firstDifference } from "../../properties/differential.ts";
import { sameValue } from "../oracle/compare.ts";
import { checkLog } from "./check.ts";
import { LogFileError, READ_CHUNK, readLines } from "./lines.ts";
import { openLog } from "./read.ts";

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "srk-log-fast-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** JSON values, and the few non-JSON leaves a model value may hold (undefined, -0, NaN). */
const leaf = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, 0, -0, Number.NaN, 1, "", "a", true, false),
  fc.integer(),
  fc.string({ maxLength: 3 }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("v"), { maxKeys: 4 }),
  ),
})).v;

/** A copy of `v` with one change somewhere (or none): a value, a key added, removed or renamed, keys reordered, an array for an object. */
const mutate = (v: unknown, pick: number): unknown => {
  if (typeof v !== "object" || v === null) return [undefined, null, -0, 0, "x", v][pick % 6];
  if (Array.isArray(v)) {
    if (v.length === 0 || pick % 5 === 0)
      return pick % 2 === 0
        ? [...v, pick % 3 === 0 ? undefined : 1]
        : Object.fromEntries(v.map((x, i) => [String(i), x]));
    const i = pick % v.length;
    return v.map((x, j) => (j === i ? mutate(x, Math.floor(pick / 7)) : x));
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  switch (pick % 5) {
    case 0:
      return Object.fromEntries(keys.reverse().map((k) => [k, o[k]])); // same keys, another order: still equal
    case 1:
      return { ...o, e: pick % 3 === 0 ? undefined : 1 };
    case 2: {
      const [first, ...rest] = keys;
      return first === undefined ? { a: 1 } : Object.fromEntries(rest.map((k) => [k, o[k]]));
    }
    case 3: {
      // A key renamed: as many keys, not the same ones.
      const k = keys[pick % Math.max(1, keys.length)];
      if (k === undefined) return { a: undefined };
      const { [k]: moved, ...rest } = o;
      const other = ["a", "b", "c", "d", "e"].find((x) => !(x in o)) ?? "e";
      return { ...rest, [other]: pick % 3 === 0 ? undefined : moved };
    }
    default: {
      const k = keys[pick % Math.max(1, keys.length)];
      return k === undefined ? [] : { ...o, [k]: mutate(o[k], Math.floor(pick / 7)) };
    }
  }
};

describe("sameValue, the comparison's fast equality", () => {
  it("is true exactly when firstDifference finds no difference (fast-check, equal, reordered and changed pairs)", () => {
    let equal = 0;
    let different = 0;
    fc.assert(
      fc.property(value, fc.nat(), fc.boolean(), (v, pick, swap) => {
        const w = mutate(v, pick);
        const [a, b] = swap ? [w, v] : [v, w];
        const same = firstDifference(a, b) === null;
        expect(sameValue(a, b)).toBe(same);
        expect(sameValue(v, structuredClone(v))).toBe(firstDifference(v, structuredClone(v)) === null);
        if (same) equal++;
        else different++;
      }),
      { numRuns: 3000, seed: 23 },
    );
    // Neither side of the rule is vacuous.
    expect(equal).toBeGreaterThan(100);
    expect(different).toBeGreaterThan(100);
  });
  it("reads a key missing on one side as undefined there, as firstDifference does, and tells -0 from 0", () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { b: undefined, a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameValue({ a: undefined }, { b: 1 })).toBe(false);
    expect(sameValue({ a: undefined }, { b: undefined })).toBe(true);
    expect(sameValue([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameValue(0, -0)).toBe(false);
    expect(sameValue(Number.NaN, Number.NaN)).toBe(true);
  });
});

const header = { srk_log: 1, recorder: "t", impl: null, started_at: null };
const writeLines = (file: string, lines: readonly (string | Buffer)[]): string => {
  writeFileSync(
    file,
    Buffer.concat(lines.map((l) => Buffer.concat([typeof l === "string" ? Buffer.from(l) : l, Buffer.from("\n")]))),
  );
  return file;
};

describe("the batched reader", () => {
  it("gives every line whole and numbered, however the chunks cut them", async () => {
    // Lines from empty to longer than a chunk, so that chunk boundaries fall everywhere: inside lines, on newlines, inside a multi-byte character.
    const lengths = [0, 1, 100, READ_CHUNK - 3, 2, READ_CHUNK + 5, 7, 3 * READ_CHUNK, 1, 0, 50];
    const lines = lengths.map((n, i) => `${i}:${"é".repeat(Math.floor(n / 4))}${"x".repeat(n % 4)}`);
    const f = writeLines(join(temp(), "lines.log"), lines);
    const read: { n: number; text: string }[] = [];
    for await (const l of readLines(f, 4 * READ_CHUNK)) read.push(l);
    expect(read.map((l) => l.n)).toEqual(lines.map((_, i) => i + 1));
    expect(read.map((l) => l.text)).toEqual(lines);
  });
  it("hands out the lines before a defect of the same chunk first, then names the defect's line", async () => {
    const d = temp();
    const tooLong = writeLines(join(d, "long.log"), ["a", "b", "c", "x".repeat(200), "e"]);
    const got: number[] = [];
    const reading = async (): Promise<void> => {
      for await (const l of readLines(tooLong, 100)) got.push(l.n);
    };
    await expect(reading()).rejects.toThrow(/long\.log:4: the line is longer than 100 bytes/);
    expect(got).toEqual([1, 2, 3]);
    const latin1 = writeLines(join(d, "latin1.log"), ["a", "b", Buffer.from([0x61, 0xe9]), "d"]);
    got.length = 0;
    const reading2 = async (): Promise<void> => {
      for await (const l of readLines(latin1, 100)) got.push(l.n);
    };
    await expect(reading2()).rejects.toThrow(/latin1\.log:3: the line is not valid UTF-8/);
    expect(got).toEqual([1, 2]);
  });
  it("check-log reports the first defect in file order, whether the checker or the reader finds it", async () => {
    const d = temp();
    const hello = {
      seq: 1,
      t_us: 1,
      dir: "request",
      msg: { type: "hello", id: "h", protocol_versions: ["1"], settings: {} },
    };
    const stray = { seq: 2, t_us: 2, dir: "reply", msg: { type: "reply", id: "nobody", ok: true, events: [] } };
    // All in one chunk: the checker's defect on line 3 comes before the reader's on line 4 (and the reverse).
    const checkerFirst = writeLines(join(d, "a.log"), [
      JSON.stringify(header),
      JSON.stringify(hello),
      JSON.stringify(stray),
      "{not json",
    ]);
    await expect(checkLog(checkerFirst)).rejects.toThrow(/a\.log:3: a reply with id "nobody" answers no request/);
    const readerFirst = writeLines(join(d, "b.log"), [
      JSON.stringify(header),
      JSON.stringify(hello),
      "{not json",
      JSON.stringify(stray),
    ]);
    await expect(checkLog(readerFirst)).rejects.toThrow(/b\.log:3: not a JSON value/);
    await expect(checkLog(readerFirst)).rejects.toThrow(LogFileError);
  });
  it("openLog gives the same entries one by one", async () => {
    const entries = Array.from({ length: 2000 }, (_, i) => ({
      seq: i + 1,
      t_us: i,
      dir: i % 2 === 0 ? "request" : "reply",
      msg: { id: i, pad: "p".repeat(i % 300) },
    }));
    const f = writeLines(join(temp(), "many.log"), [JSON.stringify(header), ...entries.map((e) => JSON.stringify(e))]);
    const { header: h, entries: read } = await openLog(f);
    expect(h).toEqual(header);
    const got: unknown[] = [];
    const lines: number[] = [];
    for await (const { line, entry } of read) {
      got.push(entry);
      lines.push(line);
    }
    expect(got).toEqual(entries);
    expect(lines).toEqual(entries.map((_, i) => i + 2));
  });
});
