/** `srk explore` as a library: breadth-first exploration of the reference model over a finite scope. */
export {
  explore,
  type ExploreResult,
  type ExploreOptions,
  type Progress,
  type Violation,
  type OpCount,
  type CheckCount,
} from "./explore.ts";
export {
  ScopeSchema,
  parseScope,
  loadScope,
  ScopeError,
  NAMED_SCOPES,
  MAKER_NAMES,
  type Scope,
  type MakerName,
} from "./scope.ts";
export { fingerprint, fnv1a64, canonicalJson } from "./fingerprint.ts";
export { commandsAt, type Tried } from "./commands.ts";
export { exploreJson, exploreMarkdown, checkCoverage, type CheckCoverage } from "./report.ts";
export { traceOfViolation, writeViolationTraces, type TraceFiles } from "./traces.ts";
export { scopeReach } from "./scope-reach.ts";
