/**
 * The adapter's validator (schema.mjs) for the JSON Schema subset of spec/json-schema/ and the rules
 * of rules.json: each keyword where it holds and where it breaks, at its boundaries, with the
 * semantics the schemas intend (ECMA-262 patterns with the `u` flag, lengths in code points,
 * integers by value); every published example of the kit's schemas is judged as the kit judges it;
 * and a keyword outside the subset is refused at construction rather than ignored.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createValidator, parseStrict, validate } from "./index.mjs";

const SPEC = join(import.meta.dirname, "..", "..", "spec", "json-schema");
const readJson = (...p: string[]): unknown => JSON.parse(readFileSync(join(SPEC, ...p), "utf8"));

/** Every schema file of the kit (not only the adapter's copy), by title: the subset must cover them all. */
const kitSchemas = (): Record<string, { examples?: unknown[] }> => {
  const out: Record<string, { title: string; examples?: unknown[] }> = {};
  for (const dir of ["", "wire"]) {
    for (const n of readdirSync(join(SPEC, dir)).filter((x) => x.endsWith(".schema.json"))) {
      const root = readJson(dir, n) as { title: string; examples?: unknown[] };
      out[root.title] = root;
    }
  }
  return out;
};
const RULES = readJson("rules.json") as {
  rules: { id: string; schema: string; path: string; invalid: { value: unknown; path: string } }[];
};

const DIGEST = `sha256:${"a".repeat(64)}`;
const pathOf = (name: string, v: unknown): string | null => {
  const f = validate(name, v);
  return f === null ? null : f.path.join(".");
};

