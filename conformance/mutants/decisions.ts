/**
 * What was decided for each mutant the kill matrix killed under another invariant than its label
 * (reports/mutants.md, "Killed under another invariant"), kept in conformance/mutants/decisions.json
 * as data: the Markdown is rendered from it and reports/mutants.json, so writing a decision after a
 * run is not a change of the matrix's inputs (conformance/evidence/inputs.ts) and needs no new run. Each entry
 * says which side is wrong:
 *
 * - "label": the label misread the spec; fixed in properties/mutants/catalog.ts with a new `why`
 *   (the entry then goes: the mutant is own again);
 * - "attribution": conformance/oracle/attribution.ts did not follow D-035; fixed there (the entry
 *   then goes too);
 * - "D-035": the runner follows D-035 as written and D-035 itself puts the failure elsewhere; the
 *   label stands, and the entry states the change of D-035 proposed; once D-035 is amended and a
 *   run at the amended rule shows the mutant own, the entry goes;
 * - "neither": the label and D-035 both stand: what would name the label's invariant is not on the
 *   wire (an implementation's generic code at an operation where checks protecting different
 *   invariants share that code), D-035 says so, and the entry says why this mutant is one of those.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../transport/local.ts";

export interface Decision {
  readonly wrong: "label" | "attribution" | "D-035" | "neither";
  readonly decision: string;
}

export type Decisions = Readonly<Record<string, Decision>>;

export const DECISIONS_FILE = "conformance/mutants/decisions.json";

/** Parses and checks the decisions: each is {wrong, decision} with a known side and a reason. */
export const parseDecisions = (text: string, file = DECISIONS_FILE): Decisions => {
  const raw = JSON.parse(text) as unknown;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`${file}: not an object of mutant id → decision`);
  for (const [id, d] of Object.entries(raw as Record<string, unknown>)) {
    const x = d as Partial<Decision> | null;
    if (x === null || typeof x !== "object") throw new Error(`${file}: ${id}: not an object`);
    if (x.wrong !== "label" && x.wrong !== "attribution" && x.wrong !== "D-035" && x.wrong !== "neither")
      throw new Error(
        `${file}: ${id}: wrong must be "label", "attribution", "D-035" or "neither", not ${JSON.stringify(x.wrong)}`,
      );
    if (typeof x.decision !== "string" || x.decision.trim().length < 20)
      throw new Error(`${file}: ${id}: decision must say what was decided and why`);
    const keys = Object.keys(x).filter((k) => k !== "wrong" && k !== "decision");
    if (keys.length > 0) throw new Error(`${file}: ${id}: unknown field(s) ${keys.join(", ")}`);
  }
  return raw as Decisions;
};

export const readDecisions = (root = REPO_ROOT): Decisions =>
  parseDecisions(readFileSync(join(root, DECISIONS_FILE), "utf8"));
