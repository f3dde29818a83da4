/**
 * OP-0.2: the common checks (schema, tick, agent) and routing to the operation handlers.
 * On success the world tick becomes the command's tick (OP-0.3); a rejection is thrown before
 * any handler mutates anything.
 */
import type { Command, CommandOp, Event } from "../../spec/index.ts";
import { Command as CommandSchema } from "../../spec/index.ts";
import type { Agent } from "./agent.ts";
import { refuse } from "./rejection.ts";
import type { World } from "./world.ts";
import type { Handler } from "./ops/context.ts";
import { mint, projectWrite } from "./ops/advaita.ts";
import * as janma from "./ops/janma.ts";
import { distil } from "./ops/distil.ts";
import * as custody from "./ops/custody.ts";
import * as samskara from "./ops/samskara.ts";
import * as ripa from "./ops/ripa.ts";
import * as migration from "./ops/migration.ts";
import { taskPause } from "./ops/recovery.ts";

type AgentOp = Exclude<CommandOp, "advaita.mint">;

const HANDLERS: { readonly [Op in AgentOp]: Handler<Op> } = {
  "advaita.project_write": projectWrite,
  "janma.conceive": janma.conceive,
  "janma.birth": janma.birth,
  "janma.act": janma.act,
  "janma.acquire": janma.acquire,
  "janma.expire": janma.expire,
  "janma.withdraw": janma.withdraw,
  "janma.distil": distil,
  "janma.dissolve": janma.dissolve,
  "custody.attempt": custody.attempt,
  "custody.expire": custody.expire,
  "samskara.merge": samskara.merge,
  "samskara.excise": samskara.excise,
  "samskara.replay": samskara.replay,
  "ripa.restart": ripa.restart,
  "ripa.task_start": ripa.taskStart,
  "ripa.task_resume": ripa.taskResume,
  "ripa.task_pause": taskPause,
  "ripa.request": ripa.request,
  "ripa.reply": ripa.reply,
  "ripa.effect": ripa.effect,
  "ripa.evolve": ripa.evolve,
  "ripa.identity_update": ripa.identityUpdate,
  "ripa.bind_surface": ripa.bindSurface,
  "ripa.replicate": ripa.replicate,
  "ripa.descend": ripa.descend,
  "ripa.migration_fence": migration.fence,
  "ripa.migration_checkpoint": migration.checkpoint,
  "ripa.migration_validate": migration.validate,
  "ripa.migration_bind": migration.bind,
  "ripa.migration_rehydrate": migration.rehydrate,
  "ripa.migration_resume": migration.resume,
  "ripa.migration_cancel": migration.cancel,
};

/** OP-0.2 step 1: schema, reported as MALFORMED with the first issue's path. */
export const parseCommand = (raw: unknown): Command => {
  const parsed = CommandSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === "number" ? p : String(p)));
  return refuse(
    "MALFORMED",
    `command does not match its schema: ${issue?.message ?? "invalid"}${path.length > 0 ? ` at ${path.join(".")}` : ""}`,
    path,
  );
};

/** Apply one command to the world: returns its events, or throws a Rejection (state untouched). */
export const applyCommand = (world: World, raw: unknown): Event[] => {
  const cmd = parseCommand(raw);
  if (cmd.tick < world.tick)
    refuse("TICK_REGRESSED", `tick ${cmd.tick} is before the world tick ${world.tick}`, ["tick"]);
  let events: Event[];
  if (cmd.op === "advaita.mint") {
    events = mint(world, cmd);
  } else {
    const agent: Agent = world.agents.get(cmd.agent) ?? refuse("NOT_FOUND", `no agent ${cmd.agent}`, ["agent"]);
    world.touched.add(agent); // the only existing agent a command can change (a new one is added to world.agents)
    const handler = HANDLERS[cmd.op] as Handler<typeof cmd.op>;
    events = handler(world, cmd as never, agent);
  }
  world.tick = cmd.tick;
  return events;
};
