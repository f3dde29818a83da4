/**
 * The spec's lists of names as plain constants, with no schema library behind them: the stages of
 * a certification and the command operations, in their normative order. `srk --help` and
 * `srk list` read these without loading zod; `spec/certificate.ts` builds its schema from
 * `STAGES`, and a test holds `COMMAND_OP_NAMES` equal to the ops of the Command schema.
 */
export const STAGES = [
  "handshake",
  "golden",
  "wire",
  "exhaustive",
  "differential",
  "algebra",
  "crash",
  "forgetting",
] as const;
export type StageName = (typeof STAGES)[number];

/** The ops of `spec/schemas/commands.ts` `Command`, in the order of its union. */
export const COMMAND_OP_NAMES = [
  "advaita.mint",
  "advaita.project_write",
  "janma.conceive",
  "janma.birth",
  "janma.act",
  "janma.acquire",
  "janma.expire",
  "janma.withdraw",
  "janma.distil",
  "janma.dissolve",
  "custody.attempt",
  "custody.expire",
  "samskara.merge",
  "samskara.excise",
  "samskara.replay",
  "ripa.restart",
  "ripa.task_start",
  "ripa.task_resume",
  "ripa.task_pause",
  "ripa.request",
  "ripa.reply",
  "ripa.effect",
  "ripa.evolve",
  "ripa.identity_update",
  "ripa.bind_surface",
  "ripa.replicate",
  "ripa.descend",
  "ripa.migration_fence",
  "ripa.migration_checkpoint",
  "ripa.migration_validate",
  "ripa.migration_bind",
  "ripa.migration_rehydrate",
  "ripa.migration_resume",
  "ripa.migration_cancel",
] as const;
