/** The rows of spec/review/liveness.ts are pinned as they claim: golden lines and tagged mutants exist. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { DECISIONS } from "../decisions.ts";
import { ROWS } from "./liveness.ts";

describe("review rows G-53, G-54", () => {
  for (const row of ROWS) {
    it(`${row.item}: each named golden session holds a line pinned to it, each mutant is tagged with it, each decision exists`, () => {
      expect(row.golden.length).toBeGreaterThan(0);
      for (const name of row.golden) {
        const ids = readFileSync(`conformance/golden/${name}.jsonl`, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { request: { id: string } }).request.id);
        expect(ids.some((id) => id.startsWith(`${row.item}.`)), `${name} pins ${row.item}`).toBe(true);
      }
      expect(row.mutants.length).toBeGreaterThan(0);
      for (const id of row.mutants) expect(MUTANTS.find((m) => m.id === id)?.review, id).toBe(row.item);
      for (const d of row.where.filter((w) => w.startsWith("D-"))) expect(DECISIONS.some((x) => x.id === d && x.why.length > 0 && `${x.decision}`.includes(`spec review ${row.item}`)), d).toBe(true);
    });
  }
});
