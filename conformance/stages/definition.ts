/**
 * A certification stage as one definition: what it is about (its catalog entry: name, the
 * invariants it concerns, its description), how its campaign is dealt out over shards (D-038), and
 * its run. Each stage file exports its definition next to its runner; conformance/stages/registry.ts
 * lists them in the spec's order, and the order, the runners, the verdict rules' concerns, the
 * report text and the shard gate are all read from there.
 */
import type { StageName } from "../../spec/certificate.ts";
import type { StageEntry } from "../core/stage-catalog.ts";
import type { StageContext, StageOutcome } from "./types.ts";

/**
 * How a stage's campaign is split over shards, as the shard gate (shard-gate.ts) asks it.
 *
 * - `before`: the units are known before the run. `units(ctx)` is how many there are in the whole
 *   (unsharded) campaign; a shard that owns none of them gets "not this shard's" without running.
 *   `null` means the stage ends before any unit is dealt out — its profile or `--only` leaves it
 *   nothing to do — and that outcome, the same on every shard, is the run's to say.
 * - `while-running`: the units are dealt out only as the run goes (the crash cuts depend on the
 *   implementation's replies; the differential campaign starts its process first). The run returns
 *   `NONE_OWNED` (types.ts) when none of them was this shard's, and the gate says so.
 */
export type ShardUnits =
  | { readonly dealt: "before"; readonly units: (ctx: StageContext) => number | null }
  | { readonly dealt: "while-running" };

/** A single-unit stage (the handshake, the wire catalog, the forgetting scans): one shard runs it. */
export const ONE_UNIT: ShardUnits = { dealt: "before", units: () => 1 };

export interface StageDefinition<N extends StageName = StageName> extends StageEntry<N> {
  readonly shard: ShardUnits;
  /**
   * The stage itself, past the shard gate. It checks its own needs (the families, the crash hook)
   * where it always did: their place relative to the gate decides the reason a sharded run records.
   */
  readonly run: (ctx: StageContext) => Promise<StageOutcome>;
}
