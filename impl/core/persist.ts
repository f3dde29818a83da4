/**
 * The persisted form of the world: keyed rows `(agent, part, key) → value`, each value a JSON
 * text, holding exactly what the implementation must remember and nothing it must forget.
 *
 * | agent | part | key | value |
 * | --- | --- | --- | --- |
 * | `""` | `meta` | `format`, `tick` | the format name; the world tick |
 * | `""` | `root` | a lineage root ever used | `""` |
 * | identity | `agent` | `""` | the agent's bounded fields (identity, designation, body revision, execution, providers, authority, marker, the migration in progress without its bundle, genesis) |
 * | identity | `bundle` | `""` | the migration's bundle manifest (it copies the task ids, so it is written once, at checkpoint) |
 * | identity | `ancestry`, `task`, `body`, `report`, `excision` | index | one element of an append-only list |
 * | identity | `nonce`, `distillate_id`, `token`, `attempt_nonce`, `effect`, `migration_id`, `quarantined` | the element | `""` (sets) |
 * | identity | `replica`, `surface`, `live`, `fence`, `obligation`, `retained` | id | one element of a map (a pending obligation holds its distillate; `retained` is the store's content) |
 * | identity | `instance`, `manifest` | instance id | a life's counters and state; its manifest (written once) |
 * | identity | `trace:<instance id>` | index | one trace entry of a life not yet distilled |
 * | identity | `lineage` | version seq ≥ 1 | that version, the batch that made it, its κ |
 *
 * Forgetting: a distilled life's trace rows are deleted in the command that accepts its
 * distillate (S-1, D-029); an excised distillate's `retained` row is deleted by the excision
 * (S-5). The store state (which holds guidance and keys) is never persisted: it is rebuilt on
 * load from the retained distillates and checked against the head's state digest (S-4).
 *
 * `RowWriter.delta` turns what a command changed into row writes (O(change)): tracked Sets and
 * Maps report their changed keys (impl/core/tracked.ts), append-only lists are compared with the
 * length last written, the agent row is rewritten when its text changed, and the lineage reports
 * the first version seq it changed (a merge appends one; an excision rewrites the suffix).
 */
import type {
  AdvaitaIdentity,
  AuthorityEpoch,
  BundleManifest,
  CustodyOutcome,
  Digest,
  ExcisionRecord,
  ExecutionBinding,
  InstanceState,
  JanmaManifest,
  MigrationReport,
  ObligationKind,
  ProviderGrant,
  SourceFence,
  TargetMarker,
  WithdrawalReason,
} from "../../spec/index.ts";
import { Agent, type BoundSurface, type Migration } from "./agent.ts";
import { Instance } from "./instance.ts";
import { Obligation } from "./obligation.ts";
import { SamskaraStore, distillateDigest, type HeldDistillate, type LineageStep } from "./store.ts";
import type { TrackedMap, TrackedSet } from "./tracked.ts";
import { World } from "./world.ts";

export const ROWS_FORMAT = "samsara-ripa-impl/rows/v1";

/** The world's own rows have the empty agent. */
export const WORLD = "";

/** One stored row. `seq` orders a part's rows: the index for lists, the insertion order otherwise. */
export interface Row {
  readonly agent: string;
  readonly part: string;
  readonly key: string;
  readonly value: string;
}

/** One write of a commit. A `put` with `seq: null` takes the next insertion number (kept on update). */
export type RowOp =
  | {
      readonly op: "put";
      readonly agent: string;
      readonly part: string;
      readonly key: string;
      readonly seq: number | null;
      readonly value: string;
    }
  | { readonly op: "delete"; readonly agent: string; readonly part: string; readonly key: string }
  | { readonly op: "deletePart"; readonly agent: string; readonly part: string }
  | { readonly op: "deleteFrom"; readonly agent: string; readonly part: string; readonly seq: number }
  | { readonly op: "deleteAgent"; readonly agent: string };

const put = (agent: string, part: string, key: string, value: string, seq: number | null = null): RowOp => ({
  op: "put",
  agent,
  part,
  key,
  seq,
  value,
});

const TRACE = "trace:";
const traceOf = (instanceId: string): string => `${TRACE}${instanceId}`;

