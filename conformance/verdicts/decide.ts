/**
 * The one function that decides verdicts and the exit code (so no two consumers can count a
 * result two ways). Per invariant, most severe first:
 *
 * - `not-selected`: `--only` left it out (decided first: nothing about it can fail or stall the run);
 * - `fail`: a finding is attributed to it — before not-applicable, since an operation of a declared
 *   family checks invariants of others (janma.distil checks S-1, S-2, AD-3), and a disagreement
 *   there is a violation in any profile;
 * - `not-applicable`: its family is outside the declared profile (W-5.2), or the profile cannot
 *   witness it by construction: none of its guards can reach it with the declared families, and
 *   the reason names the families it needs (D-049, spec/profiles.ts);
 * - `inconclusive`: no handshake; or a stage that concerns it could not finish (the implementation
 *   could not be driven, the time budget ended); or it has no witness at all (vacuity guard);
 * - `pass`: otherwise — checked, witnessed, never violated.
 *
 * Exit code: 1 when a failure is not in the baseline or a baseline entry passed (stale); else 2
 * when anything selected is inconclusive, the harness faulted, or no invariant passed at all (an
 * empty profile certifies nothing); else 0. `judge` decides that from the verdicts and stages, and
 * `resultText` / `describeResult` / `countsText` say it in words from the same facts, for every report.
 */
import { match } from "ts-pattern";
import { INVARIANTS, INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import {
  STAGES,
  VERDICTS,
  type BaselineEntry,
  type Certificate,
  type CounterexampleRef,
  type InvariantVerdict,
  type StageName,
  type Verdict,
} from "../../spec/certificate.ts";
import { applicability, type Family } from "../../spec/profiles.ts";
import { STAGE_CONCERNS } from "../core/stage-catalog.ts";
import type { Finding } from "../core/finding.ts";
import type { Baseline } from "./baseline.ts";
import { totalWitnesses, type WitnessBook } from "./witnesses.ts";

/**
 * Which invariants a stage's inability to finish leaves undecided: each stage's `concerns`, from
 * its definition's data part (conformance/core/stage-catalog.ts, which loads no runner). Re-exported
 * for the reporters and `srk list`, which read it from here.
 */
export { STAGE_CONCERNS };

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
    const base = {
      invariant: inv.id,
      family: inv.protocol,
      witnesses,
      counterexamples: mine.map(input.ref),
      expected_failure: input.baseline.invariants.includes(inv.id),
    };
    const v = (verdict: Verdict, reason: string): InvariantVerdict => ({ ...base, verdict, reason });
    if (input.only.length > 0 && !input.only.includes(inv.id))
      return v("not-selected", `not selected: --only ${input.only.join(",")}`);
    if (input.families === null)
      return v("inconclusive", "no handshake succeeded: the implementation could not be driven");
    if (mine.length > 0) return v("fail", mine[0]?.summary ?? "violated");
    const app = applicability(inv.id, input.families);
    if (!app.applicable) return v("not-applicable", app.reason);
    const stuck = input.stages.find((s) => s.verdict === "inconclusive" && STAGE_CONCERNS[s.stage].includes(inv.id));
    if (stuck !== undefined) return v("inconclusive", `stage ${stuck.stage} could not finish: ${stuck.reason}`);
    if (totalWitnesses(witnesses) === 0)
      return v("inconclusive", "no witness: nothing the campaign did exercised it (vacuity guard)");
    return v("pass", `${totalWitnesses(witnesses)} witness(es), no violation`);
  });

  const j = judge({ invariants, stages: input.stages, baseline: input.baseline, harnessFaults: input.harnessFaults });
  return {
    invariants,
    baseline: {
      file: input.baseline.file,
      expected: [...input.baseline.invariants, ...input.baseline.stages],
      unexpected_failures: [...j.unexpectedInvariants, ...j.protocolFailures.map((s) => s.stage)],
      stale: [...j.stale],
    },
    result: j.result,
    exit_code: j.exit_code,
  };
};

/** What the run's result is decided from: a stage as decide sees it, or as the certificate records it. */
export interface StageFacts {
  readonly stage: StageName;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly findings: readonly { readonly invariant: InvariantId | null; readonly summary: string }[];
}

export interface ResultFacts {
  readonly invariants: readonly Pick<InvariantVerdict, "invariant" | "verdict">[];
  readonly stages: readonly StageFacts[];
  readonly baseline: Pick<Baseline, "invariants" | "stages">;
  readonly harnessFaults: readonly string[];
}

