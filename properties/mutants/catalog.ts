/**
 * Mutants of the implementation, at least one per invariant (J-1 .. I6). Each is a small source
 * patch that breaks exactly one rule of the spec: a guard removed, an effect altered, a decided
 * reading replaced by the one the kit decided against. The kit's checks are worth something only
 * if they kill every one of them (conformance/mutants/in-process.test.ts; the wire mutants in
 * conformance/mutants/wire.test.ts; over the wire, the kill matrix of npm run mutants): the
 * model-versus-implementation differential and the golden transcripts must notice each mutant,
 * and the unpatched copy must pass, so a kill is never an artefact of the harness.
 *
 * A patch names a file under impl/, a text that must occur there exactly once, and its replacement;
 * if the implementation changes so that the text no longer occurs, the mutant fails loudly and
 * must be updated.
 *
 * Labels come from the spec, never from a run: `invariant`, `clause` and `why` say which rule the
 * patch breaks and whose rule it is, decided from spec/*.md, spec/checks.json and spec/REVIEW-1.md
 * alone. The kill matrix then measures whether the runner's attribution (D-035) lands on that
 * invariant, and reports a mutant killed under another invariant as a finding with its reason
 * (conformance/mutants/matrix.ts); a label is never edited to match it. How a label is decided:
 *
 * - a check weakened or removed (the mutant accepts what the check rejects): the check's invariant,
 *   and the check is the clause (OP-2.2.c6);
 * - another outcome decides where the spec's check decides (an order, a scope or a code changed):
 *   the invariant of the spec's deciding check (G-29: OP-2.3.c5, AD-4, loses to the TTL check); if
 *   that check has a generic code (NOT_FOUND, DUPLICATE_ID, MALFORMED), the invariant the mutant's
 *   wrong rejection claims (G-38: a misapplied I4); if neither side names one, the invariant whose
 *   state the rule protects, as the clause or its D-record says (G-33: provider grants, I5);
 * - an effect, event or view changed: the invariant that owns the field, as the invariant's
 *   statement or the clause's D-record says (G-32: the trace destruction is S-1's); the clause is
 *   the operation's or the store algebra's (OP-2.7, OP-1.9) or the D-record that decided it;
 * - a wire mutant breaks a rule of spec/wire/PROTOCOL.md, not an invariant: invariant null, and
 *   the W rule is the clause.
 *
 * properties/mutants/labels.lock.json records each label with a digest of its `why`;
 * properties/mutants/labels.test.ts fails when an invariant or clause changes while the `why`
 * stays the same (refresh with `npx tsx properties/mutants/lock-labels.ts`, which refuses such a
 * change too).
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { GenProfile } from "../generators/commands.ts";

export interface Mutant {
  readonly id: string;
  /**
   * The invariant the mutant breaks; null for a mutant of the wire layer (impl/wire), which breaks
   * a rule of spec/wire/PROTOCOL.md and no invariant, as a wire finding has `invariant: null`. The
   * in-process golden sessions and the differential never see the wire: such a mutant is killed by
   * the wire golden session replayed against its process (conformance/mutants/wire.test.ts).
   */
  readonly invariant: InvariantId | null;
  readonly description: string;
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  /**
   * The spec-review item (e.g. "G-32", ../shared/reviews/spec-review-1.md) whose decided reading
   * this mutant takes the other side of; absent for the per-invariant mutants.
   */
  readonly review?: string;
  /**
   * The generator profile whose runs reach the situation this mutant breaks; the differential hunts
   * that profile first (default: store, then mixed). A RIPA mutant can only be reached by the mixed
   * profile, and hunting it through the whole store-profile budget first costs half a minute.
   */
  readonly profile?: GenProfile;
}

/** A catalog entry: a mutant with the rule it breaks, decided from the spec (see above). */
export interface LabelledMutant extends Mutant {
  /**
   * The rule the patch breaks: a check id of spec/checks.json (OP-2.7.c9), an operation or store
   * clause of spec/OPERATIONS.md (OP-2.7, OP-1.9, OP-7.c1), a decision of spec/DECISIONS.md (D-042)
   * or, for a wire mutant, a W rule of spec/wire/PROTOCOL.md (W-1.8).
   */
  readonly clause: string;
  /** One line: why that rule and that invariant (it names both). */
  readonly why: string;
  /**
   * Set for the mutants written to check D-035 rule (2)'s field owners: each changes one field of
   * the world view and nothing a reply shows at that step. Checked over the wire by the kill
   * matrix; in process only with MUTANTS=all (conformance/mutants/in-process.test.ts).
   */
  readonly fieldOwner?: true;
}

