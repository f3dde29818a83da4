/**
 * Mutants of the implementation, at least one per invariant (J-1 .. I6). Each is a small source
 * patch that breaks exactly the rule its invariant protects: a guard removed, an effect altered.
 * The kit's checks are worth something only if they kill every one of them (properties/mutants/
 * mutants.test.ts): the model-versus-implementation differential and the golden transcripts must
 * notice each mutant, and the unpatched copy must pass, so a kill is never an artefact of the harness.
 *
 * A patch names a file under impl/, a text that must occur there exactly once, and its replacement;
 * if the implementation changes so that the text no longer occurs, the mutant fails loudly and
 * must be updated.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import type { GenProfile } from "../generators/commands.ts";

export interface Mutant {
  readonly id: string;
  readonly invariant: InvariantId;
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

export const MUTANTS: readonly Mutant[] = [
  {
    id: "J-1.birth-ignores-unresolved-tool",
    invariant: "J-1",
    description: "birth succeeds although a bound tool is not offered",
    file: "impl/core/ops/janma.ts",
    find: 'if (!offered) violates("J-1"',
    replace: 'if (false as boolean) violates("J-1"',
  },
  {
    id: "J-2.act-without-covering-grant",
    invariant: "J-2",
    description: "an act is accepted although no held grant covers its capability",
    file: "impl/core/ops/janma.ts",
    find: "if (!inst.grants.some((g) => grantCovers(g, s.action.capability))) {",
    replace: "if (!inst.grants.some((g) => grantCovers(g, s.action.capability)) && (false as boolean)) {",
  },
  {
    id: "J-3.act-after-ttl",
    invariant: "J-3",
    description: "acts are accepted at or after the TTL deadline",
    file: "impl/core/ops/janma.ts",
    find: "if (cmd.tick >= bornTick + m.ttl_ticks) violates(",
    replace: "if (cmd.tick >= bornTick + m.ttl_ticks + 1_000_000) violates(",
  },
  {
    id: "J-4.dissolve-before-discharge",
    invariant: "J-4",
    description: "an instance dissolves while its obligation is still pending",
    file: "impl/core/ops/janma.ts",
    find: 'if (ob === undefined || ob.status !== "discharged") violates("J-4"',
    replace: 'if (ob === undefined) violates("J-4"',
  },
  {
    id: "S-1.no-leakage-check",
    invariant: "S-1",
    description: "guidance that repeats four trace tokens is persisted",
    file: "impl/core/ops/distil.ts",
    find: "if (runs.leaks(disp.guidance)) violates(",
    replace: "if (runs.leaks(disp.guidance) && (false as boolean)) violates(",
  },
  {
    id: "S-1.trace-kept-after-distillation",
    invariant: "S-1",
    description: "the episode trace survives distillation",
    file: "impl/core/ops/distil.ts",
    find: "inst.trace = []; // S-1 (D-029)",
    replace: "void inst.trace; // S-1 (D-029)",
  },
  {
    id: "S-2.sign-not-checked",
    invariant: "S-2",
    description: "a disposition may carry a weight of the opposite sign to the principal's valence",
    file: "impl/core/ops/distil.ts",
    find: "if (Math.sign(disp.weight) !== Math.sign(v) || Math.abs(disp.weight) > Math.abs(v)) {",
    replace: "if (Math.abs(disp.weight) > Math.abs(v)) {",
  },
  {
    id: "S-3.version-not-linked-to-head",
    invariant: "S-3",
    description: "a new version names the genesis, not the previous head, as its parent",
    file: "impl/core/store.ts",
    find: "const parent = this.head();",
    replace: "const parent = this.chain[0] as StoreVersion;",
  },
  {
    id: "S-4.replay-claim-miscounts",
    invariant: "S-4",
    description: "the lineage-replay claim omits the genesis from its version count",
    file: "impl/core/ops/samskara.ts",
    find: "versions: chain.length,",
    replace: "versions: chain.length - 1,",
  },
  {
    id: "S-5.excision-keeps-empty-batches",
    invariant: "S-5",
    description: "excision keeps a version for a batch left empty, so the chain differs from a store that never merged the forgotten lives",
    file: "impl/core/store.ts",
    find: "if (members.length > 0) fresh.mergeBatch(members);",
    replace: "fresh.mergeBatch(members);",
  },
  {
    id: "J-4.exhausted-corrective-stays-pending",
    invariant: "J-4",
    description: "a corrective obligation whose attempts are exhausted is never escalated, so no fail-safe applies",
    file: "impl/core/ops/custody.ts",
    find: "} else if (ob.attempts === ob.maxRetries + 1) {",
    replace: "} else if (ob.attempts === ob.maxRetries + 2) {",
  },
  {
    id: "J-4.declined-without-fail-safe",
    invariant: "J-4",
    description: "a declined corrective obligation does not quarantine the pin it was born from",
    file: "impl/core/ops/custody.ts",
    find: 'discharge(agent, ob, "declined", true, events);',
    replace: 'discharge(agent, ob, "declined", false, events);',
  },
  {
    id: "S-5.excised-content-retained",
    invariant: "S-5",
    description: "excision re-derives the chain but keeps the forgotten distillates' content",
    file: "impl/core/store.ts",
    find: "for (const id of drop) this.retained.delete(id);",
    replace: "void drop;",
  },
  {
    id: "AD-3.lowest-weighted-leader",
    invariant: "AD-3",
    description: "a merged key takes the guidance of the lowest-weighted contributor (D-007)",
    file: "impl/core/accumulator.ts",
    find: "if (sa !== sb) return sa > sb;",
    replace: "if (sa !== sb) return sa < sb;",
  },
  {
    id: "S-4.momentum-not-absolute",
    invariant: "S-4",
    description: "karmic momentum sums signed weight changes instead of their magnitudes (D-023)",
    file: "impl/core/store.ts",
    find: "kappa += Math.abs((this.keys.get(key) as KeyAccumulator).weight() - w0);",
    replace: "kappa += (this.keys.get(key) as KeyAccumulator).weight() - w0;",
  },
  {
    id: "AD-1.root-reuse",
    invariant: "AD-1",
    description: "a lineage root may be used twice",
    file: "impl/core/ops/advaita.ts",
    find: "if (world.rootsUsed.has(cmd.root)) violates(\"AD-1\", `root ${cmd.root} was already used`, [\"root\"]);\n  const ids",
    replace: "const ids",
  },
  {
    id: "AD-2.nonce-reuse",
    invariant: "AD-2",
    description: "two projections may share a nonce",
    file: "impl/core/ops/janma.ts",
    find: 'if (agent.nonces.has(cmd.nonce)) violates("AD-2"',
    replace: 'if (false as boolean) violates("AD-2"',
  },
  {
    id: "AD-3.round-half-up",
    invariant: "AD-3",
    description: "the per-key mean rounds ties away from zero instead of to even",
    file: "impl/core/rounding.ts",
    find: "(twiceRemainder === den && q % 2n === 1n)",
    replace: "(twiceRemainder === den)",
  },
  {
    id: "AD-3.contested-needs-two-negatives",
    invariant: "AD-3",
    description: "a key counts as contested only with two negative contributors",
    file: "impl/core/accumulator.ts",
    find: "contested: this.positives > 0 && this.negatives > 0,",
    replace: "contested: this.positives > 0 && this.negatives > 1,",
  },
  {
    id: "AD-4.unsigned-act",
    invariant: "AD-4",
    description: "an act whose signature does not recompute is accepted",
    file: "impl/core/ops/janma.ts",
    find: "s.action.tick !== cmd.tick || s.signature !== expected",
    replace: "s.action.tick !== cmd.tick",
  },
  {
    id: "I1.ungoverned-identity-update",
    invariant: "I1",
    description: "anyone may update the installed identity",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.isCustodian(cmd.authorization.custodian)) violates("I1"',
    replace: 'if (false as boolean) violates("I1"',
  },
  {
    id: "I2.unknown-task-resumes",
    invariant: "I2",
    description: "a task that memory never recorded can be resumed",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.taskIds.includes(taskId)) violates("I2"',
    replace: 'if (false as boolean) violates("I2"',
  },
  {
    id: "I3.ungoverned-evolution",
    invariant: "I3",
    description: "anyone may evolve the body",
    file: "impl/core/ops/ripa.ts",
    find: 'if (!agent.isCustodian(cmd.authorization.custodian)) violates("I3"',
    replace: 'if (false as boolean) violates("I3"',
  },
  {
    id: "I4.stale-token-effect",
    invariant: "I4",
    description: "an effect under a stale epoch token is performed",
    file: "impl/core/ops/ripa.ts",
    find: "if (cmd.token !== agent.authority.token || cmd.execution_id !== agent.authority.holder) {",
    replace: "if (cmd.execution_id !== agent.authority.holder) {",
  },
  {
    id: "I5.provider-capability-not-checked",
    invariant: "I5",
    description: "an effect goes through a provider that does not grant its capability",
    file: "impl/core/ops/ripa.ts",
    find: "if (!provider?.capabilities.includes(cmd.capability)) {",
    replace: "if (provider === undefined) {",
  },
  {
    id: "I6.reserved-labels-accepted",
    invariant: "I6",
    description: "a label may claim the identity",
    file: "impl/core/ops/ripa.ts",
    find: 'if ((RESERVED_LABEL_KEYS as readonly string[]).includes(key)) violates("I6"',
    replace: 'if ((RESERVED_LABEL_KEYS as readonly string[]).includes(key) && (false as boolean)) violates("I6"',
  },
  // Spec review 1, RIPA items (spec/review/ripa.ts): each takes the reading the kit rejected.
  {
    id: "G-33.capabilities-as-given",
    invariant: "I5",
    review: "G-33",
    description: "a provider's capabilities are kept in the order given, duplicates included, instead of as a sorted set",
    file: "impl/core/agent.ts",
    find: "capabilities: [...new Set(p.capabilities)].sort() })",
    replace: "capabilities: [...p.capabilities] })",
  },
  {
    id: "G-33.providers-in-given-order",
    invariant: "I5",
    review: "G-33",
    description: "the agent's providers are shown in the order the mint listed them, not sorted by provider_id",
    file: "impl/core/views.ts",
    find: "providers: [...a.providers.values()].sort(byKey((p) => p.provider_id)),",
    replace: "providers: [...a.providers.values()],",
  },
  {
    id: "G-33.duplicate-provider-last-wins",
    // OP-5.1's clause: an installation is refused or made whole; over the wire a generic-code
    // disagreement on a mint is attributed to the mint's guard, AD-1 (D-035 rule 3).
    invariant: "AD-1",
    review: "G-33",
    description: "a mint listing one provider id twice is accepted and the last grant wins, instead of DUPLICATE_ID",
    file: "impl/core/ops/advaita.ts",
    find: 'if (ids.has(p.provider_id)) refuse("DUPLICATE_ID"',
    replace: 'if ((false as boolean) && ids.has(p.provider_id)) refuse("DUPLICATE_ID"',
  },
  {
    id: "G-34.install-token-not-used",
    invariant: "I4",
    review: "G-34",
    profile: "mixed",
    description: "the authority token a mint or descend installs is not counted as used, so a later epoch may take it again",
    file: "impl/core/ops/advaita.ts",
    find: "agent.usedTokens.add(x.authorityToken);",
    replace: "void x.authorityToken;",
  },
  {
    id: "G-35.child-inherits-body-lineage",
    invariant: "I3",
    review: "G-35",
    profile: "mixed",
    description: "a descendant's body lineage is the parent's whole lineage instead of its current revision alone",
    file: "impl/core/ops/ripa.ts",
    find: 'events.push({ type: "agent.descended"',
    replace: 'child.bodyLineage.splice(0, child.bodyLineage.length, ...agent.bodyLineage);\n  events.push({ type: "agent.descended"',
  },
  {
    id: "G-35.child-inherits-surfaces",
    invariant: "I6",
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
    review: "G-35",
    profile: "mixed",
    description: "descend refuses (I4) a child token that the parent has used, as if tokens were shared by the family",
    file: "impl/core/ops/ripa.ts",
    find: "const { agent: child, events } = install(world, {",
    replace: 'if (agent.usedTokens.has(cmd.authority_token)) violates("I4", "token used by the parent");\n  const { agent: child, events } = install(world, {',
  },
  {
    id: "G-36.replica-target-refused",
    // OP-7.3's clause, whose first guard is I1: a generic-code disagreement on validate is
    // attributed to it over the wire (D-035 rule 3).
    invariant: "I1",
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
    review: "G-38",
    profile: "mixed",
    description: "a phase command or cancel when no migration is in progress is rejected as out of order (I4), not NOT_FOUND",
    file: "impl/core/ops/migration.ts",
    find: 'if (m === null || m.migrationId !== migrationId) return refuse("NOT_FOUND"',
    replace: 'if (m === null) return violates("I4", "no migration in progress");\n  if (m.migrationId !== migrationId) return refuse("NOT_FOUND"',
  },
  {
    id: "G-40.labels-merged",
    invariant: "I6",
    review: "G-40",
    profile: "mixed",
    description: "rebinding a surface merges the new labels into the old ones instead of replacing them",
    file: "impl/core/ops/ripa.ts",
    find: "agent.surfaces.set(cmd.surface.surface_id, { surface: cmd.surface, labels: cmd.labels });",
    replace: "agent.surfaces.set(cmd.surface.surface_id, { surface: cmd.surface, labels: { ...agent.surfaces.get(cmd.surface.surface_id)?.labels, ...cmd.labels } });",
  },
  {
    id: "G-42.cancel-always-drops-marker",
    invariant: "I4",
    review: "G-42",
    profile: "mixed",
    description: "cancel drops the target marker even when it belongs to an earlier, completed migration",
    file: "impl/core/ops/migration.ts",
    find: "if (agent.marker?.migration_id === m.migrationId) agent.marker = null;",
    replace: "agent.marker = null;",
  },
];

/** Mutants by invariant, for the generated docs. */
export const mutantsOf = (id: InvariantId): readonly Mutant[] => MUTANTS.filter((m) => m.invariant === id);