/** The result and everything that made it: what decide returns and what every report says, from the same facts. */
export interface Judgement {
  readonly result: Certificate["result"];
  readonly exit_code: Certificate["exit_code"];
  readonly passed: readonly InvariantId[];
  /** Every invariant that failed, expected or not. */
  readonly failedInvariants: readonly InvariantId[];
  /** Those of them not in the baseline: each makes the result violations. */
  readonly unexpectedInvariants: readonly InvariantId[];
  /** Every stage whose verdict is fail. */
  readonly failedStages: readonly StageFacts[];
  /** Stages with a failure of the wire protocol itself (no invariant) not in the baseline: each makes the result violations. */
  readonly protocolFailures: readonly StageFacts[];
  /** Baseline entries that pass now: each makes the result violations. */
  readonly stale: readonly BaselineEntry[];
  readonly inconclusiveInvariants: readonly InvariantId[];
  readonly inconclusiveStages: readonly StageFacts[];
  readonly harnessFaults: number;
  /** No invariant passed: the run certifies nothing (D-036). */
  readonly nothingCertified: boolean;
}

/** The result and exit code (D-036) from the verdicts, the stages, the baseline and the harness faults. */
export const judge = (f: ResultFacts): Judgement => {
  const ids = (v: Verdict): InvariantId[] => f.invariants.filter((i) => i.verdict === v).map((i) => i.invariant);
  const failedInvariants = ids("fail");
  const passed = ids("pass");
  const unexpectedInvariants = failedInvariants.filter((id) => !f.baseline.invariants.includes(id));
  const stale: BaselineEntry[] = [
    ...f.baseline.invariants.filter((id) => passed.includes(id)),
    // Failures of the wire protocol itself (no invariant) are keyed by stage in the baseline.
    ...f.baseline.stages.filter((st) => f.stages.some((s) => s.stage === st && s.verdict === "pass")),
  ];
  const protocolFailures = f.stages.filter(
    (s) => s.findings.some((x) => x.invariant === null) && !f.baseline.stages.includes(s.stage),
  );
  const inconclusiveInvariants = ids("inconclusive");
  const inconclusiveStages = f.stages.filter((s) => s.verdict === "inconclusive");
  // A run in which no invariant passed certifies nothing (an empty profile, or --only naming
  // families outside it): it is inconclusive, never "certified" (D-036).
  const nothingCertified = passed.length === 0;
  const violations = unexpectedInvariants.length > 0 || protocolFailures.length > 0 || stale.length > 0;
  const inconclusive =
    nothingCertified ||
    inconclusiveInvariants.length > 0 ||
    inconclusiveStages.length > 0 ||
    f.harnessFaults.length > 0;
  const result: Certificate["result"] = violations ? "violations" : inconclusive ? "inconclusive" : "certified";
  const exit_code = match(result)
    .with("certified", () => 0 as const)
    .with("violations", () => 1 as const)
    .with("inconclusive", () => 2 as const)
    .exhaustive();
  return {
    result,
    exit_code,
    passed,
    failedInvariants,
    unexpectedInvariants,
    failedStages: f.stages.filter((s) => s.verdict === "fail"),
    protocolFailures,
    stale,
    inconclusiveInvariants,
    inconclusiveStages,
    harnessFaults: f.harnessFaults.length,
    nothingCertified,
  };
};

/** The facts a certificate records, as judge reads them. */
export const certificateFacts = (c: Certificate): ResultFacts => ({
  invariants: c.invariants,
  stages: c.stages,
  baseline: {
    invariants: c.baseline.expected.filter((e): e is InvariantId => (INVARIANT_IDS as readonly string[]).includes(e)),
    stages: c.baseline.expected.filter((e): e is StageName => (STAGES as readonly string[]).includes(e)),
  },
  harnessFaults: c.harness_faults,
});

const clipText = (s: string, n = 120): string => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};
const idList = (xs: readonly string[], max = 6): string =>
  xs.length > max ? `${xs.slice(0, max).join(", ")} and ${xs.length - max} more` : xs.join(", ");
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
/** Why a stage failed, in a few words: its first failure of the wire protocol, else its first finding, else its reason. */
const whyStage = (s: StageFacts): string =>
  `${s.stage}: ${clipText((s.findings.find((x) => x.invariant === null) ?? s.findings[0])?.summary ?? s.reason)}`;

