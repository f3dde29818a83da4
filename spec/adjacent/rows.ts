/**
 * How each point of the review of the kit against the three protocols Samsara composes with
 * (../shared/reviews/adjacent-review-1.md: the custody, satisfaction-signal and consent protocols)
 * was settled: one row per point, A-1 … A-12 in the review's ranking. `spec/ADJACENT-1.md` is
 * rendered from the rows; conformance/adjacent.test.ts checks every pin a row names.
 *
 * A reading the kit changed (`adopted`, `fixed`) is pinned by golden lines whose request ids start
 * with the deciding D-record ("D-060.158") and by catalog mutants that take the reading decided
 * against; a reading the kit kept names the decision that says why, and any existing pin of it.
 */

/** adopted: the adjacent rule is now the kit's; kept: the kit's rule stays, with its reason; fixed: a gap closed; corrected: the documents' wording. */
export type AdjacentStatus = "adopted" | "kept" | "fixed" | "corrected";

export interface AdjacentRow {
  readonly item: `A-${number}`;
  readonly title: string;
  readonly protocol: "custody" | "satisfaction" | "consent" | "several";
  readonly status: AdjacentStatus;
  /** The D-records that settle it (the first one is the point's own). */
  readonly decisions: readonly `D-${string}`[];
  /** Golden sessions holding lines pinned by one of `decisions`. */
  readonly golden: readonly string[];
  /** Catalog mutants taking the reading decided against. */
  readonly mutants: readonly string[];
  /**
   * Where a mutant first fails when it is not a line of its own decisions, and why (a world view
   * of an earlier session already shows the changed field).
   */
  readonly firstFails?: Readonly<Record<string, string>>;
  /** Why a kept reading has no pin of its own. */
  readonly unpinned?: string;
  readonly summary: string;
}

const SAMSARA = "session-decisions-samsara";

