/**
 * Spec review 1 (../shared/reviews/spec-review-1.md), the RIPA items G-33 … G-43 that concern
 * providers, descent and migration (OP-5, OP-6, OP-7). Golden lines "G-xx.n" are in
 * conformance/golden/session-decisions-ripa.jsonl (script: conformance/golden/scripts/ripa.ts);
 * mutants are in properties/mutants/catalog.ts; the generator's coverage of each situation is
 * counted in properties/generators/ripa-situations.test.ts. `golden` names only sessions whose lines
 * carry the item id; lines of the generated sessions that also pin an item are cited in the summary
 * (their numbers move whenever the generator changes). A scripted line a summary cites ("G-33.6")
 * must exist in the row's sessions (conformance/review.test.ts).
 */
import type { ReviewRow } from "./types.ts";

const SCRIPTED = "session-decisions-ripa";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-33",
    status: "decided",
    where: ["OP-5.1", "OP-5.2", "OP-7.3", "OP-7.6"],
    summary:
      "A provider grant's capabilities are a set wherever an agent holds or shows it (mint, descend, validate's target, the providers resume installs): sorted ascending, duplicates removed; providers are sorted by provider_id. " +
      "A provider id listed twice in one command is DUPLICATE_ID (OP-5.1, OP-7.3), checked after AD-1 at mint; never merged, never last-wins, and not a schema (MALFORMED) rule. " +
      "Finding: the review kept capability lists as given; the kit differs (before this change the kit also kept them as given, unpinned). " +
      "Lines G-33.1 (unsorted providers, unsorted and repeated capabilities), G-33.2 (a provider id twice), G-33.3 (a used root and a provider id twice: AD-1 first) and the world query G-33.6 right after them (providers sorted, capabilities as sets).",
    golden: [SCRIPTED],
    mutants: ["G-33.capabilities-as-given", "G-33.providers-in-given-order", "G-33.duplicate-provider-last-wins"],
  },
  {
    item: "G-34",
    status: "decided",
    where: ["OP-5.1", "OP-6", "OP-6.11", "D-026"],
    summary:
      "The authority_token a mint or descend installs counts as used by the new agent: a later restart, migration_fence or migration_resume with it is I4. Same reading as the review's. " +
      "Already pinned by the generated sessions (when the review was written: session-1 c164 and session-2 c293; after this branch's generator changes: session-1 c131 and session-2 c192, a fence with the install token rejected I4, and the lines after them); now also scripted lines G-34.7, G-34.8 (mint token) and G-34.57 (descend token), which do not move when the generator changes.",
    golden: [SCRIPTED],
    mutants: ["G-34.install-token-not-used"],
  },
  {
    item: "G-35",
    status: "decided",
    where: ["OP-6.11", "D-026", "D-030"],
    summary:
      "A descendant's body lineage is [the parent's current revision] (it may later evolve to a revision its parent held before); it has no surfaces and no replicas; token freshness is per agent, so its authority_token is not checked against the parent's tokens and the parent's used tokens are not inherited. " +
      "Same three readings as the review's; they were unpinned and are now pinned by lines G-35.52 (descend with a token the parent used), the world query G-35.53 right after it (the child's lineage, surfaces and replicas), G-35.54 (the child evolves to the parent's earlier revision), G-35.56 (the child restarts with the parent's current token) and G-35.58 (the child replicates the parent's replica id).",
    golden: [SCRIPTED],
    mutants: [
      "G-35.child-inherits-body-lineage",
      "G-35.child-inherits-surfaces",
      "G-35.child-inherits-replicas",
      "G-35.child-token-checked-against-parent",
    ],
  },
  {
    item: "G-36",
    status: "decided",
    where: ["OP-7.3", "OP-7.6", "OP-6.10"],
    summary:
      "Validate compares the target execution id with the migration's source_execution_id only: one of the agent's replicas may be the target (the migration promotes it), and at resume the promoted replica leaves the replica list, since it now holds the authority and a replica holds none. " +
      "Finding: the review allowed the replica target (as the kit does) but kept the replicas unchanged, which leaves the authority holder listed as a replica; the kit's model and implementation did the same before this change. Line G-36.20 (validate to the agent's only replica) and the world query G-36.24 right after resume (the promoted replica is not a replica); the agent has no surfaces and no other replica, so the G-37 readings leave that world as it is.",
    golden: [SCRIPTED],
    mutants: ["G-36.replica-target-refused", "G-36.promoted-replica-stays-replica"],
  },
  {
    item: "G-37",
    status: "decided",
    where: ["OP-7.4", "OP-7.6"],
    summary:
      "At resume the agent's surfaces are replaced wholesale by the migration's bound surfaces (a surface the bind did not name is unbound; none is merged by surface_id), and the replicas survive the migration, except a promoted target (G-36). " +
      "Same reading as the review's for surfaces and for the other replicas; it differs for a replica that is the target (G-36). Line G-37.37 (resume after binding one old and one new surface, on an agent with a replica that is not the target) and the world query G-37.38 right after it; the target is a fresh execution, so the G-36 reading leaves that world as it is.",
    golden: [SCRIPTED],
    mutants: ["G-37.surfaces-merged-by-id", "G-37.replicas-dropped-at-resume"],
  },
  {
    item: "G-38",
    status: "decided",
    where: ["OP-7"],
    summary:
      "A phase command after the fence, or a cancel, naming a migration that is not the one in progress is NOT_FOUND also when no migration is in progress at all, and when it names a completed or cancelled migration; I4 is only for a phase out of order of the migration in progress. Same reading as the review's. Lines G-38.39, G-38.40 (completed migration), G-38.45 (cancelled migration); the generated sessions' cancels of \"ghost\" with no migration.",
    golden: [SCRIPTED],
    mutants: ["G-38.no-migration-is-I4"],
  },
  {
    item: "G-40",
    status: "decided",
    where: ["OP-6.9"],
    summary:
      "Rebinding a surface replaces it with its labels: the old labels are not merged in, a label key the new binding does not give is gone. Same reading as the review's; now pinned by line G-40.13 and the world query G-40.14 right after it.",
    golden: [SCRIPTED],
    mutants: ["G-40.labels-merged"],
  },
  {
    item: "G-41",
    status: "no-gap",
    where: ["OP-7.6", "OP-0.4"],
    summary:
      "Unobservable, as the review says: quiescence (OP-0.4) refuses every command that could advance the epoch between fence and resume, so at resume the current generation always equals the bundle's source generation (the fence's), and max(current, source) + 1 equals either + 1. " +
      "OP-7.6 now says so; properties/generators/ripa-situations.test.ts checks the equality at every generated resume, so a change that let the two differ would fail there first.",
    golden: [],
    mutants: [],
    unpinned:
      "No command sequence can make the current generation differ from the bundle's source generation at resume, so no golden line or mutant can tell the readings apart.",
  },
  {
    item: "G-42",
    status: "no-gap",
    where: ["OP-7", "OP-7.7"],
    summary:
      "Clear as written (a cancel drops the marker only when it belongs to the cancelled migration; OP-7.7 now adds that an earlier, completed migration's marker is kept when the cancel comes before this migration's validate). It was unpinned; it is now pinned by line G-42.43 with the world query G-42.44 right after it, and by the generator cancelling early while a marker stands.",
    golden: [SCRIPTED],
    mutants: ["G-42.cancel-always-drops-marker"],
  },
  {
    item: "G-43",
    status: "no-gap",
    where: ["OP-2.6"],
    summary:
      "Clear as written (withdrawing a conceived, never-born instance is J-1), and pinned by the generated golden data (session-2 c220 when the review was written; session-1 c166 and session-2 c43 after this branch's generator changes) and by scripted line G-43.11, which does not move. No mutant of its own: the per-invariant J-1 checks and the Janma items cover withdraw.",
    golden: [SCRIPTED],
    mutants: [],
  },
];
