/**
 * The ITF reader and schema against real ITF: the trace Quint writes for fixtures/counter.qnt
 * (`quint run --out-itf`), committed as fixtures/counter.itf.json. The reader must decode every
 * form Quint uses (#bigint, #set, #map with string and integer keys, #tup, records, lists,
 * variants) to values that satisfy the counter's own laws, and the schema must accept the file.
 *
 * The live tests run Quint itself, offline, and compare the fresh traces' decoded states with
 * the committed ones (the #meta, which holds a timestamp, is left out), and hand the kit's own
 * ITF to Quint's ITF reader. They run whenever Quint is a devDependency of the kit — then a
 * missing install is a failure, not a skip.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../transport/local.ts";
import { readItf } from "./document.ts";
import { goldenTrace, SESSION_NAMES } from "./samples.ts";
import { itfOfPortableTrace, portableTraceOfItf } from "./trace.ts";

const FIXTURES = join(REPO_ROOT, "conformance/itf/fixtures");
const SPEC = join(FIXTURES, "counter.qnt");
const COMMITTED = join(FIXTURES, "counter.itf.json");
/** The command that wrote the committed trace (also in counter.qnt's header). */
const QUINT_ARGS = (out: string, mbt = false): string[] => [
  "run",
  "--backend",
  "typescript",
  "--max-samples",
  "1",
  "--max-steps",
  "5",
  "--seed",
  "1",
  ...(mbt ? ["--mbt"] : []),
  "--out-itf",
  out,
  SPEC,
];
/** The same run with --mbt: Quint adds the variables mbt::actionTaken and mbt::nondetPicks. */
const COMMITTED_MBT = join(FIXTURES, "counter.mbt.itf.json");

const read = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));
const schema = read(join(REPO_ROOT, "conformance/itf/itf.schema.json")) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

const tmp = mkdtempSync(join(tmpdir(), "srk-quint-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type N = number;
const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => JSON.stringify(x) === JSON.stringify(y)));

