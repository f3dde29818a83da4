/**
 * `npm run ad3:exhaustive`: AD-3 checked over the whole space of n distillates (default 8: all
 * 5,160,960 orders × batchings), with the model's merge (merge-space.ts). For a researcher who
 * wants "no order or batching of these distillates changes the state", not a sample of them.
 *
 *   npm run ad3:exhaustive                        # the 8 distillates of the fixture, every case
 *   npm run ad3:exhaustive -- --distillates 6     # the first 6 of them
 *   npm run ad3:exhaustive -- --slice 3           # only the orders that begin with distillate 3 (0-based): a shard
 *   npm run ad3:exhaustive -- --case 2,0,1/1      # replay one case (order / batching mask) from genesis and print its head
 *   npm run ad3:exhaustive -- --report FILE       # also write the result as JSON (.ci/run counts it)
 *
 * Progress (one line per first distillate, each a slice of (n−1)! × 2^(n−1) cases) goes to stderr;
 * the result is one line on stdout. Exit 0 when every case reaches the aggregate's state digest, 1
 * with the first mismatching cases (each replayable with --case), 64 on bad arguments.
 */
import { writeFileSync } from "node:fs";
import { aggregate, replay, stateDigest } from "../model/index.ts";
import {
  EIGHT,
  SPACE_GENESIS,
  batchesOfCase,
  spaceSize,
  walkMergeSpace,
  type SpaceCase,
  type SpaceMismatch,
} from "./merge-space.ts";

const usage = (why: string): never => {
  process.stderr.write(
    `ad3:exhaustive: ${why}\nusage: npm run ad3:exhaustive -- [--distillates N (1-8, default 8)] [--slice I] [--case ORDER/MASK] [--report FILE]\n`,
  );
  process.exit(64);
};

const intArg = (flag: string, v: string | undefined, min: number, max: number): number => {
  const n = Number(v);
  if (v === undefined || !/^\d+$/.test(v) || n < min || n > max)
    usage(`${flag} takes an integer from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return n;
};

const parseCase = (text: string, n: number): SpaceCase => {
  const m = /^(\d+(?:,\d+)*)\/(\d+)$/.exec(text);
  if (m === null) return usage(`--case takes ORDER/MASK, e.g. 2,0,1/1, not ${JSON.stringify(text)}`);
  const order = (m[1] as string).split(",").map(Number);
  const mask = Number(m[2]);
  const sorted = [...order].sort((a, b) => a - b);
  if (order.length !== n || sorted.some((x, i) => x !== i))
    usage(`--case: the order must list each of 0…${n - 1} once (--distillates ${n})`);
  if (mask >= 2 ** Math.max(0, n - 1))
    usage(`--case: the mask must be below 2^${n - 1} (bit i: a batch ends after the i-th of the order)`);
  return { order, mask };
};

const describeCase = (ds: typeof EIGHT, c: SpaceCase): string =>
  `${c.order.join(",")}/${c.mask} = batches ${batchesOfCase(ds, c)
    .map((b) => `[${b.map((d) => d.distillate_id).join(" ")}]`)
    .join(" ")}`;

const main = (argv: readonly string[]): number => {
  let n = 8;
  let slice: number | null = null;
  let one: string | null = null;
  let report: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--distillates") n = intArg(a, argv[++i], 1, EIGHT.length);
    else if (a === "--slice") slice = intArg(a, argv[++i], 0, EIGHT.length - 1);
    else if (a === "--case") one = argv[++i] ?? usage("--case needs ORDER/MASK");
    else if (a === "--report") report = argv[++i] ?? usage("--report needs a file");
    else usage(`unknown argument ${JSON.stringify(a)}`);
  }
  const ds = EIGHT.slice(0, n);
  if (slice !== null && slice >= n) usage(`--slice must be below --distillates (${n})`);
  if (one !== null) {
    const c = parseCase(one, n);
    const chain = replay(SPACE_GENESIS, batchesOfCase(ds, c)).chain;
    const head = chain[chain.length - 1];
    const expected = stateDigest(aggregate([...ds]));
    process.stdout.write(
      `case ${describeCase(ds, c)}: head ${head?.state_digest} (${chain.length - 1} versions); the aggregate of the set: ${expected}: ${head?.state_digest === expected ? "equal" : "DIFFERENT (AD-3 broken)"}\n`,
    );
    return head?.state_digest === expected ? 0 : 1;
  }
  const slices = slice === null ? ds.map((_, i) => i) : [slice];
  const total = slices.length * spaceSize(n, 1);
  process.stderr.write(
    `ad3:exhaustive: ${n} distillates, ${total.toLocaleString("en-US")} cases (orders × batchings)${slice === null ? "" : `, the slice of orders beginning with ${slice}`}\n`,
  );
  const t0 = performance.now();
  let cases = 0;
  let merges = 0;
  let mismatchCount = 0;
  const mismatches: SpaceMismatch[] = [];
  for (const first of slices) {
    const t = performance.now();
    const r = walkMergeSpace(SPACE_GENESIS, ds, { prefix: [first], maxMismatches: 5 });
    cases += r.cases;
    merges += r.merges;
    mismatchCount += r.mismatchCount;
    mismatches.push(...r.mismatches.slice(0, Math.max(0, 5 - mismatches.length)));
    const s = (performance.now() - t) / 1000;
    process.stderr.write(
      `  orders beginning with ${ds[first]?.distillate_id}: ${r.cases.toLocaleString("en-US")} cases in ${s.toFixed(1)} s (${Math.round(r.cases / s).toLocaleString("en-US")} cases/s), ${r.mismatchCount} mismatch(es)\n`,
    );
  }
  const s = (performance.now() - t0) / 1000;
  const rate = Math.round(cases / s).toLocaleString("en-US");
  if (report !== null) {
    writeFileSync(
      report,
      `${JSON.stringify({ distillates: n, slices, cases, merges, mismatches: mismatchCount, first: mismatches, seconds: s, ok: mismatchCount === 0 && cases === total })}\n`,
    );
  }
  if (mismatchCount === 0) {
    process.stdout.write(
      `AD-3 holds on all ${cases.toLocaleString("en-US")} cases of ${n} distillates: one state digest whatever the order and batching (${merges.toLocaleString("en-US")} merges, ${s.toFixed(1)} s, ${rate} cases/s)\n`,
    );
    return 0;
  }
  process.stdout.write(
    `AD-3 broken on ${mismatchCount.toLocaleString("en-US")} of ${cases.toLocaleString("en-US")} cases of ${n} distillates (${s.toFixed(1)} s); the first:\n`,
  );
  for (const m of mismatches)
    process.stdout.write(
      `  ${describeCase(ds, m)}: head ${m.head}, the aggregate ${m.expected}; replay: npm run ad3:exhaustive -- --distillates ${n} --case ${m.order.join(",")}/${m.mask}\n`,
    );
  return 1;
};

process.exitCode = main(process.argv.slice(2));
