import { describe, it, expect } from "vitest";
import { INVARIANT_IDS } from "../spec/index.ts";
import { MODEL_GUARDS, PREDICATES } from "./traceability.ts";

describe("traceability: MODEL_GUARDS names real functions for J-1 .. I6", () => {
  for (const id of INVARIANT_IDS) {
    it(`${id} has guards that exist and a predicate`, async () => {
      const names = MODEL_GUARDS[id];
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const [file, fn] = name.split("#");
        expect(file?.startsWith("model/")).toBe(true);
        const mod = (await import(`../${file ?? ""}`)) as Record<string, unknown>;
        expect(typeof mod[fn ?? ""], name).toBe("function");
      }
      expect(typeof PREDICATES[id].check).toBe("function");
    });
  }
});
