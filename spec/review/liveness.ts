/** Spec review 1, section I (liveness and reporting): how items G-53 and G-54 were closed. */
import type { ReviewRow } from "./types.ts";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-53",
    status: "fixed",
    where: ["OP-6.12", "OP-6.5", "OP-7.1", "OP-0.4", "D-046"],
    summary:
      "New operation ripa.task_pause (native recovery) names the task's live attempt and revokes it: a late reply carrying it is rejected with I4, the nonce can never be republished, and the fence is then accepted, so an agent whose worker died mid-request can be migrated; a pause naming an attempt that is not live (a stale recovery) is rejected with I4 and revokes nothing. Where we differ from the review: ripa.task_resume still does not revoke (the paper's recovery pauses, and a resume of a task whose worker is alive must not discard its reply), and the pause carries no epoch token (attempt nonces, not epochs, correlate replies; the pause is attempt-local instead).",
    golden: ["session-liveness"],
    mutants: ["G-53.pause-keeps-attempt", "G-53.late-reply-accepted"],
  },
  {
    item: "G-54",
    status: "fixed",
    where: ["OP-7.6", "D-047"],
    summary:
      "The MigrationReport flag is renamed memory_ancestry_preserved: resume checks that memory and store heads equal the bundle's, and the migration appends nothing to memory. The target marker the paper's runs write is the resumed task's own work, not a protocol step, so it is not modelled at resume.",
    golden: ["session-liveness"],
    mutants: ["G-54.resume-extends-memory"],
  },
];
