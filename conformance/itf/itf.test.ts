/**
 * ITF (Apalache ADR-015) for the kit's own data: JSON values, portable traces and model histories
 * written as ITF read back equal; what the kit writes satisfies the JSON Schema of ADR-015
 * (itf.schema.json); readers' errors name the state and variable; srk itf and srk replay take ITF.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { portableTrace } from "../../spec/examples.ts";
import { PortableTrace } from "../../spec/certificate.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { decodeItf, encodeJson, ItfValueError } from "./encode.ts";
import { readItf } from "./document.ts";
import { historyOfItf, itfOfHistory } from "./history.ts";
import { itfOfPortableTrace, portableTraceOfItf } from "./trace.ts";
import { readAnyTrace } from "./file.ts";
import { goldenHistory, goldenTrace, SESSION_NAMES } from "./samples.ts";
import { srk } from "../../test-support/srk.ts";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "conformance/itf/itf.schema.json"), "utf8")) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
const valid = (x: unknown): boolean => {
  const ok = validate(x);
  if (!ok) console.error(validate.errors?.slice(0, 3));
  return ok;
};
/** What a file holds: JSON text parsed again (a trace is compared as it is read, not as built). */
const viaFile = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

const tmp = mkdtempSync(join(tmpdir(), "srk-itf-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("JSON values ⇄ ITF expressions", () => {
  it("round-trip every JSON value, and the encoding satisfies the schema", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const e = viaFile(encodeJson(v));
        expect(decodeItf(e)).toEqual(viaFile(v));
        expect(valid({ vars: ["v"], states: [{ v: e }] })).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("picks one form per JSON form: #bigint for integers, None for null, #map for objects a reader would misread", () => {
    expect(encodeJson(7)).toEqual({ "#bigint": "7" });
    // biome-ignore lint/correctness/noPrecisionLoss: the double nearest this literal is what #bigint must carry exactly
    expect(encodeJson(-12345678901234567890)).toEqual({ "#bigint": "-12345678901234567168" });
    expect(encodeJson(null)).toEqual({ tag: "None", value: { "#tup": [] } });
    expect(encodeJson(1.5)).toEqual({ tag: "Float", value: "1.5" });
    expect(encodeJson([1, "a"])).toEqual([{ "#bigint": "1" }, "a"]);
    expect(encodeJson({ a: true })).toEqual({ a: true });
    expect(encodeJson({ tag: "None", value: {} })).toEqual({
      "#map": [
        ["tag", "None"],
        ["value", {}],
      ],
    });
    expect(encodeJson({ "#set": [] })).toEqual({ "#map": [["#set", []]] });
    expect(encodeJson({ __proto: 1 })).toEqual({ "#map": [["__proto", { "#bigint": "1" }]] });
    for (const v of [
      JSON.parse('{"__proto__": [1]}'),
      { tag: "None", value: {} },
      { "#set": [] },
      { tag: "Float", value: "x" },
      -0,
      1e21,
      2 ** -1074,
      "None",
    ])
      expect(decodeItf(viaFile(encodeJson(v)))).toEqual(viaFile(v));
  });

  it("reads every ITF form: plain and big integers, tuples, sets (in canonical order), maps, variants", () => {
    expect(decodeItf(3)).toBe(3);
    expect(decodeItf({ "#bigint": "-9007199254740991" })).toBe(-9007199254740991);
    expect(decodeItf({ "#tup": [{ "#bigint": "1" }, "x"] })).toEqual([1, "x"]);
    expect(decodeItf({ "#set": ["b", "a", { "#bigint": "2" }] })).toEqual(["a", "b", 2]); // by RFC 8785 text: "\"a\"" < "2"
    expect(decodeItf({ "#map": [["k", { "#bigint": "1" }]] })).toEqual({ k: 1 });
    expect(
      decodeItf({
        "#map": [
          [{ "#bigint": "2" }, "b"],
          [{ "#bigint": "1" }, "a"],
        ],
      }),
    ).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(decodeItf({ "#map": [] })).toEqual({});
    expect(decodeItf({ tag: "Some", value: { "#bigint": "40" } })).toEqual({ tag: "Some", value: 40 });
    expect(decodeItf({ tag: "None", value: {} })).toBeNull(); // Quint 0.1x wrote unit as {}
  });

  it("refuses what is not an ITF expression or has no exact JSON value, naming where", () => {
    const fails = (e: unknown, path: string, reason: RegExp) => {
      try {
        decodeItf(e);
      } catch (x) {
        expect(x).toBeInstanceOf(ItfValueError);
        expect((x as ItfValueError).path).toBe(path);
        expect((x as ItfValueError).reason).toMatch(reason);
        return;
      }
      expect.unreachable(`${JSON.stringify(e)} was accepted`);
    };
    fails({ a: [{ "#bigint": "12345678901234567891" }] }, ".a[0].#bigint", /no exact JSON/);
    fails({ a: { "#bigint": "1e3" } }, ".a.#bigint", /not an integer/);
    fails({ "#unserializable": "Int" }, "", /could not serialise/);
    fails({ "#tup": [], x: 1 }, "", /only key/);
    fails({ "#bag": [] }, "", /not an ITF form/);
    fails([null], "[0]", /null is not an ITF expression/);
    fails({ x: 1.5 }, ".x", /integers/);
    fails({ "#map": [["k"]] }, ".#map[0]", /pair/);
    fails(
      {
        "#map": [
          ["k", 1],
          ["k", 2],
        ],
      },
      ".#map",
      /twice/,
    );
  });
});

describe("ITF as other writers write it", () => {
  // Shapes from ADR-015's own example (Apalache), Quint 0.1x (unit as {}) and Quint's Rust
  // backend (plain integers, "params": [], "loop": null); Quint 0.33's TypeScript backend is
  // checked on its real output in quint.test.ts.
  const traces: Record<string, unknown> = {
    apalache: {
      "#meta": { source: "MC_MissionariesAndCannibalsTyped.tla" },
      vars: ["bank_of_boat", "who_is_on_bank"],
      states: [
        {
          "#meta": { index: 0 },
          bank_of_boat: "E",
          who_is_on_bank: {
            "#map": [
              ["E", { "#set": ["m1_OF_PERSON", "c1_OF_PERSON"] }],
              ["W", { "#set": [] }],
            ],
          },
        },
      ],
    },
    quint01x: {
      vars: ["value"],
      states: [
        { "#meta": { index: 0 }, value: { tag: "None", value: {} } },
        { "#meta": { index: 1 }, value: { tag: "Some", value: { "#bigint": "40" } } },
      ],
    },
    quintRust: {
      "#meta": { format: "ITF", varTypes: {} },
      params: [],
      vars: ["version", "orphans"],
      loop: null,
      states: [{ "#meta": { index: 0 }, version: 0, orphans: { "#set": [{ key_hash: [], version: 1 }] } }],
    },
  };
  it("satisfies the schema and decodes", () => {
    for (const [name, t] of Object.entries(traces)) expect(valid(t), name).toBe(true);
    expect(readItf(traces["apalache"]).states[0]?.values).toEqual({
      bank_of_boat: "E",
      who_is_on_bank: { E: ["c1_OF_PERSON", "m1_OF_PERSON"], W: [] },
    });
    expect(readItf(traces["quint01x"]).states.map((s) => s.values["value"])).toEqual([
      null,
      { tag: "Some", value: 40 },
    ]);
    expect(readItf(traces["quintRust"])).toMatchObject({
      params: [],
      loop: null,
      vars: ["version", "orphans"],
      states: [{ values: { version: 0, orphans: [{ key_hash: [], version: 1 }] } }],
    });
  });

  it("takes the variables from the states, so a name listed twice in vars (Quint 0.32's mbt:: ones) is read once", () => {
    const t = { vars: ["x", "mbt::actionTaken", "mbt::actionTaken"], states: [{ x: "a", "mbt::actionTaken": "init" }] };
    expect(valid(t)).toBe(true);
    expect(readItf(t).vars).toEqual(["x", "mbt::actionTaken"]);
    expect(() => readItf({ vars: ["x", "y"], states: [{ x: "a" }] })).toThrow(/vars names y, which no state holds/);
    expect(() => readItf({ vars: ["x"], states: [{ x: "a" }, { y: "b" }] })).toThrow(
      /state 0: variable y is missing|state 1: variable x is missing/,
    );
  });
});

describe("portable traces ⇄ ITF", () => {
  it("every golden session as a counterexample reads back deep-equal, and satisfies the ITF schema", () => {
    expect(SESSION_NAMES.length).toBeGreaterThan(5);
    for (const name of SESSION_NAMES) {
      const trace = PortableTrace.parse(goldenTrace(name));
      const itf = viaFile(itfOfPortableTrace(trace));
      expect(valid(itf), name).toBe(true);
      expect(portableTraceOfItf(itf), name).toEqual(trace);
    }
  });

  it("the example counterexample of the spec and its variants read back deep-equal", () => {
    const variants = [
      portableTrace,
      { ...portableTrace, invariant: null, seed: null, path: null, failing_step: null, shrink: null },
      {
        ...portableTrace,
        difference: "world.agents[0].state: active vs quiesced",
        shrink: { attempts: 1, original_length: 9, interrupted: true, reason: "the time budget ended" },
      },
      { ...portableTrace, steps: [] },
    ];
    for (const v of variants) {
      const trace = PortableTrace.parse(v);
      const itf = viaFile(itfOfPortableTrace(trace));
      expect(valid(itf)).toBe(true);
      expect(portableTraceOfItf(itf)).toEqual(trace);
    }
  });

  it("writes the trace's fields in #meta and one state per step, the failing one marked", () => {
    const itf = itfOfPortableTrace(PortableTrace.parse(portableTrace));
    expect(itf["#meta"]).toMatchObject({
      format: "ITF",
      source: "srk",
      invariant: "J-1",
      stage: "differential",
      seed: 1,
      failing_step: 2,
    });
    expect(itf.vars).toEqual(["step", "request", "expected", "actual", "model"]);
    expect(itf.states.map((s) => s["#meta"])).toEqual([{ index: 0 }, { index: 1 }, { index: 2, failing: true }]);
    expect(itf.states[0]?.["step"]).toEqual({ "#bigint": "0" });
  });

  it("names the state and variable that does not fit", () => {
    const itf = viaFile(itfOfPortableTrace(PortableTrace.parse(portableTrace))) as {
      "#meta": Record<string, unknown>;
      states: Record<string, unknown>[];
    };
    const broken = (f: (x: typeof itf) => void) => {
      const c = structuredClone(itf);
      f(c);
      return () => portableTraceOfItf(c);
    };
    expect(broken((c) => delete c.states[1]?.["request"])).toThrow(/state 1: variable request is missing/);
    expect(
      broken((c) => {
        (c.states[2] as Record<string, unknown>)["actual"] = { "#set": [{ "#unserializable": "Int" }] };
      }),
    ).toThrow(/state 2, variable actual\.#set\[0\]: a value the writer could not serialise/);
    expect(
      broken((c) => {
        (c.states[1] as Record<string, unknown>)["request"] = "c2";
      }),
    ).toThrow(/state 1, variable request: /);
    expect(
      broken((c) => {
        (c.states[0] as Record<string, unknown>)["step"] = { "#bigint": "4" };
      }),
    ).toThrow(/state 0, variable step: 4, expected 0/);
    expect(
      broken((c) => {
        c["#meta"]["stage"] = "fuzz";
      }),
    ).toThrow(/#meta\.stage/);
    expect(
      broken((c) => {
        delete c["#meta"]["check"];
      }),
    ).toThrow(/#meta lacks check/);
  });
});

describe("model histories ⇄ ITF", () => {
  it("a golden session's history reads back to the same worlds, commands and events", () => {
    for (const name of SESSION_NAMES.slice(0, 3)) {
      const { initial, history } = goldenHistory(name);
      const itf = viaFile(itfOfHistory(initial, history));
      expect(valid(itf), name).toBe(true);
      const back = historyOfItf(itf);
      expect(back.initial).toEqual(initial);
      expect(back.history.map((h) => ({ ...h }))).toEqual(history.map((h) => ({ ...h })));
      expect(readItf(itf).states).toHaveLength(history.length + 1);
    }
  });
});

describe("srk itf and srk replay with ITF", () => {
  const KIT = `${process.execPath} --import tsx impl/main.ts`;

  it("srk itf writes ITF that srk replay runs as it runs the JSON trace", { timeout: 120_000 }, async () => {
    const trace = goldenTrace("session-1");
    const json = join(tmp, "session-1.json");
    writeFileSync(json, JSON.stringify(trace));
    const out = join(tmp, "session-1.itf.json");
    const w = await srk("itf", json, "--out", out);
    expect(w.code, w.stderr).toBe(0);
    expect(readAnyTrace(out)).toEqual(trace);
    const stdout = await srk("itf", json);
    expect(JSON.parse(stdout.stdout)).toEqual(JSON.parse(readFileSync(out, "utf8")));
    // The last reply of the trace is "none came" (null): the kit's implementation replies, so the
    // replay stops there, as it does on the JSON form of the same trace.
    const [fromItf, fromJson] = await Promise.all([
      srk("replay", out, "--impl", KIT),
      srk("replay", json, "--impl", KIT),
    ]);
    expect(fromItf.stdout).toBe(fromJson.stdout);
    expect(fromItf.code).toBe(fromJson.code);
    expect(fromItf.stdout).toMatch(/^passes now/);
    const renamed = join(tmp, "copy.json");
    writeFileSync(renamed, readFileSync(out, "utf8"));
    expect(readAnyTrace(renamed)).toEqual(trace);
  });

  it("srk replay refuses an ITF file that is not a kit trace with a usage error naming what is wrong", async () => {
    const f = join(tmp, "other.itf.json");
    writeFileSync(f, JSON.stringify({ vars: ["x"], states: [{ x: { "#bigint": "1" } }] }));
    const r = await srk("replay", f, "--impl", KIT);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("#meta lacks trace_version");
  });
});
