/**
 * The expected-failures baseline (`--expected-failures <file>`), as in the MCP conformance suite:
 * a list of invariant ids (and stage names, for failures of the wire protocol itself) that are
 * known to fail. Listed failures do not fail the exit code; a listed entry that now passes does
 * (the baseline is stale). The file is JSON (`["S-5", "wire"]` or `{ "expected_failures": [...] }`)
 * or plain text, one entry per line, `#` comments allowed. Unknown entries are refused by name.
 */
import { readFileSync } from "node:fs";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { STAGES, type StageName } from "../../spec/certificate.ts";
import { UsageError } from "../driver/command-line.ts";

export interface Baseline {
  readonly file: string | null;
  readonly invariants: readonly InvariantId[];
  readonly stages: readonly StageName[];
}

export const EMPTY_BASELINE: Baseline = { file: null, invariants: [], stages: [] };

export const parseBaseline = (text: string, file: string): Baseline => {
  let entries: unknown;
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    try {
      const json = JSON.parse(trimmed) as unknown;
      entries = Array.isArray(json) ? json : (json as { expected_failures?: unknown }).expected_failures;
    } catch (e) {
      throw new UsageError(
        `--expected-failures ${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  } else {
    entries = trimmed
      .split("\n")
      .map((l) => l.replace(/#.*/, "").trim())
      .filter((l) => l !== "");
  }
  if (!Array.isArray(entries) || !entries.every((e) => typeof e === "string")) {
    throw new UsageError(`--expected-failures ${file}: expected a list of invariant ids or stage names`);
  }
  const invariants: InvariantId[] = [];
  const stages: StageName[] = [];
  for (const [i, e] of (entries as string[]).entries()) {
    if ((INVARIANT_IDS as readonly string[]).includes(e)) invariants.push(e as InvariantId);
    else if ((STAGES as readonly string[]).includes(e)) stages.push(e as StageName);
    else
      throw new UsageError(
        `--expected-failures ${file}: entry ${i + 1} "${e}" is neither an invariant id (${INVARIANT_IDS.join(", ")}) nor a stage (${STAGES.join(", ")})`,
      );
  }
  return { file, invariants: [...new Set(invariants)], stages: [...new Set(stages)] };
};

export const readBaseline = (file: string): Baseline => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`--expected-failures ${file}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  }
  return parseBaseline(text, file);
};
