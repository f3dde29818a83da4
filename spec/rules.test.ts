/**
 * "The exported JSON Schemas plus spec/json-schema/rules.json" is the whole validation (review
 * G-5): an independent validator (Ajv, draft 2020-12) extended with a checker written here from
 * each rule's data accepts and rejects exactly what the zod schemas do, on every valid and invalid
 * example, on each rule's own invalid example, and at the string-length boundaries of D-041
 * (review G-6). A rule the zod schemas enforce but rules.json omits, or one rules.json states that
 * zod does not enforce, makes some example disagree here.
 */
import { readFileSync, readdirSync } from "node:fs";
import { Ajv2020, type AnySchemaObject, type ErrorObject } from "ajv/dist/2020.js";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { EXAMPLES, EXAMPLE_DIGESTS, consentGrant, distillate, disposition, manifest } from "./examples.ts";
import { JSON_SCHEMA_DIR } from "./render.ts";
import { SPEC_SCHEMAS } from "./registry.ts";
import { SCHEMA_RULES, rulesOf, type SchemaRule } from "./rules.ts";
import { codePointLength } from "./schemas/common.ts";
import { WIRE_SCHEMAS } from "./wire/schemas.ts";

interface RulesFile {
  readonly rules: readonly (Omit<SchemaRule, "invalid"> & { invalid: { value: unknown; path: string } })[];
}
const RULES_FILE = JSON.parse(readFileSync(`${JSON_SCHEMA_DIR}/rules.json`, "utf8")) as RulesFile;
const RULE_BY_ID = new Map(RULES_FILE.rules.map((r) => [r.id, r]));

/** Equality of JSON values, as rules.json's "compared as JSON values" says (member order ignored). */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  return sameJson(ka, kb) && ka.every((k) => sameJson(oa[k], ob[k]));
};

/** The paths (relative to the rule's value) at which `rule` is broken, read from rules.json's data alone. */
const violations = (rule: RulesFile["rules"][number], value: unknown): string[] => {
  if (typeof value !== "object" || value === null) return [];
  const arr = (value as Record<string, unknown>)[rule.array];
  if (!Array.isArray(arr)) return [];
  const tuples = arr.map((el) =>
    rule.unique_by.map((m) => (typeof el === "object" && el !== null ? (el as Record<string, unknown>)[m] : undefined)),
  );
  const out: string[] = [];
  tuples.forEach((t, i) => {
    if (tuples.slice(0, i).some((u) => sameJson(t, u))) out.push(rule.path.replace("<i>", String(i)));
  });
  return out;
};

/** Ajv with the `x-rules` keyword: each rule id listed there is checked on the value at that place. */
const makeAjv = (): Ajv2020 => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addKeyword({
    keyword: "x-rules",
    schemaType: "array",
    errors: true,
    validate: function check(
      ids: readonly string[],
      data: unknown,
      _parent?: AnySchemaObject,
      ctx?: { instancePath: string },
    ) {
      const errors: ErrorObject[] = [];
      for (const id of ids) {
        const rule = RULE_BY_ID.get(id);
        if (rule === undefined) throw new Error(`x-rules names ${id}, which rules.json does not define`);
        for (const p of violations(rule, data))
          errors.push({
            keyword: "x-rules",
            instancePath: `${ctx?.instancePath ?? ""}/${p.split(".").join("/")}`,
            schemaPath: "",
            params: { rule: id },
          });
      }
      (check as unknown as { errors: ErrorObject[] }).errors = errors;
      return errors.length === 0;
    },
  });
  return ajv;
};

const readSchema = (file: string): Record<string, unknown> => {
  const { examples: _examples, ...bare } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  return bare;
};

const ajv = makeAjv();
const validators = new Map<string, ReturnType<Ajv2020["compile"]>>();
const jsValidator = (name: string) => {
  let v = validators.get(name);
  if (v === undefined) {
    const file =
      name in SPEC_SCHEMAS ? `${JSON_SCHEMA_DIR}/${name}.schema.json` : `${JSON_SCHEMA_DIR}/wire/${name}.schema.json`;
    v = ajv.compile(readSchema(file));
    validators.set(name, v);
  }
  return v;
};
const zodSchema = (name: string): z.ZodType => {
  const s = SPEC_SCHEMAS[name]?.schema ?? (WIRE_SCHEMAS as Record<string, z.ZodType>)[name];
  if (s === undefined) throw new Error(`no schema ${name}`);
  return s;
};