describe("keywords, each where it holds and where it breaks", () => {
  it("pattern is ECMA-262 with the u flag: $ is the end of the string, not before a trailing newline (as in Python's re)", () => {
    expect(validate("Digest", DIGEST)).toBeNull();
    expect(validate("Digest", `${DIGEST}\n`)?.keyword).toBe("pattern");
    expect(validate("Digest", `\n${DIGEST}`)?.keyword).toBe("pattern");
    expect(validate("Digest", DIGEST.toUpperCase())?.keyword).toBe("pattern");
    // With the u flag "." is a whole code point: one astral character matches ^.$ (without it, two code units would not).
    const v = createValidator({ schemas: { T: { title: "T", type: "string", pattern: "^.$" } }, rules: { rules: [] } });
    expect(v.validate("T", "🚀")).toBeNull();
    expect(v.validate("T", "ab")?.keyword).toBe("pattern");
  });

  it("minLength and maxLength count code points (D-041): 128 rockets are a valid id, 129 are not", () => {
    expect(validate("RequestId", "🚀".repeat(128))).toBeNull();
    expect(validate("RequestId", "🚀".repeat(129))?.keyword).toBe("maxLength");
    expect(validate("RequestId", "x".repeat(128))).toBeNull();
    expect(validate("RequestId", "x".repeat(129))?.keyword).toBe("maxLength");
    expect(validate("RequestId", "x")).toBeNull();
    expect(validate("RequestId", "")?.keyword).toBe("minLength");
  });

  it("integer is a number with an integral value (W-1.8): the parsed 1.0 and 1e2 are integers, 1.5 and 1e400 are not", () => {
    expect(validate("RequestId", parseStrict("1.0"))).toBeNull();
    expect(validate("RequestId", parseStrict("1e2"))).toBeNull();
    expect(validate("RequestId", parseStrict("1.5"))).not.toBeNull();
    expect(validate("RequestId", parseStrict("1e400"))).not.toBeNull();
  });

  it("minimum and maximum are inclusive: 0 and 2^53-1 are ids, -1 and 2^53 are not", () => {
    expect(validate("RequestId", 0)).toBeNull();
    expect(validate("RequestId", Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(validate("RequestId", -1)).not.toBeNull();
    expect(validate("RequestId", 2 ** 53)).not.toBeNull();
    // Reported by the alternative of the value's type: the integer one.
    expect(validate("RequestId", 2 ** 53)?.keyword).toBe("maximum");
  });

  it("type: a boolean, null, an object or an array is no id; a list of types accepts each of its types", () => {
    for (const v of [true, null, {}, []]) expect(validate("RequestId", v), JSON.stringify(v)).not.toBeNull();
    const v = createValidator({ schemas: { T: { title: "T", type: ["string", "null"] } }, rules: { rules: [] } });
    expect(v.validate("T", null)).toBeNull();
    expect(v.validate("T", "x")).toBeNull();
    expect(v.validate("T", 1)?.keyword).toBe("type");
  });

  it("required and additionalProperties: false name the member", () => {
    expect(validate("Query", { name: "store" })).toMatchObject({ keyword: "required", path: ["agent"] });
    expect(validate("Query", { name: "store", agent: DIGEST, x: 1 })).toMatchObject({
      keyword: "additionalProperties",
      path: ["x"],
    });
    expect(validate("Query", { name: "store", agent: DIGEST })).toBeNull();
  });

  it("oneOf: a command is judged by the alternative its op names; an unknown op is reported at op", () => {
    expect(pathOf("Command", { op: "janma.teleport", tick: 1 })).toBe("op");
    expect(validate("Command", { tick: 1 })).toMatchObject({ keyword: "required", path: ["op"] });
    expect(pathOf("Command", { op: "ripa.task_start", tick: "soon", agent: DIGEST, task_id: "t-1" })).toBe("tick");
    expect(validate("Command", { op: "ripa.task_start", tick: 1, agent: DIGEST, task_id: "t-1" })).toBeNull();
    expect(validate("Command", "advaita.mint")?.keyword).toBe("oneOf");
  });

  it("const and enum compare JSON values", () => {
    const v = createValidator({
      schemas: { T: { title: "T", const: { a: [1, { b: 2 }] } }, E: { title: "E", enum: ["x", 1] } },
      rules: { rules: [] },
    });
    expect(v.validate("T", parseStrict('{"a":[1.0,{"b":2e0}]}'))).toBeNull();
    expect(v.validate("T", { a: [1, { b: 3 }] })?.keyword).toBe("const");
    expect(v.validate("E", 1)).toBeNull();
    expect(v.validate("E", "1")?.keyword).toBe("enum");
  });

  it("propertyNames, minItems and maxItems, on the hello envelope: 64-character setting names, 1 to 16 versions", () => {
    const hello = (over: object) => ({ type: "hello", id: "h", protocol_versions: ["1"], settings: {}, ...over });
    // biome-ignore lint/correctness/noPrecisionLoss: a number beyond double range, which the wire must accept as JSON
    expect(validate("HelloRequest", hello({ settings: { ["k".repeat(64)]: { any: ["json", 1e400] } } }))).toBeNull();
    expect(validate("HelloRequest", hello({ settings: { ["k".repeat(65)]: 1 } }))).toMatchObject({
      keyword: "maxLength",
      path: ["settings", "k".repeat(65)],
    });
    expect(validate("HelloRequest", hello({ protocol_versions: [] }))?.keyword).toBe("minItems");
    expect(validate("HelloRequest", hello({ protocol_versions: Array(16).fill("1") }))).toBeNull();
    expect(validate("HelloRequest", hello({ protocol_versions: Array(17).fill("1") }))?.keyword).toBe("maxItems");
    expect(validate("HelloRequest", hello({ protocol_versions: ["x".repeat(33)] }))).toMatchObject({
      keyword: "maxLength",
      path: ["protocol_versions", 0],
    });
  });

  it("a member named like an Object.prototype property is a member like any other", () => {
    expect(validate("Query", { name: "constructor" })?.keyword).toBe("const");
    expect(validate("Query", parseStrict('{"name":"world","__proto__":1}'))).toMatchObject({
      keyword: "additionalProperties",
      path: ["__proto__"],
    });
    expect(validate("Query", { name: "world", toString: 1 })).toMatchObject({
      keyword: "additionalProperties",
      path: ["toString"],
    });
  });
});

describe("rules.json: the cross-field rules JSON Schema cannot express", () => {
  for (const rule of RULES.rules) {
    it(`${rule.id}: its invalid example breaks it at ${rule.invalid.path}; without the repeated element it holds`, () => {
      const f = validate(rule.schema, rule.invalid.value);
      expect(f?.keyword).toBe(rule.id);
      expect(f?.path.join(".")).toBe(rule.invalid.path);
      // Remove the element the rule reports (the first segment is the array, the second its index).
      const [array, index] = rule.invalid.path.split(".");
      const fixed = structuredClone(rule.invalid.value) as Record<string, unknown[]>;
      fixed[array as string]?.splice(Number(index), 1);
      expect(validate(rule.schema, fixed)).toBeNull();
    });
  }

  it("a rule applies wherever its schema is reached through $ref: a conceive command's manifest", () => {
    const manifestRule = RULES.rules.find((r) => r.schema === "JanmaManifest");
    const manifest = manifestRule?.invalid.value as Record<string, unknown>;
    const cmd = { op: "janma.conceive", tick: 1, agent: DIGEST, instance_id: "i-1", nonce: "n-1", manifest };
    expect(validate("Command", cmd)).toMatchObject({
      keyword: manifestRule?.id,
      path: [
        "manifest",
        ...(manifestRule?.invalid.path ?? "").split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
      ],
    });
  });

  it("elements equal in every unique_by member repeat even when they differ elsewhere; differing in one does not", () => {
    const rule = RULES.rules.find((r) => r.id === "ConsentGrant.unique-cells");
    const grant = structuredClone(rule?.invalid.value) as {
      cells: { category: string; dimension: string; sensitivity: string }[];
    };
    grant.cells[1] = { ...grant.cells[0]!, sensitivity: grant.cells[0]!.sensitivity === "high" ? "low" : "high" };
    expect(validate("ConsentGrant", grant)?.keyword).toBe("ConsentGrant.unique-cells");
    grant.cells[1] = { ...grant.cells[0]!, dimension: `${grant.cells[0]!.dimension}-other` };
    expect(validate("ConsentGrant", grant)?.keyword).not.toBe("ConsentGrant.unique-cells");
  });
});

describe("the subset covers every schema of the kit, and judges the kit's published examples as the kit does", () => {
  const schemas = kitSchemas();
  const all = createValidator({ schemas, rules: RULES });
  const invalid = readJson("invalid-examples.json") as Record<string, { value: unknown; path: string }[]>;

  it("every valid example of every schema file is accepted", () => {
    let n = 0;
    for (const [title, root] of Object.entries(schemas)) {
      for (const [i, ex] of (root.examples ?? []).entries()) {
        n++;
        expect(all.validate(title, ex), `${title} example ${i}`).toBeNull();
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("every invalid example is rejected; a rule's rejection is at the example's path", () => {
    let n = 0;
    for (const [title, xs] of Object.entries(invalid)) {
      for (const [i, x] of xs.entries()) {
        n++;
        const f = all.validate(title, x.value);
        expect(f, `${title} invalid example ${i}`).not.toBeNull();
        if (f?.keyword.includes(".")) expect(f.path.join("."), `${title} invalid example ${i}`).toBe(x.path);
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("a keyword outside the subset, an unknown type, an unresolvable $ref or an unknown rule kind is refused at construction", () => {
    const make =
      (s: object, rules: object[] = []) =>
      () =>
        createValidator({ schemas: { T: { title: "T", ...s } }, rules: { rules } });
    expect(make({ not: { type: "string" } })).toThrow(/keyword "not" is outside the subset/);
    expect(make({ properties: { a: { format: "date-time" } } })).toThrow(/keyword "format"/);
    expect(make({ type: "float" })).toThrow(/unknown type/);
    expect(make({ $ref: "#/$defs/Missing" })).toThrow(/cannot resolve/);
    expect(make({ $ref: "Other.schema.json" })).toThrow(/cannot resolve/);
    expect(make({ "x-rules": ["nope"] })).toThrow(/rule nope is not in rules.json/);
    expect(make({}, [{ id: "r", kind: "sorted" }])).toThrow(/kind "sorted"/);
    expect(make({ type: "string" })).not.toThrow();
  });

  it("names a schema file by its title or any definition by its name; an unknown name is an error", () => {
    expect(validate("WorldView", { tick: 0, roots_used: [], agents: [] })).toBeNull();
    expect(validate("AgentView", {})?.keyword).toBe("required");
    expect(() => validate("NoSuchSchema", {})).toThrow(/no schema or definition named "NoSuchSchema"/);
  });
});
