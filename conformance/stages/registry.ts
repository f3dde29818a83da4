/**
 * Every certification stage's definition, in the order `srk certify` runs them. The order is the
 * spec's (spec/names.ts STAGES, normative): the type below refuses a list in any other order, and
 * registry.test.ts checks the same at run time. Everything else about the stages is read from
 * here: the runners certify.ts calls (through the shard gate) and, from the catalog entries the
 * definitions carry, the concerns and descriptions (catalog.ts, for readers that must not load
 * the runners).
 */
import type { STAGES, StageName } from "../../spec/certificate.ts";
import { algebra } from "./algebra.ts";
import { crash } from "./crash.ts";
import type { StageDefinition } from "./definition.ts";
import { differential } from "./differential.ts";
import { exhaustive } from "./exhaustive.ts";
import { forgetting } from "./forgetting.ts";
import { golden } from "./golden.ts";
import { handshake } from "./handshake.ts";
import { runStage } from "./shard-gate.ts";
import type { StageContext, StageOutcome } from "./types.ts";
import { wire } from "./wire.ts";

const DEFINITIONS = [handshake, golden, wire, exhaustive, differential, algebra, crash, forgetting] as const;

// Compile-time: the names of DEFINITIONS, position by position, are STAGES exactly.
type NamesOf<T extends readonly StageDefinition[]> = { readonly [K in keyof T]: T[K]["name"] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inSpecOrder: Same<NamesOf<typeof DEFINITIONS>, typeof STAGES> = true;
void inSpecOrder;

/** Every stage's definition, in spec order. */
export const STAGE_DEFINITIONS: readonly StageDefinition[] = DEFINITIONS;

/** A stage's definition by name. */
export const definitionOf = (name: StageName): StageDefinition => {
  const d = STAGE_DEFINITIONS.find((x) => x.name === name);
  if (d === undefined) throw new Error(`runner bug: no definition of stage ${name}`);
  return d;
};

/** Each stage's runner, behind the shard gate (shard-gate.ts): what certify.ts calls. */
export const STAGE_RUNNERS: Readonly<Record<StageName, (ctx: StageContext) => Promise<StageOutcome>>> =
  Object.fromEntries(STAGE_DEFINITIONS.map((d) => [d.name, (ctx: StageContext) => runStage(d, ctx)])) as Record<
    StageName,
    (ctx: StageContext) => Promise<StageOutcome>
  >;
