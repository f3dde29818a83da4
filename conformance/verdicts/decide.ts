/**
 * The one function that decides verdicts and the exit code (so no two consumers can count a
 * result two ways). Per invariant, most severe first:
 *
 * - `not-applicable`: its family is outside the declared profile (W-5.2), or `--only` left it out;
 * - `fail`: a finding is attributed to it;
 * - `inconclusive`: no handshake; or a stage that concerns it could not finish (the implementation
 *   could not be driven, the time budget ended); or it has no witness at all (vacuity guard);
 * - `pass`: otherwise — checked, witnessed, never violated.
 *
 * Exit code: 1 when a failure is not in the baseline or a baseline entry passed (stale); else 2
 * when anything selected is inconclusive, the harness faulted, or no invariant passed at all (an
 * empty profile certifies nothing); else 0.
 */
import { match } from "ts-pattern";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import type { Certificate, CounterexampleRef, InvariantVerdict, StageName, Verdict } from "../../spec/certificate.ts";
import type { Family } from "../oracle/families.ts";
import type { Finding } from "../stages/types.ts";
import type { Baseline } from "./baseline.ts";
import { totalWitnesses, type WitnessBook } from "./witnesses.ts";

/** Which invariants a stage's inability to finish leaves undecided. */
export const STAGE_CONCERNS: Readonly<Record<StageName, readonly InvariantId[]>> = {
  handshake: INVARIANT_IDS,
  golden: INVARIANT_IDS,
  wire: [],
  differential: INVARIANT_IDS,
  algebra: ["AD-3", "S-4", "S-5"],
  crash: INVARIANT_IDS,
  forgetting: ["S-1", "S-5"],
};

export interface StageSummary {
  readonly stage: StageName;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly findings: readonly Finding[];
}

export interface DecideInput {
  /** The declared families; null when no handshake succeeded. */
  readonly families: readonly Family[] | null;
  readonly only: readonly InvariantId[];
  readonly stages: readonly StageSummary[];
  readonly witnesses: WitnessBook;
  readonly baseline: Baseline;
  readonly harnessFaults: readonly string[];
  /** The certificate's reference to a finding (its trace file and replay command). */
  readonly ref: (f: Finding) => CounterexampleRef;
}

export type Decision = Pick<Certificate, "invariants" | "baseline" | "result" | "exit_code">;

export const decide = (input: DecideInput): Decision => {
  const findings = input.stages.flatMap((s) => s.findings);
  const invariants: InvariantVerdict[] = INVARIANTS.map((inv) => {
    const witnesses = input.witnesses.get(inv.id);
    const mine = findings.filter((f) => f.invariant === inv.id);
    const base = { invariant: inv.id, family: inv.protocol, witnesses, counterexamples: mine.map(input.ref), expected_failure: input.baseline.invariants.includes(inv.id) };
    const v = (verdict: Verdict, reason: string): InvariantVerdict => ({ ...base, verdict, reason });
    if (input.only.length > 0 && !input.only.includes(inv.id)) return v("not-applicable", "not selected (--only)");
    if (input.families === null) return v("inconclusive", "no handshake succeeded: the implementation could not be driven");
    if (!input.families.includes(inv.protocol)) return v("not-applicable", `family ${inv.protocol} is not in the declared profile (W-5.2)`);
    if (mine.length > 0) return v("fail", mine[0]?.summary ?? "violated");
    const stuck = input.stages.find((s) => s.verdict === "inconclusive" && STAGE_CONCERNS[s.stage].includes(inv.id));
    if (stuck !== undefined) return v("inconclusive", `stage ${stuck.stage} could not finish: ${stuck.reason}`);
    if (totalWitnesses(witnesses) === 0) return v("inconclusive", "no witness: nothing the campaign did exercised it (vacuity guard)");
    return v("pass", `${totalWitnesses(witnesses)} witness(es), no violation`);
  });

  const failed = invariants.filter((i) => i.verdict === "fail").map((i) => i.invariant);
  const passed = invariants.filter((i) => i.verdict === "pass").map((i) => i.invariant);
  const unexpected = failed.filter((id) => !input.baseline.invariants.includes(id));
  const stale = input.baseline.invariants.filter((id) => passed.includes(id));
  // Failures of the wire protocol itself (no invariant) are keyed by stage in the baseline.
  const protocolFailures = input.stages.filter((s) => s.findings.some((f) => f.invariant === null));
  const unexpectedProtocol = protocolFailures.filter((s) => !input.baseline.stages.includes(s.stage));
  const staleStages = input.baseline.stages.filter((st) => input.stages.some((s) => s.stage === st && s.verdict === "pass"));
  // A run in which no invariant passed certifies nothing (an empty profile, or --only naming
  // families outside it): it is inconclusive, never "certified" (D-036).
  const nothingCertified = passed.length === 0;
  const inconclusive =
    nothingCertified || invariants.some((i) => i.verdict === "inconclusive") || input.stages.some((s) => s.verdict === "inconclusive") || input.harnessFaults.length > 0;

  const result: Certificate["result"] =
    unexpected.length > 0 || unexpectedProtocol.length > 0 || stale.length > 0 || staleStages.length > 0 ? "violations" : inconclusive ? "inconclusive" : "certified";
  const exit_code = match(result)
    .with("certified", () => 0 as const)
    .with("violations", () => 1 as const)
    .with("inconclusive", () => 2 as const)
    .exhaustive();
  return {
    invariants,
    baseline: {
      file: input.baseline.file,
      expected: [...input.baseline.invariants, ...input.baseline.stages],
      unexpected_failures: [...unexpected, ...unexpectedProtocol.map((s) => s.stage)],
      stale: [...stale, ...staleStages],
    },
    result,
    exit_code,
  };
};
