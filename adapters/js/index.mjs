/**
 * A wire adapter for implementations in JavaScript (plain Node ≥ 20, ES modules, no dependency):
 * everything of spec/wire/PROTOCOL.md that is the same for every implementation, so that the
 * implementer writes only the operations and queries. README.md says what it does and what is
 * left to write.
 */
export { serve } from "./serve.mjs";
export { createWire, SPOKEN_VERSIONS } from "./wire.mjs";
export { Refusal } from "./refusal.mjs";
export { dataDir } from "./data-dir.mjs";
export { createValidator } from "./schema.mjs";
export { validate, ERROR_CODES, OPERATION_FAMILY, QUERY_NAMES, FAMILIES } from "./spec-data.mjs";
export { decodeLine, parseStrict, nestsDeeperThan, StrictJsonError, MAX_NESTING_DEPTH } from "./strict-json.mjs";
export { LineFramer, MAX_LINE_BYTES } from "./framing.mjs";
