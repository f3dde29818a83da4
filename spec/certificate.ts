/**
 * The conformance certificate: what `srk certify` writes as `certificate.json` after certifying an
 * implementation over the wire (spec/wire/PROTOCOL.md). It is normative in the sense that every
 * consumer (CI, reports, `srk merge`) reads this shape, so it lives in the spec with a JSON Schema
 * (`spec/json-schema/Certificate.schema.json`) and a `certificate_version`.
 *
 * Verdicts are per invariant (the 19 ids of the catalog) and per stage. A verdict is decided by one
 * function in `conformance/verdicts/` from the findings and witness counts recorded here.
 */
import { z } from "zod";
import { INVARIANT_IDS } from "./catalog.ts";
import { INSTANCE_STATES } from "./schemas/janma.ts";
import { PROFILE_FAMILIES } from "./wire/limits.ts";
import { STAGES } from "./names.ts";

export const CERTIFICATE_VERSION = 1;

export const VERDICTS = ["pass", "fail", "not-applicable", "not-selected", "inconclusive"] as const;
export const Verdict = z
  .enum(VERDICTS)
  .describe(
    "pass: checked with witnesses and no violation; fail: a violation was found; not-applicable: outside the declared profile; not-selected: left out by --only (never checked, never a failure); inconclusive: could not be decided",
  );
export type Verdict = z.infer<typeof Verdict>;

/** The certification stages, in the order they run (issue #7, `srk list`). */
export { STAGES };
export const StageName = z.enum(STAGES);
export type StageName = z.infer<typeof StageName>;

const Count = z.int().min(0);
const InvariantIdSchema = z.enum(INVARIANT_IDS);

/** How often an invariant was exercised. A pass needs at least one witness (vacuity guard). */
export const Witnesses = z
  .strictObject({
    accepted: Count.describe("accepted steps of an operation the invariant guards, replies equal to the model's"),
    rejected: Count.describe("steps rejected under this invariant, agreed with the model"),
    crash_cuts: Count.describe("crash cuts after which the recovered world equalled the model's"),
    algebra: Count.describe("algebra checks (merge order-independence, replay, excision) that concerned it"),
    forgetting: Count.describe("byte scans of the data directory that concerned it"),
  })
  .meta({ id: "Witnesses" });
export type Witnesses = z.infer<typeof Witnesses>;

/** One step of a portable trace: what was sent, what the model expects, what the implementation said. */
export const TraceStep = z
  .strictObject({
    request: z.record(z.string(), z.json()).describe("the wire request, exactly as sent (its id included)"),
    expected: z.json().describe("the normative part of the reply the reference model gives (W-9)"),
    actual: z
      .union([z.json(), z.null()])
      .describe("the normative part of the implementation's reply; null when none came"),
    model: z
      .strictObject({ check: z.string(), rule: z.string().optional() })
      .optional()
      .describe(
        "informative, on a step the model rejects: the check clause (and uniqueness rule) its rejection failed at, which attributes a disagreement over a generic code (D-035 rule 1)",
      ),
  })
  .meta({ id: "TraceStep" });
export type TraceStep = z.infer<typeof TraceStep>;

/**
 * A counterexample that any implementation can re-run with `srk replay`: start on an empty data
 * directory, handshake, send each request in order, compare each reply's normative part.
 */
export const PortableTrace = z
  .strictObject({
    trace_version: z.literal(1),
    invariant: z
      .union([InvariantIdSchema, z.null()])
      .describe("the invariant the failure is attributed to; null for a wire-protocol failure"),
    stage: z
      .union([StageName, z.literal("log")])
      .describe("the stage that found it, or log: srk check-log, from a recorded log (spec/LOG.md)"),
    check: z.string().describe("the check that failed, e.g. differential/step"),
    summary: z.string().describe("what disagreed, in one sentence"),
    seed: z.union([z.int(), z.null()]),
    path: z.union([z.string(), z.null()]).describe("fast-check replay path of the shrunk case, when generated"),
    steps: z.array(TraceStep),
    /** Index into steps of the first step whose reply (or the world after it) differs. */
    failing_step: z.union([Count, z.null()]),
    /** When the failure is in the world view after a step rather than in its reply. */
    difference: z.union([z.string(), z.null()]).describe("the first differing field, as path: expected vs actual"),
    shrink: z
      .strictObject({
        attempts: Count.describe("shrink steps that found a smaller failing case"),
        original_length: Count.describe("requests in the failing run before shrinking"),
        interrupted: z
          .boolean()
          .describe(
            "the shrink stopped before it was done: the counterexample is not fully shrunk (still a valid, replayable counterexample, only not minimal)",
          ),
        reason: z
          .string()
          .optional()
          .describe(
            'informative, when interrupted: why the shrink stopped, e.g. "shrink budget (20% of the time budget) reached" (D-064) or "the time budget ended"',
          ),
      })
      .nullable()
      .describe("how the counterexample was shrunk; null when its stage does not shrink (it was not generated)"),
  })
  .meta({ id: "PortableTrace" });
