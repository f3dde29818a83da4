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
  // Spec review 1 (Janma / Samskara / Advaita): each mutant takes the reading the kit decided
  // against, so the golden script conformance/golden/scripts/janma-samskara.ts and the
  // differential must each tell it apart (spec/review/janma-samskara.ts).
  {
    id: "G-23.merge-j4-before-all-exist",
    invariant: "J-4",
    review: "G-23",
    description: "merge examines each obligation in turn (existence, then J-4) instead of checking that all exist first",
    file: "impl/core/ops/samskara.ts",
    find: 'const obligations: Obligation[] = ids.map(\n    (id) => agent.obligations.touch(id) ?? refuse("NOT_FOUND", `no obligation ${id}`, ["obligation_ids"]), // for update\n  );',
    replace:
      'const obligations: Obligation[] = ids.map((id) => {\n    const ob = agent.obligations.touch(id) ?? refuse("NOT_FOUND", `no obligation ${id}`, ["obligation_ids"]);\n    if (ob.status === "discharged" && ob.outcome !== "applied") violates("J-4", "discharged");\n    if (ob.status === "pending" && cmd.tick > ob.deadlineTick) violates("J-4", "overdue");\n    return ob;\n  });',
  },
  {
    id: "G-24.merge-noop-lists-given-ids",
    invariant: "AD-3",
    review: "G-24",
    description: "a no-op merge lists the obligation ids as given (order and repetitions kept)",
    file: "impl/core/ops/samskara.ts",
    find: 'return [{ type: "store.merge_noop", obligation_ids: ids }];',
    replace: 'return [{ type: "store.merge_noop", obligation_ids: [...cmd.obligation_ids] }];',
  },
  {
    id: "G-25.merge-redischarges-applied",
    invariant: "AD-3",
    review: "G-25",
    description: "a merge mixing applied and pending obligations reports custody.discharged for the skipped applied ones too",
    file: "impl/core/ops/samskara.ts",
    find: "for (const ob of pending) {",
    replace: "for (const ob of obligations) {",
  },
  {
    id: "G-26.momentum-never-rewritten",
    invariant: "S-5",
    review: "G-26",
    description: "karmic momentum is an append-only log: excision keeps the old values and appends those of the re-derived batches",
    file: "impl/core/store.ts",
    find: "this.momentum.splice(from);",
    replace: "this.momentum.splice(from, 0);",
  },
  {
    id: "G-27.birth-first-offered-entry",
    invariant: "J-1",
    review: "G-27",
    description: "a binding is resolved against the first offered entry with its tool name only",
    file: "impl/core/ops/janma.ts",
    find: "const offered = cmd.environment.tools.some((t) => t.tool === b.tool && b.capabilities.every((c) => t.capabilities.includes(c)));",
    replace: "const first = cmd.environment.tools.find((t) => t.tool === b.tool);\n    const offered = first !== undefined && b.capabilities.every((c) => first.capabilities.includes(c));",
  },
  {
    id: "G-28.ticks-since-birth-strict",
    invariant: "J-3",
    review: "G-28",
    description: "ticks_since_birth_at_least n holds only when more than n ticks have passed",
    file: "impl/core/termination.ts",
    find: "return now - c.bornTick >= p.n;",
    replace: "return now - c.bornTick > p.n;",
  },
  {
    id: "G-28.tools-used-in-order-of-use",
    invariant: "J-2",
    review: "G-28",
    description: "the instance view lists tools_used in order of first use instead of sorted",
    file: "impl/core/views.ts",
    find: "tools_used: [...i.toolsUsed].sort(compareCodeUnits),",
    replace: "tools_used: [...i.toolsUsed],",
  },
  {
    id: "G-29.act-ttl-before-signature",
    invariant: "J-3",
    review: "G-29",
    description: "an act past its TTL is refused for the TTL (J-3) before its signature is checked (AD-4)",
    file: "impl/core/ops/janma.ts",
    find: "  const s = cmd.signed;\n",
    replace: '  const s = cmd.signed;\n  if (cmd.tick >= (inst.bornTick ?? 0) + inst.manifest.ttl_ticks) violates("J-3", "TTL deadline reached");\n',
  },
  {
    id: "G-30.distil-signal-before-attribution",
    invariant: "S-2",
    review: "G-30",
    description: "distillation checks the zero-confidence signal (S-2) before the attribution (AD-4)",
    file: "impl/core/ops/distil.ts",
    find: "  const d = parsed.data;\n",
    replace: '  const d = parsed.data;\n  if (d.signal.confidence === 0) violates("S-2", "zero confidence", ["distillate", "signal", "confidence"]);\n',
  },
  {
    id: "G-30.duplicate-key-first-wins",
    invariant: "S-1",
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
    review: "G-31",
    description: "a distillate id counts as used only while its obligation is pending or its distillate is retained",
    file: "impl/core/ops/distil.ts",
    find: "if (agent.distillateIds.has(d.distillate_id)) {",
    replace: 'if (agent.store.retains(d.distillate_id) || [...agent.obligations.values()].some((o) => o.status === "pending" && o.distillateId === d.distillate_id)) {',
  },
  {
    id: "G-32.trace-destroyed-counts-acts",
    invariant: "S-1",
    review: "G-32",
    description: "trace.destroyed reports the number of acts instead of the number of trace entries",
    file: "impl/core/ops/distil.ts",
    find: "const destroyed = inst.trace.length;",
    replace: "const destroyed = inst.acts;",
  },
  {
    id: "G-39.excise-authorisation-first",
    invariant: "I2",
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
    review: "G-39",
    description: "an excision id is refused when any agent of the world has used it",
    file: "impl/core/ops/samskara.ts",
    find: "export const excise: Handler<\"samskara.excise\"> = (_world, cmd, agent) => {\n  requireNotQuiesced(agent, cmd.op); // I4\n  if (agent.store.excisions.some(",
    replace: "export const excise: Handler<\"samskara.excise\"> = (_world, cmd, agent) => {\n  requireNotQuiesced(agent, cmd.op); // I4\n  if ([..._world.agents.values()].some((a) => a.store.excisions.some((e) => e.excision_id === cmd.excision_id)) || agent.store.excisions.some(",
  },
  {
    id: "G-49.distillate-format-malformed",
    invariant: "S-1",
    review: "G-49",
    description: "a distillate failing its schema (a decimal weight, an abbreviated digest) is MALFORMED instead of S-1",
    file: "impl/core/ops/distil.ts",
    find: 'return violates("S-1", `distillate is not a strict SamskaraDistillate',
    replace: 'return refuse("MALFORMED", `distillate is not a strict SamskaraDistillate',
  },
  {
    id: "G-50.underscore-joins-tokens",
    invariant: "S-1",
    review: "G-50",
    description: "the leakage tokeniser treats `_` as a word character, so snake_case identifiers are one token",
    file: "impl/core/leakage.ts",
    find: "const TOKEN = /[\\p{L}\\p{M}\\p{N}]+/gu;",
    replace: "const TOKEN = /[\\p{L}\\p{M}\\p{N}_]+/gu;",
  },
  {
    id: "G-51.runs-within-one-entry",
    invariant: "S-1",
    review: "G-51",
    description: "the leakage validator looks for 4-token runs inside each trace entry only, never across two entries",
    file: "impl/core/leakage.ts",
    find: "for (const r of runsOf(entries.flatMap(tokensOf))) this.runs.add(r);",
    replace: "for (const e of entries) for (const r of runsOf(tokensOf(e))) this.runs.add(r);",
  },
  {
    id: "G-52.tie-break-largest-id",
    invariant: "AD-3",
    review: "G-52",
    description: "the highest-weighted contributor's final tie-break takes the largest distillate id (D-007)",
    file: "impl/core/accumulator.ts",
    find: "return compareCodeUnits(a.distillateId, b.distillateId) < 0;",
    replace: "return compareCodeUnits(a.distillateId, b.distillateId) > 0;",
  },
];

/** Mutants by invariant, for the generated docs. */
export const mutantsOf = (id: InvariantId): readonly Mutant[] => MUTANTS.filter((m) => m.invariant === id);
