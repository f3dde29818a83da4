/**
 * The kit's data, read from the shipped copy (spec-copy/, see spec-copy.mjs): the schemas the
 * adapter validates with, the error-code table (TAB-3 of spec/TABLES.md) and the family of each
 * operation (TAB-4; D-034: an operation belongs to the family named by its prefix, custody.* to
 * janma). Nothing here is written by hand from the spec's prose except the request types of W-2.2,
 * whose table has no JSON form.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COPY_DIR } from "./spec-copy.mjs";
import { createValidator } from "./schema.mjs";

const readJson = (...parts) => JSON.parse(readFileSync(join(COPY_DIR, ...parts), "utf8"));

/** Every copied schema file's root, by its title (e.g. "Command", "HelloRequest", "WorldView"). */
const schemas = {};
for (const dir of ["json-schema", join("json-schema", "wire")]) {
  for (const name of readdirSync(join(COPY_DIR, dir))
    .filter((n) => n.endsWith(".schema.json"))
    .sort()) {
    const root = readJson(dir, name);
    schemas[root.title] = root;
  }
}
export const SCHEMAS = schemas;
export const RULES = readJson("json-schema", "rules.json");

/** The validator over the copied schemas and rules (schema.mjs). */
export const { validate } = createValidator({ schemas: SCHEMAS, rules: RULES });

const tables = readJson("tables.json");

/** code → { kind: "operation" | "wire", invariant: string | null, definite: boolean } (TAB-3). */
export const ERROR_CODES = new Map(
  tables.error_codes.map((e) => [e.code, { kind: e.kind, invariant: e.invariant, definite: e.definite }]),
);

/**
 * op → its protocol family (D-034): TAB-4's `family` column is the op's prefix, and D-034 gives
 * `custody.*` (the delivery of a distillation, guarded by J-4) to janma, so a janma profile is sent
 * custody.attempt and custody.expire and must not refuse them UNSUPPORTED.
 */
export const OPERATION_FAMILY = new Map(
  tables.operations.map((o) => [o.op, o.family === "custody" ? "janma" : o.family]),
);

/** The families a profile may list (W-5.2), from the CapabilityProfile schema. */
export const FAMILIES = SCHEMAS.CapabilityProfile.$defs.CapabilityProfile.properties.families.items.enum;

/** The query names of W-6, from the Query schema's alternatives. */
export const QUERY_NAMES = SCHEMAS.Query.$defs.Query.oneOf.map(
  (a) => SCHEMAS.Query.$defs[a.$ref.slice("#/$defs/".length)].properties.name.const,
);

/** W-2.2: the request types. */
export const REQUEST_TYPES = ["hello", "command", "query", "reset", "crash_after", "shutdown"];

/** The envelope schema of each request type (W-2.2's last column). */
export const ENVELOPE_SCHEMA = {
  hello: "HelloRequest",
  command: "CommandRequest",
  query: "QueryRequest",
  reset: "ResetRequest",
  crash_after: "CrashAfterRequest",
  shutdown: "ShutdownRequest",
};

/**
 * The member of a command or query envelope that holds the request itself, and the envelope's other
 * members, from the request schemas: W-4.1 checks the envelope (row 9) before what it carries.
 */
export const envelopeMembers = (type) => {
  const def = SCHEMAS[ENVELOPE_SCHEMA[type]].$defs[ENVELOPE_SCHEMA[type]];
  return { members: Object.keys(def.properties), required: def.required };
};

/**
 * The schema of each query's result (the W-6 table, which has no JSON form): a definition name, or
 * `[name]` for an array of it.
 */
export const QUERY_RESULT = {
  world: "WorldView",
  agent: "AgentView",
  store: "StoreView",
  lineage: "LineageResult",
  instances: ["InstanceView"],
  instance_state: "InstanceStateResult",
  obligations: ["DistillationObligation"],
  identity: "IdentityResult",
  substrate: "PersistentSubstrate",
  authority: "AuthorityResult",
  migration: "MigrationResult",
};