export type PortableTrace = z.infer<typeof PortableTrace>;

export const CounterexampleRef = z
  .strictObject({
    invariant: z.union([InvariantIdSchema, z.null()]),
    stage: StageName,
    check: z.string(),
    summary: z.string(),
    steps: Count,
    trace_file: z.union([z.string(), z.null()]).describe("path of the portable trace, relative to the certificate"),
    replay: z.union([z.string(), z.null()]).describe("one command line that re-runs it"),
    shrunk: z
      .literal(false)
      .optional()
      .describe(
        "present when the counterexample is not fully shrunk: its shrink was cut short (D-064); it still fails",
      ),
    shrink_reason: z
      .string()
      .optional()
      .describe("why the shrink was cut short: the shrink budget or the time budget (D-064)"),
  })
  .meta({ id: "CounterexampleRef" });
export type CounterexampleRef = z.infer<typeof CounterexampleRef>;

export const InvariantVerdict = z
  .strictObject({
    invariant: InvariantIdSchema,
    family: z.enum(PROFILE_FAMILIES),
    verdict: Verdict,
    reason: z.string().describe("why this verdict: the violation, the missing family, or what kept it from a decision"),
    witnesses: Witnesses,
    counterexamples: z.array(CounterexampleRef),
    expected_failure: z.boolean().describe("listed in the --expected-failures baseline"),
  })
  .meta({ id: "InvariantVerdict" });
export type InvariantVerdict = z.infer<typeof InvariantVerdict>;

export const StageResult = z
  .strictObject({
    stage: StageName,
    verdict: Verdict,
    reason: z.string(),
    checks: Count.describe("individual checks the stage made"),
    duration_ms: Count,
    findings: z.array(CounterexampleRef).describe("violations the stage found"),
    notes: z.array(z.string()).describe("what the stage did, skipped or could not do"),
  })
  .meta({ id: "StageResult" });
export type StageResult = z.infer<typeof StageResult>;

/**
 * The states of a migration as the coverage of the RIPA migration machine counts them (OP-7):
 * `idle` (no migration in progress), the five phases of MigrationView, and the two ends of one
 * migration, `resumed` (completed) and `cancelled` (rolled back); after either the agent is idle.
 */
export const MIGRATION_STATES = [
  "idle",
  "fenced",
  "checkpointed",
  "validated",
  "bound",
  "rehydrated",
  "resumed",
  "cancelled",
] as const;

/** State-machine transitions the campaign drove: accepted commands of the golden, exhaustive and differential stages. */
export const CoveredTransition = z
  .discriminatedUnion("machine", [
    z.strictObject({
      machine: z.literal("janma"),
      from: z.enum(INSTANCE_STATES),
      to: z.enum(INSTANCE_STATES),
      op: z.string(),
      count: Count.min(1),
    }),
    z.strictObject({
      machine: z.literal("ripa-migration"),
      from: z.enum(MIGRATION_STATES),
      to: z.enum(MIGRATION_STATES),
      op: z.string(),
      count: Count.min(1),
    }),
  ])
  .describe(
    "one transition of the Janma lifecycle (per instance) or of the RIPA migration (per agent), with the operation that made it and how often the implementation made it as the model did",
  );
export type CoveredTransition = z.infer<typeof CoveredTransition>;

/**
 * How much of a scope's reachable behaviour the differential campaign covered (D-075): the scope's
 * explored graph, abstracted to (abstract state, operation, outcome) edges, is the ground truth.
 */
