/**
 * The executable reference model of the Samsara (Janma, Samskara, Advaita) and RIPA protocols.
 * Pure: no I/O, no clock, no randomness; every tick, id, nonce, root and token is an input.
 */
export { initialWorld, transition, parseCommand, QUIESCED_OPS } from "./world.ts";
export { view, agentView } from "./view.ts";
export { Rejection, toRejectionData, violates, generic } from "./rejection.ts";
export type { World, Agent, Instance, Obligation, Store, Ripa, Migration } from "./state.ts";
export {
  aggregate,
  stateDigest,
  distillateDigest,
  roundHalfEven,
  compareContributors,
  EMPTY_STATE,
} from "./samskara/aggregate.ts";
export { genesisVersion, mergeStep, replay, excise, batchOf, sameChain, type Lineage } from "./samskara/lineage.ts";
export {
  momentumWeightOnly,
  momentumGuidanceAware,
  momentumSeries,
  converged,
  DEFAULT_THRESHOLD,
  DEFAULT_WINDOW,
} from "./samskara/momentum.ts";
export { leaks, tokens, LEAK_RUN } from "./samskara/leakage.ts";
export { consentAllows, resolveSensitivity } from "./samskara/consent.ts";
export { covers, grantable } from "./janma/capability.ts";
export { holds as terminationHolds } from "./janma/termination.ts";
export { actionSignature, advaitaIdentityOf, memorySnapshot, identityRecordDigest } from "./advaita/identity.ts";
export { capabilityDelta } from "./ripa/migration.ts";
export {
  MODEL_GUARDS,
  PREDICATES,
  type Predicate,
  type Verdict,
  type TransitionStep,
  type HistoryStep,
} from "./traceability.ts";
export { STEP_CLAUSES, STEP_CLAUSE_CHECKS, stepViolations, type StepClause } from "./step-clauses.ts";
export {
  WorldSchema,
  encodeWorld,
  decodeWorld,
  WorldDecodeError,
  type WorldEncoded,
  type WorldIssue,
} from "./state-schema.ts";
export { replayCommands, type ReplayOutcome, type Replayed } from "./replay.ts";
