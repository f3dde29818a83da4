/**
 * Committed generated evidence is made from the kit as it is: each generator records what it read
 * (conformance/evidence/inputs.ts: the commit, the SHA-256 of every input file, the package versions), and here
 * those inputs are computed again. Nothing is regenerated here; each case names the command that
 * does it.
 *
 * - reports/mutants.json and .md (`npm run mutants`, about a quarter of an hour): its `inputs`
 *   must be the mutants' inputs now (the catalog, the harness, the runner, the implementation
 *   that is patched, the golden transcripts). A change to any of them fails this until the matrix
 *   is run again, so no kill count is published for a catalog or a runner it was not measured on.
 * - reports/invariants.md and reports/error-codes.md (`npx tsx reports/generate.ts`, a step of
 *   `npm run docs`, seconds): reports/invariants.inputs.json must be their inputs now (what they
 *   quote: the golden transcripts, the kill matrix, the sample certificate, the spec's operations,
 *   wire codes and decisions, the sources and test files they cite by line). That they are what
 *   the renderer makes of those inputs is reports/generated.test.ts; this adds the record of where
 *   they came from, and fails when an input they quote, e.g. reports/mutants.json, was regenerated
 *   without them.
 * - docs/examples/certificate/ (`npm run docs:sample`): reports/sample-certificate.test.ts (c).
 * - reports/mutants-generated.json and .md (`npm run mutants:wire-generated`, an hour for the
 *   sample, hours for the whole set): like the benchmark, a measurement of one commit; it must
 *   name a commit of this history and every input as at that commit.
 * - reports/bench.json and .md (`npm run bench`, about seven minutes of a loaded machine): a
 *   benchmark is a measurement of one commit on one machine, not a function of the sources, so it
 *   is not rerun at every commit and its inputs are not required to be today's. What must hold is
 *   that it says truly what it measured: its record names a commit of this history, every input
 *   it recorded is as at that commit (nothing uncommitted was measured), bench.md states that
 *   commit and the digest, and bench.md and README's goals table are what bench/render.ts makes
 *   of bench.json (`npm run bench -- --render-only` after a change to the rendering).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { README_END, README_START, renderMarkdown, renderReadmeBlock } from "../bench/render.ts";
import type { BenchReport } from "../bench/report.ts";
import {
  ARTIFACTS,
  commitMismatch,
  readRecord,
  RECORDS,
  REGENERATE,
  staleInputs,
  type Artifact,
} from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";
import { renderReports } from "./render.ts";
import { currentTraceability } from "./traceability.ts";

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), "utf8");

/** Where each artifact's freshness is checked: here, or the test that already did it. */
const CHECKED: Record<Artifact, string> = {
  "sample-certificate": "reports/sample-certificate.test.ts",
  mutants: "reports/freshness.test.ts",
  "mutants-generated": "reports/freshness.test.ts",
  invariants: "reports/freshness.test.ts",
  bench: "reports/freshness.test.ts",
  guide: "reports/guide.test.ts",
};

describe("generated evidence records its inputs, and they are current", () => {
  it("every artifact of conformance/evidence/inputs.ts is checked by a test that reads its record", () => {
    expect(Object.keys(CHECKED).sort()).toEqual([...ARTIFACTS].sort());
    for (const a of ARTIFACTS)
      expect(read(CHECKED[a]), `${CHECKED[a]} checks ${a}`).toMatch(/staleInputs\(|commitMismatch\(/);
  });

  it(`reports/mutants.json was made from the mutants' inputs as they are (else: ${REGENERATE.mutants})`, () => {
    expect(staleInputs("mutants", readRecord("mutants"))).toBeNull();
  });

  it(`reports/invariants.md and error-codes.md were made from their inputs as they are (else: ${REGENERATE.invariants})`, () => {
    expect(staleInputs("invariants", readRecord("invariants"))).toBeNull();
    const record = readRecord("invariants") as { outputs?: unknown };
    expect(record.outputs, `${RECORDS.invariants.file} names what reports/generate.ts wrote`).toEqual([
      ...renderReports(currentTraceability()).keys(),
    ]);
  });
});

describe("reports/mutants-generated.json says truly what it measured", () => {
  it("its inputs are those of a commit of this history, nothing uncommitted (else: npm run mutants:wire-generated in a clean checkout)", () => {
    expect(commitMismatch("mutants-generated", readRecord("mutants-generated"))).toBeNull();
  });
});

describe("reports/bench.json says truly what it measured", () => {
  const bench = JSON.parse(read("reports/bench.json")) as BenchReport;

  it("its inputs are those of a commit of this history, nothing uncommitted (else: npm run bench in a clean checkout)", () => {
    expect(commitMismatch("bench", readRecord("bench"))).toBeNull();
    expect(bench.kit.commit, "the kit's commit is the one its inputs were recorded at").toBe(bench.inputs?.commit);
  });

  it("bench.md states the commit, the date, the load and the digest of the inputs", () => {
    const md = read("reports/bench.md");
    expect(md).toContain(`at ${bench.inputs?.commit.slice(0, 12) ?? "(no commit)"}`);
    expect(md).toContain(`on ${bench.generated_at}`);
    expect(md).toContain(`load average ${bench.machine.load_start.map((x) => x.toFixed(2)).join(", ")} at the start`);
    expect(md).toContain(`digest ${bench.inputs?.digest ?? "(none)"}`);
  });

  it("bench.md and README's goals table are what bench/render.ts makes of bench.json (else: npm run bench -- --render-only)", () => {
    expect(
      read("reports/bench.md") === renderMarkdown(bench),
      "reports/bench.md differs from renderMarkdown(bench.json)",
    ).toBe(true);
    const readme = read("README.md");
    const block = readme.slice(readme.indexOf(README_START), readme.indexOf(README_END) + README_END.length);
    expect(block).toBe(renderReadmeBlock(bench));
  });
});
