/**
 * Mutants of the implementation, at least one per invariant (J-1 .. I6). Each is a small source
 * patch that breaks exactly the rule its invariant protects: a guard removed, an effect altered.
 * The kit's checks are worth something only if they kill every one of them
 * (conformance/mutants/in-process.test.ts; the wire mutants in conformance/mutants/wire.test.ts):
 * the model-versus-implementation differential and the golden transcripts must notice each mutant,
 * and the unpatched copy must pass, so a kill is never an artefact of the harness.
 *
 * A patch names a file under impl/, a text that must occur there exactly once, and its replacement;
 * if the implementation changes so that the text no longer occurs, the mutant fails loudly and
 * must be updated.
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
  {
    // The spec's schemas (shared with the model) count code points; this implementation-only patch
    // takes the review's other reading by validating a copy in which every astral character is
    // two characters, i.e. it measures lengths in UTF-16 code units, as zod's .max() does.
    id: "S-1.guidance-length-in-utf16-units",
    invariant: "S-1",
    review: "G-6",
    description: "a distillate's string bounds count UTF-16 code units: a guidance of 1000 astral characters is refused (D-041)",
    file: "impl/core/ops/distil.ts",
    find: "const parsed = SamskaraDistillate.safeParse(cmd.distillate);",
    replace:
      "const utf16 = SamskaraDistillate.safeParse(JSON.parse(JSON.stringify(cmd.distillate ?? null).replace(/[\\u{10000}-\\u{10FFFF}]/gu, \"xx\")));\n  const parsed = utf16.success ? SamskaraDistillate.safeParse(cmd.distillate) : utf16;",
  },
  {
    // What "a validator generated from the JSON Schemas" does without spec/json-schema/rules.json:
    // the one-disposition-per-key rule is not applied, so a key may contribute twice to a merge.
    id: "S-1.duplicate-disposition-keys-json-schema-only",
    invariant: "S-1",
    review: "G-5",
    description: "a distillate carrying two dispositions for one key is accepted (the rule JSON Schema cannot express is skipped)",
    file: "impl/core/ops/distil.ts",
    find: "const parsed = SamskaraDistillate.safeParse(cmd.distillate);",
    replace: [
      "const strict = SamskaraDistillate.safeParse(cmd.distillate);",
      "  const onlyRule = !strict.success && strict.error.issues.every((i) => i.code === \"custom\" && i.path[0] === \"dispositions\" && i.path[2] === \"key\");",
      "  const parsed = onlyRule ? { success: true as const, data: cmd.distillate as never, error: undefined } : strict;",
    ].join("\n"),
  },
  {
    // The bundle manifest's task ids in memory order (OP-7.2, TAB-5, review G-47); sorting them, as
    // most id lists of the views are, changes the bundle digest of every migration whose tasks were
    // not started in sorted order. The runner blames the first world field that differs, the source
    // fence's bundle digest, on I4 (D-035), so that is the invariant the kill matrix expects.
    id: "I4.bundle-task-ids-sorted",
    invariant: "I4",
    review: "G-47",
    description: "the checkpoint bundle lists the task ids sorted instead of in memory order",
    file: "impl/core/ops/migration.ts",
    find: "task_ids: [...agent.taskIds],",
    replace: "task_ids: [...agent.taskIds].sort(),",
  },
  {
    // Also implementation-only: the shared ConsentGrant schema refuses the grant, so the patch
    // removes the repeated rows (keeping the first) before the command reaches it, which is what
    // "the first row wins" amounts to. MALFORMED protects no invariant, so the runner blames the
    // disagreement on janma.conceive's first guard in the catalog (D-035 rule 3): J-1, now that the
    // guards are derived from the checks (review G-3). If they change, this invariant must follow
    // (npm run mutants says so).
    id: "G-30.duplicate-default-rows-first-wins",
    invariant: "J-1",
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
    review: "G-53",
    profile: "mixed",
    description: "a pause reports task.paused but the dead worker's attempt stays live, so its late reply is accepted and the fence stays refused",
    file: "impl/core/ops/recovery.ts",
    find: "  agent.liveAttempts.delete(cmd.task_id);\n",
    replace: "",
  },
  {
    id: "G-53.late-reply-accepted",
    invariant: "I4",
    review: "G-53",
    profile: "mixed",
    description: "a reply for an already used nonce is accepted while the task has no live attempt (a revoked attempt's late reply gets in before the next attempt)",
    file: "impl/core/ops/ripa.ts",
    find: "if (agent.liveAttempts.get(cmd.task_id) !== cmd.attempt_nonce) {",
    replace: "if (agent.liveAttempts.get(cmd.task_id) !== cmd.attempt_nonce && (agent.liveAttempts.has(cmd.task_id) || !agent.usedAttemptNonces.has(cmd.attempt_nonce))) {",
  },
  {
    // The reading the old flag name (memory_extended) claimed: resume extends memory with a
    // snapshot. Renaming the flag back instead would only make the reply schema-invalid, which the
    // runner reports as a protocol violation (inconclusive), not as the I2 question it is.
    id: "G-54.resume-extends-memory",
    invariant: "I2",
    review: "G-54",
    profile: "mixed",
    description: "resume appends a memory snapshot, as the old flag name memory_extended claimed, instead of carrying the ancestry over unchanged (D-047)",
    file: "impl/core/ops/migration.ts",
    find: "  agent.reports.push(report);",
    replace: '  agent.reports.push(report);\n  agent.extendMemory("task_start");',
  },
  // --- The wire layer: each takes the reading spec review 1 did not choose (W-1 … W-5, D-043, D-044) ---
  {
    id: "G-7.integral-float-not-an-integer",
    invariant: null,
    review: "G-7",
    description: "a number spelled with a fraction or an exponent (1.0, 1e2) or as -0 is kept as its spelling, not read as the integer it denotes",
    file: "impl/wire/server.ts",
    find: "msg = JSON.parse(text);",
    replace: String.raw`msg = JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g, (t) => (t.startsWith('"') || !/[.eE]|^-0$/.test(t) ? t : JSON.stringify(t))));`,
  },
  {
    id: "G-8.duplicate-names-last-wins",
    invariant: null,
    review: "G-8",
    description: "an object with a duplicate member name is accepted, the last value winning (JSON.parse's reading)",
    file: "impl/wire/strict-json.ts",
    find: "if (top.names.has(name)) {",
    replace: "if (top.names.has(name) && (false as boolean)) {",
  },
  {
    id: "G-9.lone-surrogates-accepted",
    invariant: null,
    review: "G-9",
    description: "a string holding a lone surrogate escape is accepted (JSON.parse's reading) instead of BAD_JSON",
    file: "impl/wire/server.ts",
    find: 'if (defect !== null) return wireError(null, "BAD_JSON", defect.message);',
    replace: 'if (defect !== null && defect.rule !== "lone-surrogate") return wireError(null, "BAD_JSON", defect.message);',
  },
  {
    id: "G-11.non-string-type-unknown-op",
    invariant: null,
    review: "G-11",
    description: "a type that is present but not a string (5, null) is UNKNOWN_OP instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: 'if (typeof type !== "string") return wireError(id, "BAD_REQUEST",',
    replace: 'if (type === undefined) return wireError(id, "BAD_REQUEST",',
  },
  {
    id: "G-12.missing-command-malformed",
    invariant: null,
    review: "G-12",
    description: "a command request without its command field is MALFORMED (the operation's reading) instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: "command: z.unknown() });",
    replace: "command: z.unknown().optional() });",
  },
  {
    id: "G-13.unknown-name-after-parameters",
    invariant: null,
    review: "G-13",
    description: "an unknown query name is noticed only after the parameters fail the Query schema, so it is BAD_REQUEST instead of UNKNOWN_OP",
    file: "impl/wire/server.ts",
    find: 'if (typeof name === "string" && !(QUERY_NAMES as readonly string[]).includes(name)) {',
    replace: 'if ((false as boolean) && typeof name === "string" && !(QUERY_NAMES as readonly string[]).includes(name)) {',
  },
  {
    id: "G-13.query-parameters-malformed",
    invariant: null,
    review: "G-13",
    description: "query parameters failing the Query schema are MALFORMED (by analogy with commands) instead of BAD_REQUEST",
    file: "impl/wire/server.ts",
    find: 'return wireError(id, "BAD_REQUEST", message, ["query", ...path]);',
    replace: 'return wireError(id, "MALFORMED" as WireErrorCode, message, ["query", ...path]);',
  },
  {
    id: "G-14.ids-compared-as-text",
    invariant: null,
    review: "G-14",
    description: 'request ids are compared by their text, so the string "1" and the integer 1 collide',
    file: "impl/wire/server.ts",
    find: "if (!this.seenIds.add(id))",
    replace: "if (!this.seenIds.add(String(id)))",
  },
  {
    id: "G-15.cr-not-counted",
    invariant: null,
    review: "G-15",
    description: "the line bound leaves a byte for a trailing \\r, so 1 MiB followed by \\r\\n is accepted instead of LINE_TOO_LONG",
    file: "impl/wire/framing.ts",
    find: "if (this.size + piece.length > this.maxLineBytes) {",
    replace: "if (this.size + piece.length > this.maxLineBytes + 1) {",
  },
  {
    id: "G-16.unicode-whitespace-ignored",
    invariant: null,
    review: "G-16",
    description: "a line of Unicode White_Space (U+00A0, U+2028, U+3000...) is ignored like an empty line (String.prototype.trim) instead of BAD_JSON",
    file: "impl/wire/server.ts",
    find: "if (JSON_WHITESPACE_ONLY.test(text)) return null;",
    replace: 'if (text.trim() === "") return null;',
  },
  {
    id: "G-17.depth-only-on-valid-json",
    invariant: null,
    review: "G-17",
    description: "nesting depth is judged only for text that parses, so an unclosed line 65 brackets deep is BAD_JSON instead of NESTING_TOO_DEEP",
    file: "impl/wire/server.ts",
    find: "if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) return",
    replace: "if (nestsDeeperThan(text, MAX_NESTING_DEPTH) && (() => { try { JSON.parse(text); return true; } catch { return false; } })()) return",
  },
  {
    id: "G-20.unknown-settings-refused",
    invariant: null,
    review: "G-20",
    description: "a hello whose settings hold keys version 1 does not define is refused with BAD_REQUEST instead of the keys being ignored",
    file: "impl/wire/server.ts",
    find: "const chosen = p.data.protocol_versions.find(",
    replace: 'if (Object.keys(p.data.settings).length > 0) return wireError(id, "BAD_REQUEST", "unknown settings", ["settings"]);\n    const chosen = p.data.protocol_versions.find(',
  },
  {
    id: "G-20.refused-hello-handshakes",
    invariant: null,
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
    invariant: "J-4",
    review: "G-24",
    description: "a no-op merge lists the obligation ids as given (order and repetitions kept)",
    file: "impl/core/ops/samskara.ts",
    find: 'return [{ type: "store.merge_noop", obligation_ids: ids }];',
    replace: 'return [{ type: "store.merge_noop", obligation_ids: [...cmd.obligation_ids] }];',
  },
  {
    id: "G-25.merge-redischarges-applied",
    invariant: "J-4",
    review: "G-25",
    description: "a merge mixing applied and pending obligations reports custody.discharged for the skipped applied ones too",
    file: "impl/core/ops/samskara.ts",
    find: "for (const ob of pending) {",
    replace: "for (const ob of obligations) {",
  },
  {
    id: "G-26.momentum-never-rewritten",
    invariant: "S-4",
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
    invariant: "J-1",
    review: "G-28",
    description: "ticks_since_birth_at_least n holds only when more than n ticks have passed",
    file: "impl/core/termination.ts",
    find: "return now - c.bornTick >= p.n;",
    replace: "return now - c.bornTick > p.n;",
  },
  {
    id: "G-28.tools-used-in-order-of-use",
    invariant: "J-1",
    review: "G-28",
    description: "the instance view lists tools_used in order of first use instead of sorted",
    file: "impl/core/views.ts",
    find: "tools_used: [...i.toolsUsed].sort(compareCodeUnits),",
    replace: "tools_used: [...i.toolsUsed],",
  },
  {
    id: "G-29.act-ttl-before-signature",
    invariant: "AD-4",
    review: "G-29",
    description: "an act past its TTL is refused for the TTL (J-3) before its signature is checked (AD-4)",
    file: "impl/core/ops/janma.ts",
    find: "  const s = cmd.signed;\n",
    replace: '  const s = cmd.signed;\n  if (cmd.tick >= (inst.bornTick ?? 0) + inst.manifest.ttl_ticks) violates("J-3", "TTL deadline reached");\n',
  },
  {
    id: "G-30.distil-signal-before-attribution",
    invariant: "AD-4",
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
    invariant: "J-4",
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
    invariant: "S-3",
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
