/**
 * W-2.2 for every stage: an implementation process that answered `shutdown` and then had to be
 * killed broke the protocol. The transport sees it when a session closes, which is in a stage's
 * `finally` block, after the stage's checkers have judged its history; so the Target keeps the
 * record (takeIgnoredShutdowns) and this checker adds it to the stage's outcome, as one more
 * checker reading what the run recorded. Pure: the record in, the outcome out.
 */
import type { StageName } from "../../spec/certificate.ts";
import type { Violation } from "../transport/client.ts";
import { outcome, type StageOutcome } from "../core/finding.ts";

/**
 * The stage's outcome with the ignored shutdowns (in the order the transport saw them) as one
 * `<stage>/W-2.2` finding naming the first: a pass becomes a fail; a fail keeps its reason; an
 * inconclusive stage stays inconclusive (it could not finish, whatever else it saw).
 */
export const checkIgnoredShutdowns = (
  stage: StageName,
  out: StageOutcome,
  ignored: readonly Violation[],
): StageOutcome => {
  const first = ignored[0];
  if (first === undefined) return out;
  const summary = `${first.message}${ignored.length > 1 ? ` (${ignored.length} processes in this stage)` : ""}; raw: ${first.raw}`;
  return outcome(
    out.verdict === "inconclusive" ? "inconclusive" : "fail",
    out.verdict === "inconclusive" || out.verdict === "fail" ? out.reason : `W-2.2: ${first.message}`,
    out.checks,
    [...out.findings, { invariant: null, stage, check: `${stage}/W-2.2`, summary, trace: null }],
    out.notes,
  );
};
