/**
 * Store algebra properties. AD-3: merging the same set of distillates gives the same state digest
 * whatever the order, batching or duplication — exhaustively over all 720 permutations of 6
 * distillates with overlapping and contested keys (and several partitions, with duplicates), and
 * sampled for 40 distillates. S-5: excision equals a fresh lineage of the remaining distillates in
 * the same batches, bit for bit. S-4: replay reproduces the chain. The duplicates go to the model's
 * own `samskara.merge` (D-008 decides what a re-delivery contributes), never filtered by the test.
 * Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run properties/merge.property.test.ts
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import type { Disposition, SamskaraDistillate } from "../spec/index.ts";
import { aggregate, excise, genesisVersion, replay, sameChain, stateDigest, type World } from "../model/index.ts";
import { AGENT, accept, distilled, life, minted } from "../model/fixture.ts";
import { assertReplayable } from "./generators/replay.ts";

const FILE = "properties/merge.property.test.ts";
const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
const GENESIS = genesisVersion(BASE, "root-merge");

const mk = (id: string, valence: number, confidence: number, ds: [string, number, string][]): SamskaraDistillate => ({
  distillate_id: id,
  source: { identity: BASE, nonce: `n-${id}`, instance_id: `i-${id}` },
  born_from: GENESIS.version_id,
  signal: { valence, confidence, model_version: null, explicit: true },
  dispositions: ds.map(
    ([key, weight, guidance]): Disposition => ({
      key,
      guidance,
      weight,
      evidence_digest: EVIDENCE,
      category: "operational",
    }),
  ),
});

/** Six distillates: k.a contested three ways, k.b overlapping, ties in |w|*c to exercise D-007. */
const SIX: SamskaraDistillate[] = [
  mk("d1", 600_000, 500_000, [
    ["k.a", 600_000, "a1"],
    ["k.b", 300_000, "b1"],
  ]),
  mk("d2", -800_000, 375_000, [["k.a", -800_000, "a2"]]),
  mk("d3", 300_000, 1_000_000, [
    ["k.a", 300_000, "a3"],
    ["k.c", 100_000, "c3"],
  ]),
  mk("d4", -500_000, 600_000, [
    ["k.b", -500_000, "b4"],
    ["k.c", -5, "c4"],
  ]),
  mk("d5", 1, 1, [
    ["k.d", 1, "d5"],
    ["k.b", 1, "b5"],
  ]),
  mk("d6", -1, 3, [
    ["k.d", -1, "d6"],
    ["k.a", -1, "a6"],
  ]),
];

const permutations = <T>(xs: readonly T[]): T[][] =>
  xs.length <= 1
    ? [[...xs]]
    : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));

/** Cut a sequence into consecutive batches at the given sizes pattern (cycled). */
const partition = <T>(xs: readonly T[], sizes: readonly number[]): T[][] => {
  const out: T[][] = [];
  let i = 0;
  let k = 0;
  while (i < xs.length) {
    const n = Math.max(1, sizes[k % sizes.length] ?? 1);
    out.push(xs.slice(i, i + n));
    i += n;
    k++;
  }
  return out;
};

/**
 * The model's own merge (OP-4.1, D-008), not a re-implementation of it: a world in which each
 * distillate was distilled by a life of its own (same id, signal and dispositions; obligation
 * `ob-<id>` pending), built inside each test (Stryker attributes module-level model code to no test).
 */
const distilledWorld = (ds: readonly SamskaraDistillate[]): World =>
  ds.reduce(
    (w, d) =>
      distilled(
        w,
        life(`i-${d.distillate_id}`),
        2,
        d.distillate_id,
        d.signal.valence,
        d.signal.confidence,
        d.dispositions,
      ),
    minted(),
  );

interface Head {
  readonly version_id: string;
  readonly state_digest: string;
  readonly versions: number;
}

/**
 * One `samskara.merge` per delivery, naming the obligations of the listed distillates exactly as
 * given: repeats inside a delivery and re-deliveries of merged ones reach the model unfiltered,
 * and whatever it does with them (D-008: a batch contributes only what was not merged before)
 * makes the head read back from its store.
 */
