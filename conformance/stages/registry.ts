/** Every certification stage by name, in the order `srk certify` runs them (spec/certificate.ts STAGES). */
import type { StageName } from "../../spec/certificate.ts";
import { algebraStage } from "./algebra.ts";
import { crashStage } from "./crash.ts";
import { differentialStage } from "./differential.ts";
import { forgettingStage } from "./forgetting.ts";
import { goldenStage } from "./golden.ts";
import { handshakeStage } from "./handshake.ts";
import { wireStage } from "./wire.ts";
import type { StageContext, StageOutcome } from "./types.ts";

export const STAGE_RUNNERS: Readonly<Record<StageName, (ctx: StageContext) => Promise<StageOutcome>>> = {
  handshake: handshakeStage,
  golden: goldenStage,
  wire: wireStage,
  differential: differentialStage,
  algebra: algebraStage,
  crash: crashStage,
  forgetting: forgettingStage,
};
