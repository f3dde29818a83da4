/**
 * How the Janma / Samskara / Advaita items of spec review 1 (../shared/reviews/spec-review-1.md,
 * G-23 … G-32, G-39, G-49 … G-52, and the section-G readings the generated golden sessions did not
 * pin) were closed. Every decided item is pinned by lines of the scripted golden session
 * `session-decisions-samsara` (conformance/golden/scripts/janma-samskara.ts; request ids "G-xx.n")
 * and by mutants tagged `review: "G-xx"` in properties/mutants/catalog.ts, which the golden
 * sessions and the differential each kill; properties/review-samsara.property.test.ts counts how
 * often the generator produces each situation.
 *
 * The section-G readings without an item number are filed under the nearest item: the excise check
 * order under G-39 (same clause, OP-4.2), distil's AD-4-before-S-2 order under G-30 (OP-2.7's check
 * order), the `tools_used` order under G-28 (OP-2.3), the D-007 final tie-break under G-52 (it is
 * what keeps AD-3's state independent of arrival order).
 */
import type { ReviewRow } from "./types.ts";

const SESSION = "session-decisions-samsara";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-23",
    status: "decided",
    where: ["OP-4.1"],
    summary:
      "A merge de-duplicates its list and looks every obligation up before any J-4 check, so a missing id listed with a declined obligation is NOT_FOUND whatever the order (the review's guess, now written). Which of several J-4 failures is examined first is unobservable: the code and invariant are the same.",
    golden: [SESSION],
    mutants: ["G-23.merge-j4-before-all-exist"],
  },
  {
    item: "G-24",
    status: "decided",
    where: ["OP-4.1"],
    summary:
      "store.merge_noop lists every named obligation id, de-duplicated and sorted (all of them are already applied, or the merge would not be a no-op); the review's guess. The generator now redelivers applied obligations out of order and repeated, which the given-order reading fails.",
    golden: [SESSION],
    mutants: ["G-24.merge-noop-lists-given-ids"],
  },
  {
    item: "G-25",
    status: "decided",
    where: ["OP-4.1"],
    summary:
      "In a merge that mixes applied and pending obligations the applied ones are skipped silently: store.merged.added and the custody.discharged events name only the newly applied ones (the review's guess).",
    golden: [SESSION],
    mutants: ["G-25.merge-redischarges-applied"],
  },
  {
    item: "G-26",
    status: "decided",
    where: ["OP-1.9"],
    summary:
      "Karmic momentum is recomputed over the re-derived chain after an excision: the store view's momentum is what a store that never merged the excised distillates would show, not a log of past merges (the review's reading, now stated). The scripted session excises a distillate from the first batch and from a middle one; the world query G-26.104 right after the excision shows the recomputed values (the generated sessions' final views show them too).",
    golden: [SESSION],
    mutants: ["G-26.momentum-never-rewritten"],
  },
  {
    item: "G-27",
    status: "decided",
    where: ["OP-2.2"],
    summary:
      "A tool binding resolves against one offered entry that has all of its capabilities: a tool offered twice is fine when some entry suffices, even if the first entry with that name does not, and the capabilities of two partial entries are not united. The review's 'some offered entry with that name suffices' is read in this sense; a first-match reading is refused.",
    golden: [SESSION],
    mutants: ["G-27.birth-first-offered-entry"],
  },
  {
    item: "G-28",
    status: "decided",
    where: ["OP-2.3", "D-015"],
    summary:
      "Predicates see the counters after the current act: ticks_since_birth_at_least n fires at now − born_tick = n; tool_used includes the current act's tool; acts_at_least counts accepted acts only (the review's natural reading). Also settles the section-G reading 'tools_used order': the view lists tools_used sorted, not in order of use (the world query G-28.15, after an instance used search, then mail).",
    golden: [SESSION],
    mutants: ["G-28.ticks-since-birth-strict", "G-28.tools-used-in-order-of-use"],
  },
  {
    item: "G-29",
    status: "no-gap",
    where: ["OP-2.3"],
    summary:
      "Clear as written: the signature check (AD-4) precedes the TTL check (J-3), so a forged act after the deadline is AD-4. The generated sessions already pinned it (acts rejected AD-4 past their TTL); the scripted session adds a forged and a well-signed act at the deadline, and a mutant that checks the TTL first is killed by both hunts.",
    golden: [SESSION],
    mutants: ["G-29.act-ttl-before-signature"],
  },
  {
    item: "G-30",
    status: "decided",
    where: ["OP-2.7", "D-028"],
    summary:
      "The strict SamskaraDistillate parse includes the refinement 'one disposition per key', so a duplicate key is S-1, not 'first disposition wins' (the review's reading). Also settles the section-G reading 'distil S-2 vs AD-4 order': attribution (AD-4) is checked before every signal check, so a foreign distillate with zero confidence is AD-4. The duplicate-key line that tells the readings apart, G-30.16 in session-schema, comes before G-5's: its second disposition repeats the trace, so 'first wins' accepts it while a reading that skips the rule altogether (G-5) still refuses it for leakage. The duplicate category_defaults part of G-30 is closed by another row.",
    golden: [SESSION, "session-schema"],
    mutants: ["G-30.distil-signal-before-attribution", "G-30.duplicate-key-first-wins"],
  },
  {
    item: "G-31",
    status: "no-gap",
    where: ["OP-2.7", "D-008"],
    summary:
      "Clear as the review read it, now spelled out: a distillate id whose obligation was discharged declined, escalated or best_effort (content dropped) stays used, and reusing it is AD-3.",
    golden: [SESSION],
    mutants: ["G-31.discharged-ids-reusable"],
  },
  {
    item: "G-32",
    status: "decided",
    where: ["OP-2.7"],
    summary:
      "trace.destroyed.entries counts trace entries (strings), not acts (the review's reading). Generated acts now carry one to three entries, so the two readings differ in most distillations.",
    golden: [SESSION],
    mutants: ["G-32.trace-destroyed-counts-acts"],
  },
  {
    item: "G-39",
    status: "decided",
    where: ["OP-4.2"],
    summary:
      "Excision ids are unique per agent (the review's choice): two agents may both use x-1. Also settles the section-G reading 'excise check order': the id is checked before the authorisation, so a reused id with a non-custodian's authorisation is DUPLICATE_ID, not I2. The store profile now mints a neighbour agent so the per-world reading shows in a one-agent profile.",
    golden: [SESSION],
    mutants: ["G-39.excise-authorisation-first", "G-39.excision-id-unique-per-world"],
  },
  {
    item: "G-49",
    status: "decided",
    where: ["OP-2.7", "D-001", "D-004", "D-028"],
    summary:
      "Finding, the kit keeps its reading: the paper's example disposition copied verbatim (weight +0.9, a 12-hex-digit digest) stays an S-1 rejection, because the schema is where S-1 is enforced and a format the kit cannot hash exactly must not persist; the review suggests this misnames a number format as an 'only dispositions persist' violation. OP-2.7 now says so where the reader meets the distillate, and the rejection names the field through its path and says in its message which format is wanted (integer millionths, D-001; a full sha256 digest, D-004). Line G-49.15 of session-schema is the first distillate of the golden sessions to fail its schema, so the MALFORMED reading fails there before any other schema failure.",
    golden: [SESSION, "session-schema"],
    mutants: ["G-49.distillate-format-malformed"],
  },
  {
    item: "G-50",
    status: "decided",
    where: ["D-010", "OP-2.7"],
    summary:
      "Finding, stricter than the paper's words: `_` separates tokens, so traveler_profile: PII_x7k2m9q4 (four tokens) and two canaries together are refused, while one canary (two tokens) passes as the paper's limitation says. Treating `_` as a word character would let any snake_case string carry a whole trace run as one token; the paper's 'short identifiers pass by construction' is read as a limitation it reports, not a promise.",
    golden: [SESSION],
    mutants: ["G-50.underscore-joins-tokens"],
  },
  {
    item: "G-51",
    status: "fixed",
    where: ["D-010", "OP-2.7"],
    summary:
      "Behaviour changed in model and implementation: the trace is one token sequence and a 4-token run may span two entries, as the paper's 'any run of four or more tokens from the trace' says; the verdict no longer depends on how a harness splits an episode into entries. The kit's former reading (runs inside one entry) is what the review's implementer followed, so an implementation built from the old D-010 now fails the G-51 golden lines.",
    golden: [SESSION],
    mutants: ["G-51.runs-within-one-entry"],
  },
  {
    item: "G-52",
    status: "decided",
    where: ["AD-3", "OP-1.2", "OP-1.2a", "D-031", "D-007"],
    summary:
      "AD-3's statement and OP-1.2a now state the weaker promise: the same set gives the same state and state digest for any order, batching or duplication, but the same head only for the same batches (the paper's twins reconcile one batch under two input orders, which holds exactly). A world cannot hold two stores with one genesis (roots are unique), so that part is pinned by properties/merge.property.test.ts, not by a session. Also settles the section-G reading 'D-007 final tie-break': the smallest distillate id leads, pinned by a merge whose version id binds the state.",
    golden: [SESSION],
    mutants: ["G-52.tie-break-largest-id"],
  },
];