const modelHead = (w0: World, deliveries: readonly (readonly SamskaraDistillate[])[]): Head => {
  let w = w0;
  for (const b of deliveries)
    w = accept(w, {
      op: "samskara.merge",
      tick: 3,
      agent: AGENT,
      obligation_ids: b.map((d) => `ob-${d.distillate_id}`),
    }).world;
  const chain = w.agents.get(AGENT)?.store.chain ?? [];
  const h = chain[chain.length - 1];
  return { version_id: h?.version_id ?? "", state_digest: h?.state_digest ?? "", versions: chain.length };
};

describe("AD-3 convergent reconciliation (exhaustive, 6 distillates)", () => {
  const expected = stateDigest(aggregate(SIX));
  it("AD-3 the fixture has contested and overlapping keys", () => {
    const s = aggregate(SIX);
    expect(s.entries.filter((e) => e.contested).map((e) => e.key)).toEqual(["k.a", "k.b", "k.c", "k.d"]);
  });
  it("AD-3 all 720 permutations x 5 partitions, and duplicate deliveries through the model's merge, reach the same state digest", () => {
    const perms = permutations(SIX);
    expect(perms).toHaveLength(720);
    const w0 = distilledWorld(SIX);
    const patterns = [[6], [1], [2], [3, 1, 2], [1, 4, 1]];
    for (const p of perms) {
      expect(stateDigest(aggregate(p))).toBe(expected);
      const heads = patterns.map((sizes) => modelHead(w0, partition(p, sizes)));
      for (const h of heads) expect(h.state_digest).toBe(expected);
      // duplicates, sent to the model as they are: a repeat inside a batch, merged ones re-delivered
      // with new ones and alone, the first distillate again at the end. The model must skip every
      // one of them (D-008), so the head is the head of the three batches without them.
      const [b1 = [], b2 = [], b3 = []] = partition(p, [2]);
      const p0 = p[0] as SamskaraDistillate;
      const clean = heads[2]; // the pattern [2]: b1, b2, b3
      const noisy = modelHead(w0, [
        [...b1, p0],
        [...b1, ...b2],
        [...b2, ...b1],
        [...b3, p0],
        [p0, p0],
      ]);
      expect(noisy).toEqual(clean);
      expect(noisy.versions).toBe(4);
      expect(noisy.state_digest).toBe(expected);
    }
  });
});

const distillateArb = (id: string): fc.Arbitrary<SamskaraDistillate> =>
  fc
    .record({
      valence: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      confidence: fc.integer({ min: 1, max: 1_000_000 }),
      keys: fc.uniqueArray(fc.constantFrom("k.a", "k.b", "k.c", "k.d", "k.e"), { minLength: 1, maxLength: 4 }),
      fracs: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 4, maxLength: 4 }),
      g: fc.nat(3),
    })
    .map(({ valence, confidence, keys, fracs, g }) =>
      // S-2 (D-012), which the model checks at distillation: the sign of every weight is the valence's, |w| <= |v|
      mk(
        id,
        valence,
        confidence,
        keys.map((k, i) => [
          k,
          valence === 0 ? 0 : Math.sign(valence) * Math.max(1, Math.trunc((Math.abs(valence) * (fracs[i] ?? 0)) / 100)),
          `guidance ${k} ${g}`,
        ]),
      ),
    );

const setArb = (n: number) =>
  fc.tuple(...Array.from({ length: n }, (_, i) => distillateArb(`d${String(i).padStart(2, "0")}`)));

