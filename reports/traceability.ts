/**
 * Gathers, for the generated reports, where each invariant lives in the other layers and what
 * evidence there is for it:
 * - the model guards, from the model's own map (`model/traceability.ts`, MODEL_GUARDS), and its
 *   checkable predicate (PREDICATES) and step clause (STEP_CLAUSES, D-076), each with the line
 *   that defines it;
 * - the implementation checks and the tests, found by scanning the sources for the invariant id as
 *   a whole word (the ids are the spine of the code base, so a grep is the honest index: if a layer
 *   stops naming an id, the report shows it); tests by name (reports/tests-index.ts);
 * - the mutants that break it, from the mutation catalog, and their kill-matrix results;
 * - real accepted and rejected wire transcripts from the golden sessions (reports/examples.ts);
 * - the operations raising each error code (reports/operations.ts);
 * - the witness counts of the last certification of the bundled implementation (reports/evidence.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { MODEL_GUARDS, PREDICATES } from "../model/traceability.ts";
import { STEP_CLAUSES } from "../model/step-clauses.ts";
import { mutantsOf } from "../properties/mutants/catalog.ts";
import { goldenExamples } from "./examples.ts";
import { readBundledCertificate, readMatrix } from "./evidence.ts";
import { readOperations, readWireTable } from "./operations.ts";
import { REPO_ROOT } from "./paths.ts";
import type { DocsInput, SourceRef } from "./render.ts";
import { allTests, listFiles, mentions } from "./tests-index.ts";

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), "utf8");

/** The 1-based line that defines `name` in `file` (a const, function, class or type), or null. */
export const definitionLine = (file: string, name: string): number | null => {
  const re = new RegExp(`^\\s*(?:export\\s+)?(?:const|let|function|class|type|interface)\\s+${name}\\b`);
  const i = read(file)
    .split("\n")
    .findIndex((l) => re.test(l));
  return i < 0 ? null : i + 1;
};

/** The 1-based line of the first whole-word mention of an id in `file`, or null. */
const firstMention = (file: string, id: InvariantId): number | null => {
  const i = read(file)
    .split("\n")
    .findIndex((l) => mentions(l, id));
  return i < 0 ? null : i + 1;
};

const isTest = (f: string): boolean => f.endsWith(".test.ts");

/** "## D-034 Conformance: …" headings of spec/DECISIONS.md, by decision id. */
const decisionHeadings = (): ReadonlyMap<string, string> =>
  new Map(
    [...read("spec/DECISIONS.md").matchAll(/^## (D-\d{3}) (.*)$/gm)].map((m) => [
      m[1] ?? "",
      `${m[1] ?? ""} ${m[2] ?? ""}`,
    ]),
  );

export const currentTraceability = (): DocsInput => {
  const implFiles = listFiles("impl", ".ts").filter((f) => !isTest(f) && !f.startsWith("impl/test/"));
  const texts = implFiles.map((f) => [f, read(f)] as const);
  const byId = <T>(f: (id: InvariantId) => T): Record<InvariantId, T> =>
    Object.fromEntries(INVARIANT_IDS.map((id) => [id, f(id)])) as Record<InvariantId, T>;
  const guardRef = (g: string): SourceRef => {
    const [file = g, name = ""] = g.split("#");
    return { label: g, file, line: name === "" ? null : definitionLine(file, name) };
  };
  return {
    modelGuards: byId((id) => (MODEL_GUARDS[id] ?? []).map(guardRef)),
    predicates: byId((id) => {
      const name = PREDICATES[id].check.name;
      return {
        label: `model/predicates.ts#${name}`,
        file: "model/predicates.ts",
        line: definitionLine("model/predicates.ts", name),
      };
    }),
    stepClauses: byId((id) => {
      const name = STEP_CLAUSES[id]?.name;
      return name === undefined
        ? null
        : {
            label: `model/step-clauses.ts#${name}`,
            file: "model/step-clauses.ts",
            line: definitionLine("model/step-clauses.ts", name),
          };
    }),
    implChecks: byId((id) =>
      texts.filter(([, t]) => mentions(t, id)).map(([f]) => ({ label: f, file: f, line: firstMention(f, id) })),
    ),
    tests: allTests(),
    mutants: byId((id) => mutantsOf(id).map((m) => ({ id: m.id, description: m.description }))),
    examples: goldenExamples(),
    operations: readOperations(),
    wireTable: readWireTable(),
    decisions: decisionHeadings(),
    certificate: readBundledCertificate(),
    matrix: readMatrix(),
  };
};