interface Outcome {
  readonly accepted: boolean;
  /** Dotted paths of the failures raised by rules (JSON Schema side) or by custom checks (zod side). */
  readonly rulePaths: readonly string[];
}
const byJsonSchemaAndRules = (name: string, value: unknown): Outcome => {
  const validate = jsValidator(name);
  const ok = validate(value) as boolean;
  const rulePaths = (validate.errors ?? [])
    .filter((e) => e.keyword === "x-rules")
    .map((e) => e.instancePath.split("/").slice(1).join("."));
  return { accepted: ok, rulePaths };
};
const byZod = (name: string, value: unknown): Outcome => {
  const r = zodSchema(name).safeParse(value);
  return {
    accepted: r.success,
    rulePaths: (r.error?.issues ?? []).filter((i) => i.code === "custom").map((i) => i.path.join(".")),
  };
};

/** Both validators agree on acceptance; when a rule rejects, zod names the same path. */
const expectSame = (name: string, value: unknown, label: string): Outcome => {
  const js = byJsonSchemaAndRules(name, value);
  const zd = byZod(name, value);
  expect(
    js.accepted,
    `${label}: JSON Schema + rules ${js.accepted ? "accepts" : "rejects"}, zod ${zd.accepted ? "accepts" : "rejects"}`,
  ).toBe(zd.accepted);
  for (const p of js.rulePaths) expect(zd.rulePaths, `${label}: rule path ${p}`).toContain(p);
  return js;
};

const ROCKET = "\u{1F680}"; // one code point, two UTF-16 code units

/** The examples as published: each schema file's `examples`, and invalid-examples.json. */
const INVALID_FILE = JSON.parse(readFileSync(`${JSON_SCHEMA_DIR}/invalid-examples.json`, "utf8")) as Record<
  string,
  { value: unknown; path: string }[]
>;
const publishedExamples = (name: string) => ({
  valid:
    (JSON.parse(readFileSync(`${JSON_SCHEMA_DIR}/${name}.schema.json`, "utf8")) as { examples?: unknown[] }).examples ??
    [],
  invalid: INVALID_FILE[name] ?? [],
});

