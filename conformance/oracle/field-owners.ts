/**
 * D-035 rule (2): every observable field names the invariant that owns it. When the replies of the
 * model and an implementation agree in outcome but their events or world views differ, the field
 * that differs decides the invariant — not the operation that happened to run before the check.
 *
 * Each row cites where its owner comes from:
 * - "D-035": the field is in D-035 rule (2)'s list (spec/DECISIONS.md) and the row says what the
 *   list says;
 * - "spec": D-035's short list does not name the field; the row gives the owner the spec's own text
 *   names, with the clause, which D-035 rule (2) adopts ("and, for a field the list leaves out, the
 *   owner its clause names"). Without these rows rule (3) would blame the operation's first guard (a
 *   custodians list differing after a mint was blamed on AD-1).
 *
 * World paths are read relative to an agent (`$world.agents.<i>` removed); rows are in priority
 * order: when several fields differ (a wrong aggregate also changes the head that digests it), the
 * most specific cause comes first — content before the digests and links that bind it.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import { dottedPath, type JsonPath } from "../../properties/json-diff.ts";

export type OwnerSource = "D-035" | "spec";

export interface FieldOwner {
  /** Tested against the agent-relative path (".store.state.entries.0.weight") or the world path ("$world.roots_used.1"). */
  readonly test: RegExp;
  readonly by: (op: string) => InvariantId;
  readonly source: OwnerSource;
  /** Why this invariant owns the field, with the clause that says so. */
  readonly why: string;
}

const afterOp =
  (merge: InvariantId) =>
  (op: string): InvariantId =>
    op === "samskara.excise" ? "S-5" : op === "samskara.replay" ? "S-4" : merge;
const always = (id: InvariantId) => (): InvariantId => id;

/** Fields of a MigrationReport (RipaView.reports, and migration.resumed's report). */
const REPORT_FIELDS: readonly FieldOwner[] = [
  { test: /\.identity_preserved$/, by: always("I1"), source: "spec", why: "the identity continuity flag (OP-7.6, I1)" },
  {
    test: /\.memory_ancestry_preserved$/,
    by: always("I2"),
    source: "spec",
    why: "the memory flag (OP-7.6, D-047, I2)",
  },
  { test: /\.body_preserved$/, by: always("I3"), source: "spec", why: "the body flag (OP-7.6, I3)" },
  { test: /\.capability_delta\b/, by: always("I5"), source: "spec", why: "the capability delta (D-025, I5)" },
  {
    test: /\.bundle_digest$/,
    by: always("I2"),
    source: "spec",
    why: "the bundle digest validate checks for I2 (OP-7.3.c2)",
  },
];

