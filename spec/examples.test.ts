import { describe, expect, it } from "vitest";
import { EXAMPLES } from "./examples.ts";
import { SPEC_SCHEMAS } from "./registry.ts";

describe("wire objects: valid and invalid examples", () => {
  it("every registered schema has valid and invalid examples, and every example names a schema", () => {
    for (const name of Object.keys(SPEC_SCHEMAS)) {
      expect(EXAMPLES[name]?.valid.length ?? 0, name).toBeGreaterThan(0);
      expect(EXAMPLES[name]?.invalid.length ?? 0, name).toBeGreaterThan(0);
    }
    for (const name of Object.keys(EXAMPLES)) expect(SPEC_SCHEMAS, name).toHaveProperty(name);
  });

  for (const [name, { schema }] of Object.entries(SPEC_SCHEMAS)) {
    const ex = EXAMPLES[name];
    if (ex === undefined) continue;
    describe(name, () => {
      ex.valid.forEach((value, i) => {
        it(`accepts valid example #${i}`, () => {
          const r = schema.safeParse(value);
          expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
        });
      });
      ex.invalid.forEach(({ value, path, why }, i) => {
        it(`rejects invalid example #${i} at '${path}' (${why})`, () => {
          const r = schema.safeParse(value);
          expect(r.success).toBe(false);
          const paths = (r.error?.issues ?? []).map((iss) => iss.path.join("."));
          expect(paths, JSON.stringify(r.error?.issues)).toContain(path);
          for (const iss of r.error?.issues ?? []) expect(iss.message.length).toBeGreaterThan(0);
        });
      });
    });
  }
});
