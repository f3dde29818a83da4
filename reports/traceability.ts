/**
 * Gathers, for the generated reports, where each invariant lives in the other layers:
 * - the model guards, from the model's own map (`model/traceability.ts`, MODEL_GUARDS);
 * - the mutants that break each invariant, from the mutation catalog;
 * - the implementation checks and the tests/properties, found by scanning the sources for the
 *   invariant id as a whole word (the ids are the spine of the code base, so a grep is the
 *   honest index: if a layer stops naming an id, the report shows it).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { MODEL_GUARDS } from "../model/traceability.ts";
import { mutantsOf } from "../properties/mutants/catalog.ts";
import type { Traceability } from "./render.ts";

const listTs = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []))
    .sort();

/** A whole-word match for an id: "I1" must not match "I10" or "AI1". */
const mentions = (text: string, id: InvariantId): boolean =>
  new RegExp(`(^|[^A-Za-z0-9-])${id.replace("-", "\\-")}(?![A-Za-z0-9])`).test(text);

const index = (files: readonly string[]): Record<InvariantId, string[]> => {
  const texts = files.map((f) => [f, readFileSync(f, "utf8")] as const);
  return Object.fromEntries(INVARIANT_IDS.map((id) => [id, texts.filter(([, t]) => mentions(t, id)).map(([f]) => f)])) as Record<
    InvariantId,
    string[]
  >;
};

const isTest = (f: string): boolean => f.endsWith(".test.ts");

export const currentTraceability = (): Traceability => {
  const implFiles = listTs("impl").filter((f) => !isTest(f) && !f.startsWith("impl/test/"));
  const testFiles = [...listTs("model"), ...listTs("impl"), ...listTs("properties")].filter(isTest);
  const mutants = Object.fromEntries(INVARIANT_IDS.map((id) => [id, mutantsOf(id).map((m) => ({ id: m.id, description: m.description }))]));
  return { modelGuards: MODEL_GUARDS, implChecks: index(implFiles), tests: index(testFiles), mutants };
};