/** Agent-relative world fields, most specific first. */
export const WORLD_FIELDS: readonly FieldOwner[] = [
  {
    test: /^\.store\.(distillates|state)\b/,
    by: afterOp("AD-3"),
    source: "D-035",
    why: "store state and retained distillates: AD-3 after a merge, S-5 after an excision, S-4 after a replay",
  },
  {
    test: /^\.store\.quarantined\b/,
    by: always("J-4"),
    source: "spec",
    why: "the quarantine fail-safe of a declined or escalated corrective obligation is J-4's statement (D-019)",
  },
  {
    test: /^\.store\.excisions\b/,
    by: always("S-5"),
    source: "spec",
    why: "S-5: an excision record carrying identifiers and digests only MUST be appended (OP-4.2)",
  },
  {
    test: /^\.store\.(chain|head|batches)\b/,
    by: afterOp("S-3"),
    source: "D-035",
    why: "store lineage links: S-3, or S-5 after an excision, S-4 after a replay",
  },
  {
    test: /^\.store\.momentum\b/,
    by: (op) => (op === "samskara.excise" ? "S-5" : "S-4"),
    source: "D-035",
    why: "momentum: S-4, or S-5 after an excision (OP-1.9 recomputes it over the re-derived chain)",
  },
  { test: /^\.instances\.\d+\.trace_entries\b/, by: always("S-1"), source: "D-035", why: "held trace entries: S-1" },
  {
    test: /^\.instances\.\d+\.(withdrawal|withdrawn_tick|acts|failures|consecutive_failures|tools_used)\b/,
    by: always("J-3"),
    source: "spec",
    why: "the withdrawal and the counters the termination predicates read (OP-2.3, D-015 refines J-3)",
  },
  {
    test: /^\.instances\.\d+\.tools\b/,
    by: always("J-1"),
    source: "spec",
    why: "the tools bound at birth (OP-2.2; J-1: no tool acquired after birth)",
  },
  {
    test: /^\.instances\.\d+\.grants\b/,
    by: always("J-2"),
    source: "spec",
    why: "the capabilities an instance holds (OP-2.2; J-2: the set MUST NOT grow)",
  },
  {
    test: /^\.instances\.\d+\.obligation_id\b/,
    by: always("J-4"),
    source: "spec",
    why: "the life's one distillation obligation (OP-2.7, J-4)",
  },
  { test: /^\.instances\.\d+\.nonce\b/, by: always("AD-2"), source: "spec", why: "the projection nonce (AD-2)" },
  {
    test: /^\.instances\.\d+\.manifest_digest\b/,
    by: always("AD-4"),
    source: "spec",
    why: "what every action is signed with (OP-2.3.c5, AD-4)",
  },
  { test: /^\.obligations\b/, by: always("J-4"), source: "D-035", why: "obligations: J-4" },
  {
    test: /^\.identity\b/,
    by: always("AD-1"),
    source: "spec",
    why: "the agent's one identity from its base digest and unique root (OP-1.5, AD-1)",
  },
  { test: /^\$world\.roots_used\b/, by: always("AD-1"), source: "spec", why: "the roots ever used (OP-5.1.c1, AD-1)" },
  { test: /^\.substrate\.identity\b/, by: always("I1"), source: "D-035", why: "substrate identity: I1" },
  { test: /^\.substrate\.memory\b/, by: always("I2"), source: "D-035", why: "memory: I2" },
  { test: /^\.substrate\.body\b/, by: always("I3"), source: "D-035", why: "body: I3" },
  {
    test: /^\.ripa\.migration\.bundle/,
    by: always("I2"),
    source: "spec",
    why: "the bundle and its digest, which validate checks for I2 (OP-7.3.c2; the bundle carries memory's heads and task ids)",
  },
  {
    test: /^\.ripa\.migration\.(delta|target\.providers)\b/,
    by: always("I5"),
    source: "D-035",
    why: "providers and required capabilities: I5 (the target's providers and the delta between them, D-025)",
  },
  { test: /^\.ripa\.migration\.surfaces\b/, by: always("I6"), source: "D-035", why: "surfaces and labels: I6" },
  {
    test: /^\.ripa\.migration\.target\.body_revision\b/,
    by: always("I3"),
    source: "spec",
    why: "the target's body revision (OP-7.3.c4, I3)",
  },
  {
    test: /^\.ripa\.migration\b/,
    by: always("I4"),
    source: "spec",
    why: "the migration's phase and executions: a phase out of order is I4 (OP-7, D-026)",
  },
  {
    test: /^\.ripa\.(authority|effects|live_attempts|fences|marker)\b/,
    by: always("I4"),
    source: "D-035",
    why: "authority, effects, attempts, fences and markers: I4",
  },
  {
    test: /^\.ripa\.(replicas|execution)\b/,
    by: always("I4"),
    source: "spec",
    why: "the bound execution and the replicas, executions that hold no authority (OP-6.1.c2, OP-6.10, I4)",
  },
  {
    test: /^\.ripa\.(providers|required_capabilities)\b/,
    by: always("I5"),
    source: "D-035",
    why: "providers and required capabilities: I5",
  },
  { test: /^\.ripa\.surfaces\b/, by: always("I6"), source: "D-035", why: "surfaces and labels: I6" },
  {
    test: /^\.ripa\.custodians\b/,
    by: always("I1"),
    source: "spec",
    why: "the custodians who govern the installed identity (OP-0.5, D-022; I1 is the first invariant D-022 refines)",
  },
  ...REPORT_FIELDS.map((r) => ({ ...r, test: new RegExp(`^\\.ripa\\.reports\\.\\d+${r.test.source}`) })),
  {
    test: /^\.ripa\.reports\b/,
    by: always("I4"),
    source: "spec",
    why: "the report's executions and generations (OP-7.6, I4)",
  },
];

/** Event types (spec/json-schema/Event.schema.json) and the owner of the fields they report. */
export const EVENT_OWNERS: Readonly<
  Record<string, { readonly by: (op: string) => InvariantId; readonly source: OwnerSource; readonly why: string }>