// ---------------------------------------------------------------------------------------------
// Records: the JSON values of the rows that are not plain elements.

interface HeadRecord {
  identity: AdvaitaIdentity;
  genesis: string;
  designation: string;
  identity_version: number;
  body_revision: string;
  custodians: readonly string[];
  required_capabilities: readonly string[];
  execution: ExecutionBinding;
  providers: ProviderGrant[];
  authority: AuthorityEpoch;
  marker: TargetMarker | null;
  migration: Omit<MigrationRecord, "bundle"> | null;
}

interface MigrationRecord {
  migration_id: string;
  phase: Migration["phase"];
  source_execution_id: string;
  bundle_digest: string | null;
  target: Migration["target"];
  delta: Migration["delta"];
  surfaces: BoundSurface[];
}

interface InstanceRecord {
  instance_id: string;
  nonce: string;
  manifest_digest: string;
  born_from: string;
  state: InstanceState;
  born_tick: number | null;
  acts: number;
  failures: number;
  consecutive_failures: number;
  tools_used: string[];
  grants: string[];
  tools: string[];
  withdrawal: WithdrawalReason | null;
  withdrawn_tick: number | null;
  obligation_id: string | null;
}

interface ObligationRecord {
  obligation_id: string;
  instance_id: string;
  kind: ObligationKind;
  distillate_id: string;
  distillate_digest: string;
  born_from: string;
  created_tick: number;
  deadline_tick: number;
  max_retries: number;
  attempts: number;
  status: "pending" | "discharged";
  outcome: CustodyOutcome | null;
  held: HeldDistillate | null;
}

const headRecord = (a: Agent): HeadRecord => ({
  identity: a.identity,
  genesis: a.store.genesis,
  designation: a.designation,
  identity_version: a.identityVersion,
  body_revision: a.bodyRevision,
  custodians: a.custodians,
  required_capabilities: a.requiredCapabilities,
  execution: a.execution,
  providers: [...a.providers.values()],
  authority: a.authority,
  marker: a.marker,
  migration:
    a.migration === null
      ? null
      : {
          migration_id: a.migration.migrationId,
          phase: a.migration.phase,
          source_execution_id: a.migration.sourceExecutionId,
          bundle_digest: a.migration.bundleDigest,
          target: a.migration.target,
          delta: a.migration.delta,
          surfaces: a.migration.surfaces,
        },
});

const instanceRecord = (i: Instance): InstanceRecord => ({
  instance_id: i.instanceId,
  nonce: i.nonce,
  manifest_digest: i.manifestDigest,
  born_from: i.bornFrom,
  state: i.state,
  born_tick: i.bornTick,
  acts: i.acts,
  failures: i.failures,
  consecutive_failures: i.consecutiveFailures,
  tools_used: [...i.toolsUsed].sort(),
  grants: i.grants,
  tools: i.tools,
  withdrawal: i.withdrawal,
  withdrawn_tick: i.withdrawnTick,
  obligation_id: i.obligationId,
});

const obligationRecord = (o: Obligation): ObligationRecord => ({
  obligation_id: o.obligationId,
  instance_id: o.instanceId,
  kind: o.kind,
  distillate_id: o.distillateId,
  distillate_digest: o.distillateDigest,
  born_from: o.bornFrom,
  created_tick: o.createdTick,
  deadline_tick: o.deadlineTick,
  max_retries: o.maxRetries,
  attempts: o.attempts,
  status: o.status,
  outcome: o.outcome,
  held: o.held,
});

// ---------------------------------------------------------------------------------------------
// The parts of an agent, each with what the writer needs from it.

/** A keyed part backed by a tracked Set or Map: changed keys and each key's current value. */
interface KeyedPart {
  readonly part: string;
  takeChanged(): string[];
  forgetChanged(): void;
  /** The row's value, or undefined if the key is gone. */
  value(key: string): string | undefined;
  entries(): Iterable<[string, string]>;
}

const setPart = (part: string, set: TrackedSet<string>): KeyedPart => ({
  part,
  takeChanged: () => set.takeChanged(),
  forgetChanged: () => set.forgetChanged(),
  value: (k) => (set.has(k) ? "" : undefined),
  entries: () => [...set].map((k): [string, string] => [k, ""]),
});

