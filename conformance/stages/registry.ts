/** Every certification stage by name, in the order `srk certify` runs them (spec/certificate.ts STAGES). */
import type { StageName } from "../../spec/certificate.ts";
import { algebraStage } from "./algebra.ts";
import { differentialStage } from "./differential.ts";
import { goldenStage } from "./golden.ts";
import { handshakeStage } from "./handshake.ts";
import { wireStage } from "./wire.ts";
import { outcome, type StageContext, type StageOutcome } from "./types.ts";

const notYet = (name: string) => async (_ctx: StageContext): Promise<StageOutcome> => outcome("inconclusive", `stage ${name} is not available in this build`, 0);

export const STAGE_RUNNERS: Readonly<Record<StageName, (ctx: StageContext) => Promise<StageOutcome>>> = {
  handshake: handshakeStage,
  golden: goldenStage,
  wire: wireStage,
  differential: differentialStage,
  algebra: algebraStage,
  crash: notYet("crash"),
  forgetting: notYet("forgetting"),
};
