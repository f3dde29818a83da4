/**
 * Traceability from each invariant to the model code that enforces it (MODEL_GUARDS, read by the
 * docs generator; names are "model/path.ts#exportName" and a test checks every one exists) and
 * to its independent checkable predicate (PREDICATES, kinds as in spec/catalog.ts).
 */
import type { InvariantId } from "../spec/index.ts";

export { PREDICATES, type Predicate, type Verdict, type TransitionStep, type HistoryStep } from "./predicates.ts";

export const MODEL_GUARDS: Readonly<Record<InvariantId, readonly string[]>> = {
  "J-1": [
    "model/janma/lifecycle.ts#conceive",
    "model/janma/lifecycle.ts#birth",
    "model/janma/lifecycle.ts#toolsResolve",
    "model/janma/capability.ts#grantable",
    "model/janma/lifecycle.ts#act",
    "model/janma/lifecycle.ts#acquire",
    "model/janma/lifecycle.ts#withdraw",
  ],
  "J-2": [
    "model/janma/lifecycle.ts#act",
    "model/janma/lifecycle.ts#acquire",
    "model/janma/capability.ts#covers",
    "model/janma/capability.ts#heldGrantCovers",
  ],
  "J-3": [
    "model/janma/lifecycle.ts#act",
    "model/janma/lifecycle.ts#expire",
    "model/janma/instances.ts#pastTtl",
    "model/janma/termination.ts#firedCondition",
  ],
  "J-4": [
    "model/janma/lifecycle.ts#conceive",
    "model/janma/lifecycle.ts#withdraw",
    "model/janma/lifecycle.ts#dissolve",
    "model/janma/distil.ts#distil",
    "model/custody/custody.ts#attempt",
    "model/custody/custody.ts#expireObligation",
    "model/custody/custody.ts#discharge",
    "model/samskara/store.ts#merge",
    "model/ripa/substrate.ts#descend",
  ],
  "S-1": [
    "model/janma/distil.ts#parseDistillate",
    "model/janma/distil.ts#dispositionalContent",
    "model/samskara/consent.ts#consentAllows",
    "model/samskara/leakage.ts#leaks",
  ],
  "S-2": ["model/janma/distil.ts#distil", "model/janma/distil.ts#weightsPrincipalSigned"],
  "S-3": ["model/samskara/store.ts#merge", "model/samskara/store.ts#excise", "model/samskara/lineage.ts#mergeStep"],
  "S-4": [
    "model/samskara/store.ts#replay",
    "model/samskara/store.ts#replayReproduces",
    "model/samskara/lineage.ts#replay",
  ],
  "S-5": ["model/samskara/store.ts#excise", "model/samskara/lineage.ts#excise"],
  "AD-1": [
    "model/advaita/mint.ts#mint",
    "model/advaita/mint.ts#rootFresh",
    "model/advaita/identity.ts#advaitaIdentityOf",
    "model/ripa/substrate.ts#descend",
  ],
  "AD-2": ["model/janma/lifecycle.ts#conceive", "model/samskara/store.ts#projectWrite"],
  "AD-3": [
    "model/samskara/aggregate.ts#aggregate",
    "model/samskara/aggregate.ts#compareContributors",
    "model/janma/distil.ts#distil",
    "model/samskara/store.ts#merge",
  ],
  "AD-4": [
    "model/janma/lifecycle.ts#act",
    "model/advaita/identity.ts#actionSignature",
    "model/janma/distil.ts#distil",
    "model/samskara/aggregate.ts#aggregate",
  ],
  I1: ["model/ripa/substrate.ts#identityUpdate", "model/ripa/migration.ts#validate", "model/ripa/migration.ts#resume"],
  I2: [
    "model/samskara/store.ts#excise",
    "model/advaita/memory.ts#extendMemory",
    "model/ripa/substrate.ts#taskResume",
    "model/ripa/substrate.ts#request",
    "model/ripa/migration.ts#validate",
    "model/ripa/migration.ts#resume",
  ],
  I3: ["model/ripa/substrate.ts#evolve", "model/ripa/migration.ts#validate", "model/ripa/migration.ts#resume"],
  I4: [
    "model/world.ts#transition",
    "model/ripa/migration.ts#quiesced",
    "model/ripa/substrate.ts#restart",
    "model/ripa/substrate.ts#tokenFresh",
    "model/ripa/substrate.ts#effect",
    "model/ripa/substrate.ts#request",
    "model/ripa/substrate.ts#reply",
    "model/ripa/migration.ts#fence",
    "model/ripa/migration.ts#inPhase",
    "model/ripa/migration.ts#resume",
    "model/ripa/migration.ts#cancel",
  ],
  I5: ["model/ripa/migration.ts#validate", "model/ripa/migration.ts#capabilityDelta", "model/ripa/substrate.ts#effect"],
  I6: ["model/ripa/substrate.ts#bindSurface", "model/ripa/substrate.ts#reservedLabel", "model/ripa/migration.ts#bind"],
};
