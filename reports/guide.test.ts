/**
 * docs/IMPLEMENTING.md is what reports/guide.ts renders from its source and the recorded runs, and
 * the runs were recorded from the inputs as they are (issue 20, point 2: every number and sample
 * output in the guide comes from a real run, and a test fails when stale).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDE, GUIDE_RUNS, GUIDE_SOURCE, COUNTS, renderGuide, STEPS, type GuideRuns } from "./guide.ts";
import { readRecord, REGENERATE, staleInputs } from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";

const read = (f: string): string => readFileSync(join(REPO_ROOT, f), "utf8");
const runs = JSON.parse(read(GUIDE_RUNS)) as GuideRuns;

describe("the implementer's guide", () => {
  it(`is rendered from ${GUIDE_SOURCE} and ${GUIDE_RUNS} (else: npx tsx reports/guide.ts)`, () => {
    expect(read(GUIDE)).toBe(renderGuide(read(GUIDE_SOURCE), runs));
  });

  it(`its runs were recorded from the inputs as they are (else: ${REGENERATE.guide})`, () => {
    expect(staleInputs("guide", readRecord("guide"))).toBeNull();
    expect(runs.runs.map((r) => r.id)).toEqual(STEPS.map((s) => s.id));
    for (const s of STEPS) expect(runs.runs.find((r) => r.id === s.id)?.command, s.id).toBe(s.shown);
  });

  it("quotes its figures through placeholders: the counts it names appear nowhere as stale literals", () => {
    const source = read(GUIDE_SOURCE);
    const c = COUNTS();
    // A sentence that states a count the kit computes must use the placeholder.
    for (const [phrase, name] of [
      ["golden sessions", "golden-sessions"],
      ["hostile", "hostile-lines"],
      ["cross-field rules", "cross-field-rules"],
    ] as const) {
      for (const m of source.matchAll(new RegExp(`\\b(\\d+) ${phrase}`, "g")))
        expect(`${m[0]} (computed: ${c[name]})`).toBe(`{{count:${name}}} ${phrase}`);
    }
  });

  it("an unknown placeholder or a missing run is refused, naming it", () => {
    expect(() => renderGuide("{{count:nonsense}}", runs)).toThrow(/unknown count \{\{count:nonsense\}\}/);
    expect(() => renderGuide("{{run:nope}}", runs)).toThrow(/no recorded run nope/);
    expect(() => renderGuide("{{nope}}", runs)).toThrow(/unknown placeholder/);
  });

  it("every recorded step's output ends with the result line that matches its exit code", () => {
    for (const r of runs.runs.filter((x) => x.command.startsWith("certify"))) {
      const m = /^result: (certified|violations|inconclusive) \(exit (\d)\)/m.exec(r.stdout);
      expect(m?.[2], r.id).toBe(String(r.exit_code));
    }
  });
});
