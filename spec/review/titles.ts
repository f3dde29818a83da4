/**
 * The items of the first spec review (../shared/reviews/spec-review-1.md), each with a short title
 * in the review's words. The review numbers its items G-1 … G-54 with gaps: G-21, G-22 and
 * G-44 … G-46 do not occur in it.
 */
export const REVIEW_ITEMS = {
  "G-1": "ENC-2 escaping contradicts RFC 8785 and the vectors",
  "G-2": "ENC-7 vs OP-1.4/D-006/ENC-4: genesis version id and preimage key names",
  "G-3": "The catalog's guarded operations disagree with OPERATIONS.md",
  "G-4": "Normative text points at .ts files",
  "G-5": "zod refinements missing from the JSON Schemas",
  "G-6": "String lengths: code points vs UTF-16 units",
  "G-7": "Integral non-integer JSON numbers (1.0, 1e2)",
  "G-8": 'D-028 "a duplicate key"; duplicate member names',
  "G-9": "Lone surrogates (ENC-2)",
  "G-10": "D-010 tokeniser: Unicode version not pinned",
  "G-11": "W-4 row 7: `type` present but not a string",
  "G-12": "W-4 row 9 vs W-2.3: a command request without a `command` field",
  "G-13": "W-4 row 9 for queries: order and codes",
  "G-14": 'W-2.1: string id "1" vs integer 1',
  "G-15": "W-1.4 / W-1.2: line-length details",
  "G-16": 'W-1.2: "all-whitespace" undefined',
  "G-17": "W-1.5: depth of text that is not valid JSON",
  "G-18": "W-3.2 / W-4: INTERNAL definiteness",
  "G-19": "W-7.2: what excised content is grepped",
  "G-20": "W-5.1 / W-2.2: hello semantics",
  "G-23": "OP-4.1 merge: check order across several obligations",
  "G-24": "OP-4.1 store.merge_noop.obligation_ids: which ids",
  "G-25": "OP-4.1: a merge mixing applied and pending obligations",
  "G-26": "OP-1.9: momentum after excision",
  "G-27": "OP-2.2 birth: the same tool name offered twice",
  "G-28": "OP-2.3 / D-015: predicate semantics",
  "G-29": "OP-2.3: check order relative to TTL",
  "G-30": "OP-2.7 distil: strict schema includes the refinements; duplicate category_defaults rows",
  "G-31": 'OP-2.7 AD-3: "never been used"',
  "G-32": "OP-2.7 trace.destroyed.entries: entries or acts",
  "G-33": "OP-5.1 / OP-7.3 providers: order and duplicates of capabilities",
  "G-34": "OP-5.1 / OP-6.11 / D-026: does the mint or descend token count as used",
  "G-35": "OP-6.11 descend: the child's body lineage, surfaces, replicas, token freshness",
  "G-36": "OP-7.3 validate: may a replica's execution id be the target",
  "G-37": 'OP-7.6 resume: "surfaces become the target\'s"; do replicas survive',
  "G-38": "OP-7 NOT_FOUND: a phase command or cancel with no migration in progress",
  "G-39": "OP-4.2 / OP-7: scope of uniqueness of excision and migration ids",
  "G-40": "OP-6.9 bind_surface: replacing a surface replaces its labels",
  "G-41": "OP-7.6: max(current generation, bundle source generation) + 1",
  "G-42": "OP-7.7 cancel: drops the marker only when it belongs to the cancelled migration",
  "G-43": "OP-2.6 withdraw of a conceived instance → J-1",
  "G-47": "Lists whose order is written nowhere",
  "G-48": "Store state list orders",
  "G-49": "The paper's example disposition is refused verbatim, as S-1",
  "G-50": "What a token is (D-010)",
  "G-51": "Runs across trace entries",
  "G-52": '"Identical store version"',
  "G-53": "A dead worker's attempt can never be cancelled (liveness)",
  "G-54": "memory_extended in the migration report",
} as const;

export type ReviewItem = keyof typeof REVIEW_ITEMS;

/** Numbers in G-1 … G-54 that the review does not use. */
export const ABSENT_FROM_REVIEW: readonly string[] = ["G-21", "G-22", "G-44", "G-45", "G-46"];
