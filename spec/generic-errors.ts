/**
 * Codes for rejections that protect no invariant: the command names something that does not
 * exist, reuses an id, or is not well-formed (D-032).
 */
export const GENERIC_ERRORS = {
  NOT_FOUND: "The command names an agent, instance, obligation, task, provider or migration that does not exist.",
  DUPLICATE_ID: "The command reuses an id that must be fresh (instance, obligation, excision, migration, execution).",
  TICK_REGRESSED: "The command's tick is earlier than the latest accepted tick; logical time never runs backwards.",
  MALFORMED: "The command is not well-formed: it fails its schema. The issue path names the field.",
} as const;
export type GenericErrorCode = keyof typeof GENERIC_ERRORS;
