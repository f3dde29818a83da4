/**
 * The shard gate (D-038), the one place a stage becomes "not this shard's": every stage runs
 * through `runStage`, which asks its definition how its units are dealt out (definition.ts) and
 * either skips a run that owns none of them or turns the run's `NONE_OWNED` into that outcome. The
 * stages keep deciding which of their units they run (`owns` in shard/shard.ts); they no longer
 * each build the "not this shard's" outcome themselves.
 */
import { ownsAny } from "../shard/shard.ts";
import type { StageDefinition } from "./definition.ts";
import { NONE_OWNED, notThisShard, type StageContext, type StageOutcome } from "./types.ts";

export const runStage = async (def: StageDefinition, ctx: StageContext): Promise<StageOutcome> => {
  const shard = ctx.shard;
  // Unsharded, every unit is this run's: nothing to gate.
  if (shard === undefined) return def.run(ctx);
  if (def.shard.dealt === "before") {
    const units = def.shard.units(ctx);
    if (units !== null && !ownsAny(shard, def.name, units)) return notThisShard(shard);
  }
  const out = await def.run(ctx);
  return out === NONE_OWNED ? notThisShard(shard) : out;
};
