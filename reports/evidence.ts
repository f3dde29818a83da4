/**
 * The evidence the generated docs show per invariant, read from committed run outputs:
 * - the sample certificate of the bundled implementation (`npm run docs:sample` writes
 *   docs/examples/certificate/certificate.json, reports/sample-certificate.ts): witness counts;
 * - the kill matrix (`npm run mutants` writes reports/mutants.json): each mutant, the stage that
 *   killed it and its shrunk counterexample.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Certificate } from "../spec/certificate.ts";
import type { InvariantId } from "../spec/catalog.ts";
import type { TraceStep } from "../spec/certificate.ts";
import { REPO_ROOT } from "./paths.ts";

export const BUNDLED_CERTIFICATE = "docs/examples/certificate/certificate.json";
export const MUTANTS_JSON = "reports/mutants.json";

export const readBundledCertificate = (path = BUNDLED_CERTIFICATE): Certificate | null => {
  const file = join(REPO_ROOT, path);
  if (!existsSync(file)) return null;
  const parsed = Certificate.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new Error(
      `${path} is not a certificate: ${parsed.error.issues[0]?.message ?? ""} at ${parsed.error.issues[0]?.path.join(".") ?? ""}`,
    );
  return parsed.data;
};

/** One row of reports/mutants.json (conformance/mutants/matrix.ts `matrixJson`). */
export interface MatrixMutant {
  readonly id: string;
  /** null: a mutant of the wire layer, killed by a wire-protocol finding. */
  readonly invariant: InvariantId | null;
  /** The clause the label names (properties/mutants/catalog.ts). */
  readonly clause: string;
  readonly description: string;
  readonly reported: readonly InvariantId[];
  /** The certificate failed something (conformance/mutants/matrix.ts). */
  readonly killed: boolean;
  /** Failed under the label; "other": killed, but only under other invariants. */
  readonly own: boolean;
  readonly attribution: "own" | "other" | "survived";
  readonly stage: string | null;
  readonly check: string | null;
  readonly summary: string | null;
  readonly ms_to_failure: number | null;
  readonly shrunk_steps: number | null;
  readonly exit_code: number;
  readonly counterexample: {
    readonly steps_total: number;
    /** commands_only: the commands among those lines, the queries left out (conformance/mutants/matrix.ts). */
    readonly golden_prefix: { readonly file: string; readonly lines: number; readonly commands_only?: true } | null;
    readonly before: readonly TraceStep[];
    readonly failing: TraceStep | null;
    readonly difference: string | null;
  } | null;
}

export interface Matrix {
  readonly generated_by: string;
  readonly counts: { readonly own: number; readonly other: number; readonly survived: number };
  readonly settings: {
    readonly seed: number;
    readonly runs: number;
    readonly time_budget_ms: number;
    readonly stages: readonly string[];
  };
  readonly mutants: readonly MatrixMutant[];
}

export const readMatrix = (path = MUTANTS_JSON): Matrix | null => {
  const file = join(REPO_ROOT, path);
  if (!existsSync(file)) return null;
  const m = JSON.parse(readFileSync(file, "utf8")) as Matrix;
  if (!Array.isArray(m.mutants)) throw new Error(`${path} has no mutants list`);
  return m;
};