const mapPart = <V>(part: string, map: TrackedMap<string, V>, encode: (v: V) => unknown = (v) => v): KeyedPart => ({
  part,
  takeChanged: () => map.takeChanged(),
  forgetChanged: () => map.forgetChanged(),
  value: (k) => {
    const v = map.get(k);
    return v === undefined ? undefined : JSON.stringify(encode(v));
  },
  entries: () => [...map].map(([k, v]): [string, string] => [k, JSON.stringify(encode(v))]),
});

const keyedParts = (a: Agent): KeyedPart[] => [
  setPart("nonce", a.nonces),
  setPart("distillate_id", a.distillateIds),
  setPart("token", a.usedTokens),
  setPart("attempt_nonce", a.usedAttemptNonces),
  setPart("effect", a.effects),
  setPart("migration_id", a.migrationIds),
  setPart("quarantined", a.store.quarantined),
  mapPart("replica", a.replicas),
  mapPart("surface", a.surfaces),
  mapPart("live", a.liveAttempts),
  mapPart("fence", a.fences),
  mapPart("obligation", a.obligations, obligationRecord),
  mapPart("retained", a.store.retained),
];

/** Append-only lists: an element, once written, never changes. */
const listParts = (a: Agent): [string, readonly unknown[]][] => [
  ["ancestry", a.ancestry],
  ["task", a.taskIds],
  ["body", a.bodyLineage],
  ["report", a.reports],
  ["excision", a.store.excisions],
];

// ---------------------------------------------------------------------------------------------
// Full encoding (a new agent; the store check in tests).

const encodeAgent = (a: Agent): RowOp[] => {
  const id = a.identity.identity;
  const rows: RowOp[] = [put(id, "agent", "", JSON.stringify(headRecord(a)))];
  if (a.migration?.bundle != null) rows.push(put(id, "bundle", "", JSON.stringify(a.migration.bundle)));
  for (const [part, list] of listParts(a))
    list.forEach((x, i) => rows.push(put(id, part, String(i), JSON.stringify(x), i)));
  for (const p of keyedParts(a)) for (const [k, v] of p.entries()) rows.push(put(id, p.part, k, v));
  for (const inst of a.instances.values()) {
    rows.push(put(id, "instance", inst.instanceId, JSON.stringify(instanceRecord(inst))));
    rows.push(put(id, "manifest", inst.instanceId, JSON.stringify(inst.manifest)));
    inst.trace.forEach((t, i) => rows.push(put(id, traceOf(inst.instanceId), String(i), JSON.stringify(t), i)));
  }
  for (const s of a.store.steps(1))
    rows.push(put(id, "lineage", String(s.version.seq), JSON.stringify(s), s.version.seq));
  return rows;
};

/** Every row the world should have, as (agent, part, key, value). */
export const encodeWorld = (w: World): Row[] => {
  const ops: RowOp[] = [
    put(WORLD, "meta", "format", JSON.stringify(ROWS_FORMAT)),
    put(WORLD, "meta", "tick", String(w.tick)),
  ];
  for (const r of w.rootsUsed) ops.push(put(WORLD, "root", r, ""));
  for (const a of w.agents.values()) ops.push(...encodeAgent(a));
  return ops.map((o) => {
    if (o.op !== "put") throw new Error("encodeWorld writes rows only");
    return { agent: o.agent, part: o.part, key: o.key, value: o.value };
  });
};

/** The rows a fresh store starts with (and `reset` leaves). */
export const emptyWorldRows = (): RowOp[] => [
  put(WORLD, "meta", "format", JSON.stringify(ROWS_FORMAT)),
  put(WORLD, "meta", "tick", "0"),
];

// ---------------------------------------------------------------------------------------------
// The delta writer.

/**
 * Knows what the store holds for the world it was primed with, and turns each command's changes
 * into row writes. After a failed commit the engine reloads the world and the writer is primed
 * again, so its marks never outlive the rows they describe.
 */
