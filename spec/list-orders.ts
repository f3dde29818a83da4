/**
 * The order of every list in a view or an event (OP-0.6, W-6). The single source of these orders:
 * the `describe()` text of each array in the view and event schemas is taken from here (so the
 * exported JSON Schemas say the same), and the list-order table of spec/TABLES.md and
 * spec/tables.json is rendered from here. spec/tables.test.ts walks every array of the WorldView
 * and Event JSON Schemas and fails if one has no entry, or if its description is not this text.
 *
 * "Sorted" means ascending by UTF-16 code units (OP-0.6), which for the kit's ASCII ids and
 * digests equals byte order. Entries marked `decided: "G-47"` were written nowhere before the
 * first spec review (review G-47): the order is what the reference model and the implementation
 * already did (checked against each other by the golden sessions and the differential), except
 * `ProviderGrant.capabilities`, whose order the review found unspecified and which is now decided.
 */

export interface ListOrder {
  /**
   * The schema holding the list: a `$defs` name of the WorldView or Event JSON Schema, or
   * `event <type>` for a field of one event.
   */
  readonly owner: string;
  /** The member holding the list, dotted when it sits in an anonymous object (`target.providers`). */
  readonly field: string;
  /** The order, in words; also the `description` of the array in the JSON Schemas. */
  readonly order: string;
  /** The clauses that make the order observable or produce the list. */
  readonly clauses: readonly string[];
  /** The review item that first wrote the order down, when it was unwritten before. */
  readonly decided?: "G-47" | "G-48";
}

const o = (
  owner: string,
  field: string,
  order: string,
  clauses: readonly string[],
  decided?: ListOrder["decided"],
): ListOrder => (decided === undefined ? { owner, field, order, clauses } : { owner, field, order, clauses, decided });

export const LIST_ORDERS: readonly ListOrder[] = [
  o("WorldView", "roots_used", "sorted", ["OP-0.1", "OP-5.1"]),
  o("WorldView", "agents", "sorted by identity.identity", ["OP-0.1"]),
  o("AgentView", "instances", "sorted by instance_id", ["OP-2.1"]),
  o("AgentView", "obligations", "sorted by obligation_id", ["OP-2.7"]),
  o(
    "MemoryState",
    "ancestry",
    "in the order appended: the install snapshot first, the memory head last; never rewritten",
    ["OP-1.10", "OP-5.1"],
    "G-47",
  ),
  o("MemoryState", "task_ids", "in the order the tasks were started (ripa.task_start appends)", ["OP-6.2"], "G-47"),
  o(
    "BodyState",
    "lineage",
    "in the order the revisions were installed: the minted revision first, each ripa.evolve appends",
    ["OP-5.1", "OP-6.7"],
    "G-47",
  ),
  o("StoreView", "chain", "genesis first, then in the order merged (seq ascending)", ["OP-1.4", "OP-1.6"]),
  o("StoreView", "batches", "in chain order: batches[i] produced chain[i + 1]", ["OP-1.6"]),
  o("StoreView", "distillates", "the distillates the store retains, sorted by distillate_id", ["OP-1.6", "OP-1.8"]),
  o("StoreView", "excisions", "in the order appended", ["OP-4.2"]),
  o("StoreView", "quarantined", "sorted", ["OP-3.1"]),
  o("StoreView", "momentum", "karmic momentum (weight-only) of each merge batch, in chain order", ["OP-1.9"]),
  o("StoreState", "entries", "one per key, sorted by key", ["OP-1.2"], "G-48"),
  o("StoreEntry", "contributors", "the contributing distillate ids, sorted", ["OP-1.2"], "G-48"),
  o("MergeBatch", "members", "sorted by digest", ["OP-1.6"]),
  o("ExcisionRecord", "excised", "the excised distillates, sorted by digest", ["OP-4.2"]),
  o("InstanceView", "tools_used", "each tool used in an accepted act once, sorted", ["OP-2.3"]),
  o("InstanceView", "grants", "capability grants held, sorted, each once; fixed at birth (J-2)", ["OP-2.2"]),
  o("InstanceView", "tools", "tools bound at birth, sorted; empty before birth", ["OP-2.2"]),
  o("RipaView", "custodians", "sorted, each once", ["OP-5.1"]),
  o("RipaView", "replicas", "sorted by execution_id", ["OP-6.10"]),
  o("RipaView", "surfaces", "sorted by surface.surface_id", ["OP-6.9", "OP-7.6"]),
  o("RipaView", "providers", "sorted by provider_id", ["OP-5.1", "OP-7.6"]),
  o("RipaView", "required_capabilities", "sorted, each once", ["OP-5.1"]),
  o("RipaView", "live_attempts", "sorted by task_id", ["OP-6.4"]),
  o("RipaView", "effects", "effect ids performed, sorted", ["OP-6.6"]),
  o("RipaView", "fences", "every source fence raised and not cancelled, in the order raised", ["OP-7.1", "OP-7.7"]),
  o("RipaView", "reports", "completed migrations, in the order completed", ["OP-7.6"]),
  o(
    "ProviderGrant",
    "capabilities",
    "in views and events: sorted, each once (a command may list them in any order and repeat one)",
    ["OP-5.1", "OP-7.3"],
    "G-47",
  ),
  o("MigrationView", "surfaces", "sorted by surface.surface_id", ["OP-7.4"]),
  o("MigrationView", "target.providers", "sorted by provider_id", ["OP-7.3"]),
  o("BundleManifest", "task_ids", "the agent's memory task_ids at the checkpoint, in memory order", ["OP-7.2"], "G-47"),
  o(
    "BundleManifest",
    "required_capabilities",
    "the agent's required_capabilities: sorted, each once",
    ["OP-7.2"],
    "G-47",
  ),
  o("CapabilityDelta", "gained", "sorted", ["OP-7.3"]),
  o("CapabilityDelta", "lost", "sorted", ["OP-7.3"]),
  o("CapabilityDelta", "unchanged", "sorted", ["OP-7.3"]),
  o("LineageReplayClaim", "batch_digests", "in chain order", ["OP-4.3"]),
  o("event store.merged", "added", "the distillate ids of the batch, sorted", ["OP-4.1"]),
  o("event store.merge_noop", "obligation_ids", "every obligation id the command listed, each once, sorted", [
    "OP-4.1",
  ]),
];

const byKey = new Map(LIST_ORDERS.map((l) => [`${l.owner}#${l.field}`, l]));

/** The order of one list, for its schema's `describe()`; throws on a list with no entry. */
export const listOrder = (owner: string, field: string): string => {
  const l = byKey.get(`${owner}#${field}`);
  if (l === undefined) throw new Error(`no list order for ${owner}.${field}: add it to spec/list-orders.ts`);
  return l.order;
};
