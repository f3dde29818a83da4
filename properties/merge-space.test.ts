/**
 * The exhaustive AD-3 walk (merge-space.ts): it visits every (order, batching) exactly once, each
 * head it compares is the head `replay` computes for that case from genesis, slices partition the
 * space, and a merge step that is not a function of the set is caught with the case that shows it.
 */
import { describe, expect, it } from "vitest";
import type { SamskaraDistillate } from "../spec/index.ts";
import { aggregate, mergeStep, replay, stateDigest } from "../model/index.ts";
import {
  EIGHT,
  SPACE_GENESIS,
  batchesOfCase,
  spaceSize,
  walkMergeSpace,
  type MergeStepFn,
  type SpaceCase,
} from "./merge-space.ts";

const key = (c: SpaceCase): string => `${c.order.join(",")}/${c.mask}`;

describe("the exhaustive AD-3 walk", () => {
  it("AD-3 visits each of the n! × 2^(n−1) cases once, for n = 1 … 5, and the model's merge agrees on all", () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const seen = new Set<string>();
      const r = walkMergeSpace(SPACE_GENESIS, EIGHT.slice(0, n), { onCase: (c) => seen.add(key(c)) });
      // n! orders × 2^(n−1) batchings, counted from the definition, not from the walk.
      const expected = [1, 2, 6, 24, 120][n - 1]! * 2 ** (n - 1);
      expect(r.cases, `n = ${n}`).toBe(expected);
      expect(spaceSize(n)).toBe(expected);
      expect(seen.size, `n = ${n}: every case distinct`).toBe(expected);
      expect(r).toMatchObject({
        mismatchCount: 0,
        mismatches: [],
        expected: stateDigest(aggregate(EIGHT.slice(0, n))),
      });
      // The last mask bit is never set: the last distillate always ends the last batch.
      for (const k of seen) expect(Number(k.split("/")[1]) >> Math.max(0, n - 1)).toBe(0);
    }
  });

  it("AD-3 each case's head is the head replay(genesis, its batches) computes, version id included (n = 4, all 192)", () => {
    const ds = EIGHT.slice(0, 4);
    let compared = 0;
    walkMergeSpace(SPACE_GENESIS, ds, {
      onCase: (c, head) => {
        const chain = replay(SPACE_GENESIS, batchesOfCase(ds, c)).chain;
        expect(head, key(c)).toEqual(chain[chain.length - 1]);
        compared++;
      },
    });
    expect(compared).toBe(192);
  });

  it("AD-3 shares prefixes: a merge per batch end of the walk, fewer than replaying every case from genesis", () => {
    const n = 5;
    const r = walkMergeSpace(SPACE_GENESIS, EIGHT.slice(0, n));
    // Replaying every case from genesis merges once per batch: Σ over cases of (set bits + 1) = cases × (1 + (n−1)/2).
    const replayMerges = spaceSize(n) * (1 + (n - 1) / 2);
    // The walk merges once per distinct non-empty prefix of batches: Σ_k C(n,k) k! 2^(k−1).
    const choose = (a: number, b: number): number => (b === 0 ? 1 : (choose(a, b - 1) * (a - b + 1)) / b);
    const prefixes = [1, 2, 3, 4, 5].reduce((s, k) => s + choose(n, k) * spaceSize(k), 0);
    expect(r.merges).toBe(prefixes);
    expect(r.merges).toBeLessThan(replayMerges);
  });

  it("slices by the first distillates partition the space", () => {
    const ds = EIGHT.slice(0, 5);
    const whole = walkMergeSpace(SPACE_GENESIS, ds);
    const slices = [0, 1, 2, 3, 4].map((i) => walkMergeSpace(SPACE_GENESIS, ds, { prefix: [i] }));
    expect(slices.reduce((s, x) => s + x.cases, 0)).toBe(whole.cases);
    for (const x of slices) expect(x.cases).toBe(spaceSize(5, 1));
    const two = walkMergeSpace(SPACE_GENESIS, ds, {
      prefix: [3, 1],
      onCase: (c) => expect(c.order.slice(0, 2)).toEqual([3, 1]),
    });
    expect(two.cases).toBe(spaceSize(5, 2));
    expect(() => walkMergeSpace(SPACE_GENESIS, ds, { prefix: [1, 1] })).toThrow(/distinct indices below 5/);
    expect(() => walkMergeSpace(SPACE_GENESIS, ds, { prefix: [5] })).toThrow(/distinct indices below 5/);
    expect(() => walkMergeSpace(SPACE_GENESIS, [])).toThrow(/1 to 12 distillates/);
  });

  it("AD-3 breaks: a merge that keeps only the last batch's distillates fails every case of more than one batch, and names them", () => {
    const lastBatchOnly: MergeStepFn = (head, _retained, added) => mergeStep(head, [], added);
    const n = 4;
    const r = walkMergeSpace(SPACE_GENESIS, EIGHT.slice(0, n), { step: lastBatchOnly, maxMismatches: 3 });
    // The rule: only the n! single-batch cases (mask 0) hold.
    expect(r.mismatchCount).toBe(spaceSize(n) - 24);
    expect(r.mismatches).toHaveLength(3);
    for (const m of r.mismatches) {
      expect(m.mask).not.toBe(0);
      expect(m.head).not.toBe(m.expected);
    }
  });

  it("AD-3 breaks: a merge whose guidance follows merge order rather than D-007 is caught with a case that rebuilds the difference", () => {
    // The same version chain, but each entry's guidance is taken from the contributor merged last.
    const lastWins: MergeStepFn = (head, retained, added) => {
      const s = mergeStep(head, retained, added);
      const all: SamskaraDistillate[] = [...retained, ...added];
      const entries = s.state.entries.map((e) => {
        const last = [...all].reverse().find((d) => d.dispositions.some((x) => x.key === e.key));
        return { ...e, guidance: last?.dispositions.find((x) => x.key === e.key)?.guidance ?? e.guidance };
      });
      const state = { entries };
      return { ...s, state, version: { ...s.version, state_digest: stateDigest(state) } };
    };
    const ds = EIGHT.slice(0, 3);
    const r = walkMergeSpace(SPACE_GENESIS, ds, { step: lastWins });
    expect(r.mismatchCount).toBeGreaterThan(0);
    const first = r.mismatches[0]!;
    // Rebuilt from the case alone: the order's last contributor to a contested key is not D-007's first.
    const order = first.order.map((i) => ds[i]!);
    expect(stateDigest(aggregate(order))).toBe(first.expected);
    expect(first.head).not.toBe(first.expected);
  });
});