export class RowWriter {
  private tick = 0;
  private readonly heads = new Map<string, string>();
  /** Length of each append-only list as written (by list object). */
  private lists = new WeakMap<readonly unknown[], number>();
  private bundles = new WeakMap<Agent, BundleManifest | null>();
  /** The trace array of each instance and how much of it is written. */
  private traces = new WeakMap<Instance, { readonly trace: readonly string[]; readonly length: number }>();

  /** The world was just loaded (or reset): it is exactly what the store holds. */
  prime(w: World): void {
    this.tick = w.tick;
    this.heads.clear();
    this.lists = new WeakMap();
    this.bundles = new WeakMap();
    this.traces = new WeakMap();
    w.rootsUsed.forgetChanged();
    w.agents.forgetChanged();
    for (const a of w.agents.values()) this.markWritten(a);
    w.touched.clear();
  }

  private markWritten(a: Agent): void {
    this.heads.set(a.identity.identity, JSON.stringify(headRecord(a)));
    this.bundles.set(a, a.migration?.bundle ?? null);
    for (const [, list] of listParts(a)) this.lists.set(list, list.length);
    for (const p of keyedParts(a)) p.forgetChanged();
    a.instances.forgetChanged();
    for (const inst of a.instances.values()) this.traces.set(inst, { trace: inst.trace, length: inst.trace.length });
    a.store.takeChangedFrom();
  }

  /** The row writes for everything changed since the last delta (or prime); updates the marks. */
  delta(w: World): RowOp[] {
    const ops: RowOp[] = [];
    if (w.tick !== this.tick) {
      ops.push(put(WORLD, "meta", "tick", String(w.tick)));
      this.tick = w.tick;
    }
    for (const r of w.rootsUsed.takeChanged())
      ops.push(w.rootsUsed.has(r) ? put(WORLD, "root", r, "") : { op: "delete", agent: WORLD, part: "root", key: r });
    const whole = new Set<Agent>();
    for (const id of w.agents.takeChanged()) {
      const a = w.agents.get(id);
      if (this.heads.has(id)) ops.push({ op: "deleteAgent", agent: id });
      this.heads.delete(id);
      if (a === undefined) continue;
      ops.push(...encodeAgent(a));
      this.markWritten(a);
      whole.add(a);
    }
    for (const a of w.touched) {
      if (!whole.has(a) && w.agents.get(a.identity.identity) === a) this.agentDelta(a, ops);
    }
    w.touched.clear();
    return ops;
  }

  private agentDelta(a: Agent, ops: RowOp[]): void {
    const id = a.identity.identity;
    const head = JSON.stringify(headRecord(a));
    if (this.heads.get(id) !== head) {
      ops.push(put(id, "agent", "", head));
      this.heads.set(id, head);
    }
    const bundle = a.migration?.bundle ?? null;
    if (this.bundles.get(a) !== bundle) {
      ops.push(
        bundle === null
          ? { op: "delete", agent: id, part: "bundle", key: "" }
          : put(id, "bundle", "", JSON.stringify(bundle)),
      );
      this.bundles.set(a, bundle);
    }
    for (const [part, list] of listParts(a)) {
      const written = this.lists.get(list);
      let from = written ?? 0;
      if (written === undefined || list.length < written) {
        ops.push({ op: "deletePart", agent: id, part });
        from = 0;
      }
      for (let i = from; i < list.length; i++) ops.push(put(id, part, String(i), JSON.stringify(list[i]), i));
      this.lists.set(list, list.length);
    }
    for (const p of keyedParts(a)) {
      for (const k of p.takeChanged()) {
        const v = p.value(k);
        ops.push(v === undefined ? { op: "delete", agent: id, part: p.part, key: k } : put(id, p.part, k, v));
      }
    }
    for (const iid of a.instances.takeChanged()) {
      const inst = a.instances.get(iid);
      if (inst === undefined) {
        ops.push(
          { op: "delete", agent: id, part: "instance", key: iid },
          { op: "delete", agent: id, part: "manifest", key: iid },
          { op: "deletePart", agent: id, part: traceOf(iid) },
        );
        continue;
      }
      ops.push(put(id, "instance", iid, JSON.stringify(instanceRecord(inst))));
      const mark = this.traces.get(inst);
      let from = mark?.length ?? 0;
      if (mark === undefined) ops.push(put(id, "manifest", iid, JSON.stringify(inst.manifest)));
      // A new life, a replaced trace (distillation empties it, S-1) or a shorter one: rewrite it whole.
      if (mark === undefined || mark.trace !== inst.trace || inst.trace.length < mark.length) {
        ops.push({ op: "deletePart", agent: id, part: traceOf(iid) });
        from = 0;
      }
      for (let i = from; i < inst.trace.length; i++)
        ops.push(put(id, traceOf(iid), String(i), JSON.stringify(inst.trace[i]), i));
      this.traces.set(inst, { trace: inst.trace, length: inst.trace.length });
    }
    const from = a.store.takeChangedFrom();
    if (from !== null) {
      ops.push({ op: "deleteFrom", agent: id, part: "lineage", seq: from });
      for (const s of a.store.steps(from))
        ops.push(put(id, "lineage", String(s.version.seq), JSON.stringify(s), s.version.seq));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding (recovery): rows in (agent, part, seq) order → World. O(rows).

const parse = <T>(text: string, where: string): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`row ${where} is not JSON`);
  }
};

