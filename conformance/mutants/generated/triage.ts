/**
 * The triage of the generated mutants that survived the wire: conformance/mutants/generated/
 * equivalent.json, as data beside the measurement (reports/mutants-generated.json), so arguing an
 * equivalence after a run is not a change of what was measured. Each entry is a survivor and the
 * argument that no implementation behaviour the spec observes changes: which rule makes the
 * mutated code unobservable, or which input never reaches it. A survivor with no entry is a
 * survivor: the report lists it, and the goal counts it against the runner.
 *
 * An entry whose mutant was killed is an error of the triage (the mutant is observable), reported
 * as such by the renderer, never silently dropped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../transport/local.ts";

export const TRIAGE_FILE = "conformance/mutants/generated/equivalent.json";

export interface Equivalence {
  /** Why no behaviour the spec observes changes (a rule, a D-record, or why the code is unreachable). */
  readonly argument: string;
}

export type Triage = Readonly<Record<string, Equivalence>>;

export const parseTriage = (text: string, file = TRIAGE_FILE): Triage => {
  const raw = JSON.parse(text) as unknown;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`${file}: not an object of mutant id → {argument}`);
  for (const [id, e] of Object.entries(raw as Record<string, unknown>)) {
    const x = e as Partial<Equivalence> | null;
    if (x === null || typeof x !== "object" || Array.isArray(x)) throw new Error(`${file}: ${id}: not an object`);
    if (typeof x.argument !== "string" || x.argument.trim().length < 40)
      throw new Error(`${file}: ${id}: argument must say why the mutant is equivalent (at least a sentence)`);
    const keys = Object.keys(x).filter((k) => k !== "argument");
    if (keys.length > 0) throw new Error(`${file}: ${id}: unknown field(s) ${keys.join(", ")}`);
  }
  return raw as Triage;
};

export const readTriage = (root = REPO_ROOT): Triage => parseTriage(readFileSync(join(root, TRIAGE_FILE), "utf8"));
