/**
 * Review rows closed by the witness work (issue 12, "Spec precision"): the invariant catalog's
 * guarded operations against OPERATIONS.md.
 */
import type { ReviewRow } from "./types.ts";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-3",
    status: "fixed",
    where: [
      "OP-0.4",
      "OP-2.7",
      "OP-4.1",
      "OP-6.4",
      "OP-6.5",
      "INV-AD-3",
      "INV-AD-4",
      "INV-S-3",
      "INV-S-4",
      "INV-S-5",
      "INV-I2",
      "INV-I4",
    ],
    summary:
      "The catalog's guarded operations are no longer written by hand: spec/catalog.ts derives them from spec/checks.ts (every check clause of OPERATIONS.md with its code, rendered as spec/CHECKS.md), so INVARIANTS.md now lists janma.distil for AD-3 and AD-4, every quiescence-guarded operation of OP-0.4 for I4, and ripa.request and ripa.reply for I2, each with its check ids. S-3 and S-5 have no rejecting check and say so (guaranteed by construction in merge and excision; no command is rejected with their codes); S-4 is rejected only by samskara.replay and holds by construction in merge and excision. Our reading agrees with the review's (OPERATIONS.md is authoritative, D-032).",
    golden: [],
    mutants: [],
    unpinned:
      "Documentation only: no command behaves differently. The drift is pinned by spec/checks.test.ts (each Checks list of OPERATIONS.md parsed and compared item by item with spec/checks.ts, code by code, and OP-0.4's list with QUIESCED_OPS) and spec/catalog.test.ts (the derived lists equal the review's findings).",
  },
];