describe("AD-3 convergent reconciliation (sampled, 40 distillates)", () => {
  it("AD-3 random permutations, partitions and duplicate deliveries through the model's merge give one state digest", () => {
    assertReplayable(
      FILE,
      fc.property(
        setArb(40),
        fc.array(fc.nat(39), { minLength: 40, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(fc.nat(1000), { maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(39), { maxLength: 10 }),
        (ds, keys, sizes, repeats, dups) => {
          const shuffled = ds
            .map((d, i) => ({ d, k: keys[i] ?? 0, i }))
            .sort((a, b) => a.k - b.k || a.i - b.i)
            .map((x) => x.d);
          const batches = partition(shuffled, sizes);
          // each batch re-delivers some distillates of itself or of earlier batches; then a batch of
          // re-deliveries only (all merged by then)
          const noisy = batches.map((b, i) => {
            const sent = batches.slice(0, i + 1).flat();
            return [
              ...b,
              ...(repeats[i % repeats.length] ?? []).map((r) => sent[r % sent.length] as SamskaraDistillate),
            ];
          });
          const w0 = distilledWorld(ds);
          const clean = modelHead(w0, batches);
          const head = modelHead(
            w0,
            [...noisy, dups.map((i) => ds[i] as SamskaraDistillate)].filter((b) => b.length > 0),
          );
          expect(head.state_digest).toBe(stateDigest(aggregate(ds)));
          expect(head).toEqual(clean);
          expect(head.versions).toBe(batches.length + 1);
        },
      ),
      60,
    );
  });
});

describe("S-5 excision equals a fresh lineage of the remaining distillates; S-4 replay reproduces", () => {
  it("S-5 S-4 excising any subset is bit-identical to never having merged it", () => {
    assertReplayable(
      FILE,
      fc.property(
        setArb(12),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.nat(11), { maxLength: 6 }),
        (ds, sizes, gone) => {
          const batches = partition(ds, sizes);
          const lineage = replay(GENESIS, batches);
          // S-4: replaying the recorded batches (by their members) reproduces the chain
          const byId = new Map(ds.map((d) => [d.distillate_id, d]));
          const again = replay(
            GENESIS,
            lineage.batches.map((b) => b.members.map((m) => byId.get(m.distillate_id) as SamskaraDistillate)),
          );
          expect(sameChain(again, lineage)).toBe(true);
          // S-5: excision = fresh lineage of the remaining distillates in the same batches
          const ids = gone.map((i) => `d${String(i).padStart(2, "0")}`);
          const excised = excise(GENESIS, batches, ids);
          const fresh = replay(
            GENESIS,
            batches.map((b) => b.filter((d) => !ids.includes(d.distillate_id))).filter((b) => b.length > 0),
          );
          expect(sameChain(excised, fresh)).toBe(true);
          expect(excised.chain.length).toBe(fresh.chain.length);
          const remaining = ds.filter((d) => !ids.includes(d.distillate_id));
          expect(excised.chain[excised.chain.length - 1]?.state_digest).toBe(stateDigest(aggregate(remaining)));
          expect(
            excised.batches.flatMap((b) => b.members.map((m) => m.distillate_id)).some((id) => ids.includes(id)),
          ).toBe(false);
        },
      ),
      150,
    );
  });
});

/** The head's version id (not only its state digest) after merging `batches` in order. */
const headVersion = (batches: readonly (readonly SamskaraDistillate[])[]): string => {
  const l = replay(GENESIS, batches);
  return l.chain[l.chain.length - 1]?.version_id ?? "";
};

describe("AD-3 what is promised about versions (OP-1.2a, D-031, spec review G-52)", () => {
  it("AD-3 the same batches, each in any internal order, give the identical head (the paper's twins)", () => {
    const batches = partition(SIX, [3, 2, 1]);
    const expected = headVersion(batches);
    for (const p of permutations(batches[0] ?? [])) expect(headVersion([p, ...batches.slice(1)])).toBe(expected);
    expect(headVersion([[...SIX].reverse()])).toBe(headVersion([SIX]));
  });
  it("AD-3 different batchings of one set reach the same state digest through different heads (the weaker promise)", () => {
    const heads = new Set<string>();
    const states = new Set<string>();
    for (const sizes of [[6], [1], [2], [3, 1, 2]]) {
      const l = replay(GENESIS, partition(SIX, sizes));
      heads.add(l.chain[l.chain.length - 1]?.version_id ?? "");
      states.add(l.chain[l.chain.length - 1]?.state_digest ?? "");
    }
    expect(states.size).toBe(1);
    expect(heads.size).toBe(4);
  });
});