type Parts = Map<string, [string, string][]>;

const rowsOf = (parts: Parts, part: string): [string, string][] => parts.get(part) ?? [];
const valuesOf = <T>(parts: Parts, part: string, agent: string): T[] =>
  rowsOf(parts, part).map(([k, v]) => parse<T>(v, `${agent}/${part}/${k}`));
const keysOf = (parts: Parts, part: string): string[] => rowsOf(parts, part).map(([k]) => k);
const single = <T>(parts: Parts, part: string, agent: string): T | null => {
  const rows = rowsOf(parts, part);
  if (rows.length > 1) throw new Error(`agent ${agent} has ${rows.length} ${part} rows`);
  return rows[0] === undefined ? null : parse<T>(rows[0][1], `${agent}/${part}`);
};

const decodeAgent = (id: string, parts: Parts): Agent => {
  const head = single<HeadRecord>(parts, "agent", id);
  if (head === null) throw new Error(`agent ${id} has rows but no agent row`);
  if (head.identity.identity !== id) throw new Error(`agent row of ${id} names ${head.identity.identity}`);
  const retained = valuesOf<HeldDistillate>(parts, "retained", id);
  for (const h of retained) {
    // A damaged row is detected here rather than trusted (the digest is what the chain commits to).
    if (distillateDigest(h.distillate) !== h.digest)
      throw new Error(`retained distillate ${h.distillate.distillate_id} does not match its digest`);
  }
  const store = SamskaraStore.restore({
    genesis: head.genesis as Digest,
    steps: valuesOf<LineageStep>(parts, "lineage", id),
    retained,
    excisions: valuesOf<ExcisionRecord>(parts, "excision", id),
    quarantined: keysOf(parts, "quarantined"),
  });
  const a = new Agent(head.identity, store, {
    designation: head.designation,
    bodyRevision: head.body_revision,
    custodians: head.custodians,
    execution: head.execution,
    providers: head.providers,
    requiredCapabilities: head.required_capabilities,
    authority: head.authority,
  });
  a.identityVersion = head.identity_version;
  a.marker = head.marker;
  const bundle = single<BundleManifest>(parts, "bundle", id);
  a.migration =
    head.migration === null
      ? null
      : {
          migrationId: head.migration.migration_id,
          phase: head.migration.phase,
          sourceExecutionId: head.migration.source_execution_id,
          bundle,
          bundleDigest: head.migration.bundle_digest,
          target: head.migration.target,
          delta: head.migration.delta,
          surfaces: head.migration.surfaces,
        };
  for (const x of valuesOf<string>(parts, "ancestry", id)) a.ancestry.push(x);
  for (const x of valuesOf<string>(parts, "task", id)) a.taskIds.push(x);
  a.bodyLineage.length = 0;
  for (const x of valuesOf<string>(parts, "body", id)) a.bodyLineage.push(x);
  for (const x of valuesOf<MigrationReport>(parts, "report", id)) a.reports.push(x);
  for (const k of keysOf(parts, "nonce")) a.nonces.add(k);
  for (const k of keysOf(parts, "distillate_id")) a.distillateIds.add(k);
  for (const k of keysOf(parts, "token")) a.usedTokens.add(k);
  for (const k of keysOf(parts, "attempt_nonce")) a.usedAttemptNonces.add(k);
  for (const k of keysOf(parts, "effect")) a.effects.add(k);
  for (const k of keysOf(parts, "migration_id")) a.migrationIds.add(k);
  for (const [k, v] of rowsOf(parts, "replica")) a.replicas.set(k, parse<ExecutionBinding>(v, `${id}/replica/${k}`));
  for (const [k, v] of rowsOf(parts, "surface")) a.surfaces.set(k, parse<BoundSurface>(v, `${id}/surface/${k}`));
  for (const [k, v] of rowsOf(parts, "live")) a.liveAttempts.set(k, parse<string>(v, `${id}/live/${k}`));
  for (const [k, v] of rowsOf(parts, "fence")) a.fences.set(k, parse<SourceFence>(v, `${id}/fence/${k}`));
  const manifests = new Map(rowsOf(parts, "manifest"));
  for (const r of valuesOf<InstanceRecord>(parts, "instance", id)) {
    const m = manifests.get(r.instance_id);
    if (m === undefined) throw new Error(`instance ${r.instance_id} of ${id} has no manifest row`);
    const i = new Instance(
      r.instance_id,
      r.nonce,
      parse<JanmaManifest>(m, `${id}/manifest/${r.instance_id}`),
      r.manifest_digest,
      r.born_from,
    );
    Object.assign(i, {
      state: r.state,
      bornTick: r.born_tick,
      acts: r.acts,
      failures: r.failures,
      consecutiveFailures: r.consecutive_failures,
      trace: valuesOf<string>(parts, traceOf(r.instance_id), id),
      grants: r.grants,
      tools: r.tools,
      withdrawal: r.withdrawal,
      withdrawnTick: r.withdrawn_tick,
      obligationId: r.obligation_id,
    });
    for (const t of r.tools_used) i.toolsUsed.add(t);
    a.instances.set(i.instanceId, i);
  }
  for (const r of valuesOf<ObligationRecord>(parts, "obligation", id)) {
    const o = new Obligation(
      r.obligation_id,
      r.instance_id,
      r.kind,
      r.distillate_id,
      r.distillate_digest,
      r.born_from,
      r.created_tick,
      r.deadline_tick,
      r.max_retries,
      r.held,
    );
    o.attempts = r.attempts;
    o.status = r.status;
    o.outcome = r.outcome;
    a.obligations.set(o.obligationId, o);
  }
  for (const part of parts.keys()) {
    if (part.startsWith(TRACE) && !a.instances.has(part.slice(TRACE.length)))
      throw new Error(`trace rows of ${id} belong to no instance (${part})`);
  }
  return a;
};

