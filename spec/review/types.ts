/**
 * How each item of the first spec review (../shared/reviews/spec-review-1.md, items G-1 … G-54)
 * was closed. One row per item, written where the work was done; `spec/REVIEW-1.md` is generated
 * from the rows, and a test checks that every decided item is pinned by a golden line (request id
 * prefixed with the item id) and by a mutant tagged with the item id that the golden sessions and
 * the differential each kill.
 */
export type ReviewStatus =
  /** The documents were wrong or contradicted each other; they are corrected. */
  | "fixed"
  /** The documents were silent or ambiguous; a clause or decision now settles it. */
  | "decided"
  /** Argued to be no gap (clear as written, or unobservable); `summary` says why. */
  | "no-gap";

export interface ReviewRow {
  /** The review item, "G-1" … "G-54". */
  readonly item: `G-${number}`;
  readonly status: ReviewStatus;
  /** The clauses and decisions that now settle it: "ENC-2", "OP-4.1", "W-4", "D-041", … */
  readonly where: readonly string[];
  /** One or two sentences: what is now the rule, and where the review's reading differs from ours, say so. */
  readonly summary: string;
  /**
   * How it is pinned. `golden`: the golden session(s) holding a line whose request id starts with
   * the item id (e.g. "G-32.7"), or `wire` for the wire catalog / wire golden session. `mutants`:
   * ids in properties/mutants/catalog.ts tagged `review: item`. Empty lists only for `no-gap`, or
   * with `unpinned` saying why no check can tell the readings apart.
   */
  readonly golden: readonly string[];
  readonly mutants: readonly string[];
  readonly unpinned?: string;
}