export const EdgeCoverage = z
  .strictObject({
    scope: z.string().describe("the scope explored (the exhaustive stage's: settings.exhaustive_scope)"),
    reachable: Count.describe("abstract edges of the scope's graph, explored with the profile's operations"),
    covered: z
      .array(Count)
      .describe(
        "the reachable edges the differential campaign's agreed runs made, as indices into their sorted list (so shards merge by union)",
      ),
    unguided: Count.optional().describe(
      "the reachable edges the same seed's runs would make without coverage guidance, planned in the model (D-075)",
    ),
  })
  .describe(
    "the differential campaign's coverage of the scope's reachable abstract edges; covered.length / reachable is the figure",
  );
export type EdgeCoverage = z.infer<typeof EdgeCoverage>;

export const Coverage = z.strictObject({
  transitions: z.array(CoveredTransition).describe("every transition driven at least once, by machine, from, to, op"),
  edges: EdgeCoverage.optional().describe(
    "absent when the differential stage did not run, and in certificates of older runners",
  ),
});
export type Coverage = z.infer<typeof Coverage>;

/** A baseline entry: an invariant id, or a stage name for failures of the wire protocol itself. */
export const BaselineEntry = z.union([InvariantIdSchema, StageName]);
export type BaselineEntry = z.infer<typeof BaselineEntry>;

export const Certificate = z
  .strictObject({
    certificate_version: z.literal(CERTIFICATE_VERSION),
    kit: z.strictObject({
      name: z.string(),
      version: z.string(),
      spec_digest: z
        .string()
        .describe("SHA-256 over the normative spec files, see conformance/certificate/spec-digest.ts"),
    }),
    protocol_version: z
      .union([z.string(), z.null()])
      .describe("the version agreed in hello; null if no handshake succeeded"),
    implementation: z.strictObject({
      name: z.union([z.string(), z.null()]),
      version: z.union([z.string(), z.null()]),
      command_line: z.string(),
      profile: z.union([
        z.strictObject({ families: z.array(z.enum(PROFILE_FAMILIES)), crash_hook: z.boolean() }),
        z.null(),
      ]),
    }),
    settings: z.strictObject({
      seed: z.int(),
      runs: Count,
      time_budget_ms: Count,
      request_timeout_ms: Count,
      only: z.array(InvariantIdSchema).describe("--only: the invariants certified; empty means all"),
      stages: z.array(StageName).describe("the stages that ran"),
      exhaustive_scope: z
        .string()
        .optional()
        .describe(
          "--exhaustive: the scope the exhaustive stage explored, a shipped name (quick by default) or a file (D-074); absent in certificates of older runners",
        ),
    }),
    started_at: z.string().describe("ISO 8601 wall-clock time; informative"),
    duration_ms: Count,
    stages: z.array(StageResult),
    invariants: z.array(InvariantVerdict).length(INVARIANT_IDS.length),
    baseline: z.strictObject({
      file: z.union([z.string(), z.null()]),
      expected: z.array(BaselineEntry),
      unexpected_failures: z.array(BaselineEntry),
      stale: z.array(BaselineEntry).describe("listed as expected failures but passed: the baseline is stale"),
    }),
    implementation_faults: z
      .array(z.string())
      .describe("the implementation could not be driven: exits, hangs, protocol breaks, with stderr tails"),
    harness_faults: z
      .array(z.string())
      .describe("faults of the runner itself, reported apart from the implementation's"),
    shards: z
      .strictObject({
        count: z.int().min(1).max(1024),
        indices: z
          .array(z.int().min(1).max(1024))
          .min(1)
          .describe("1-based, sorted: [1] unsharded; [i] shard i of count; every index once a merge is complete"),
      })
      .describe("which shards of the campaign this certificate covers (D-038)"),
    coverage: Coverage.optional().describe(
      "state-machine transitions the golden, exhaustive and differential stages drove (written by every run; absent in certificates of older runners)",
    ),
    result: z.enum(["certified", "violations", "inconclusive"]),
    exit_code: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  })
  .meta({
    id: "Certificate",
    description:
      "The outcome of one `srk certify` run: per-stage and per-invariant verdicts with witnesses and counterexamples.",
  });
export type Certificate = z.infer<typeof Certificate>;
