/**
 * The explorer's makers that reuse the property generator's command builders
 * (properties/generators/makers-*.ts, migration-situations.ts) rather than writing RIPA's and the
 * rest of Samsara's commands again: each is called, for every agent, once per generator choice the
 * scope lists (`choices`), and the distinct commands it returns are tried.
 *
 * What the generator keeps across steps (its `GenMemory`: lives it conceived, attempts it revoked)
 * is not part of the explored state, so every call gets a fresh memory; the ids it draws fresh
 * (`id("t")`, tokens, attempt nonces) are numbered by the command's tick, so that they are fresh
 * along any path when ticks advance (tick_step ≥ 1) and the same in every state at one tick,
 * which keeps the commands a function of the state (breadth-first search needs that to be
 * repeatable). With tick_step 0 a second fresh id at one tick repeats the first: the model
 * refuses it as used, which is then what the exploration sees.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { World } from "../../model/index.ts";
import { view } from "../../model/index.ts";
import { MAKERS } from "../../properties/generators/makers.ts";
import { newMemory } from "../../properties/generators/memory.ts";
import { MIGRATION_SITUATIONS } from "../../properties/generators/migration-situations.ts";
import type { MakerStep } from "../../properties/generators/step.ts";
import type { OpKind } from "../../properties/generators/weights.ts";
import type { GenChoice, GenMakerName, Scope } from "./scope.ts";

/** The choice a scope without `choices` uses: one valid draw (bad 5 is neither invalid nor rogue). */
export const DEFAULT_CHOICES: readonly GenChoice[] = [{ x: 0, y: 0, bad: 5 }];

/** Each generator-backed maker's generator kind (weights.ts `OpKind`); the situations are apart. */
const KIND: Readonly<Record<Exclude<GenMakerName, "migration_situation">, OpKind>> = {
  acquire: "acquire",
  project_write: "project_write",
  task_start: "task_start",
  task_resume: "task_resume",
  task_pause: "task_pause",
  request: "request",
  reply: "reply",
  effect: "effect",
  evolve: "evolve",
  identity_update: "identity_update",
  bind_surface: "bind_surface",
  replicate: "replicate",
  descend: "descend",
  restart: "restart",
  migrate: "migrate",
  cancel: "cancel",
};

/** A world's view, computed once per state however many makers ask for it. */
export type ViewOf = () => WorldView;
export const lazyView = (world: World): ViewOf => {
  let v: WorldView | undefined;
  return () => (v ??= view(world));
};

/**
 * The distinct commands generator-backed `maker` makes in the world `v()`, for every agent (in
 * view order) and every choice of the scope, at `tick`.
 */
export const genCommands = (scope: Scope, maker: GenMakerName, v: ViewOf, tick: number): Command[] => {
  const world = v();
  const out = new Map<string, Command>();
  for (const agent of world.agents)
    for (const ch of scope.choices ?? DEFAULT_CHOICES) {
      const mem = newMemory();
      mem.seq = tick; // the request a task_pause makes instead numbers its nonce from the memory
      mem.tick = tick;
      const c = { op: 0, x: ch.x, y: ch.y, bad: ch.bad };
      const step: MakerStep = {
        v: world,
        mem,
        c,
        agent,
        A: agent.identity.identity,
        tick,
        id: (p) => `${p}${tick}`,
        bad: ch.bad === 0 || ch.bad === 1,
        regressed: false,
      };
      const made: Array<Command | undefined> =
        maker === "migration_situation" ? MIGRATION_SITUATIONS.map((s) => s(step)) : [MAKERS[KIND[maker]](step)];
      for (const cmd of made) if (cmd !== undefined) out.set(JSON.stringify(cmd), cmd);
    }
  return [...out.values()];
};
