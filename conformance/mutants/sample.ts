/**
 * Which mutants the default test run checks one by one.
 *
 * Checking every mutant of properties/mutants/catalog.ts is a campaign with scripts of its own:
 * `npm run mutants` (the kill matrix over the wire, which writes reports/mutants.md) and
 * `npm run mutants:check` (every mutant in process and every wire mutant against the wire golden
 * session). The default `npm test` must stay within its budget of about five minutes on two cores,
 * so there it checks every hand-written mutant (at least one per invariant) and a fixed sample of
 * the spec-review mutants (one per family) and of the wire mutants. A fixed sample, not a rotating
 * one, so that a red run is replayed by running it again. MUTANTS=all checks every one.
 */
import type { Mutant } from "../../properties/mutants/catalog.ts";

export const ALL_MUTANTS = process.env["MUTANTS"] === "all";

/** Spec-review mutants checked in process by default: one per family (Janma, Samskara, Advaita, RIPA). */
export const REVIEW_SAMPLE: readonly string[] = [
  "G-27.birth-first-offered-entry",
  "S-1.guidance-length-in-utf16-units",
  "G-31.discharged-ids-reusable",
  "G-53.pause-keeps-attempt",
];

/** Wire mutants replayed against the wire golden session by default: framing, ids, handshake. */
export const WIRE_SAMPLE: readonly string[] = [
  "G-8.duplicate-names-last-wins",
  "G-14.ids-compared-as-text",
  "G-20.refused-hello-handshakes",
];

/** `mutants` when MUTANTS=all, else those of them whose id is in `sample`. */
export const sampled = (mutants: readonly Mutant[], sample: readonly string[]): readonly Mutant[] =>
  ALL_MUTANTS ? mutants : mutants.filter((m) => sample.includes(m.id));

/** Those of `mutants` that `sampled` leaves out (shown as skipped tests, so the run says what it did not check). */
export const notSampled = (mutants: readonly Mutant[], sample: readonly string[]): readonly Mutant[] =>
  ALL_MUTANTS ? [] : mutants.filter((m) => !sample.includes(m.id));