export const MUTANTS: readonly LabelledMutant[] = [
  {
    id: "J-1.birth-ignores-unresolved-tool",
    invariant: "J-1",
    clause: "OP-2.2.c6",
    why: "removes OP-2.2.c6, which rejects with J-1 a birth whose tool binding names no offered tool",
    description: "birth succeeds although a bound tool is not offered",
    file: "impl/core/ops/janma.ts",
    find: 'if (!offered)\n      violates("J-1"',
    replace: 'if (false as boolean) violates("J-1"',
  },
  {
    id: "J-2.act-without-covering-grant",
    invariant: "J-2",
    clause: "OP-2.3.c7",
    why: "removes the grant test of OP-2.3.c7, which rejects with J-2 an act no held grant covers",
    description: "an act is accepted although no held grant covers its capability",
    file: "impl/core/ops/janma.ts",
    find: "if (!inst.grants.some((g) => grantCovers(g, s.action.capability))) {",
    replace: "if (!inst.grants.some((g) => grantCovers(g, s.action.capability)) && (false as boolean)) {",
  },
  {
    id: "J-3.act-after-ttl",
    invariant: "J-3",
    clause: "OP-2.3.c6",
    why: "moves OP-2.3.c6's deadline, which rejects with J-3 an act at or after born_tick + ttl_ticks",
    description: "acts are accepted at or after the TTL deadline",
    file: "impl/core/ops/janma.ts",
    find: "if (cmd.tick >= bornTick + m.ttl_ticks) violates(",
    replace: "if (cmd.tick >= bornTick + m.ttl_ticks + 1_000_000) violates(",
  },
  {
    id: "J-4.dissolve-before-discharge",
    invariant: "J-4",
    clause: "OP-2.8.c3",
    why: "drops the discharge test of OP-2.8.c3, which rejects with J-4 a dissolution before the obligation is discharged",
    description: "an instance dissolves while its obligation is still pending",
    file: "impl/core/ops/janma.ts",
    find: 'if (ob === undefined || ob.status !== "discharged")\n    violates("J-4"',
    replace: 'if (ob === undefined) violates("J-4"',
  },
  {
    id: "S-1.no-leakage-check",
    invariant: "S-1",
    clause: "OP-2.7.c9",
    why: "removes OP-2.7.c9, which rejects with S-1 a guidance leaking 4 consecutive trace tokens",
    description: "guidance that repeats four trace tokens is persisted",
    file: "impl/core/ops/distil.ts",
    find: "if (runs.leaks(disp.guidance))\n      violates(",
    replace: "if (runs.leaks(disp.guidance) && (false as boolean)) violates(",
  },
  {
    id: "S-1.trace-kept-after-distillation",
    invariant: "S-1",
    clause: "OP-2.7",
    why: "breaks OP-2.7's effect that destroys the trace when the distillate is accepted; S-1 says the trace MUST be destroyed then (D-029)",
    description: "the episode trace survives distillation",
    file: "impl/core/ops/distil.ts",
    find: "inst.trace = []; // S-1 (D-029)",
    replace: "void inst.trace; // S-1 (D-029)",
  },
  {
    id: "S-2.sign-not-checked",
    invariant: "S-2",
    clause: "OP-2.7.c7",
    why: "drops the sign test of OP-2.7.c7, which rejects with S-2 a weight whose sign is not the valence's",
    description: "a disposition may carry a weight of the opposite sign to the principal's valence",
    file: "impl/core/ops/distil.ts",
    find: "if (Math.sign(disp.weight) !== Math.sign(v) || Math.abs(disp.weight) > Math.abs(v)) {",
    replace: "if (Math.abs(disp.weight) > Math.abs(v)) {",
  },
  {
    id: "S-3.version-not-linked-to-head",
    invariant: "S-3",
    clause: "OP-1.6",
    why: "breaks OP-1.6's parent link (the new version's parent is the head); S-3: every new head MUST extend the previous chain",
    description: "a new version names the genesis, not the previous head, as its parent",
    file: "impl/core/store.ts",
    find: "const parent = this.head();",
    replace: "const parent = this.chain[0] as StoreVersion;",
  },
  {
    id: "S-4.replay-claim-miscounts",
    invariant: "S-4",
    clause: "OP-4.3",
    why: "breaks the lineage-replay claim of OP-4.3 (versions = chain length); S-4: the store MUST attest the replay as a typed claim",
    description: "the lineage-replay claim omits the genesis from its version count",
    file: "impl/core/ops/samskara.ts",
    find: "versions: chain.length,",
    replace: "versions: chain.length - 1,",
  },
  {
    id: "S-5.excision-keeps-empty-batches",
    invariant: "S-5",
    clause: "OP-1.8",
    why: "breaks OP-1.8's 'skip any batch left empty' (D-009); S-5: the re-derived chain MUST be the one the remaining distillates produce",
    description:
      "excision keeps a version for a batch left empty, so the chain differs from a store that never merged the forgotten lives",
    file: "impl/core/store.ts",
    find: "if (members.length > 0) fresh.mergeBatch(members);",
    replace: "fresh.mergeBatch(members);",
  },
  {
    id: "J-4.exhausted-corrective-stays-pending",
    invariant: "J-4",
    clause: "OP-3.1",
    why: "breaks OP-3.1's escalation at attempts = max_retries + 1 and its fail-safe; J-4: a corrective obligation ends with bounded retries",
    description: "a corrective obligation whose attempts are exhausted is never escalated, so no fail-safe applies",
    file: "impl/core/ops/custody.ts",
    find: "} else if (ob.attempts === ob.maxRetries + 1) {",
    replace: "} else if (ob.attempts === ob.maxRetries + 2) {",
  },
  {
    id: "J-4.declined-without-fail-safe",
    invariant: "J-4",
    clause: "OP-3.1",
    why: "breaks OP-3.1's fail-safe on a declined corrective obligation (D-019); J-4: declined or escalated obligations MUST quarantine the pin",
    description: "a declined corrective obligation does not quarantine the pin it was born from",
    file: "impl/core/ops/custody.ts",
    find: 'discharge(agent, ob, "declined", true, events);',
    replace: 'discharge(agent, ob, "declined", false, events);',
  },
  {
    // The pre-D-057 reading: OP-2.7.c6 refuses confidence 0 outright. The spec's deciding check is
    // OP-2.7.c6, which accepts the no-feedback distillate, so the label is its invariant, S-2 (the
    // catalog's rule for a changed outcome); the harm is that the life is stranded (J-4, D-062).
    // Killed by the golden line D-057.142 (session-decisions-samsara) and by D-062's drain
    // (properties/liveness-impl.test.ts), which finds the life stranded withdrawn.
    id: "S-2.no-feedback-distillate-refused",
    invariant: "S-2",
    clause: "OP-2.7.c6",
    why: "takes the reading D-057 decided against: OP-2.7.c6 (S-2) accepts a zero confidence with valence 0 and no dispositions, and the mutant refuses every zero-confidence signal, so a life without feedback never emits its obligation and never dissolves (J-4, D-062's drain)",
    description:
      "distillation refuses the no-feedback distillate (confidence 0, valence 0, no dispositions), so such a life stays withdrawn for ever",
    file: "impl/core/ops/distil.ts",
    find: "if (d.signal.confidence === 0 && d.signal.valence !== 0)\n    violates(",
    replace: "if (d.signal.confidence === 0) violates(",
  },
  // The readings decided against the adjacent protocols (D-053, D-058, D-060, D-063): each mutant
  // takes the reading the kit decided against and is killed by the golden lines pinned to it
  // (session-decisions-samsara, request ids D-0xx).
  {
    id: "S-2.signal-model-unchecked",
    invariant: "S-2",
    clause: "OP-2.7.c6",
    why: "drops OP-2.7.c6's satisfaction-model test (D-053), which rejects with S-2 a signal not computed under the model the principal's manifest declares",
    description:
      "a distillate whose signal names another satisfaction model than the manifest's (the distiller's own judgement) is accepted",
    file: "impl/core/ops/distil.ts",
    find: "if (d.signal.model_version !== inst.manifest.distillation_policy.satisfaction_model) {",
    replace:
      "if (d.signal.model_version !== inst.manifest.distillation_policy.satisfaction_model && (false as boolean)) {",
  },
  {
    id: "S-1.consent-reads-training-only",
    invariant: "S-1",
    clause: "OP-2.7.c8",
    why: "takes D-011's first reading, training alone, against D-058: OP-2.7.c8 rejects with S-1 a category whose storage sensitivity exceeds the ceiling",
    description:
      "a disposition whose category the principal refused to have stored, but allowed for training, persists",
    file: "impl/core/consent.ts",
    find: 'RANK[sensitivityOf(grant, category, "storage")] <= RANK[grant.persist_ceiling] &&',
    replace: "",
  },
  {
    id: "J-4.attempt-at-deadline",
    invariant: "J-4",
    clause: "OP-3.1.c3",
    why: "takes the inclusive bound D-060 decided against: OP-3.1.c3 rejects with J-4 a delivery attempt at the deadline tick, which belongs to custody.expire",
    description: "a custody attempt exactly at the deadline tick is accepted (and can escalate or discharge there)",
    file: "impl/core/ops/custody.ts",
    find: "if (cmd.tick >= ob.deadlineTick) violates(",
    replace: "if (cmd.tick > ob.deadlineTick) violates(",
  },
  {
    id: "J-4.merge-at-deadline",
    invariant: "J-4",
    clause: "OP-4.1.c4",
    why: "takes the inclusive bound D-060 decided against: OP-4.1.c4 rejects with J-4 a merge of a pending obligation at its deadline tick",
    description: "a pending obligation is merged (applied) exactly at its deadline tick",
    file: "impl/core/ops/samskara.ts",
    find: 'if (ob.status === "pending" && cmd.tick >= ob.deadlineTick)\n      violates(',
    replace: 'if (ob.status === "pending" && cmd.tick > ob.deadlineTick) violates(',
  },
  {
    id: "J-4.reinforcing-declares-fail-safe",
    invariant: "J-4",
    clause: "D-063",
    why: "breaks OP-2.7's effect that a reinforcing obligation declares no fail-safe (D-063); the obligation's fields are J-4's (one obligation per life, its custody and fail-safe)",
    description:
      "a reinforcing obligation shows the quarantine fail-safe in the world view, as if its lesson were under custody",
    file: "impl/core/views.ts",
    find: ': { ...common, kind: "reinforcing", fail_safe: null };',
    replace:
      ': ({ ...common, kind: "reinforcing", fail_safe: { action: "quarantine", store_version: o.bornFrom } } as unknown as DistillationObligation);',
  },
  {
    id: "J-4.reinforcing-always-best-effort",
    invariant: "J-4",
    clause: "OP-3.1",
    why: "takes the custody protocol's literal label, which D-061 decided against: OP-3.1 discharges a reinforcing obligation declined when the receiver declined; its outcome is J-4's (reported, never lost silently)",
    description:
      "a reinforcing obligation the receiver declined is reported best_effort, as if its one delivery had been lost",
    file: "impl/core/ops/custody.ts",
    find: 'discharge(agent, ob, cmd.ack === "declined" ? "declined" : "best_effort", false, events);',
    replace: 'discharge(agent, ob, "best_effort", false, events);',
  },
  {
    id: "S-5.excised-content-retained",
    invariant: "S-5",
    clause: "OP-1.8",
    why: "breaks OP-1.8's 'X's distillate content is deleted'; S-5: the excised content MUST be gone from the store",
    description: "excision re-derives the chain but keeps the forgotten distillates' content",
    file: "impl/core/store.ts",
    find: "for (const id of drop) this.retained.delete(id);",
    replace: "void drop;",
  },
  {
    id: "AD-3.lowest-weighted-leader",
    invariant: "AD-3",
    clause: "OP-1.2",
    why: "inverts OP-1.2's highest-weighted contributor (D-007, which refines AD-3): the decided deterministic rule for contested keys",
    description: "a merged key takes the guidance of the lowest-weighted contributor (D-007)",
    file: "impl/core/accumulator.ts",
    find: "if (sa !== sb) return sa > sb;",
    replace: "if (sa !== sb) return sa < sb;",
  },
  {
    id: "S-4.momentum-not-absolute",
    invariant: "S-4",
    clause: "OP-1.9",
    why: "breaks OP-1.9's |w_n - w_n-1| (D-023, which refines S-4)",
    description: "karmic momentum sums signed weight changes instead of their magnitudes (D-023)",
    file: "impl/core/store.ts",
    find: "kappa += Math.abs((this.keys.get(key) as KeyAccumulator).weight() - w0);",
    replace: "kappa += (this.keys.get(key) as KeyAccumulator).weight() - w0;",
  },
  {
    id: "AD-1.root-reuse",
    invariant: "AD-1",
    clause: "OP-5.1.c1",
    why: "removes OP-5.1.c1, which rejects with AD-1 a mint whose root was already used",
    description: "a lineage root may be used twice",
    file: "impl/core/ops/advaita.ts",
    find: 'if (world.rootsUsed.has(cmd.root)) violates("AD-1", `root ${cmd.root} was already used`, ["root"]);\n  const ids',
    replace: "const ids",
  },
  {
    id: "AD-2.nonce-reuse",
    invariant: "AD-2",
    clause: "OP-2.1.c3",
    why: "removes OP-2.1.c3, which rejects with AD-2 a conception reusing a projection nonce",
    description: "two projections may share a nonce",
    file: "impl/core/ops/janma.ts",
    find: 'if (agent.nonces.has(cmd.nonce))\n    violates("AD-2"',
    replace: 'if (false as boolean) violates("AD-2"',
  },
  {
    id: "AD-3.round-half-up",
    invariant: "AD-3",
    clause: "OP-1.2",
    why: "breaks OP-1.2's roundHalfEven (D-002, which refines AD-3)",
    description: "the per-key mean rounds ties away from zero instead of to even",
    file: "impl/core/rounding.ts",
    find: "(twiceRemainder === den && q % 2n === 1n)",
    replace: "(twiceRemainder === den)",
  },
  {
    id: "AD-3.contested-needs-two-negatives",
    invariant: "AD-3",
    clause: "OP-1.2",
    why: "breaks OP-1.2's contested(k) (D-007, which refines AD-3)",
    description: "a key counts as contested only with two negative contributors",
    file: "impl/core/accumulator.ts",
    find: "contested: this.positives > 0 && this.negatives > 0,",
    replace: "contested: this.positives > 0 && this.negatives > 1,",
  },
  {
    id: "AD-4.unsigned-act",
    invariant: "AD-4",
    clause: "OP-2.3.c5",
    why: "drops the signature recomputation of OP-2.3.c5, which rejects with AD-4 an act whose signature does not match",
    description: "an act whose signature does not recompute is accepted",
    file: "impl/core/ops/janma.ts",
    find: "s.action.tick !== cmd.tick ||\n    s.signature !== expected",
    replace: "s.action.tick !== cmd.tick",
  },
  {
    id: "I1.ungoverned-identity-update",
    invariant: "I1",
    clause: "OP-6.8.c2",
    why: "removes OP-6.8.c2, which rejects with I1 an identity update without a custodian's authorisation",
    description: "anyone may update the installed identity",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.isCustodian(cmd.authorization.custodian))\n    violates("I1"',
    replace: 'if (false as boolean) violates("I1"',
  },
  {
    id: "I2.unknown-task-resumes",
    invariant: "I2",
    clause: "OP-6.3.c2",
    why: "removes OP-6.3.c2, which rejects with I2 a resume of a task memory never recorded",
    description: "a task that memory never recorded can be resumed",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.taskIds.includes(taskId)) violates("I2"',
    replace: 'if (false as boolean) violates("I2"',
  },
  {
    id: "I3.ungoverned-evolution",
    invariant: "I3",
    clause: "OP-6.7.c2",
    why: "removes OP-6.7.c2, which rejects with I3 an evolution without a custodian's authorisation",
    description: "anyone may evolve the body",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.isCustodian(cmd.authorization.custodian))\n    violates("I3"',
    replace: 'if (false as boolean) violates("I3"',
  },
  {
    id: "I4.stale-token-effect",
    invariant: "I4",
    clause: "OP-6.6.c1",
    why: "drops the token test of OP-6.6.c1, which rejects with I4 an effect under a stale epoch token",
    description: "an effect under a stale epoch token is performed",
    file: "impl/core/ops/ripa.ts",
    find: "if (cmd.token !== agent.authority.token || cmd.execution_id !== agent.authority.holder) {",
    replace: "if (cmd.execution_id !== agent.authority.holder) {",
  },
  {
    id: "I5.provider-capability-not-checked",
    invariant: "I5",
    clause: "OP-6.6.c3",
    why: "removes OP-6.6.c3, which rejects with I5 an effect through a provider that does not grant its capability",
    description: "an effect goes through a provider that does not grant its capability",
    file: "impl/core/ops/ripa.ts",
    find: "if (!provider?.capabilities.includes(cmd.capability)) {",
    replace: "if (provider === undefined) {",
  },
  {
    id: "I6.reserved-labels-accepted",
    invariant: "I6",
    clause: "OP-6.9.c1",
    why: "removes OP-6.9.c1, which rejects with I6 a label whose key is reserved (TAB-2)",
    description: "a label may claim the identity",
    file: "impl/core/ops/ripa.ts",
    find: 'if ((RESERVED_LABEL_KEYS as readonly string[]).includes(key))\n      violates("I6"',
    replace: 'if ((RESERVED_LABEL_KEYS as readonly string[]).includes(key) && (false as boolean)) violates("I6"',
  },
  {
    // The spec's schemas (shared with the model) count code points; this implementation-only patch
    // takes the review's other reading by validating a copy in which every astral character is
    // two characters, i.e. it measures lengths in UTF-16 code units, as zod's .max() does.
    id: "S-1.guidance-length-in-utf16-units",
    invariant: "S-1",
    clause: "OP-2.7.c4",
    why: "takes the UTF-16 reading of the strict distillate parse of OP-2.7.c4 (D-041 counts code points), which rejects with S-1",
    review: "G-6",
    description:
      "a distillate's string bounds count UTF-16 code units: a guidance of 1000 astral characters is refused (D-041)",
    file: "impl/core/ops/distil.ts",
    find: "const parsed = SamskaraDistillate.safeParse(cmd.distillate);",
    replace:
      'const utf16 = SamskaraDistillate.safeParse(JSON.parse(JSON.stringify(cmd.distillate ?? null).replace(/[\\u{10000}-\\u{10FFFF}]/gu, "xx")));\n  const parsed = utf16.success ? SamskaraDistillate.safeParse(cmd.distillate) : utf16;',
  },
  {
    // What "a validator generated from the JSON Schemas" does without spec/json-schema/rules.json:
    // the one-disposition-per-key rule is not applied, so a key may contribute twice to a merge.
    id: "S-1.duplicate-disposition-keys-json-schema-only",
    invariant: "S-1",
    clause: "OP-2.7.c4",
    why: "skips the rules.json refinement 'one disposition per key' of OP-2.7.c4's strict parse, which rejects with S-1 (D-028)",
    review: "G-5",
    description:
      "a distillate carrying two dispositions for one key is accepted (the rule JSON Schema cannot express is skipped)",
    file: "impl/core/ops/distil.ts",
    find: "const parsed = SamskaraDistillate.safeParse(cmd.distillate);",
    replace: [
      "const strict = SamskaraDistillate.safeParse(cmd.distillate);",
      '  const onlyRule = !strict.success && strict.error.issues.every((i) => i.code === "custom" && i.path[0] === "dispositions" && i.path[2] === "key");',
      "  const parsed = onlyRule ? { success: true as const, data: cmd.distillate as never, error: undefined } : strict;",
    ].join("\n"),
  },
  {
    // The same "JSON Schemas alone" reading for the manifest: rules.json's
    // JanmaManifest.unique-termination-condition-ids is skipped, so two conditions may share an id.
    // Killed by line G-5.32 of session-schema; not tagged with G-5 because the generator never
    // repeats a condition id, so the differential cannot kill it (a tagged mutant must be killed by
    // both, conformance/mutants/in-process.test.ts); as a hand-written mutant either kill counts.
    id: "J-3.termination-condition-ids-json-schema-only",
    invariant: "J-3",
    clause: "OP-0.2.c1",
    why: "skips the rules.json rule 'no two termination conditions share an id' of OP-0.2.c1's schema check (MALFORMED), a rule that protects J-3: a withdrawal names the condition that fired by its id (OP-2.3, D-015)",
    description:
      "a manifest whose termination conditions share an id is conceived (the rule JSON Schema cannot express is skipped)",
    file: "impl/core/dispatch.ts",
    find: "const parsed = CommandSchema.safeParse(raw);",
    replace: [
      "const strict = CommandSchema.safeParse(raw);",
      '  const onlyRule = !strict.success && strict.error.issues.every((i) => i.code === "custom" && i.path[0] === "manifest" && i.path[1] === "termination_conditions" && i.path[3] === "id");',
      "  const parsed = onlyRule ? { success: true as const, data: raw as Command, error: undefined } : strict;",
    ].join("\n"),
  },
  {
    // The bundle manifest's task ids in memory order (OP-7.2, TAB-5, review G-47); sorting them, as
    // most id lists of the views are, changes the bundle digest of every migration whose tasks were
    // not started in sorted order. The id keeps its old prefix because spec/review names it.
    id: "I4.bundle-task-ids-sorted",
    invariant: "I2",
    clause: "OP-7.2",
    why: "breaks OP-7.2's bundle task_ids 'in memory order' (TAB-5); task ids are memory (I2 names them), and the bundle is the artefact validate checks for I2 (OP-7.3.c2)",
    review: "G-47",
    description: "the checkpoint bundle lists the task ids sorted instead of in memory order",
    file: "impl/core/ops/migration.ts",
    find: "task_ids: [...agent.taskIds],",
    replace: "task_ids: [...agent.taskIds].sort(),",
  },
  {
    // Also implementation-only: the shared ConsentGrant schema refuses the grant, so the patch
    // removes the repeated rows (keeping the first) before the command reaches it, which is what
    // "the first row wins" amounts to.
    id: "G-30.duplicate-default-rows-first-wins",
    invariant: "S-1",
    clause: "D-042",
    why: "accepts what D-042 (which refines S-1) makes MALFORMED, two default rows for one category, so the S-1 consent verdict of a later distillation depends on a tie-break",
    review: "G-30",
    description: "a consent grant with two default rows for one category is accepted, the first row winning (D-042)",
    file: "impl/core/dispatch.ts",
    find: "const parsed = CommandSchema.safeParse(raw);",
    replace: [
      "const m = (raw as { manifest?: { consent_scope?: { category_defaults?: unknown } } } | null)?.manifest;",
      "  const rows = m?.consent_scope?.category_defaults;",
      "  const seen = new Set<unknown>();",
      "  const kept = Array.isArray(rows) ? rows.filter((d: { category?: unknown } | null) => (seen.has(d?.category) ? false : (seen.add(d?.category), true))) : rows;",
      "  const parsed = CommandSchema.safeParse(Array.isArray(rows) ? { ...(raw as object), manifest: { ...m, consent_scope: { ...m?.consent_scope, category_defaults: kept } } } : raw);",
    ].join("\n"),
  },
  {
    id: "G-53.pause-keeps-attempt",
    invariant: "I4",
    clause: "OP-6.12",
    why: "breaks OP-6.12's effect that revokes the live attempt (D-046, which refines I4); I4: replies carrying a revoked attempt nonce MUST be rejected",
    review: "G-53",
    profile: "mixed",
    description:
      "a pause reports task.paused but the dead worker's attempt stays live, so its late reply is accepted and the fence stays refused",
    file: "impl/core/ops/recovery.ts",
    find: "  agent.liveAttempts.delete(cmd.task_id);\n",
    replace: "",
  },
  {
    id: "G-53.late-reply-accepted",
    invariant: "I4",
    clause: "OP-6.5.c2",
    why: "weakens OP-6.5.c2, which rejects with I4 a reply whose nonce is not the task's live attempt",
    review: "G-53",
    profile: "mixed",
    description:
      "a reply for an already used nonce is accepted while the task has no live attempt (a revoked attempt's late reply gets in before the next attempt)",
    file: "impl/core/ops/ripa.ts",
    find: "if (agent.liveAttempts.get(cmd.task_id) !== cmd.attempt_nonce) {",
    replace:
      "if (agent.liveAttempts.get(cmd.task_id) !== cmd.attempt_nonce && (agent.liveAttempts.has(cmd.task_id) || !agent.usedAttemptNonces.has(cmd.attempt_nonce))) {",
  },
  {
    // The reading the old flag name (memory_extended) claimed: resume extends memory with a
    // snapshot. Renaming the flag back instead would only make the reply schema-invalid, which the
    // runner reports as a protocol violation (inconclusive), not as the I2 question it is.
    id: "G-54.resume-extends-memory",
    invariant: "I2",
    clause: "OP-7.6",
    why: "breaks OP-7.6's 'the migration appends nothing to memory' (D-047, which refines I2)",
    review: "G-54",
    profile: "mixed",
    description:
      "resume appends a memory snapshot, as the old flag name memory_extended claimed, instead of carrying the ancestry over unchanged (D-047)",
    file: "impl/core/ops/migration.ts",
    find: "  agent.reports.push(report);",
    replace: '  agent.reports.push(report);\n  agent.extendMemory("task_start");',
  },
  // --- The wire layer: each takes the reading spec review 1 did not choose (W-1 … W-5, D-043, D-044) ---
  {
    id: "G-7.integral-float-not-an-integer",
    invariant: null,
    clause: "W-1.8",
    why: "W-1.8 (D-043): an integral number is that integer whatever its spelling",
    review: "G-7",
    description:
      "a number spelled with a fraction or an exponent (1.0, 1e2) or as -0 is kept as its spelling, not read as the integer it denotes",
    file: "impl/wire/server.ts",
    find: "msg = JSON.parse(text);",
    replace: String.raw`msg = JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g, (t) => (t.startsWith('"') || !/[.eE]|^-0$/.test(t) ? t : JSON.stringify(t))));`,
  },
  {
    // Python's json module refuses an integer literal of more than 4300 digits (int's string limit),
    // so an adapter built on it answers BAD_JSON where W-1.8 reads a number of any size.
    id: "G-7.long-integer-bad-json",
    invariant: null,
    clause: "W-1.8",
    why: "W-1.8 (D-043): a number is never BAD_JSON for its size; an integer literal of 5000 digits is a number, not an integer",
    review: "G-7",
    description:
      "a line holding an integer literal of more than 4300 digits is BAD_JSON (Python's int limit) instead of a number that is not an integer",
    file: "impl/wire/server.ts",
    find: "msg = JSON.parse(text);",
    replace: String.raw`if (/(?:^|[^\d."\\])-?\d{4301,}/.test(text)) throw new SyntaxError("Exceeds the limit (4300 digits) for integer string conversion");
      msg = JSON.parse(text);`,
  },
  {
    id: "G-8.duplicate-names-last-wins",
    invariant: null,
    clause: "W-1.8",
    why: "W-1.8 (D-044): a duplicate member name makes the line BAD_JSON",
    review: "G-8",
    description: "an object with a duplicate member name is accepted, the last value winning (JSON.parse's reading)",
    file: "impl/wire/strict-json.ts",
    find: "if (top.names.has(name)) {",
    replace: "if (top.names.has(name) && (false as boolean)) {",
  },
  {
    id: "G-9.lone-surrogates-accepted",
    invariant: null,
    clause: "W-1.8",
    why: "W-1.8 (D-044): a lone surrogate escape makes the line BAD_JSON",
    review: "G-9",
    description: "a string holding a lone surrogate escape is accepted (JSON.parse's reading) instead of BAD_JSON",
    file: "impl/wire/server.ts",
    find: 'if (defect !== null) return wireError(null, "BAD_JSON", defect.message);',
    replace:
      'if (defect !== null && defect.rule !== "lone-surrogate") return wireError(null, "BAD_JSON", defect.message);',
  },
  {
    id: "G-9.lone-surrogate-names-accepted",
    invariant: null,
    clause: "W-1.8",
    why: "W-1.8 (D-044): a lone surrogate escape in any string, a member name too, makes the line BAD_JSON",
    review: "G-9",
    description:
      "a lone surrogate escape in an object's member name is accepted (only values are checked), so the name reaches the envelope check as an unknown field",
    file: "impl/wire/strict-json.ts",
    find: '      const end = scanString(text, i);\n      if (typeof end !== "number") return end;\n      const top = stack.at(-1);',
    replace:
      '      const top = stack.at(-1);\n      const scanned = scanString(text, i);\n      const end = typeof scanned !== "number" && top !== undefined && top !== null && top.expectName ? text.indexOf(\'"\', i + 1) : scanned;\n      if (typeof end !== "number") return end;',
  },
  {
    id: "G-11.non-string-type-unknown-op",
    invariant: null,
    clause: "W-4.1",
    why: "W-4.1: a type present but not a string is BAD_REQUEST, only an unknown string is UNKNOWN_OP",
    review: "G-11",
    description: "a type that is present but not a string (5, null) is UNKNOWN_OP instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: 'if (typeof type !== "string")\n      return wireError(\n        id,\n        "BAD_REQUEST",\n        ',
    replace: 'if (type === undefined) return wireError(id, "BAD_REQUEST",',
  },
  {
    id: "G-12.missing-command-malformed",
    invariant: null,
    clause: "W-4.1",
    why: "W-4.1: an absent command field is BAD_REQUEST, a present one the operation's MALFORMED",
    review: "G-12",
    description:
      "a command request without its command field is MALFORMED (the operation's reading) instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: "command: z.unknown() });",
    replace: "command: z.unknown().optional() });",
  },
  {
    id: "G-13.unknown-name-after-parameters",
    invariant: null,
    clause: "W-4.1",
    why: "W-4.1: an unknown query name is UNKNOWN_OP before the parameters are checked",
    review: "G-13",
    description:
      "an unknown query name is noticed only after the parameters fail the Query schema, so it is BAD_REQUEST instead of UNKNOWN_OP",
    file: "impl/wire/server.ts",
    find: 'if (typeof name === "string" && !(QUERY_NAMES as readonly string[]).includes(name)) {',
    replace:
      'if ((false as boolean) && typeof name === "string" && !(QUERY_NAMES as readonly string[]).includes(name)) {',
  },
  {
    id: "G-13.query-parameters-malformed",
    invariant: null,
    clause: "W-4.1",
    why: "W-4.1: query parameters failing the Query schema are BAD_REQUEST, never MALFORMED",
    review: "G-13",
    description:
      "query parameters failing the Query schema are MALFORMED (by analogy with commands) instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: 'return wireError(id, "BAD_REQUEST", message, ["query", ...path]);',
    replace: 'return wireError(id, "MALFORMED" as WireErrorCode, message, ["query", ...path]);',
  },
  {
    id: "G-14.ids-compared-as-text",
    invariant: null,
    clause: "W-2.1",
    why: 'W-2.1: the string "1" and the integer 1 are different ids',
    review: "G-14",
    description: 'request ids are compared by their text, so the string "1" and the integer 1 collide',
    file: "impl/wire/server.ts",
    find: "if (!this.seenIds.add(id))",
    replace: "if (!this.seenIds.add(String(id)))",
  },
  {
    id: "G-15.cr-not-counted",
    invariant: null,
    clause: "W-1.4",
    why: "W-1.4: MAX_LINE_BYTES counts every byte before the \n, a trailing \r included",
    review: "G-15",
    description:
      "the line bound leaves a byte for a trailing \\r, so 1 MiB followed by \\r\\n is accepted instead of LINE_TOO_LONG",
    file: "impl/wire/framing.ts",
    find: "if (this.size + piece.length > this.maxLineBytes) {",
    replace: "if (this.size + piece.length > this.maxLineBytes + 1) {",
  },
  {
    id: "G-16.unicode-whitespace-ignored",
    invariant: null,
    clause: "W-1.9",
    why: "W-1.9: all-whitespace means JSON whitespace only",
    review: "G-16",
    description:
      "a line of Unicode White_Space (U+00A0, U+2028, U+3000...) is ignored like an empty line (String.prototype.trim) instead of BAD_JSON",
    file: "impl/wire/server.ts",
    find: "if (JSON_WHITESPACE_ONLY.test(text)) return null;",
    replace: 'if (text.trim() === "") return null;',
  },
  {
    id: "G-17.depth-only-on-valid-json",
    invariant: null,
    clause: "W-1.5",
    why: "W-1.5: depth is a lexical count over the line, valid JSON or not",
    review: "G-17",
    description:
      "nesting depth is judged only for text that parses, so an unclosed line 65 brackets deep is BAD_JSON instead of NESTING_TOO_DEEP",
    file: "impl/wire/server.ts",
    find: "if (nestsDeeperThan(text, MAX_NESTING_DEPTH))\n      return",
    replace:
      "if (nestsDeeperThan(text, MAX_NESTING_DEPTH) && (() => { try { JSON.parse(text); return true; } catch { return false; } })()) return",
  },
  {
    id: "G-20.unknown-settings-refused",
    invariant: null,
    clause: "W-5.3",
    why: "W-5.3 (and W-2.5): unknown settings keys are accepted and ignored",
    review: "G-20",
    description:
      "a hello whose settings hold keys version 1 does not define is refused with BAD_REQUEST instead of the keys being ignored",
    file: "impl/wire/server.ts",
    find: "const chosen = p.data.protocol_versions.find(",
    replace:
      'if (Object.keys(p.data.settings).length > 0) return wireError(id, "BAD_REQUEST", "unknown settings", ["settings"]);\n    const chosen = p.data.protocol_versions.find(',
  },
  {
    id: "G-20.refused-hello-handshakes",
    invariant: null,
    clause: "W-5.1",
    why: "W-5.1: a hello answered UNSUPPORTED_VERSION leaves the process un-handshaken",
    review: "G-20",
    description: "a hello refused with UNSUPPORTED_VERSION still completes the handshake",
    file: "impl/wire/server.ts",
    find: "if (chosen === undefined) {",
    replace: "if (chosen === undefined) {\n      this.handshaken = true;",
  },
  // Spec review 1, RIPA items (spec/review/ripa.ts): each takes the reading the kit rejected.
  {
    id: "G-33.capabilities-as-given",
    invariant: "I5",
    clause: "OP-5.2",
    why: "breaks OP-5.2 (provider grants are sets, sorted and de-duplicated); providers are I5's (D-025)",
    review: "G-33",
    description:
      "a provider's capabilities are kept in the order given, duplicates included, instead of as a sorted set",
    file: "impl/core/agent.ts",
    find: "capabilities: [...new Set(p.capabilities)].sort(),\n})",
    replace: "capabilities: [...p.capabilities] })",
  },
  {
    id: "G-33.providers-in-given-order",
    invariant: "I5",
    clause: "OP-5.2",
    why: "breaks OP-5.2 (providers sorted by provider_id); providers are I5's (D-025)",
    review: "G-33",
    description: "the agent's providers are shown in the order the mint listed them, not sorted by provider_id",
    file: "impl/core/views.ts",
    find: "providers: [...a.providers.values()].sort(byKey((p) => p.provider_id)),",
    replace: "providers: [...a.providers.values()],",
  },
  {
    id: "G-33.duplicate-provider-last-wins",
    invariant: "I5",
    clause: "OP-5.1.c2",
    why: "removes OP-5.1.c2 (provider ids unique, DUPLICATE_ID): the generic code protects the provider grants, I5's state, so two grants for one provider silently become one (no silent provider change, I5)",
    review: "G-33",
    description: "a mint listing one provider id twice is accepted and the last grant wins, instead of DUPLICATE_ID",
    file: "impl/core/ops/advaita.ts",
    find: 'if (ids.has(p.provider_id))\n      refuse("DUPLICATE_ID"',
    replace: 'if ((false as boolean) && ids.has(p.provider_id)) refuse("DUPLICATE_ID"',
  },
  {
    id: "G-34.install-token-not-used",
    invariant: "I4",
    clause: "OP-5.1",
    why: "breaks OP-5.1's 'authority_token is now a token the agent has used' (D-026, which refines I4); I4: a new epoch with a used token MUST be rejected",
    review: "G-34",
    profile: "mixed",
    description:
      "the authority token a mint or descend installs is not counted as used, so a later epoch may take it again",
    file: "impl/core/ops/advaita.ts",
    find: "agent.usedTokens.add(x.authorityToken);",
    replace: "void x.authorityToken;",
  },
  {
    id: "G-35.child-inherits-body-lineage",
    invariant: "I3",
    clause: "OP-6.11",
    why: "breaks OP-6.11 (a): the child's body lineage is [the parent's current revision]; the body is I3's",
    review: "G-35",
    profile: "mixed",
    description: "a descendant's body lineage is the parent's whole lineage instead of its current revision alone",
    file: "impl/core/ops/ripa.ts",
    find: 'events.push({ type: "agent.descended"',
    replace:
      'child.bodyLineage.splice(0, child.bodyLineage.length, ...agent.bodyLineage);\n  events.push({ type: "agent.descended"',
  },
  {
    id: "G-35.child-inherits-surfaces",
    invariant: "I6",
    clause: "OP-6.11",
    why: "breaks OP-6.11 (b): a child has no surfaces; surfaces and labels are I6's",
    review: "G-35",
    profile: "mixed",
    description: "a descendant starts with the parent's interaction surfaces",
    file: "impl/core/ops/ripa.ts",
    find: 'events.push({ type: "agent.descended"',
    replace: 'for (const [k, s] of agent.surfaces) child.surfaces.set(k, s);\n  events.push({ type: "agent.descended"',
  },
  {
    id: "G-35.child-inherits-replicas",
    invariant: "I4",
    clause: "OP-6.11",
    why: "breaks OP-6.11 (b): a child has no replicas; replicas are executions that hold no authority (OP-6.10), I4's",
    review: "G-35",
    profile: "mixed",
    description: "a descendant starts with the parent's replicas",
    file: "impl/core/ops/ripa.ts",
    find: 'events.push({ type: "agent.descended"',
    replace: 'for (const [k, r] of agent.replicas) child.replicas.set(k, r);\n  events.push({ type: "agent.descended"',
  },
  {
    id: "G-35.child-token-checked-against-parent",
    invariant: "I4",
    clause: "OP-6.11",
    why: "applies I4's token freshness across the family, where OP-6.11 (c) and D-026 make it per agent: a misapplied I4 rejection",
    review: "G-35",
    profile: "mixed",
    description: "descend refuses (I4) a child token that the parent has used, as if tokens were shared by the family",
    file: "impl/core/ops/ripa.ts",
    find: "const { agent: child, events } = install(world, {",
    replace:
      'if (agent.usedTokens.has(cmd.authority_token)) violates("I4", "token used by the parent");\n  const { agent: child, events } = install(world, {',
  },
  {
    id: "G-36.replica-target-refused",
    invariant: "I4",
    clause: "OP-7.3.c5",
    why: "widens OP-7.3.c5 (DUPLICATE_ID, source execution only) to the replicas: the reading concerns which execution may take continuation authority, I4's (OP-6.10, OP-7.6: the migration promotes a replica)",
    review: "G-36",
    profile: "mixed",
    description: "validate refuses (DUPLICATE_ID) a target execution that is one of the agent's replicas",
    file: "impl/core/ops/migration.ts",
    find: "if (t.execution.execution_id === m.sourceExecutionId) {",
    replace: "if (t.execution.execution_id === m.sourceExecutionId || agent.replicas.has(t.execution.execution_id)) {",
  },
  {
    id: "G-36.promoted-replica-stays-replica",
    invariant: "I4",
    clause: "OP-7.6",
    why: "breaks OP-7.6: a promoted replica leaves the replica list, since it now holds the authority and a replica holds none (I4)",
    review: "G-36",
    profile: "mixed",
    description: "a replica promoted to be the migration target stays in the replica list while it holds the authority",
    file: "impl/core/ops/migration.ts",
    find: "agent.replicas.delete(holder);",
    replace: "void holder;",
  },
  {
    id: "G-37.surfaces-merged-by-id",
    invariant: "I6",
    clause: "OP-7.6",
    why: "breaks OP-7.6: the surfaces are replaced wholesale by the bound ones; surfaces are I6's",
    review: "G-37",
    profile: "mixed",
    description: "resume adds or replaces the migration's surfaces by surface_id and keeps the source's other surfaces",
    file: "impl/core/ops/migration.ts",
    find: "agent.surfaces.clear();",
    replace: "void agent.surfaces;",
  },
  {
    id: "G-37.replicas-dropped-at-resume",
    invariant: "I4",
    clause: "OP-7.6",
    why: "breaks OP-7.6: the replicas survive a migration; replicas are executions that hold no authority (OP-6.10), I4's",
    review: "G-37",
    profile: "mixed",
    description: "resume drops every replica of the agent",
    file: "impl/core/ops/migration.ts",
    find: "agent.replicas.delete(holder);",
    replace: "agent.replicas.clear();",
  },
  {
    id: "G-38.no-migration-is-I4",
    invariant: "I4",
    clause: "OP-7.c1",
    why: "rejects with I4 what OP-7.c1 makes NOT_FOUND: OP-7 keeps I4 for a phase out of order of the migration in progress, so the mutant misapplies I4",
    review: "G-38",
    profile: "mixed",
    description:
      "a phase command or cancel when no migration is in progress is rejected as out of order (I4), not NOT_FOUND",
    file: "impl/core/ops/migration.ts",
    find: 'if (m === null || m.migrationId !== migrationId)\n    return refuse("NOT_FOUND"',
    replace:
      'if (m === null) return violates("I4", "no migration in progress");\n  if (m.migrationId !== migrationId) return refuse("NOT_FOUND"',
  },
  {
    id: "G-40.labels-merged",
    invariant: "I6",
    clause: "OP-6.9",
    why: "breaks OP-6.9: a rebound surface's labels are replaced, never merged; labels are I6's",
    review: "G-40",
    profile: "mixed",
    description: "rebinding a surface merges the new labels into the old ones instead of replacing them",
    file: "impl/core/ops/ripa.ts",
    find: "agent.surfaces.set(cmd.surface.surface_id, { surface: cmd.surface, labels: cmd.labels });",
    replace:
      "agent.surfaces.set(cmd.surface.surface_id, { surface: cmd.surface, labels: { ...agent.surfaces.get(cmd.surface.surface_id)?.labels, ...cmd.labels } });",
  },
  {
    id: "G-42.cancel-always-drops-marker",
    invariant: "I4",
    clause: "OP-7.7",
    why: "breaks OP-7.7: a cancel drops the marker only when it belongs to the cancelled migration; markers are I4's (OP-7, D-026)",
    review: "G-42",
    profile: "mixed",
    description: "cancel drops the target marker even when it belongs to an earlier, completed migration",
    file: "impl/core/ops/migration.ts",
    find: "if (agent.marker?.migration_id === m.migrationId) agent.marker = null;",
    replace: "agent.marker = null;",
  },
  // Spec review 1 (Janma / Samskara / Advaita): each mutant takes the reading the kit decided
  // against, so the golden script conformance/golden/scripts/janma-samskara.ts and the
  // differential must each tell it apart (spec/review/janma-samskara.ts).
  {
    id: "G-23.merge-j4-before-all-exist",
    invariant: "J-4",
    clause: "OP-4.1.c2",
    why: "runs OP-4.1.c3's J-4 test before OP-4.1.c2 has looked every obligation up, so J-4 is applied where NOT_FOUND decides: a misapplied J-4",
    review: "G-23",
    description:
      "merge examines each obligation in turn (existence, then J-4) instead of checking that all exist first",
    file: "impl/core/ops/samskara.ts",
    find: 'const obligations: Obligation[] = ids.map(\n    (id) => agent.obligations.touch(id) ?? refuse("NOT_FOUND", `no obligation ${id}`, ["obligation_ids"]), // for update\n  );',
    replace:
      'const obligations: Obligation[] = ids.map((id) => {\n    const ob = agent.obligations.touch(id) ?? refuse("NOT_FOUND", `no obligation ${id}`, ["obligation_ids"]);\n    if (ob.status === "discharged" && ob.outcome !== "applied") violates("J-4", "discharged");\n    if (ob.status === "pending" && cmd.tick > ob.deadlineTick) violates("J-4", "overdue");\n    return ob;\n  });',
  },
  {
    id: "G-24.merge-noop-lists-given-ids",
    invariant: "J-4",
    clause: "OP-4.1",
    why: "breaks OP-4.1's store.merge_noop obligation_ids (de-duplicated, sorted); the list names obligations, J-4's (D-008 keys apply-at-most-once on the obligation id)",
    review: "G-24",
    description: "a no-op merge lists the obligation ids as given (order and repetitions kept)",
    file: "impl/core/ops/samskara.ts",
    find: 'return [{ type: "store.merge_noop", obligation_ids: ids }];',
    replace: 'return [{ type: "store.merge_noop", obligation_ids: [...cmd.obligation_ids] }];',
  },
  {
    id: "G-25.merge-redischarges-applied",
    invariant: "J-4",
    clause: "OP-4.1",
    why: "breaks OP-4.1: custody.discharged names only the newly applied obligations; an obligation discharged twice breaks J-4's one discharge per obligation",
    review: "G-25",
    description:
      "a merge mixing applied and pending obligations reports custody.discharged for the skipped applied ones too",
    file: "impl/core/ops/samskara.ts",
    find: "for (const ob of pending) {",
    replace: "for (const ob of obligations) {",
  },
  {
    id: "G-26.momentum-never-rewritten",
    invariant: "S-5",
    clause: "OP-1.9",
    why: "breaks OP-1.9's sentence for excision: κ is recomputed over the re-derived chain, the list a store that never merged the excised lives would show, which is S-5's bit-identity promise",
    review: "G-26",
    description:
      "karmic momentum is an append-only log: excision keeps the old values and appends those of the re-derived batches",
    file: "impl/core/store.ts",
    find: "this.momentum.splice(from);",
    replace: "this.momentum.splice(from, 0);",
  },
  {
    id: "G-27.birth-first-offered-entry",
    invariant: "J-1",
    clause: "OP-2.2.c6",
    why: "narrows OP-2.2.c6 (J-1) to the first offered entry with the tool's name, so a birth the check accepts is rejected with J-1",
    review: "G-27",
    description: "a binding is resolved against the first offered entry with its tool name only",
    file: "impl/core/ops/janma.ts",
    find: "const offered = cmd.environment.tools.some(\n      (t) => t.tool === b.tool && b.capabilities.every((c) => t.capabilities.includes(c)),\n    );",
    replace:
      "const first = cmd.environment.tools.find((t) => t.tool === b.tool);\n    const offered = first !== undefined && b.capabilities.every((c) => first.capabilities.includes(c));",
  },
  {
    id: "G-28.ticks-since-birth-strict",
    invariant: "J-3",
    clause: "OP-2.3",
    why: "breaks OP-2.3's ticks_since_birth_at_least (the boundary fires, D-015, which refines J-3); J-3: withdrawn as soon as a predicate holds",
    review: "G-28",
    description: "ticks_since_birth_at_least n holds only when more than n ticks have passed",
    file: "impl/core/termination.ts",
    find: "return now - c.bornTick >= p.n;",
    replace: "return now - c.bornTick > p.n;",
  },
  {
    id: "G-28.tools-used-in-order-of-use",
    invariant: "J-3",
    clause: "OP-2.3",
    why: "breaks OP-2.3's tools_used (a set, listed sorted), the set the tool_used termination predicate reads (D-015, which refines J-3)",
    review: "G-28",
    description: "the instance view lists tools_used in order of first use instead of sorted",
    file: "impl/core/views.ts",
    find: "tools_used: [...i.toolsUsed].sort(compareCodeUnits),",
    replace: "tools_used: [...i.toolsUsed],",
  },
  {
    id: "G-29.act-ttl-before-signature",
    invariant: "AD-4",
    clause: "OP-2.3.c5",
    why: "lets OP-2.3.c6 (J-3) decide before OP-2.3.c5 (AD-4): a forged act past its deadline loses its AD-4 rejection (review G-29)",
    review: "G-29",
    description: "an act past its TTL is refused for the TTL (J-3) before its signature is checked (AD-4)",
    file: "impl/core/ops/janma.ts",
    find: "  const s = cmd.signed;\n",
    replace:
      '  const s = cmd.signed;\n  if (cmd.tick >= (inst.bornTick ?? 0) + inst.manifest.ttl_ticks) violates("J-3", "TTL deadline reached");\n',
  },
  {
    id: "G-30.distil-signal-before-attribution",
    invariant: "AD-4",
    clause: "OP-2.7.c5",
    why: "lets OP-2.7.c6 (S-2) decide before OP-2.7.c5 (AD-4): a foreign distillate with zero confidence loses its AD-4 rejection (review G-30)",
    review: "G-30",
    description: "distillation checks the zero-confidence signal (S-2) before the attribution (AD-4)",
    file: "impl/core/ops/distil.ts",
    find: "  const d = parsed.data;\n",
    replace:
      '  const d = parsed.data;\n  if (d.signal.confidence === 0) violates("S-2", "zero confidence", ["distillate", "signal", "confidence"]);\n',
  },
  {
    id: "G-30.duplicate-key-first-wins",
    invariant: "S-1",
    clause: "OP-2.7.c4",
    why: "keeps the first disposition of a repeated key where OP-2.7.c4's strict parse rejects with S-1",
    review: "G-30",
    description: "a distillate with two dispositions for one key is accepted, the first disposition of each key kept",
    file: "impl/core/ops/distil.ts",
    find: "const parsed = SamskaraDistillate.safeParse(cmd.distillate);",
    replace:
      "const raw = cmd.distillate as { dispositions?: unknown };\n  const parsed = SamskaraDistillate.safeParse(!Array.isArray(raw?.dispositions) ? raw : { ...raw, dispositions: raw.dispositions.filter((x: { key?: unknown }, i: number, all: { key?: unknown }[]) => all.findIndex((y) => y?.key === x?.key) === i) });",
  },
  {
    id: "G-31.discharged-ids-reusable",
    invariant: "AD-3",
    clause: "OP-2.7.c10",
    why: "narrows OP-2.7.c10, which rejects with AD-3 a distillate id ever used in the agent",
    review: "G-31",
    description: "a distillate id counts as used only while its obligation is pending or its distillate is retained",
    file: "impl/core/ops/distil.ts",
    find: "if (agent.distillateIds.has(d.distillate_id)) {",
    replace:
      'if (agent.store.retains(d.distillate_id) || [...agent.obligations.values()].some((o) => o.status === "pending" && o.distillateId === d.distillate_id)) {',
  },
  {
    id: "G-32.trace-destroyed-counts-acts",
    invariant: "S-1",
    clause: "OP-2.7",
    why: "breaks OP-2.7's trace.destroyed entries (trace entries, not acts), the report of the trace destruction S-1 requires (D-029)",
    review: "G-32",
    description: "trace.destroyed reports the number of acts instead of the number of trace entries",
    file: "impl/core/ops/distil.ts",
    find: "const destroyed = inst.trace.length;",
    replace: "const destroyed = inst.acts;",
  },
  {
    id: "G-39.excise-authorisation-first",
    invariant: "I2",
    clause: "OP-4.2.c2",
    why: "lets OP-4.2.c3 (I2) decide before OP-4.2.c2 (DUPLICATE_ID): a reused id with a non-custodian's authorisation gets a misapplied I2",
    review: "G-39",
    description: "excision checks the authorisation before the excision id's uniqueness",
    file: "impl/core/ops/samskara.ts",
    find: "if (agent.store.excisions.some((e) => e.excision_id === cmd.excision_id)) {",
    replace:
      'if (!agent.isCustodian(cmd.authorization.custodian)) violates("I2", "not a custodian", ["authorization"]);\n  if (agent.store.excisions.some((e) => e.excision_id === cmd.excision_id)) {',
  },
  {
    id: "G-39.excision-id-unique-per-world",
    invariant: "S-5",
    clause: "OP-4.2.c2",
    why: "widens OP-4.2.c2 (excision ids unique per agent) to the world, refusing an excision the spec accepts; excision is S-5's operation (unlearning by replay)",
    review: "G-39",
    description: "an excision id is refused when any agent of the world has used it",
    file: "impl/core/ops/samskara.ts",
    find: 'export const excise: Handler<"samskara.excise"> = (_world, cmd, agent) => {\n  requireNotQuiesced(agent, cmd.op); // I4\n  if (agent.store.excisions.some(',
    replace:
      'export const excise: Handler<"samskara.excise"> = (_world, cmd, agent) => {\n  requireNotQuiesced(agent, cmd.op); // I4\n  if ([..._world.agents.values()].some((a) => a.store.excisions.some((e) => e.excision_id === cmd.excision_id)) || agent.store.excisions.some(',
  },
  {
    id: "G-49.distillate-format-malformed",
    invariant: "S-1",
    clause: "OP-2.7.c4",
    why: "rejects with MALFORMED what OP-2.7.c4 rejects with S-1 (D-028: a malformed distillate is an S-1 rejection)",
    review: "G-49",
    description:
      "a distillate failing its schema (a decimal weight, an abbreviated digest) is MALFORMED instead of S-1",
    file: "impl/core/ops/distil.ts",
    find: 'return violates(\n      "S-1",\n      `distillate is not a strict SamskaraDistillate',
    replace: 'return refuse("MALFORMED", `distillate is not a strict SamskaraDistillate',
  },
  {
    id: "G-50.underscore-joins-tokens",
    invariant: "S-1",
    clause: "OP-2.7.c9",
    why: "changes D-010's tokens (`_` separates) under OP-2.7.c9, which rejects with S-1 a leaking guidance",
    review: "G-50",
    description: "the leakage tokeniser treats `_` as a word character, so snake_case identifiers are one token",
    file: "impl/core/leakage.ts",
    find: "const TOKEN = /[\\p{L}\\p{M}\\p{N}]+/gu;",
    replace: "const TOKEN = /[\\p{L}\\p{M}\\p{N}_]+/gu;",
  },
  {
    id: "G-51.runs-within-one-entry",
    invariant: "S-1",
    clause: "OP-2.7.c9",
    why: "keeps runs inside one entry where D-010 reads the trace as one sequence, under OP-2.7.c9 (S-1)",
    review: "G-51",
    description: "the leakage validator looks for 4-token runs inside each trace entry only, never across two entries",
    file: "impl/core/leakage.ts",
    find: "for (const r of runsOf(entries.flatMap(tokensOf))) this.runs.add(r);",
    replace: "for (const e of entries) for (const r of runsOf(tokensOf(e))) this.runs.add(r);",
  },
  {
    id: "G-52.tie-break-largest-id",
    invariant: "AD-3",
    clause: "OP-1.2",
    why: "breaks OP-1.2's final tie-break (the smallest distillate id, D-007, which refines AD-3)",
    review: "G-52",
    description: "the highest-weighted contributor's final tie-break takes the largest distillate id (D-007)",
    file: "impl/core/accumulator.ts",
    find: "return compareCodeUnits(a.distillateId, b.distillateId) < 0;",
    replace: "return compareCodeUnits(a.distillateId, b.distillateId) > 0;",
  },
  // D-035 rule (2): one field of the world view per owner its list names (and the custodians,
  // which it leaves out), each changed so that no reply differs at the step that writes it; the
  // kill matrix checks that the runner blames the field's owner, not the operation's first guard.
  // The other owners already have such a mutant: S-3.version-not-linked-to-head (lineage links),
  // S-5.excision-keeps-empty-batches and S-5.excised-content-retained (after an excision),
  // AD-3.lowest-weighted-leader (state), S-4.momentum-not-absolute, S-1.trace-kept-after-distillation,
  // G-54.resume-extends-memory (memory), G-35.child-inherits-body-lineage (body),
  // G-42.cancel-always-drops-marker (markers), G-33.providers-in-given-order (providers) and
  // G-40.labels-merged (labels).
  {
    id: "I1.custodians-as-given",
    invariant: "I1",
    clause: "OP-5.1",
    why: "breaks OP-5.1's custodians (sorted, de-duplicated); the custodians make an authorisation valid (OP-0.5) for D-022's governed changes and are installed with the identity, whose governance is I1's (the first invariant D-022 refines)",
    fieldOwner: true,
    profile: "mixed",
    description:
      "the agent's custodians are kept as the mint listed them (unsorted, repeated) instead of sorted and de-duplicated",
    file: "impl/core/agent.ts",
    find: "readonly custodians: readonly string[] = [...new Set(init.custodians)].sort(),",
    replace: "readonly custodians: readonly string[] = [...init.custodians],",
  },
  {
    id: "I1.identity-update-keeps-designation",
    invariant: "I1",
    clause: "OP-6.8",
    why: "breaks OP-6.8's effect (designation set, identity_version + 1): the identity record is the substrate identity, I1's",
    fieldOwner: true,
    profile: "mixed",
    description: "an identity update advances the identity version but keeps the old designation",
    file: "impl/core/ops/ripa.ts",
    find: "agent.designation = cmd.designation;",
    replace: "void cmd.designation;",
  },
  {
    id: "J-4.obligation-created-tick-late",
    invariant: "J-4",
    clause: "OP-2.7",
    why: "breaks OP-2.7's obligation record (created_tick = tick); the distillation obligation is J-4's",
    fieldOwner: true,
    description: "a distillation obligation records the tick after its distillation as its created_tick",
    file: "impl/core/ops/distil.ts",
    find: "cmd.tick,\n    cmd.tick + policy.deadline_ticks,\n    policy.max_retries,\n    ",
    replace: "cmd.tick + 1, cmd.tick + policy.deadline_ticks, policy.max_retries,",
  },
  {
    id: "I4.effects-in-order-performed",
    invariant: "I4",
    clause: "OP-6.6",
    why: "breaks OP-6.6's recorded effect ids as the view lists them (sorted, TAB-5); effects are I4's (the effects an epoch performed)",
    fieldOwner: true,
    profile: "mixed",
    description: "the agent view lists performed effect ids in the order performed instead of sorted",
    file: "impl/core/views.ts",
    find: "effects: [...a.effects].sort(compareCodeUnits),",
    replace: "effects: [...a.effects],",
  },
  {
    // OP-7.6 as D-051 reads it: the source execution leaves the agent at resume. The other reading
    // keeps it as a replica, so re-enlisting it (ripa.replicate) is a DUPLICATE_ID.
    id: "I4.source-becomes-replica-at-resume",
    invariant: "I4",
    clause: "D-051",
    why: "breaks D-051 (which refines I4; OP-7.6): at resume the source execution becomes a replica, an execution the agent lists although no command declared it, where replicas are I4's executions holding no authority (OP-6.10)",
    profile: "mixed",
    description: "resume keeps the old source execution as a replica of the agent instead of dropping it (D-051)",
    file: "impl/core/ops/migration.ts",
    find: "  agent.execution = target.execution;\n  // G-36:",
    replace:
      "  agent.replicas.set(agent.execution.execution_id, agent.execution);\n  agent.execution = target.execution;\n  // G-36:",
  },
  {
    // Python's re.match reading of a JSON Schema pattern: `$` also matches before a final newline,
    // so an identifier or a digest followed by "\n" passes its pattern and is kept as given.
    id: "AD-1.pattern-dollar-before-final-newline",
    invariant: "AD-1",
    clause: "OP-0.2.c1",
    why: "accepts at OP-0.2.c1 (whose MALFORMED names no invariant) a pattern-checked string followed by a newline, reading `$` as Python's re does; the digest pattern guards the base digest AD-1 computes an identity from (H(base digest || lineage root)), which becomes a value that is no digest",
    description:
      "an identifier or digest followed by a newline passes its pattern (Python's re.match) instead of MALFORMED (OP-0.2, ECMA-262)",
    file: "impl/core/dispatch.ts",
    find: "const parsed = CommandSchema.safeParse(raw);",
    replace: [
      String.raw`const strip = (v: unknown): unknown => (typeof v === "string" ? v.replace(/\n$/, "") : Array.isArray(v) ? v.map(strip) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)])) : v);`,
      "  const strict = CommandSchema.safeParse(raw);",
      "  const parsed = !strict.success && CommandSchema.safeParse(strip(raw)).success ? { success: true as const, data: raw as Command, error: undefined } : strict;",
    ].join("\n"),
  },
];

/** Mutants by invariant, for the generated docs. */
export const mutantsOf = (id: InvariantId): readonly LabelledMutant[] => MUTANTS.filter((m) => m.invariant === id);