> = {
  "agent.minted": { by: always("AD-1"), source: "spec", why: "the identity and genesis (OP-1.4, OP-1.5, AD-1)" },
  "agent.descended": { by: always("AD-1"), source: "spec", why: "the parent and child identities (OP-6.11, AD-1)" },
  "instance.born": { by: always("J-1"), source: "spec", why: "birth (OP-2.2, J-1)" },
  "instance.withdrawn": {
    by: always("J-3"),
    source: "spec",
    why: "withdrawal by TTL or predicate (OP-2.3, OP-2.5, J-3)",
  },
  "trace.destroyed": {
    by: always("S-1"),
    source: "D-035",
    why: "held trace entries: S-1 (the entries destroyed, OP-2.7)",
  },
  "obligation.emitted": { by: always("J-4"), source: "D-035", why: "obligations: J-4" },
  "custody.attempted": { by: always("J-4"), source: "D-035", why: "obligations: J-4" },
  "custody.discharged": { by: always("J-4"), source: "D-035", why: "obligations: J-4" },
  "version.quarantined": { by: always("J-4"), source: "spec", why: "the quarantine fail-safe (D-019, J-4)" },
  "instance.dissolved": { by: always("J-4"), source: "spec", why: "dissolution after discharge (OP-2.8, J-4)" },
  "store.merge_noop": {
    by: always("J-4"),
    source: "D-035",
    why: "obligations: J-4 (the obligation ids of a no-op merge)",
  },
  "store.merged": {
    by: always("S-3"),
    source: "D-035",
    why: "store lineage links: S-3 (the new version and its batch; the runner then compares the world views to find a more specific field)",
  },
  "store.excised": { by: always("S-5"), source: "D-035", why: "store lineage links after an excision: S-5" },
  "lineage.replayed": {
    by: always("S-4"),
    source: "D-035",
    why: "lineage links after a replay: S-4 (the replay claim)",
  },
  "memory.extended": { by: always("I2"), source: "D-035", why: "memory: I2" },
  "task.started": { by: always("I2"), source: "spec", why: "task ids are memory (I2 names them)" },
  "task.resumed": { by: always("I2"), source: "spec", why: "a recorded task (OP-6.3.c2, I2)" },
  "task.paused": { by: always("I4"), source: "D-035", why: "attempts: I4" },
  "attempt.published": { by: always("I4"), source: "D-035", why: "attempts: I4" },
  "reply.accepted": { by: always("I4"), source: "D-035", why: "attempts: I4" },
  "epoch.advanced": { by: always("I4"), source: "D-035", why: "authority: I4" },
  "effect.performed": { by: always("I4"), source: "D-035", why: "effects: I4" },
  "effect.duplicate": { by: always("I4"), source: "D-035", why: "effects: I4" },
  "body.evolved": { by: always("I3"), source: "D-035", why: "body: I3" },
  "identity.updated": { by: always("I1"), source: "D-035", why: "substrate identity: I1" },
  "surface.bound": { by: always("I6"), source: "D-035", why: "surfaces and labels: I6" },
  "replica.created": { by: always("I4"), source: "spec", why: "replicas hold no authority (OP-6.10, I4)" },
  "migration.fenced": { by: always("I4"), source: "D-035", why: "fences: I4" },
  "migration.checkpointed": {
    by: always("I2"),
    source: "spec",
    why: "the bundle digest validate checks for I2 (OP-7.3.c2)",
  },
  "migration.validated": { by: always("I5"), source: "D-035", why: "the capability delta: I5" },
  "migration.bound": { by: always("I6"), source: "spec", why: "the migration's surfaces (OP-7.4, I6)" },
  "migration.marker": { by: always("I4"), source: "D-035", why: "markers: I4" },
  "migration.cancelled": { by: always("I4"), source: "spec", why: "a rollback (OP-7.7, I4)" },
};

/** The owner of a field of a MigrationReport carried by migration.resumed, else null. */
export const reportFieldOwner = (subpath: string): InvariantId | null =>
  REPORT_FIELDS.find((r) => r.test.test(subpath))?.by("") ?? null;

/**
 * The text the rows' patterns are tested against, written from a path in the world view: inside an
 * agent, relative to it (`agents`, 3, `store`, `state` → `.store.state`); elsewhere from the root
 * (`roots_used`, 1 → `$world.roots_used.1`).
 */
export const agentRelative = (path: JsonPath): string =>
  path[0] === "agents" && typeof path[1] === "number" ? dottedPath("", path.slice(2)) : dottedPath("$world", path);
