/**
 * Commands: every operation of both papers, as data. The reference model's transition
 * function, the implementation and the wire protocol all take exactly these objects, so a
 * command sequence can be generated, serialised, replayed and compared (spec/OPERATIONS.md is
 * the normative prose for each one, including the order in which its checks apply, D-032).
 *
 * Every command carries the logical `tick` at which it happens; all ids, nonces, roots and
 * tokens are supplied by the caller (no randomness, no wall clock).
 */
import { z } from "zod";
import { Authorization, CapabilityId, DigestText, Id, Text, Tick } from "./common.ts";
import { BirthEnvironment, CustodyAck, JanmaManifest, ToolBinding } from "./janma.ts";
import { SignedAction } from "./advaita.ts";
import { Disposition } from "./samskara.ts";
import { ExecutionBinding, InteractionSurface, Labels, ProviderGrant } from "./ripa.ts";

const cmd = <Op extends string, Shape extends z.ZodRawShape>(op: Op, shape: Shape, description: string) =>
  z.strictObject({ op: z.literal(op), tick: Tick, ...shape }).meta({ id: `Command.${op}`, description });

// --- Advaita ---------------------------------------------------------------------------------

export const MintCommand = cmd(
  "advaita.mint",
  {
    base_digest: DigestText,
    root: Id,
    designation: Text(200, 1),
    body_revision: Id,
    custodians: z.array(Id).min(1).max(16),
    execution: ExecutionBinding,
    providers: z.array(ProviderGrant).max(32),
    required_capabilities: z.array(CapabilityId).max(64),
    authority_token: Id,
  },
  "Install a new agent: genesis version from a unique root, identity = H(base || genesis) (AD-1).",
);

export const ProjectWriteCommand = cmd(
  "advaita.project_write",
  { agent: DigestText, instance_id: Id, disposition: Disposition },
  "A projection trying to write the store directly; always rejected (AD-2).",
);

// --- Janma -----------------------------------------------------------------------------------

export const ConceiveCommand = cmd(
  "janma.conceive",
  { agent: DigestText, instance_id: Id, nonce: Id, manifest: JanmaManifest },
  "Sankalpa: declare a new life from a manifest (avyakrta -> conceived).",
);

export const BirthCommand = cmd(
  "janma.birth",
  { agent: DigestText, instance_id: Id, environment: BirthEnvironment },
  "Janma: resolve every declared dependency, then become READY (J-1).",
);

export const ActCommand = cmd(
  "janma.act",
  { agent: DigestText, instance_id: Id, signed: SignedAction },
  "One signed act of a life (J-1, J-2, J-3, AD-4); termination is evaluated after it.",
);

export const AcquireCommand = cmd(
  "janma.acquire",
  {
    agent: DigestText,
    instance_id: Id,
    acquisition: z.discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("tool"), tool: ToolBinding }),
      z.strictObject({ kind: z.literal("capability"), capability: CapabilityId }),
    ]),
  },
  "An attempt to acquire a tool or capability not declared in the manifest; always rejected (J-1, J-2).",
);

export const ExpireCommand = cmd(
  "janma.expire",
  { agent: DigestText, instance_id: Id },
  "Evaluate the TTL at this tick; withdraws the instance if its deadline has passed (J-3).",
);

export const WithdrawCommand = cmd(
  "janma.withdraw",
  { agent: DigestText, instance_id: Id, reason: z.enum(["principal", "forced"]) },
  "Samhara: withdraw a READY or ACTIVE instance.",
);

export const DistilCommand = cmd(
  "janma.distil",
  {
    agent: DigestText,
    instance_id: Id,
    obligation_id: Id,
    /** Parsed strictly by the operation so that a malformed distillate is an S-1 rejection (D-028). */
    distillate: z.unknown(),
  },
  "Distil a withdrawn life: validate the distillate (S-1, S-2), destroy the trace, emit the obligation (J-4).",
);

export const DissolveCommand = cmd(
  "janma.dissolve",
  { agent: DigestText, instance_id: Id },
  "Dissolve a withdrawn instance whose obligation is discharged (J-4).",
);

// --- Custody ---------------------------------------------------------------------------------

export const CustodyAttemptCommand = cmd(
  "custody.attempt",
  { agent: DigestText, obligation_id: Id, ack: CustodyAck },
  "Record one delivery attempt of an obligation and what it observed (J-4, D-018).",
);

export const CustodyExpireCommand = cmd(
  "custody.expire",
  { agent: DigestText, obligation_id: Id },
  "At or after the deadline, escalate a pending corrective obligation and apply its fail-safe (J-4).",
);

// --- Samskara --------------------------------------------------------------------------------

export const MergeCommand = cmd(
  "samskara.merge",
  { agent: DigestText, obligation_ids: z.array(Id).min(1).max(256) },
  "Merge the distillates of these obligations as one batch; applies them (AD-3, S-3, J-4).",
);

export const ExciseCommand = cmd(
  "samskara.excise",
  { agent: DigestText, excision_id: Id, distillate_ids: z.array(Id).min(1).max(256), authorization: Authorization },
  "Forget distillates by replaying the lineage without them (S-5), a governed memory repair (I2).",
);

export const ReplayCommand = cmd(
  "samskara.replay",
  { agent: DigestText },
  "Replay the lineage from genesis and return the typed lineage-replay claim (S-4).",
);

// --- RIPA ------------------------------------------------------------------------------------

export const RestartCommand = cmd(
  "ripa.restart",
  { agent: DigestText, execution_id: Id, token: Id },
  "Recreate the bound execution's process; takes a new authority epoch (I4).",
);

export const TaskStartCommand = cmd(
  "ripa.task_start",
  { agent: DigestText, task_id: Id },
  "Record a new durable task in memory (I2).",
);

