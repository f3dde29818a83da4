/**
 * `junit.xml`: the certificate for CI dashboards. One test suite per stage that ran, one test case
 * per invariant the stage concerns (conformance/verdicts/decide.ts `STAGE_CONCERNS`), then one
 * suite `verdicts` with the 19 final verdicts (which also carry what no single stage decides:
 * the vacuity guard, --only, the baseline).
 *
 * A case is a `failure` when the stage found a violation of that invariant (message: the invariant,
 * the first diverging step, expected vs actual; body: the story and the replay command);
 * `skipped` when the invariant or the stage is not applicable, or the failure is listed in the
 * --expected-failures baseline (the reason in system-out); an
 * `error` when the stage could not decide it (inconclusive). Failures of the wire protocol itself
 * (no invariant) are one case `wire protocol` of the stage that saw them. Built with
 * junit-report-builder, never by string concatenation.
 */
import junitReportBuilder from "junit-report-builder";
import type { TestCase } from "junit-report-builder";
import type { CounterexampleRef, InvariantVerdict, StageResult } from "../../spec/certificate.ts";
import { STAGE_CONCERNS } from "../verdicts/decide.ts";
import {
  failingIndex,
  invariantName,
  isTrace,
  replyLabel,
  requestLabel,
  totalWitnesses,
  traceOf,
  type ReportInput,
} from "./common.ts";
import { valueAt, firstDifferenceOf, bracketedPath } from "../../properties/json-diff.ts";

const json = (v: unknown): string => JSON.stringify(v) ?? "undefined";

// The package is CommonJS (`module.exports = builder`) but its typings declare an ES default
// export; under NodeNext the default import is `module.exports`. Accept either shape.
const builder = ((junitReportBuilder as { default?: unknown }).default ??
  junitReportBuilder) as typeof junitReportBuilder.default;

/** The failure message: the violated invariant, the first diverging step, expected vs actual. */
export const failureMessage = (input: ReportInput, ref: CounterexampleRef): string => {
  const who = ref.invariant === null ? "wire protocol" : `${ref.invariant} (${invariantName(ref.invariant)})`;
  const t = traceOf(input, ref);
  if (!isTrace(t)) return `${who} violated: ${ref.summary}`;
  const i = failingIndex(t);
  const step = t.steps[i];
  if (step === undefined) return `${who} violated: ${ref.summary}`;
  const p = firstDifferenceOf(step.expected, step.actual)?.path ?? null;
  const diff =
    p === null
      ? `expected ${replyLabel(step.expected)}, actual ${replyLabel(step.actual)}`
      : `at ${bracketedPath(p)} expected ${json(valueAt(step.expected, p))}, actual ${json(valueAt(step.actual, p))}`;
  return `${who} violated at step ${i + 1} of ${t.steps.length}, ${requestLabel(step.request)}: ${diff}`;
};

/** The failure body: summary, the diverging step in full, the difference, the replay command. */
export const failureBody = (input: ReportInput, ref: CounterexampleRef): string => {
  const lines = [`${ref.stage} / ${ref.check}: ${ref.summary}`];
  const t = traceOf(input, ref);
  if (t !== null && !isTrace(t)) lines.push(`trace: ${t.error}`);
  if (isTrace(t)) {
    const i = failingIndex(t);
    const step = t.steps[i];
    if (i > 0) lines.push(`steps 1-${i}: ${i} request(s) answered as the model did`);
    if (step !== undefined) {
      lines.push(
        `step ${i + 1}: ${requestLabel(step.request)}`,
        `  request:  ${json(step.request)}`,
        `  expected: ${json(step.expected)}`,
        `  actual:   ${json(step.actual)}`,
      );
    }
    if (t.difference !== null) lines.push(`first difference: ${t.difference}`);
    if (t.seed !== null) lines.push(`seed ${t.seed}${t.path === null ? "" : `, path ${t.path}`}`);
  }
  if (ref.replay !== null) lines.push(`replay: ${ref.replay}`);
  if (ref.trace_file !== null) lines.push(`trace file: ${ref.trace_file}`);
  return lines.join("\n");
};

/** A failure, or — when the baseline lists it (--expected-failures) — a skipped case that says so. */
const failCase = (
  input: ReportInput,
  tc: TestCase,
  refs: readonly CounterexampleRef[],
  type: string,
  expected = false,
): void => {
  const first = refs[0];
  if (first === undefined) return;
  if (expected) {
    tc.skipped().standardOutput(
      `expected failure (listed in the baseline): ${failureMessage(input, first)}\n\n${refs.map((r) => failureBody(input, r)).join("\n\n")}`,
    );
    return;
  }
  tc.failure(`${failureMessage(input, first)}${refs.length > 1 ? ` (and ${refs.length - 1} more)` : ""}`, type);
  tc.stacktrace(refs.map((r) => failureBody(input, r)).join("\n\n"));
};