/** Recovery: the world from all rows, ordered by (agent, part, seq). Throws on anything inconsistent. */
export const decodeWorld = (rows: Iterable<Row>): World => {
  const byAgent = new Map<string, Parts>();
  for (const r of rows) {
    let parts = byAgent.get(r.agent);
    if (parts === undefined) byAgent.set(r.agent, (parts = new Map()));
    let list = parts.get(r.part);
    if (list === undefined) parts.set(r.part, (list = []));
    list.push([r.key, r.value]);
  }
  const own = byAgent.get(WORLD) ?? new Map<string, [string, string][]>();
  const meta = new Map(rowsOf(own, "meta"));
  const format = meta.get("format");
  if (format === undefined || parse<string>(format, "meta/format") !== ROWS_FORMAT)
    throw new Error(`unknown state format ${String(format)}`);
  const tick = Number(meta.get("tick"));
  if (!Number.isSafeInteger(tick) || tick < 0) throw new Error(`meta/tick is not a tick: ${String(meta.get("tick"))}`);
  const w = new World();
  w.tick = tick;
  for (const r of keysOf(own, "root")) w.rootsUsed.add(r);
  for (const [id, parts] of byAgent) {
    if (id !== WORLD) w.agents.set(id, decodeAgent(id, parts));
  }
  return w;
};