/**
 * The result in one line, with the counts of the kind that made it: `violations (exit 1): 0
 * invariants fail, 1 stage fails (wire: W-3 …)`. From judge's facts, so it cannot contradict the result.
 */
export const resultText = (j: Judgement): string => {
  const head = `${j.result} (exit ${j.exit_code})`;
  return match(j.result)
    .with("violations", () => {
      const expected = j.failedInvariants.filter((id) => !j.unexpectedInvariants.includes(id));
      const invs =
        j.failedInvariants.length === 0
          ? ""
          : ` (${[idList(j.unexpectedInvariants), expected.length === 0 ? "" : `expected: ${idList(expected)}`].filter((x) => x !== "").join("; ")})`;
      const stages = j.failedStages.length === 0 ? "" : ` (${j.failedStages.map(whyStage).join("; ")})`;
      const stale =
        j.stale.length === 0
          ? ""
          : `; ${plural(j.stale.length, "stale baseline entry passes", "stale baseline entries pass")} now (${j.stale.join(", ")})`;
      return `${head}: ${plural(j.failedInvariants.length, "invariant fails", "invariants fail")}${invs}, ${plural(j.failedStages.length, "stage fails", "stages fail")}${stages}${stale}`;
    })
    .with("inconclusive", () => {
      const invs = j.inconclusiveInvariants.length === 0 ? "" : ` (${idList(j.inconclusiveInvariants)})`;
      const stages =
        j.inconclusiveStages.length === 0
          ? ""
          : ` (${j.inconclusiveStages.map((s) => `${s.stage}: ${clipText(s.reason)}`).join("; ")})`;
      const harness =
        j.harnessFaults === 0
          ? ""
          : `; ${plural(j.harnessFaults, "harness fault", "harness faults")} (a bug of the runner)`;
      const nothing = j.nothingCertified ? "; no invariant passed, so nothing is certified" : "";
      return `${head}: ${plural(j.inconclusiveInvariants.length, "invariant inconclusive", "invariants inconclusive")}${invs}, ${plural(j.inconclusiveStages.length, "stage inconclusive", "stages inconclusive")}${stages}${harness}${nothing}`;
    })
    .with("certified", () => {
      const expected =
        j.failedInvariants.length === 0 ? "" : `; expected failures (baseline): ${idList(j.failedInvariants)}`;
      const stages =
        j.failedStages.length === 0
          ? ", no stage fails or is inconclusive"
          : `, ${plural(j.failedStages.length, "stage fails", "stages fail")} (${j.failedStages.map(whyStage).join("; ")}) on expected or not-selected invariants only`;
      return `${head}: ${plural(j.passed.length, "invariant passes", "invariants pass")}${stages}${expected}`;
    })
    .exhaustive();
};

/**
 * A certificate's result in one line, judged again from the verdicts it records. A certificate
 * whose recorded result is not what its verdicts give (edited by hand, or written by a broken
 * runner) says so instead of agreeing with either.
 */
export const describeResult = (c: Certificate): string => {
  const j = judge(certificateFacts(c));
  if (j.result === c.result && j.exit_code === c.exit_code) return resultText(j);
  return `${c.result} (exit ${c.exit_code}) as recorded, but this certificate's own verdicts give ${resultText(j)}`;
};

const countOf = (vs: readonly { readonly verdict: Verdict }[]): Record<Verdict, number> => {
  const out = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const x of vs) out[x.verdict]++;
  return out;
};
export const countInvariants = (c: Pick<Certificate, "invariants">): Record<Verdict, number> => countOf(c.invariants);
export const countStages = (c: Pick<Certificate, "stages">): Record<Verdict, number> => countOf(c.stages);

/** The counts in one line: the 19 invariants by verdict, then the stages (always pass, fail, inconclusive; the others when any). */
export const countsText = (c: Pick<Certificate, "invariants" | "stages">): string => {
  const i = countInvariants(c);
  const s = countStages(c);
  const stageParts = [
    `${s.pass} pass`,
    `${s.fail} fail`,
    `${s.inconclusive} inconclusive`,
    ...(s["not-applicable"] > 0 ? [`${s["not-applicable"]} not applicable`] : []),
    ...(s["not-selected"] > 0 ? [`${s["not-selected"]} not selected`] : []),
  ];
  return `invariants: ${i.pass} pass, ${i.fail} fail, ${i["not-applicable"]} not applicable, ${i["not-selected"]} not selected, ${i.inconclusive} inconclusive; stages: ${stageParts.join(", ")}`;
};