describe("rules.json: its checkers agree with the zod schemas on every example (review G-5)", () => {
  it("the published examples are the examples of every registered schema (the loop below is not vacuous)", () => {
    for (const name of Object.keys(SPEC_SCHEMAS)) {
      expect(publishedExamples(name).valid.length, name).toBe(EXAMPLES[name]?.valid.length);
      expect(publishedExamples(name).invalid.length, name).toBe(EXAMPLES[name]?.invalid.length);
    }
  });
  for (const name of Object.keys(SPEC_SCHEMAS)) {
    const ex = publishedExamples(name);
    it(`${name}: every valid example is accepted by both`, () => {
      ex.valid.forEach((v, i) => expect(expectSame(name, v, `${name} valid #${i}`).accepted).toBe(true));
    });
    it(`${name}: every invalid example is rejected by both, a rule's rejection at the example's path`, () => {
      ex.invalid.forEach((inv, i) => {
        const out = expectSame(name, inv.value, `${name} invalid #${i}`);
        expect(out.accepted).toBe(false);
        if (out.rulePaths.length > 0) expect(out.rulePaths).toContain(inv.path);
      });
    });
  }

  for (const rule of RULES_FILE.rules) {
    it(`${rule.id}: its own invalid example breaks it alone, at ${rule.invalid.path}; JSON Schema alone accepts it`, () => {
      const out = expectSame(rule.schema, rule.invalid.value, rule.id);
      expect(out.accepted).toBe(false);
      expect(out.rulePaths).toEqual([rule.invalid.path]);
      // Without the rule the value is valid: the rule is the only thing rejecting it.
      const bare = new Ajv2020({ strict: false, allErrors: true }).compile(
        readSchema(`${JSON_SCHEMA_DIR}/${rule.schema}.schema.json`),
      );
      expect(bare(rule.invalid.value)).toBe(true);
    });
  }

  it("a rule applies wherever its schema is reached through $ref: a conceive command with duplicate default rows", () => {
    const cmd = { op: "janma.conceive", tick: 1, agent: EXAMPLE_DIGESTS.a, instance_id: "i-1", nonce: "n-1", manifest };
    const bad = {
      ...cmd,
      manifest: {
        ...manifest,
        consent_scope: {
          ...consentGrant,
          category_defaults: [
            { category: "health", sensitivity: "low" },
            { category: "health", sensitivity: "high" },
          ],
        },
      },
    };
    const out = expectSame("Command", bad, "conceive with duplicate default rows");
    expect(out.accepted).toBe(false);
    expect(out.rulePaths).toEqual(["manifest.consent_scope.category_defaults.1"]);
    expect(expectSame("Command", { ...cmd, manifest }, "conceive, valid").accepted).toBe(true);
  });

  it("equal elements that differ only in a member outside unique_by still repeat; differing in one unique_by member does not", () => {
    const cells = [
      { category: "health", dimension: "training", sensitivity: "high" },
      { category: "health", dimension: "storage", sensitivity: "high" },
    ];
    expect(expectSame("ConsentGrant", { ...consentGrant, cells }, "distinct cells").accepted).toBe(true);
    const three = [disposition, { ...disposition, key: "tool.other" }, { ...disposition, guidance: "other" }];
    const out = expectSame("SamskaraDistillate", { ...distillate, dispositions: three }, "third repeats the first");
    expect(out.rulePaths).toEqual(["dispositions.2.key"]);
  });

  it("each rule's zod issue names the rule (params.rule), which D-035 reads to attribute a MALFORMED to the rule's invariant", () => {
    for (const rule of SCHEMA_RULES) {
      const r = zodSchema(rule.schema).safeParse(rule.invalid.value);
      expect(r.success, rule.id).toBe(false);
      const issues = r.success ? [] : r.error.issues;
      expect(
        issues.map((i) => (i as { params?: { rule?: string } }).params?.rule),
        rule.id,
      ).toEqual([rule.id]);
      expect(issues[0]?.path.join("."), rule.id).toBe(rule.invalid.path);
    }
    // The break: a value valid under the rule carries no rule-named issue.
    const ok = zodSchema("ConsentGrant").safeParse(consentGrant);
    expect(ok.success).toBe(true);
  });

  it("every rule id is carried by its schema's x-rules, in every file that holds that schema, and nothing else is", () => {
    const files = readdirSync(JSON_SCHEMA_DIR).filter((f) => f.endsWith(".schema.json"));
    for (const f of files) {
      const defs =
        (
          JSON.parse(readFileSync(`${JSON_SCHEMA_DIR}/${f}`, "utf8")) as {
            $defs?: Record<string, Record<string, unknown>>;
          }
        ).$defs ?? {};
      for (const [name, def] of Object.entries(defs))
        expect(def["x-rules"] ?? [], `${f} $defs/${name}`).toEqual(rulesOf(name).length > 0 ? rulesOf(name) : []);
    }
    expect(SCHEMA_RULES.map((r) => r.id)).toEqual(RULES_FILE.rules.map((r) => r.id));
  });

  it("every zod refinement is either a code-point length bound, a listed rule or stated in the export (no unlisted refinement)", () => {
    // Walk every registered schema; a node with custom checks must be Text (its bounds are
    // exported as minLength/maxLength, D-041), carry x-rules naming rules of rules.json, or carry
    // the JSON Schema keyword that states the refinement in its meta (LogLine's oneOf: exactly one
    // of msg and raw), which the examples above show rejecting what zod rejects.
    const seen = new Set<unknown>();
    const unlisted: string[] = [];
    const walk = (s: unknown, where: string): void => {
      if (typeof s !== "object" || s === null || seen.has(s)) return;
      seen.add(s);
      const zs = s as { _zod?: { def: Record<string, unknown> } };
      const def = zs._zod?.def;
      if (def === undefined) return;
      const checks = (def["checks"] as { _zod: { def: { check: string } } }[] | undefined) ?? [];
      const meta = z.globalRegistry.get(s as z.ZodType) as Record<string, unknown> | undefined;
      if (checks.some((c) => c._zod.def.check === "custom")) {
        const rules = (meta?.["x-rules"] as string[] | undefined) ?? [];
        const isText = def["type"] === "string" && typeof meta?.["maxLength"] === "number";
        const stated = Array.isArray(meta?.["oneOf"]);
        if (!isText && !stated && (rules.length === 0 || rules.some((id) => !RULE_BY_ID.has(id))))
          unlisted.push(`${String(meta?.["id"] ?? where)}`);
      }
      for (const v of Object.values(def)) {
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
        else if (typeof v === "function" && def["type"] === "lazy")
          walk((s as { _zod: { innerType?: unknown } })._zod.innerType, where);
        else if (typeof v === "object" && v !== null) {
          if ("_zod" in v) walk(v, where);
          else for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
        }
      }
    };
    for (const [name, { schema }] of Object.entries(SPEC_SCHEMAS)) walk(schema, name);
    for (const [name, schema] of Object.entries(WIRE_SCHEMAS)) walk(schema, name);
    expect(unlisted).toEqual([]);
    // The walk does reach the refinements it must judge (it is not vacuous).
    expect(seen.has(SPEC_SCHEMAS["ConsentGrant"]?.schema)).toBe(true);
  });
});

