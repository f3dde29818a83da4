/** Distillates the generator builds outside the ordinary distil (situations, merges, the chase). */
import type { JanmaManifest } from "../../spec/index.ts";
import { EVIDENCE } from "./values.ts";

/** The satisfaction model a life's manifest declares, which its signal must name (D-053). */
export const modelOf = (life: { manifest: JanmaManifest } | undefined): string | null =>
  life?.manifest.distillation_policy.satisfaction_model ?? null;

/** A distillate that passes every check of OP-2.7 for this life, with `guidance` for its one disposition. */
export const distillateFor = (
  A: string,
  inst: { instance_id: string; born_from: string },
  nonce: string,
  id: (p: string) => string,
  guidance: string,
  category = "operational",
  model: string | null = null,
) => ({
  distillate_id: id("d"),
  source: { identity: A, nonce, instance_id: inst.instance_id },
  born_from: inst.born_from,
  signal: { valence: 400_000, confidence: 1_000_000, model_version: model, explicit: true },
  dispositions: [{ key: "k.a", guidance, weight: 200_000, evidence_digest: EVIDENCE, category }],
});