export const ADJACENT_ROWS: readonly AdjacentRow[] = [
  {
    item: "A-1",
    title: "What a sensitivity level means",
    protocol: "consent",
    status: "kept",
    decisions: ["D-052", "D-011"],
    golden: [],
    mutants: [],
    unpinned:
      "the rule is D-011's as before, checked by the S-1 consent lines of the golden sessions (a high training cell refused); D-052 adds the mapping onto the protocol's levels, which no reply can tell apart",
    summary:
      "persist_ceiling stays; set it to medium to get the consent protocol's behaviour (low approves, medium records and persists); high escalates to a human who does not answer inside a distillation, so it fails closed.",
  },
  {
    item: "A-2",
    title: "Where the signal and a disposition's category come from",
    protocol: "satisfaction",
    status: "adopted",
    decisions: ["D-053", "D-065"],
    golden: [SAMSARA],
    mutants: ["S-2.signal-model-unchecked"],
    summary:
      "The manifest's distillation_policy declares satisfaction_model (null = the reference formula); a signal under another model is S-2 at OP-2.7.c6. The category stays the distiller's statement, audited from the lineage. The protocol's floats become millionths from their shortest decimal, half to even, a positive confidence never 0 (D-065).",
  },
  {
    item: "A-3",
    title: "Applied with the acknowledgement lost",
    protocol: "custody",
    status: "kept",
    decisions: ["D-054"],
    golden: [],
    mutants: [],
    unpinned:
      "the state cannot arise in the kit: the store is the receiver and the merge discharges atomically; the AD-2 predicate and the wire cannot show a lost acknowledgement of an application",
    summary:
      "Sender and store are one party: the merge and the discharge are one write, so apply-then-escalate cannot happen; a remote receiver takes the outcome from its own ledger.",
  },
  {
    item: "A-4",
    title: "The fail-safe in the custody protocol's effects",
    protocol: "custody",
    status: "kept",
    decisions: ["D-055", "D-019"],
    golden: [],
    mutants: ["J-4.declined-without-fail-safe"],
    summary:
      "Quarantine is safe(O) FAIL_CLOSED on the born_from version, held by the store; it applies on declined too, following the protocol's SPEC.md over its TLA+ Decline (the mutant takes the TLA+ reading).",
  },
  {
    item: "A-5",
    title: "Consent revoked after conception; regulatory floors",
    protocol: "consent",
    status: "kept",
    decisions: ["D-056"],
    golden: [],
    mutants: [],
    unpinned:
      "no operation changes a life's grant after conception, so no reply distinguishes the readings; the issuer composes floors before conception",
    summary:
      "The grant is frozen at conception with the manifest; a revocation applies to later lives and excision removes what persisted; floors are composed into the manifest's grant.",
  },
  {
    item: "A-6",
    title: "A life with no feedback can never end",
    protocol: "satisfaction",
    status: "fixed",
    decisions: ["D-057"],
    golden: [SAMSARA],
    mutants: ["S-2.no-feedback-distillate-refused"],
    summary:
      "Such a life distils an empty distillate with confidence 0 and valence 0 (SR-1); zero confidence with a valence or a disposition is still S-2; the obligation expires best_effort and the life dissolves.",
  },
  {
    item: "A-7",
    title: "The storage dimension",
    protocol: "consent",
    status: "adopted",
    decisions: ["D-058"],
    golden: [SAMSARA],
    mutants: ["S-1.consent-reads-training-only"],
    summary:
      "Persisting reads both (category, storage) and (category, training); the stricter must be within persist_ceiling.",
  },
  {
    item: "A-8",
    title: "Retry sizing",
    protocol: "custody",
    status: "kept",
    decisions: ["D-059"],
    golden: [],
    mutants: [],
    unpinned:
      "the kit's policy has no backoff parameters, so there is no profile to reject; an early run-out of attempts already escalates",
    summary:
      "No backoff in the policy; max_retries + 1 attempts strictly before the deadline; an implementer sizes their library's backoff to span deadline_ticks.",
  },
  {
    item: "A-9",
    title: "The deadline boundary",
    protocol: "custody",
    status: "adopted",
    decisions: ["D-060"],
    golden: [SAMSARA],
    mutants: ["J-4.attempt-at-deadline", "J-4.merge-at-deadline"],
    summary:
      "Every delivery action needs tick < deadline_tick (OP-3.1.c3, OP-4.1.c4); the deadline tick belongs to custody.expire.",
  },
  {
    item: "A-10",
    title: "The outcome of a reinforcing obligation",
    protocol: "custody",
    status: "kept",
    decisions: ["D-061"],
    golden: [],
    mutants: ["J-4.reinforcing-always-best-effort"],
    firstFails: {
      "J-4.reinforcing-always-best-effort":
        "the first reinforcing obligation a golden session declines (a scene-setting attempt): no line pins D-061 alone, the kept reading is OP-3.1's",
    },
    summary:
      "The outcome records what happened (declined, best_effort, or applied by a merge); the protocol's best_effort class is the kind and the null fail-safe.",
  },
  {
    item: "A-11",
    title: "Eventual discharge",
    protocol: "custody",
    status: "fixed",
    decisions: ["D-062"],
    golden: [],
    mutants: ["S-2.no-feedback-distillate-refused"],
    unpinned:
      "a liveness property, checked by the property suite's drain after every generated history on the model and the implementation, not by a golden line",
    summary:
      "From every reachable world the caller can end every life and discharge every obligation by driving time past the deadlines; the drain checks it and fails on a mutant that strands a life.",
  },
  {
    item: "A-12",
    title: "Housekeeping: D-042's citation, the dormant fail-safe, 'admissible'",
    protocol: "several",
    status: "corrected",
    decisions: ["D-063", "D-042"],
    golden: [SAMSARA],
    mutants: ["J-4.reinforcing-declares-fail-safe"],
    firstFails: {
      "J-4.reinforcing-declares-fail-safe":
        "the first world view that holds a reinforcing obligation (session-schema's final query), before the D-063 query of session-decisions-samsara",
    },
    summary:
      "A reinforcing obligation's fail_safe is null (corrective = the custody protocol's admissible); 'admissible' keeps the custody meaning; D-042 now says the protocol's validator rejects duplicates and the kit follows it.",
  },
];
