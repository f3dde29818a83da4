/**
 * An exploration scope as data (JSON, checked by zod): the finite set of commands `srk explore`
 * tries in every state. A scope names command *makers* and the parameter domains they range
 * over (roots, instance ids, distillate shapes, delivery acks, generator choices); at each state
 * the explorer applies every (maker, parameter tuple). The makers are the explorer's own
 * (commands.ts: mint, conceive, birth, act, withdraw, distil, attempt, dissolve, merge, expire,
 * custody_expire, replay, excise), the property generator's (makers-gen.ts: the rest of Samsara
 * and all of RIPA, one command per `choices` entry), and the refusals no valid command meets
 * (makers-rare.ts, makers-quiesced.ts). Values only known in the state (an agent's identity
 * digest, its store head, a manifest digest, an action signature) are computed from the state
 * itself, so every command is well-formed unless made not to be; whether the model accepts it is
 * what the exploration finds out.
 *
 * A scope may be composite (`parts`): each part is the scope with the part's fields over it, and
 * the parts are explored one after the other (explore.ts). A scope may declare id sets
 * interchangeable (`symmetry`, symmetry.ts).
 */
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { KIT_ROOT } from "../kit-root.ts";

/** The explorer's own makers (commands.ts): one command per parameter tuple of the scope. */
export const OWN_MAKER_NAMES = [
  "mint",
  "conceive",
  "birth",
  "act",
  "withdraw",
  "distil",
  "attempt",
  "dissolve",
  "merge",
  "expire",
  "custody_expire",
  "replay",
  "excise",
] as const;
/**
 * Makers that reuse the property generator's command builders (makers-gen.ts): each is called
 * once per `choices` entry and the distinct commands are tried.
 */
export const GEN_MAKER_NAMES = [
  "acquire",
  "project_write",
  "task_start",
  "task_resume",
  "task_pause",
  "request",
  "reply",
  "effect",
  "evolve",
  "identity_update",
  "bind_surface",
  "replicate",
  "descend",
  "restart",
  "migrate",
  "cancel",
  "migration_situation",
] as const;
/** Makers of commands refused at a check no other maker reaches (makers-rare.ts, makers-quiesced.ts). */
export const RARE_MAKER_NAMES = ["generic", "rare_samsara", "rare_ripa", "quiesced"] as const;
export const MAKER_NAMES = [...OWN_MAKER_NAMES, ...GEN_MAKER_NAMES, ...RARE_MAKER_NAMES] as const;
export type MakerName = (typeof MAKER_NAMES)[number];
export type GenMakerName = (typeof GEN_MAKER_NAMES)[number];

/** Id sets a scope may declare interchangeable (symmetry.ts). */
export const SYMMETRY_SETS = ["instances"] as const;

const Id = z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,31}$/, "an id: lower-case letters, digits, _ . -, at most 32");

export const DistillateShapeSchema = z.strictObject({
  /** The distillate id's suffix (the id is `d-<instance>-<shape id>`). */
  id: Id,
  /** Valence, confidence and weights in millionths, as the spec's fixed-point numbers. */
  valence: z.number().int().min(-1_000_000).max(1_000_000),
  confidence: z.number().int().min(0).max(1_000_000),
  dispositions: z
    .array(
      z.strictObject({
        key: Id,
        guidance: z.string().min(1).max(200),
        weight: z.number().int().min(-1_000_000).max(1_000_000),
      }),
    )
    .max(4),
});
export type DistillateShape = z.infer<typeof DistillateShapeSchema>;

/** One draw of the property generator's choice (properties/generators/choice.ts), `op` fixed at 0. */
export const GenChoiceSchema = z.strictObject({
  x: z.number().int().min(0).max(1000),
  y: z.number().int().min(0).max(1000),
  /** 0 or 1: the command is made invalid on purpose; other values as the generator reads them (3: a rogue evolve). */
  bad: z.number().int().min(0).max(15),
});
export type GenChoice = z.infer<typeof GenChoiceSchema>;

