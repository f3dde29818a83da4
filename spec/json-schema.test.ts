/**
 * The exported JSON Schemas are what implementations in other languages validate against, so
 * they are checked here with an independent JSON Schema validator (Ajv, draft 2020-12): every
 * valid example must validate, and every invalid one must fail unless the rule it breaks is one
 * JSON Schema cannot express (a cross-field check such as "no duplicate keys"), which rules.json lists.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "./examples.ts";
import { JSON_SCHEMA_DIR } from "./render.ts";
import { SPEC_SCHEMAS } from "./registry.ts";
import { SCHEMA_RULES } from "./rules.ts";

/**
 * An invalid example passes the bare JSON Schema iff what it breaks is a rule of
 * spec/json-schema/rules.json (JSON Schema cannot express it): its path is one a rule of that
 * schema reports. spec/rules.test.ts checks JSON Schema + rules against zod in full.
 */
const brokenOnlyByRule = (schema: string, path: string): boolean =>
  SCHEMA_RULES.some(
    (r) => r.schema === schema && new RegExp(`^${r.path.replace(/\./g, "\\.").replace("<i>", "\\d+")}$`).test(path),
  );

describe("exported JSON Schemas agree with the examples (independent validator)", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const name of Object.keys(SPEC_SCHEMAS)) {
    const schema = JSON.parse(readFileSync(`${JSON_SCHEMA_DIR}/${name}.schema.json`, "utf8")) as Record<
      string,
      unknown
    >;
    const { examples: _examples, ...bare } = schema;
    const validate = ajv.compile(bare);
    const ex = EXAMPLES[name];
    if (ex === undefined) continue;
    it(`${name}: valid examples validate`, () => {
      for (const v of ex.valid) expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
    });
    ex.invalid.forEach((inv, i) => {
      const ruleOnly = brokenOnlyByRule(name, inv.path);
      it(`${name}: invalid example #${i} ${ruleOnly ? "passes JSON Schema (a rule of rules.json)" : "is rejected"}`, () => {
        expect(validate(inv.value)).toBe(ruleOnly);
      });
    });
  }
});
