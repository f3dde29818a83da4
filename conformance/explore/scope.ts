/**
 * An exploration scope as data (JSON, checked by zod): the finite set of commands `srk explore`
 * tries in every state. A scope names command *makers* (mint, conceive, birth, act, withdraw,
 * distil, attempt, dissolve, merge, expire, custody_expire, replay, excise) and the parameter domains they range over (roots, instance
 * ids, distillate shapes, delivery acks); at each state the explorer applies every (maker,
 * parameter tuple). Values only known in the state (an agent's identity digest, its store head,
 * a manifest digest, an action signature) are computed from the state itself, so every command
 * is well-formed; whether the model accepts it is what the exploration finds out.
 */
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { KIT_ROOT } from "../kit-root.ts";

export const MAKER_NAMES = ["mint", "conceive", "birth", "act", "withdraw", "distil", "attempt", "dissolve", "merge", "expire", "custody_expire", "replay", "excise"] as const;
export type MakerName = (typeof MAKER_NAMES)[number];

const Id = z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,31}$/, "an id: lower-case letters, digits, _ . -, at most 32");

export const DistillateShapeSchema = z.strictObject({
  /** The distillate id's suffix (the id is `d-<instance>-<shape id>`). */
  id: Id,
  /** Valence, confidence and weights in millionths, as the spec's fixed-point numbers. */
  valence: z.number().int().min(-1_000_000).max(1_000_000),
  confidence: z.number().int().min(0).max(1_000_000),
  dispositions: z.array(z.strictObject({ key: Id, guidance: z.string().min(1).max(200), weight: z.number().int().min(-1_000_000).max(1_000_000) })).max(4),
});
export type DistillateShape = z.infer<typeof DistillateShapeSchema>;

export const ScopeSchema = z.strictObject({
  name: Id,
  description: z.string().optional(),
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
});
export type Scope = z.infer<typeof ScopeSchema>;

export class ScopeError extends Error {
  override readonly name = "ScopeError";
}

/** Check scope data; a malformed scope is refused naming the field (`path: message`). */
export const parseScope = (data: unknown, source = "scope"): Scope => {
  const r = ScopeSchema.safeParse(data);
  if (r.success) {
    const dup = (xs: readonly string[]) => xs.find((x, k) => xs.indexOf(x) !== k);
    for (const field of ["roots", "instances", "makers"] as const) {
      const d = dup(r.data[field]);
      if (d !== undefined) throw new ScopeError(`${source}: ${field}: duplicate ${d}`);
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
export const NAMED_SCOPES = ["default", "large"] as const;

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
