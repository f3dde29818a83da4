/** The request-id memory (W-2.1, D-039): exact duplicate detection in a bounded number of bytes per id. */
import { describe, expect, it } from "vitest";
import { RequestIdSet } from "../wire/ids.ts";

describe("request-id set", () => {
  it("tells every distinct id apart, however similar (no false duplicates)", () => {
    const s = new RequestIdSet();
    const ids: (string | number)[] = [
      0,
      1,
      255,
      256,
      65536,
      Number.MAX_SAFE_INTEGER,
      "0",
      "1",
      "",
      "a",
      "A",
      "é",
      "e\u0301",
      "ÿ",
      "Ā",
      "\u0100",
      "\ud800",
      "\ud801",
      "\udc00",
      "\ud83d\ude00",
      "\ufffd",
      "x".repeat(128),
      `${"x".repeat(127)}y`,
      "u3.t17",
      "u3.t1",
      "r12",
      "h-ok",
    ];
    const distinct = [...new Set(ids)];
    for (const id of distinct) expect(s.add(id), JSON.stringify(id)).toBe(true);
    expect(s.size).toBe(distinct.length);
    for (const id of distinct) {
      expect(s.has(id), JSON.stringify(id)).toBe(true);
      expect(s.add(id), `${JSON.stringify(id)} again`).toBe(false);
    }
    expect(s.has(2)).toBe(false);
    expect(s.has("2")).toBe(false);
    expect(s.has("\ud802")).toBe(false);
    expect(s.size).toBe(distinct.length);
  });

  it("agrees with a plain Set on 200,000 ids with repeats, across table and arena growth", () => {
    const s = new RequestIdSet(16);
    const reference = new Set<string>();
    let rnd = 12345;
    const next = (): number => {
      rnd = (Math.imul(rnd, 1103515245) + 12345) >>> 0;
      return rnd;
    };
    const disagreements: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const r = next() % 150_000;
      const id: string | number = r % 3 === 0 ? r : r % 3 === 1 ? `wire-${r}` : `u${r % 97}.t${r}\u00e9\u4e2d`;
      const key = `${typeof id}:${id}`;
      if (s.add(id) === reference.has(key)) disagreements.push(key);
      reference.add(key);
    }
    expect(disagreements).toEqual([]);
    expect(reference.size).toBeGreaterThan(100_000);
    expect(s.size).toBe(reference.size);
  });

  it("keeps about 30 bytes per id for runner-style ids, not the ~130 of a Set of strings", () => {
    const s = new RequestIdSet();
    const n = 370_000;
    let encoded = 0;
    let added = 0;
    for (let i = 0; i < n; i++) {
      const id = `u${i % 50}.t${i}`; // like the runner's ids: 7 to 11 characters
      encoded += 1 + id.length;
      if (s.add(id)) added++;
    }
    expect(added).toBe(n);
    // Arena: 2 length bytes + the encoding per id, capacity at most 1.5 times that; table: 4 bytes a slot at load ≥ 0.35.
    expect(s.retainedBytes).toBeLessThanOrEqual(1.5 * (encoded + 2 * n) + (4 * n) / 0.35);
    expect(s.retainedBytes / n).toBeLessThan(36);
  });

  it("rejects what W-2.1 does not allow as an id", () => {
    const s = new RequestIdSet();
    expect(() => s.add(-1)).toThrow(RangeError);
    expect(() => s.add(1.5)).toThrow(RangeError);
    expect(() => s.add(2 ** 53)).toThrow(RangeError);
    expect(() => s.add("x".repeat(129))).toThrow(RangeError);
    expect(s.size).toBe(0);
  });
});
