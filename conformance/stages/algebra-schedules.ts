/**
 * Merge schedules and excision cases of the algebra stage (AD-3, S-5). A schedule is the list of
 * `samskara.merge` commands applied after the prefix, each naming lives (their obligation ids):
 * every order of a small set, a few batchings (1, 2 or all obligations per command), duplicate
 * deliveries (an obligation already applied, alone or with new ones, or listed twice: D-008), and
 * for a larger set a sample of orders drawn from the certification seed. Excision cases name a
 * batching and the lives to forget; at least one empties a whole batch (D-009).
 */
import { seededRandom } from "../oracle/prng.ts";
import { distillateId, obligationId } from "./algebra-script.ts";

export interface Schedule {
  readonly label: string;
  /** Lives (0-based) per merge command, in order. */
  readonly merges: readonly (readonly number[])[];
}

export interface ExcisionCase {
  readonly label: string;
  readonly batches: readonly (readonly number[])[];
  /** Lives whose distillates are excised. */
  readonly excised: readonly number[];
}

/** `ob-2 | ob-1,ob-3`: one `|` per merge command. */
export const describeMerges = (merges: readonly (readonly number[])[]): string =>
  merges.map((m) => m.map(obligationId).join(",")).join(" | ");

const schedule = (n: number, merges: readonly (readonly number[])[]): Schedule => ({
  label: `n${n} merges ${describeMerges(merges)}`,
  merges,
});

export const permutations = <T>(xs: readonly T[]): T[][] =>
  xs.length <= 1
    ? [[...xs]]
    : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Every order of n lives, one obligation per merge command. */
export const exhaustiveOrders = (n: number): Schedule[] =>
  permutations(range(n)).map((p) =>
    schedule(
      n,
      p.map((i) => [i]),
    ),
  );

/** Batchings and duplicate deliveries of 4 lives (D-008: a redelivered obligation changes nothing). */
export const batchingsOf4 = (): Schedule[] =>
  [
    [[0, 1, 2, 3]],
    [
      [3, 2],
      [1, 0],
    ],
    [[1], [3, 0, 2]],
    [[2, 0, 3], [1]],
    // redelivery alone (a no-op merge), an obligation listed twice, then only applied ones again
    [[0, 1], [0], [2, 2, 3], [1, 3]],
    // applied obligations redelivered together with new ones
    [[3], [3, 1], [1, 2], [2, 0, 3]],
  ].map((m) => schedule(4, m));

/** Sampled schedules and cases depend only on the certification seed. */
export const prng = seededRandom;

const below = (rnd: () => number, n: number): number => Math.min(n - 1, Math.floor(rnd() * n));

const shuffled = (rnd: () => number, n: number): number[] => {
  const xs = range(n);
  for (let i = n - 1; i > 0; i--) {
    const j = below(rnd, i + 1);
    [xs[i], xs[j]] = [xs[j] as number, xs[i] as number];
  }
  return xs;
};

/** Cuts `xs` into consecutive batches of 1..maxSize. */
const cut = (rnd: () => number, xs: readonly number[], maxSize: number): number[][] => {
  const out: number[][] = [];
  for (let i = 0; i < xs.length; ) {
    const k = 1 + below(rnd, maxSize);
    out.push(xs.slice(i, i + k));
    i += k;
  }
  return out;
};

/** `count` sampled schedules of n lives: an order, batches of 1–3, and now and then a redelivery. */
export const sampledSchedules = (n: number, count: number, seed: number): Schedule[] => {
  const rnd = prng(seed ^ 0xa13e);
  return range(count).map(() => {
    const merges = cut(rnd, shuffled(rnd, n), 3);
    if (rnd() < 0.5 && merges.length > 1) {
      // redeliver an already merged obligation inside a later batch (D-008)
      const at = 1 + below(rnd, merges.length - 1);
      const earlier = merges.slice(0, at).flat();
      merges[at] = [...(merges[at] ?? []), earlier[below(rnd, earlier.length)] as number];
    }
    return schedule(n, merges);
  });
};

/** Fixed excision cases over 4 lives (one empties a batch, one cuts two), plus `sampled` drawn from the seed. */
export const excisionCases = (n: number, sampled: number, seed: number): ExcisionCase[] => {
  const fixed: ExcisionCase[] =
    n >= 4
      ? [
          { label: "", batches: [[0], [1, 2], [3]], excised: [0] },
          {
            label: "",
            batches: [
              [0, 1],
              [2, 3],
            ],
            excised: [1, 2],
          },
          { label: "", batches: [[2], [0], [3, 1]], excised: [2, 1] },
        ]
      : [];
  const rnd = prng(seed ^ 0x5e5e);
  const drawn = range(sampled).map((): ExcisionCase => {
    const batches = cut(rnd, shuffled(rnd, n), 3);
    const size = 1 + below(rnd, n);
    return {
      label: "",
      batches,
      excised: shuffled(rnd, n)
        .slice(0, size)
        .sort((a, b) => a - b),
    };
  });
  return [...fixed, ...drawn].map((c) => ({
    ...c,
    label: `n${n} merges ${describeMerges(c.batches)} then excise ${c.excised.map(distillateId).join(",")}`,
  }));
};
