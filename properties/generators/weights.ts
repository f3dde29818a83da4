/**
 * The operation kinds the interpreter knows and how often each is chosen, per profile.
 *
 * A weight is how many slots a kind takes in the list `materialize` indexes with `choice.op`
 * (`ops[c.op % ops.length]`). The list is the table expanded in its key order, so the key order
 * is load-bearing: reordering the keys (or changing a weight) changes which kind every choice
 * names, hence every generated run and the golden sessions (weights.test.ts pins both lists).
 */
import type { GenProfile } from "./memory.ts";

/** Every operation kind the interpreter makes a command for (makers.ts has one maker per kind). */
export type OpKind =
  | "mint"
  | "conceive"
  | "birth"
  | "act"
  | "withdraw"
  | "expire"
  | "distil"
  | "attempt"
  | "custody_expire"
  | "merge"
  | "excise"
  | "replay"
  | "dissolve"
  | "acquire"
  | "project_write"
  | "task_start"
  | "task_resume"
  | "task_pause"
  | "request"
  | "reply"
  | "effect"
  | "evolve"
  | "identity_update"
  | "bind_surface"
  | "replicate"
  | "descend"
  | "restart"
  | "migrate"
  | "cancel";

/** Ops and their relative frequency: Janma and the store dominate so that lineages grow deep. */
const MIXED_WEIGHTS: Readonly<Record<OpKind, number>> = {
  mint: 1,
  conceive: 5,
  birth: 7,
  act: 10,
  withdraw: 5,
  expire: 2,
  distil: 8,
  attempt: 3,
  custody_expire: 1,
  merge: 7,
  excise: 2,
  replay: 1,
  dissolve: 1,
  acquire: 1,
  project_write: 1,
  task_start: 2,
  task_resume: 1,
  task_pause: 2,
  request: 2,
  reply: 2,
  effect: 2,
  evolve: 1,
  identity_update: 1,
  bind_surface: 2,
  replicate: 2,
  descend: 1,
  restart: 1,
  migrate: 2,
  cancel: 1,
};

/** The `store` profile: one agent, its lives and its store (attempt last, as it always was). */
const STORE_WEIGHTS: Readonly<Partial<Record<OpKind, number>>> = {
  conceive: 4,
  birth: 4,
  act: 5,
  withdraw: 4,
  distil: 6,
  merge: 6,
  excise: 1,
  replay: 1,
  attempt: 1,
};

export const OP_WEIGHTS: Readonly<Record<GenProfile, Readonly<Partial<Record<OpKind, number>>>>> = {
  mixed: MIXED_WEIGHTS,
  store: STORE_WEIGHTS,
};

/** A weight table as the list `choice.op` indexes: each kind `weight` times, in the table's key order. */
const expand = (weights: Readonly<Partial<Record<OpKind, number>>>): readonly OpKind[] =>
  (Object.entries(weights) as Array<[OpKind, number]>).flatMap(([kind, n]) => Array<OpKind>(n).fill(kind));

/** The expanded list of each profile (built once: `materialize` indexes it at every step). */
export const OP_LISTS: Readonly<Record<GenProfile, readonly OpKind[]>> = {
  mixed: expand(MIXED_WEIGHTS),
  store: expand(STORE_WEIGHTS),
};

/** Every operation kind the generator chooses from (swarm testing disables subsets of these). */
export const OP_KINDS: readonly OpKind[] = Object.keys(MIXED_WEIGHTS) as OpKind[];