const stageCase = (input: ReportInput, s: StageResult, v: InvariantVerdict, tc: TestCase): void => {
  // A not-selected invariant is skipped even when a stage happened to find something about it (D-036).
  if (v.verdict === "not-selected") return void tc.skipped().standardOutput(v.reason);
  const mine = s.findings.filter((f) => f.invariant === v.invariant);
  if (mine.length > 0) {
    failCase(input, tc, mine, v.invariant, v.expected_failure);
    return;
  }
  if (v.verdict === "not-applicable") {
    tc.skipped().standardOutput(`not applicable: ${v.reason}`);
  } else if (s.verdict === "not-applicable" || s.verdict === "not-selected") {
    tc.skipped().standardOutput(
      `stage ${s.verdict === "not-selected" ? "not selected" : "not applicable"}: ${s.reason}`,
    );
  } else if (s.verdict === "inconclusive") {
    tc.error(`inconclusive: ${s.reason}`, "inconclusive");
  } else {
    tc.standardOutput(`no violation in this stage (${s.verdict}: ${s.reason})`);
  }
};

export const renderJunit = (input: ReportInput): string => {
  const c = input.certificate;
  const b = builder.newBuilder().name(`srk certify ${c.implementation.name ?? "(no handshake)"}`);
  const props = (suite: ReturnType<typeof b.testSuite>): void => {
    suite
      .property(
        "implementation",
        `${c.implementation.name ?? "(no handshake)"} ${c.implementation.version ?? ""}`.trim(),
      )
      .property("command_line", c.implementation.command_line)
      .property("profile", c.implementation.profile === null ? "unknown" : c.implementation.profile.families.join(","))
      .property("seed", String(c.settings.seed))
      .property("runs", String(c.settings.runs))
      .property("spec_digest", c.kit.spec_digest)
      .property("result", `${c.result} (exit ${c.exit_code})`);
  };
  // JUnit's timestamp is an xs:dateTime without a zone: the start, in UTC.
  const started = new Date(c.started_at);
  const timestamp = Number.isNaN(started.getTime()) ? null : started.toISOString().slice(0, 19);
  const suiteOf = (name: string, ms: number): ReturnType<typeof b.testSuite> => {
    const suite = b
      .testSuite()
      .name(name)
      .time(ms / 1000);
    if (timestamp !== null) suite.timestamp(timestamp);
    props(suite);
    return suite;
  };
  for (const s of c.stages) {
    const suite = suiteOf(s.stage, s.duration_ms);
    suite.property("stage_verdict", s.verdict).property("stage_reason", s.reason).property("checks", String(s.checks));
    for (const id of STAGE_CONCERNS[s.stage]) {
      const v = c.invariants.find((x) => x.invariant === id);
      if (v === undefined) continue;
      stageCase(input, s, v, suite.testCase().className(`srk.${s.stage}`).name(id));
    }
    const wire = s.findings.filter((f) => f.invariant === null);
    if (wire.length > 0 || STAGE_CONCERNS[s.stage].length === 0) {
      const tc = suite.testCase().className(`srk.${s.stage}`).name("wire protocol");
      if (wire.length > 0) failCase(input, tc, wire, "wire-protocol", c.baseline.expected.includes(s.stage));
      else if (s.verdict === "inconclusive") tc.error(`inconclusive: ${s.reason}`, "inconclusive");
      else if (s.verdict === "not-applicable" || s.verdict === "not-selected") tc.skipped().standardOutput(s.reason);
      else tc.standardOutput(`${s.verdict}: ${s.reason}`);
    }
  }
  const final = suiteOf("verdicts", c.duration_ms);
  for (const v of c.invariants) {
    const tc = final
      .testCase()
      .className(`srk.verdicts.${v.family}`)
      .name(`${v.invariant} ${invariantName(v.invariant)}`);
    const w = `witnesses: ${totalWitnesses(v)} (accepted ${v.witnesses.accepted}, rejected ${v.witnesses.rejected}, crash cuts ${v.witnesses.crash_cuts}, algebra ${v.witnesses.algebra}, forgetting ${v.witnesses.forgetting})`;
    if (v.verdict === "not-selected") {
      tc.skipped().standardOutput(v.reason);
    } else if (v.verdict === "fail" && v.counterexamples.length > 0) {
      failCase(input, tc, v.counterexamples, v.invariant, v.expected_failure);
    } else if (v.verdict === "fail") {
      if (v.expected_failure) tc.skipped().standardOutput(`expected failure (listed in the baseline): ${v.reason}`);
      else tc.failure(`${v.invariant} violated: ${v.reason}`, v.invariant).standardOutput(w);
    } else if (v.verdict === "not-applicable") {
      tc.skipped().standardOutput(`not applicable: ${v.reason}`);
    } else if (v.verdict === "inconclusive") {
      tc.error(`inconclusive: ${v.reason}`, "inconclusive").standardOutput(w);
    } else {
      tc.standardOutput(`pass: ${v.reason}; ${w}`);
    }
  }
  return b.build();
};