export const TaskResumeCommand = cmd(
  "ripa.task_resume",
  { agent: DigestText, task_id: Id },
  "Reopen a recorded task; unknown task ids are rejected (I2).",
);

export const TaskPauseCommand = cmd(
  "ripa.task_pause",
  { agent: DigestText, task_id: Id, attempt_nonce: Id },
  "Native recovery: pause a task by revoking its live attempt (the one named), so a late reply to it is rejected and a fence can follow (I4; review G-53, D-046).",
);

export const RequestCommand = cmd(
  "ripa.request",
  { agent: DigestText, task_id: Id, attempt_nonce: Id },
  "Publish a request attempt for a task; it becomes the task's only live attempt (I4).",
);

export const ReplyCommand = cmd(
  "ripa.reply",
  { agent: DigestText, task_id: Id, attempt_nonce: Id },
  "Accept a reply only for the live attempt; stale or duplicate replies are rejected (I4).",
);

export const EffectCommand = cmd(
  "ripa.effect",
  { agent: DigestText, execution_id: Id, token: Id, provider_id: Id, capability: CapabilityId, effect_id: Id },
  "An external effect under an authority token through a named provider (I4, I5).",
);

export const EvolveCommand = cmd(
  "ripa.evolve",
  { agent: DigestText, revision: Id, authorization: Authorization },
  "Governed body evolution to a new revision (I3).",
);

export const IdentityUpdateCommand = cmd(
  "ripa.identity_update",
  { agent: DigestText, designation: Text(200, 1), authorization: Authorization },
  "Governed identity update: same lineage, new identity version (I1).",
);

export const BindSurfaceCommand = cmd(
  "ripa.bind_surface",
  { agent: DigestText, surface: InteractionSurface, labels: Labels },
  "Bind or rebind an interaction surface; labels stay metadata (I6).",
);

export const ReplicateCommand = cmd(
  "ripa.replicate",
  { agent: DigestText, execution: ExecutionBinding },
  "Instantiate the same substrate concurrently as a replica without continuation authority (I4).",
);

export const DescendCommand = cmd(
  "ripa.descend",
  { agent: DigestText, root: Id, designation: Text(200, 1), execution: ExecutionBinding, authority_token: Id },
  "Descend / fork: a new independently governed agent with a new identity (AD-1, J-4).",
);

export const MigrationFenceCommand = cmd(
  "ripa.migration_fence",
  { agent: DigestText, migration_id: Id, token: Id },
  "Phase 1, quiesce and fence: stop admitting work, advance the epoch (I4).",
);

export const MigrationCheckpointCommand = cmd(
  "ripa.migration_checkpoint",
  { agent: DigestText, migration_id: Id },
  "Phase 2, checkpoint: capture the bundle manifest; the fence becomes exported.",
);

export const MigrationValidateCommand = cmd(
  "ripa.migration_validate",
  {
    agent: DigestText,
    migration_id: Id,
    bundle_digest: DigestText,
    target: z.strictObject({
      execution: ExecutionBinding,
      providers: z.array(ProviderGrant).max(32),
      body_revision: Id,
    }),
    gain_authorization: z.union([Authorization, z.null()]),
  },
  "Phase 3, validate: hashes, body revision, capability delta, before touching the target (I1, I2, I3, I5).",
);

export const MigrationBindCommand = cmd(
  "ripa.migration_bind",
  { agent: DigestText, migration_id: Id, surfaces: z.array(InteractionSurface).max(16), labels: Labels },
  "Phase 4, bind: resolve target surfaces and providers; labels stay metadata (I6).",
);

export const MigrationRehydrateCommand = cmd(
  "ripa.migration_rehydrate",
  { agent: DigestText, migration_id: Id },
  "Phase 5, rehydrate: install the checkpoint on the target (marker -> imported).",
);

export const MigrationResumeCommand = cmd(
  "ripa.migration_resume",
  { agent: DigestText, migration_id: Id, token: Id },
  "Phase 6, verify and resume: continuity checks, new epoch, marker -> activated -> verified (I1-I4).",
);

export const MigrationCancelCommand = cmd(
  "ripa.migration_cancel",
  { agent: DigestText, migration_id: Id, no_target_active: z.boolean(), authorization: Authorization },
  "Rollback: release the source fence by explicit decision that no target is active (I4).",
);

/** Every command, discriminated by `op`. */
export const Command = z
  .discriminatedUnion("op", [
    MintCommand,
    ProjectWriteCommand,
    ConceiveCommand,
    BirthCommand,
    ActCommand,
    AcquireCommand,
    ExpireCommand,
    WithdrawCommand,
    DistilCommand,
    DissolveCommand,
    CustodyAttemptCommand,
    CustodyExpireCommand,
    MergeCommand,
    ExciseCommand,
    ReplayCommand,
    RestartCommand,
    TaskStartCommand,
    TaskResumeCommand,
    TaskPauseCommand,
    RequestCommand,
    ReplyCommand,
    EffectCommand,
    EvolveCommand,
    IdentityUpdateCommand,
    BindSurfaceCommand,
    ReplicateCommand,
    DescendCommand,
    MigrationFenceCommand,
    MigrationCheckpointCommand,
    MigrationValidateCommand,
    MigrationBindCommand,
    MigrationRehydrateCommand,
    MigrationResumeCommand,
    MigrationCancelCommand,
  ])
  .meta({ id: "Command", description: "Any operation of the kit, discriminated by op." });
export type Command = z.infer<typeof Command>;
export type CommandOp = Command["op"];
export type CommandOf<Op extends CommandOp> = Extract<Command, { op: Op }>;

/** All operation names, in declaration order. */
export const COMMAND_OPS: readonly CommandOp[] = Command.options.map((o) => o.shape.op.value);