describe("string lengths count code points in zod and in JSON Schema alike (D-041, review G-6)", () => {
  it("codePointLength counts a surrogate pair once and a lone surrogate once", () => {
    expect(codePointLength(ROCKET.repeat(3))).toBe(3);
    expect(ROCKET.repeat(3).length).toBe(6);
    expect(codePointLength("a\uD800b")).toBe(3);
    expect(codePointLength("")).toBe(0);
  });

  const identity = EXAMPLES["IdentityRecord"]?.valid[0] as Record<string, unknown>;
  const disp = disposition as Record<string, unknown>;
  const mint = {
    op: "advaita.mint",
    tick: 1,
    base_digest: EXAMPLE_DIGESTS.a,
    root: "root-1",
    designation: "travel agent",
    body_revision: "body-1",
    custodians: ["alice"],
    execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host-1" },
    providers: [],
    required_capabilities: [],
    authority_token: "tok-1",
  };
  const cases: readonly [label: string, schema: string, make: (s: string) => unknown, max: number, min: number][] = [
    ["IdentityRecord.designation", "IdentityRecord", (s) => ({ ...identity, designation: s }), 200, 1],
    ["advaita.mint designation", "Command", (s) => ({ ...mint, designation: s }), 200, 1],
    ["Disposition.guidance", "Disposition", (s) => ({ ...disp, guidance: s }), 1000, 1],
    ["CommandRequest id", "CommandRequest", (s) => ({ type: "command", id: s, command: mint }), 128, 1],
  ];
  for (const [label, schema, make, max, min] of cases) {
    it(`${label}: ${max} astral characters (${2 * max} UTF-16 units) accepted, ${max + 1} rejected, by both`, () => {
      expect(expectSame(schema, make(ROCKET.repeat(max)), `${label} ${max}`).accepted).toBe(true);
      expect(expectSame(schema, make(ROCKET.repeat(max + 1)), `${label} ${max + 1}`).accepted).toBe(false);
      expect(expectSame(schema, make("x".repeat(max)), `${label} ascii ${max}`).accepted).toBe(true);
      expect(expectSame(schema, make("x".repeat(max + 1)), `${label} ascii ${max + 1}`).accepted).toBe(false);
      // Mixed: max - 1 ASCII characters plus one astral character is exactly max code points.
      expect(expectSame(schema, make(`${"x".repeat(max - 1)}${ROCKET}`), `${label} mixed`).accepted).toBe(true);
      expect(expectSame(schema, make(""), `${label} empty`).accepted).toBe(min === 0);
    });
  }
});