describe("Quint's ITF output (fixtures/counter.itf.json)", () => {
  it("satisfies the ITF schema", () => {
    const ok = validate(read(COMMITTED));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("decodes to the counter's states: integers, sets, both kinds of map, tuples, records, lists, variants", () => {
    const d = readItf(read(COMMITTED));
    expect(d.vars).toEqual(
      expect.arrayContaining(["count", "seen", "parity", "squares", "last", "info", "log", "phase"]),
    );
    expect(d.states.length).toBeGreaterThan(1);
    let sum = 0;
    for (const [i, s] of d.states.entries()) {
      const v = s.values as Record<string, unknown>;
      const count = v["count"] as N;
      const last = v["last"] as [N, boolean];
      if (i > 0) sum += last[0];
      expect(count, `state ${i}`).toBe(sum); // #bigint → number
      expect(last, `state ${i}`).toEqual(i === 0 ? [0, true] : [last[0], count % 2 === 0]); // #tup → array
      expect([1, 2, 3, 0]).toContain(last[0]);
      const seen = v["seen"] as N[]; // #set → array
      expect(seen).toContain(count);
      expect(new Set(seen).size).toBe(seen.length);
      const parity = v["parity"] as { even: N[]; odd: N[] }; // #map with string keys → object
      expect(Object.keys(parity).sort()).toEqual(["even", "odd"]);
      expect(sameSet([...parity.even, ...parity.odd], seen)).toBe(true);
      expect(parity.even.every((n) => n % 2 === 0) && parity.odd.every((n) => n % 2 === 1)).toBe(true);
      const squares = v["squares"] as [N, N][]; // #map with integer keys → [key, value] pairs
      expect(
        sameSet(
          squares.map(([k]) => k),
          seen,
        ),
      ).toBe(true);
      expect(squares.every(([k, sq]) => sq === k * k)).toBe(true);
      expect(v["info"]).toEqual({ steps: i, label: i === 0 ? "start" : count % 2 === 0 ? "even" : "odd" }); // record
      expect(v["log"]).toHaveLength(i); // list
      expect(v["phase"]).toEqual(i === 0 ? { tag: "Idle", value: [] } : { tag: "Counting", value: count }); // variants
    }
    // The states are the sampled run, in order.
    expect(d.states.map((s) => s.meta["index"])).toEqual(d.states.map((_, i) => i));
  });
});

describe("Quint's ITF output with --mbt (fixtures/counter.mbt.itf.json)", () => {
  it("satisfies the schema and decodes to the same states, plus the action taken and the nondeterministic picks", () => {
    const raw = read(COMMITTED_MBT);
    expect(validate(raw)).toBe(true);
    const mbt = readItf(raw);
    const plain = readItf(read(COMMITTED));
    expect(mbt.vars).toEqual([...plain.vars, "mbt::actionTaken", "mbt::nondetPicks"]);
    for (const [i, s] of mbt.states.entries()) {
      const { ["mbt::actionTaken"]: action, ["mbt::nondetPicks"]: picks, ...rest } = s.values;
      expect(rest).toEqual(plain.states[i]?.values);
      expect(action).toBe(i === 0 ? "init" : "step");
      // Option's Some is a variant; its None, the unit variant, reads as null.
      const d = (plain.states[i]!.values["last"] as [number, boolean])[0];
      expect(picks).toEqual({ d: i === 0 ? null : { tag: "Some", value: d } });
    }
  });
});

const devDependencies =
  (read(join(REPO_ROOT, "package.json")) as { devDependencies?: Record<string, string> }).devDependencies ?? {};
const QUINT_DECLARED = "@informalsystems/quint" in devDependencies;

describe.skipIf(!QUINT_DECLARED)("quint run --out-itf, live", () => {
  it("Quint is installed (it is a devDependency)", () => {
    expect(existsSync(join(REPO_ROOT, "node_modules/@informalsystems/quint/package.json"))).toBe(true);
  });

  it.each([
    ["counter.itf.json", false],
    ["counter.mbt.itf.json", true],
  ] as const)(
    "writes %s again: the same variables and the same decoded states",
    { timeout: 180_000 },
    async (name, mbt) => {
      const out = join(tmp, name);
      const bin = join(REPO_ROOT, "node_modules/.bin/quint");
      await promisify(execFile)(bin, QUINT_ARGS(out, mbt), { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }).catch(
        (e: unknown) => {
          // quint run exits non-zero when it finds a violation; the trace is written either way.
          if (!existsSync(out)) throw e;
        },
      );
      const fresh = read(out);
      expect(validate(fresh)).toBe(true);
      const a = readItf(fresh);
      const b = readItf(read(join(FIXTURES, name)));
      expect(a.vars).toEqual(b.vars);
      expect(a.states.map((s) => s.values)).toEqual(b.states.map((s) => s.values));
    },
  );

  it("Quint's own ITF reader reads what the kit writes, and what Quint writes back from it reads equal in the kit", async () => {
    // Quint's dist has no exports map; the module is loaded by name so the test compiles without it.
    const specifier = "@informalsystems/quint/dist/src/itf.js";
    const m = (await import(specifier)) as QuintItf & { default?: QuintItf };
    const quint = m.default ?? m;
    for (const name of SESSION_NAMES) {
      const trace = goldenTrace(name);
      const itf = JSON.parse(JSON.stringify(itfOfPortableTrace(trace))) as { "#meta": object; vars: string[] };
      const again = quint.toItf(itf.vars, quint.ofItf(itf));
      expect(again.isRight(), name).toBe(true);
      expect(portableTraceOfItf({ ...(again.value as object), "#meta": itf["#meta"] }), name).toEqual(trace);
    }
  });
});

/** The two functions of Quint's quint/src/itf.ts the test uses. */
interface QuintItf {
  readonly ofItf: (itf: unknown) => unknown[];
  readonly toItf: (vars: string[], states: unknown[]) => { isRight: () => boolean; value: unknown };
}