const ScopeFields = {
  /** Breadth-first depth bound (number of commands from the initial world). */
  max_depth: z.number().int().min(0).max(64),
  /** Stop once this many distinct states are known (the result says the bound was hit). */
  max_states: z.number().int().min(1).max(50_000_000),
  /** Each command's tick is the world's tick plus this (0: all at one tick; ticks may not go back). */
  tick_step: z.number().int().min(0).max(1000),
  /** Roots agents are minted from (one agent per root). */
  roots: z.array(Id).min(1).max(4),
  /** Instance ids a life may take, per agent. */
  instances: z.array(Id).min(1).max(8),
  /**
   * Symmetry by construction: conceive only the first instance id not yet used by that agent
   * (plus every used one, which the model refuses), so interchangeable ids are taken in order.
   */
  fresh_ids_in_order: z.boolean(),
  makers: z.array(z.enum(MAKER_NAMES)).min(1),
  /** Manifest parameters of every life conceived. */
  ttl_ticks: z.number().int().min(1),
  deadline_ticks: z.number().int().min(1),
  max_retries: z.number().int().min(0).max(5),
  distillates: z.array(DistillateShapeSchema).max(4),
  acks: z.array(z.enum(["declined", "deferred", "lost"])).max(3),
  /** The generator choices each generator-backed maker is called with (default: one valid draw, {x 0, y 0, bad 5}). */
  choices: z.array(GenChoiceSchema).min(1).max(16).optional(),
  /** Id sets whose members are interchangeable: states equal up to a permutation of them count once (symmetry.ts). */
  symmetry: z.array(z.enum(SYMMETRY_SETS)).optional(),
};

/**
 * A part of a composite scope: its own name and the fields it changes from the scope's. The
 * parts are explored one after the other from the initial world, and the result sums them
 * (explore.ts): families whose state spaces multiply each other (Samsara's lives, RIPA's tasks and
 * migrations) are each explored deep instead of both shallow.
 */
export const ScopePartSchema = z
  .strictObject(ScopeFields)
  .partial()
  .extend({ name: Id, description: z.string().optional() });
export type ScopePart = z.infer<typeof ScopePartSchema>;

export const ScopeSchema = z.strictObject({
  name: Id,
  description: z.string().optional(),
  ...ScopeFields,
  parts: z.array(ScopePartSchema).min(1).max(8).optional(),
});
export type Scope = z.infer<typeof ScopeSchema>;

/** The scopes a (possibly composite) scope explores: its parts applied over it, or itself. */
export const partsOf = (scope: Scope): Scope[] => {
  const { parts, ...base } = scope;
  if (parts === undefined) return [scope];
  return parts.map((p) => {
    const defined = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
    return { ...base, ...defined, name: `${scope.name}/${p.name}` } as Scope;
  });
};

export class ScopeError extends Error {
  override readonly name = "ScopeError";
}

/** Check scope data; a malformed scope is refused naming the field (`path: message`). */
export const parseScope = (data: unknown, source = "scope"): Scope => {
  const r = ScopeSchema.safeParse(data);
  if (r.success) {
    const dup = (xs: readonly string[]) => xs.find((x, k) => xs.indexOf(x) !== k);
    for (const part of partsOf(r.data))
      for (const field of ["roots", "instances", "makers"] as const) {
        const d = dup(part[field]);
        if (d !== undefined)
          throw new ScopeError(`${source}: ${part === r.data ? "" : `${part.name}: `}${field}: duplicate ${d}`);
      }
    return r.data;
  }
  const msgs = r.error.issues.map((i) => `${i.path.length === 0 ? "(root)" : i.path.join(".")}: ${i.message}`);
  throw new ScopeError(`${source}: ${msgs.join("; ")}`);
};

// From the kit's root, not from this module: in an installed package this module is compiled under
// dist/, and the scopes are shipped as data beside the golden transcripts (package.json "files").
export const SCOPES_DIR = join(KIT_ROOT, "conformance", "explore", "scopes");

/** The named scopes shipped in conformance/explore/scopes/. */
export const NAMED_SCOPES = ["quick", "default", "large"] as const;

/** A scope by name (a shipped one) or by file path. */
export const loadScope = (nameOrFile: string): Scope => {
  const named = join(SCOPES_DIR, `${nameOrFile}.json`);
  const file = /^[a-z0-9_-]+$/.test(nameOrFile) && existsSync(named) ? named : nameOrFile;
  if (!existsSync(file)) throw new ScopeError(`no scope named or at ${nameOrFile} (named: ${NAMED_SCOPES.join(", ")})`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ScopeError(`${file}: not JSON: ${(e as Error).message}`);
  }
  return parseScope(data, file);
};
