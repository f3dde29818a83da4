/**
 * The invariant catalog: the single source of truth for the 19 invariants of the kit.
 *
 * Everything else (generated docs, the error-code table, wire errors, reports) is derived
 * from this module; nothing re-types an invariant's statement elsewhere. Statements are
 * written in our own words; `source` cites the paper by title and section.
 */

/** The four protocol families. Samsara contributes three, RIPA one. */
import { CHECKS, opsRejectingWith } from "./checks.ts";
import type { InvariantId } from "./invariant-ids.ts";
import type { CommandOp } from "./schemas/commands.ts";

export const PROTOCOLS = ["janma", "samskara", "advaita", "ripa"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * What kind of property an invariant is, which tells a checker where to look:
 * - `state`: a predicate over one state;
 * - `transition`: a predicate over a (previous, next) pair of states;
 * - `history`: a predicate over a whole run (sequence of states and events).
 */
export const INVARIANT_KINDS = ["state", "transition", "history"] as const;
export type InvariantKind = (typeof INVARIANT_KINDS)[number];

// The ids alone live in invariant-ids.ts, which imports nothing: the check clauses (checks.ts) name
// them, and this catalog derives each invariant's operations from those clauses, so importing the
// ids from here would make checks.ts and catalog.ts import each other.
export { INVARIANT_IDS, type InvariantId } from "./invariant-ids.ts";

export interface PaperSource {
  readonly paper: "Samsara" | "RIPA";
  /** Full title, so citations never depend on a file name. */
  readonly title: string;
  /** Section title (and equation or table where useful). */
  readonly section: string;
}

/**
 * Operations that maintain an invariant by how they are defined rather than by a check that can
 * reject a command, and why (D-032: a rejection names the check that failed; these never fail).
 */
export interface ByConstruction {
  readonly ops: readonly string[];
  readonly note: string;
}

/** An invariant as written by hand; its guarded operations are derived (`Invariant`). */
interface InvariantEntry {
  readonly id: InvariantId;
  readonly protocol: Protocol;
  readonly name: string;
  readonly statement: string;
  readonly source: PaperSource;
  readonly errorCode: string;
  readonly kind: InvariantKind;
  readonly byConstruction?: ByConstruction;
}

export interface Invariant {
  readonly id: InvariantId;
  readonly protocol: Protocol;
  /** Short name in the papers' terms, with an English gloss. */
  readonly name: string;
  /** Normative statement, RFC 2119 keywords, our words. */
  readonly statement: string;
  readonly source: PaperSource;
  /**
   * The operations (wire `op` values) this invariant guards: those with a check clause that
   * rejects with its code (`rejectedBy`), then those that maintain it by construction. Derived
   * from spec/checks.ts, never written by hand, so it cannot drift from OPERATIONS.md (G-3).
   */
  readonly guards: readonly string[];
  /** The operations with a check that rejects with this invariant, in OPERATIONS.md order. */
  readonly rejectedBy: readonly string[];
  /** The ids of those checks (`OP-2.7.c10`), in order. */
  readonly checks: readonly string[];
  readonly byConstruction?: ByConstruction;
  /** Stable error code an implementation MUST return when it rejects because of this invariant. */
  readonly errorCode: string;
  readonly kind: InvariantKind;
}

const SAMSARA_TITLE =
  "Samsara: Born With It. Dispositional Continuity, Turnkey Instantiation, and Substrate Identity for Ephemeral Agent Instances";
const RIPA_TITLE = "Runtime-Independent Persistent Agents";

const samsara = (section: string): PaperSource => ({ paper: "Samsara", title: SAMSARA_TITLE, section });
const ripa = (section: string): PaperSource => ({ paper: "RIPA", title: RIPA_TITLE, section });

const ENTRIES: readonly InvariantEntry[] = [
  {
    id: "J-1",
    protocol: "janma",
    name: "Complete at birth (janma: birth)",
    statement:
      "An instance MUST NOT become READY until every dependency its manifest declares is resolved: the pinned store version exists and is not quarantined, every tool binding resolves to an offered tool, and every capability grant is grantable. An instance MUST NOT perform work before READY, and MUST NOT acquire any tool, capability or store content after birth.",
    source: samsara("Janma: Turnkey Instantiation; The Samsara Layer (lifecycle figure)"),
    errorCode: "JANMA_INCOMPLETE_AT_BIRTH",
    kind: "transition",
  },
  {
    id: "J-2",
    protocol: "janma",
    name: "Scoped capabilities",
    statement:
      "An act MUST use a tool that was bound at birth and a capability that the tool declares and the manifest grants; any other act MUST be rejected. The set of capabilities an instance holds MUST NOT grow after birth.",
    source: samsara("Janma: Turnkey Instantiation"),
    errorCode: "JANMA_CAPABILITY_OUT_OF_SCOPE",
    kind: "state",
  },
  {
    id: "J-3",
    protocol: "janma",
    name: "Bounded lifetime (ayus: lifespan)",
    statement:
      "Every instance MUST be withdrawn no later than its TTL, measured in logical ticks from birth, or as soon as one of its declared termination predicates holds, whichever comes first; predicates MUST be evaluated after every act. An act at or after the TTL deadline, or after withdrawal, MUST be rejected.",
    source: samsara("Janma: Turnkey Instantiation; Bounded Lifetimes"),
    errorCode: "JANMA_LIFETIME_EXCEEDED",
    byConstruction: {
      ops: ["janma.expire", "janma.act"],
      note: "`janma.expire` withdraws a ready or active instance once its TTL is reached (OP-2.5) and every accepted act evaluates the termination conditions (OP-2.3); the withdrawal is an effect, not a rejection",
    },
    kind: "history",
  },
  {
    id: "J-4",
    protocol: "janma",
    name: "One distillation at death (samhara: withdrawal)",
    statement:
      "Withdrawal, voluntary or forced, MUST lead to exactly one distillation obligation: never zero and never two. A corrective obligation MUST travel under custody and end applied, declined or escalated, with bounded retries before its deadline; a reinforcing obligation travels best-effort. Declined or escalated corrective obligations MUST apply the quarantine fail-safe to the store version the life was born from. Conceiving from a quarantined pin MUST be refused, and an instance MUST NOT dissolve before its obligation is discharged.",
    source: samsara("Janma: Turnkey Instantiation; Reference Implementation"),
    errorCode: "JANMA_DISTILLATION_OBLIGATION",
    kind: "history",
  },
  {
    id: "S-1",
    protocol: "samskara",
    name: "Only dispositions persist (samskara: latent impression)",
    statement:
      "A distillate MUST consist only of typed dispositions and the principal's satisfaction signal; any other field, such as an episode or trace, MUST be rejected by schema. Every persisted disposition MUST be authorised by the life's consent grant, and its guidance MUST NOT contain a run of four or more consecutive tokens of the life's trace. The episode trace MUST be destroyed when the distillate is accepted.",
    source: samsara("Samskara: Dispositional Continuity"),
    errorCode: "SAMSKARA_NON_DISPOSITIONAL",
    kind: "state",
  },
  {
    id: "S-2",
    protocol: "samskara",
    name: "Weights carry the principal's judgement (karma: action and fruit)",
    statement:
      "Each disposition's weight MUST take the sign of the principal's signal valence (zero when the valence is zero) and MUST NOT exceed the valence in magnitude. The signal MUST be computed under the satisfaction model the life's manifest declares (D-053). A signal with zero confidence MUST NOT back any weight: it is accepted only with valence zero and no dispositions, the distillate of a life without feedback (D-057). The distiller MUST NOT choose the sign itself.",
    source: samsara("Samskara: Dispositional Continuity; Limitations (S-2 is conformance here)"),
    errorCode: "SAMSKARA_WEIGHT_NOT_PRINCIPAL_SIGNED",
    kind: "state",
  },
  {
    id: "S-3",
    protocol: "samskara",
    name: "Append-only lineage",
    statement:
      "Every new store head MUST extend the previous chain by exactly the versions its merge created; no recorded version may be rewritten or removed, except through excision, and every excision MUST itself be appended to the lineage as an excision record.",
    source: samsara("Samskara: Dispositional Continuity; Unlearning by Replay"),
    errorCode: "SAMSKARA_LINEAGE_NOT_APPEND_ONLY",
    byConstruction: {
      ops: ["samskara.merge", "samskara.excise"],
      note: "a merge appends exactly the one version OP-1.6 computes, and an excision replaces the chain only by the OP-1.8 replay and appends its excision record (OP-4.2); no command is rejected with this code, and predicates and the differential check it on every step",
    },
    kind: "transition",
  },
  {
    id: "S-4",
    protocol: "samskara",
    name: "Deterministic replay",
    statement:
      "Replaying the recorded merge batches from the genesis version MUST reproduce every recorded version id and the head exactly, and the store MUST be able to attest this as a typed lineage-replay claim.",
    source: samsara("Samskara: Dispositional Continuity"),
    errorCode: "SAMSKARA_REPLAY_DIVERGED",
    byConstruction: {
      ops: ["samskara.merge", "samskara.excise"],
      note: "merge and excision build the chain by OP-1.6 and OP-1.8, the steps replay repeats, so a conforming store always replays; only `samskara.replay` (OP-4.3) checks it, and it fails only against a faulty implementation",
    },
    kind: "state",
  },
  {
    id: "S-5",
    protocol: "samskara",
    name: "Excisable lineage (unlearning by replay)",
    statement:
      "Excising distillates MUST re-derive the chain by replaying the recorded batches without them; the result MUST be bit-identical to the chain the remaining distillates would have produced. The excised content MUST be gone from the store, and an excision record carrying identifiers and digests only MUST be appended.",
    source: samsara("Unlearning by Replay"),
    errorCode: "SAMSKARA_EXCISION_INEXACT",
    byConstruction: {
      ops: ["samskara.excise"],
      note: "an excision is defined as the replay of the recorded batches without the excised distillates (OP-1.8), so its result is exact by definition; no command is rejected with this code, and predicates and the differential check it on every step",
    },
    kind: "transition",
  },
  {
    id: "AD-1",
    protocol: "advaita",
    name: "Single identity (advaita: non-dual)",
    statement:
      "An agent MUST have exactly one identity, computed as H(base digest || lineage root) from a lineage root that is unique; minting with a root already used MUST be rejected. The identity MUST remain unchanged across merges and excisions.",
    source: samsara("Advaita: Substrate Identity"),
    errorCode: "ADVAITA_IDENTITY_NOT_SINGLE",
    kind: "state",
  },
  {
    id: "AD-2",
    protocol: "advaita",
    name: "Projection statelessness",
    statement:
      "A projection (a running instance) MUST carry only its identity, nonce and manifest and hold no persistent state of its own; it MUST change the store only through its distillate at withdrawal. Every projection nonce MUST be unique within its identity.",
    source: samsara("Advaita: Substrate Identity"),
    errorCode: "ADVAITA_PROJECTION_STATEFUL",
    kind: "state",
  },
  {
    id: "AD-3",
    protocol: "advaita",
    name: "Convergent reconciliation",
    statement:
      "Merging the same set of distillates MUST produce the identical store state (and state digest) whatever the arrival order, batching or duplication; re-merging a distillate already merged MUST be a no-op, and a different distillate under an already-merged id MUST be rejected. Contested keys MUST be resolved by the decided deterministic rule. The store version (the head's version id) is identical only for the same batches in the same order, each batch in any internal order: different batchings of one set reach the same state through different chains (OP-1.2a, D-031). This is weaker than the paper's 'identical store version' for any two nodes, and equal to it for the paper's twins, which reconcile one batch under two input orders.",
    source: samsara("Advaita: Substrate Identity"),
    errorCode: "ADVAITA_RECONCILIATION_DIVERGED",
    byConstruction: {
      ops: ["samskara.merge"],
      note: "the store state depends only on the set of retained distillates (OP-1.2) and re-merging an applied obligation is a no-op (OP-4.1, D-008), so merges converge by definition; a reused distillate id is rejected when it is distilled (OP-2.7), never at merge",
    },
    kind: "history",
  },
  {
    id: "AD-4",
    protocol: "advaita",
    name: "Attribution preservation",
    statement:
      "Every action MUST be signed with (identity, nonce, manifest digest) and be traceable to the projection that took it; an action whose signature does not match its projection MUST be rejected. Every disposition in the store MUST be traceable to the distillates that contributed it.",
    source: samsara("Advaita: Substrate Identity"),
    errorCode: "ADVAITA_ATTRIBUTION_LOST",
    byConstruction: {
      ops: ["samskara.merge"],
      note: "every store entry lists its contributing distillate ids (OP-1.2), so merged dispositions stay attributed by definition; signatures are checked at act (OP-2.3) and distillate sources at distil (OP-2.7)",
    },
    kind: "state",
  },
  {
    id: "I1",
    protocol: "ripa",
    name: "Identity and lineage",
    statement:
      "A migration MUST preserve the installed identity version and its attributable lineage; the identity MAY change only through a governed identity update carrying a valid authorisation.",
    source: ripa("Section 4, Authorized Migration Protocol (I1); Section 2.2, equation (5)"),
    errorCode: "RIPA_IDENTITY_DISCONTINUOUS",
    kind: "transition",
  },
  {
    id: "I2",
    protocol: "ripa",
    name: "Memory ancestry",
    statement:
      "Memory and continuity-relevant workflow state (the samskara store chain and task ids included) MUST extend their recorded ancestry; they MUST NOT be silently reset or forked. Changes that do not extend it (an excision) are separately authorised memory repairs and MUST carry a valid authorisation.",
    source: ripa("Section 4 (I2); Section 2.2"),
    errorCode: "RIPA_MEMORY_ANCESTRY_BROKEN",
    kind: "transition",
  },
  {
    id: "I3",
    protocol: "ripa",
    name: "Body revision",
    statement:
      "The target MUST execute the same body revision as the source unless a separately governed evolution is declared; an import whose body revision does not match MUST be rejected, and an evolution MUST carry a valid authorisation.",
    source: ripa("Section 4 (I3); Section 2.2"),
    errorCode: "RIPA_BODY_MISMATCH",
    kind: "transition",
  },
  {
    id: "I4",
    protocol: "ripa",
    name: "Continuation authority",
    statement:
      "At most one execution MAY hold continuation authority. The authority epoch MUST advance at fence and at activation; effects under a stale epoch token, replies carrying a stale or revoked attempt nonce, work while quiesced, and any start of a fenced source MUST be rejected. A source MAY be rolled back only by an explicit decision that no target is active, and never after activation.",
    source: ripa("Section 4 (I4, authority and failure assumptions); Section 5.2, Authority realization"),
    errorCode: "RIPA_AUTHORITY_CONFLICT",
    kind: "state",
  },
  {
    id: "I5",
    protocol: "ripa",
    name: "Visible capability delta",
    statement:
      "Capability differences between source and target MUST be reported; a required capability the target does not grant MUST fail closed, an effect MUST NOT silently use a different provider, and a capability gained by the target MUST be authorised before it is used.",
    source: ripa("Section 4 (I5); Section 3.1; Section 7.3"),
    errorCode: "RIPA_CAPABILITY_UNDECLARED",
    kind: "state",
  },
  {
    id: "I6",
    protocol: "ripa",
    name: "Self-description",
    statement:
      "Execution, process, interaction-surface and deployment labels MUST remain environment metadata; no label MAY overwrite or stand in for the installed identity.",
    source: ripa("Section 4 (I6)"),
    errorCode: "RIPA_LABEL_OVERWRITES_IDENTITY",
    kind: "state",
  },
];

/** An entry with its guarded operations derived from the check clauses of spec/checks.ts. */
const derive = (e: InvariantEntry): Invariant => {
  const own = CHECKS.filter((c) => c.op !== null && c.targets.includes(e.id));
  const rejectedBy = opsRejectingWith(e.id);
  const extra = (e.byConstruction?.ops ?? []).filter((op) => !rejectedBy.includes(op as CommandOp));
  return { ...e, guards: [...rejectedBy, ...extra], rejectedBy, checks: own.map((c) => c.id) };
};

export const INVARIANTS: readonly Invariant[] = ENTRIES.map(derive);

const byId: ReadonlyMap<InvariantId, Invariant> = new Map(INVARIANTS.map((i) => [i.id, i]));

/** Look up an invariant by id; total over `InvariantId`. */
export const invariant = (id: InvariantId): Invariant => {
  const found = byId.get(id);
  if (found === undefined) throw new Error(`catalog is missing invariant ${id}`);
  return found;
};

export const isInvariantId = (s: string): s is InvariantId => byId.has(s as InvariantId);

/** The error code an implementation returns when rejecting for this invariant. */
export const errorCodeOf = (id: InvariantId): string => invariant(id).errorCode;
