/**
 * The world module: composes the protocol modules into the pure transition function
 * `transition(world, command)`, XState-style. OP-0 common checks apply in order: schema
 * (MALFORMED), tick (TICK_REGRESSED), agent lookup (NOT_FOUND), quiescence (I4), then the
 * operation's own checks. A rejection returns a failure and the caller keeps the world it had
 * (OP-0.3): handlers never mutate, so nothing can leak out of a rejected step.
 */
import { Result } from "effect";
import { Command, type CommandOp, type Event } from "../spec/index.ts";
import { QUIESCED_OPS as SPEC_QUIESCED_OPS, quiescenceCheckOf } from "../spec/checks.ts";
import { Rejection, generic, no, ok, violates, withoutStack, type Outcome } from "./rejection.ts";
import type { World } from "./state.ts";
import type { Handler, Stepped } from "./step.ts";
import { mint } from "./advaita/mint.ts";
import { acquire, act, birth, conceive, dissolve, expire, withdraw } from "./janma/lifecycle.ts";
import { distil } from "./janma/distil.ts";
import { attempt, expireObligation } from "./custody/custody.ts";
import { excise, merge, projectWrite, replay } from "./samskara/store.ts";
import {
  bindSurface,
  descend,
  effect,
  evolve,
  identityUpdate,
  replicate,
  reply,
  request,
  restart,
  taskResume,
  taskStart,
} from "./ripa/substrate.ts";
import { bind, cancel, checkpoint, fence, quiesced, rehydrate, resume, validate } from "./ripa/migration.ts";
import { taskPause } from "./ripa/recovery.ts";

export const initialWorld = (): World => ({ tick: 0, roots_used: [], agents: new Map() });

/** OP-0.4: the operations a quiesced (fenced) agent refuses (I4); the list is the spec's. */
export const QUIESCED_OPS: ReadonlySet<CommandOp> = new Set<CommandOp>(SPEC_QUIESCED_OPS);

type AgentOp = Exclude<CommandOp, "advaita.mint">;

const HANDLERS: { readonly [Op in AgentOp]: Handler<Op> } = {
  "advaita.project_write": projectWrite,
  "janma.conceive": conceive,
  "janma.birth": birth,
  "janma.act": act,
  "janma.acquire": acquire,
  "janma.expire": expire,
  "janma.withdraw": withdraw,
  "janma.distil": distil,
  "janma.dissolve": dissolve,
  "custody.attempt": attempt,
  "custody.expire": expireObligation,
  "samskara.merge": merge,
  "samskara.excise": excise,
  "samskara.replay": replay,
  "ripa.restart": restart,
  "ripa.task_start": taskStart,
  "ripa.task_resume": taskResume,
  "ripa.task_pause": taskPause,
  "ripa.request": request,
  "ripa.reply": reply,
  "ripa.effect": effect,
  "ripa.evolve": evolve,
  "ripa.identity_update": identityUpdate,
  "ripa.bind_surface": bindSurface,
  "ripa.replicate": replicate,
  "ripa.descend": descend,
  "ripa.migration_fence": fence,
  "ripa.migration_checkpoint": checkpoint,
  "ripa.migration_validate": validate,
  "ripa.migration_bind": bind,
  "ripa.migration_rehydrate": rehydrate,
  "ripa.migration_resume": resume,
  "ripa.migration_cancel": cancel,
};

/** OP-0.2 (1): parse with the spec schema; the first issue's path names the field. */
export const parseCommand = (input: unknown): Outcome<Command> => {
  const r = Command.safeParse(input);
  if (r.success) return ok(r.data);
  const issue = r.error.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === "number" ? p : String(p)));
  const message = issue?.message ?? "command does not match its schema";
  const rule = (issue as { params?: { rule?: unknown } } | undefined)?.params?.rule;
  if (typeof rule === "string")
    return no(
      withoutStack(
        () => new Rejection({ code: "MALFORMED", invariant: null, message, path, check: "OP-0.2.c1", rule }),
      ),
    );
  return no(generic("MALFORMED", "OP-0.2.c1", message, path));
};

const dispatch = (world: World, cmd: Command): Outcome<Stepped> => {
  if (cmd.op === "advaita.mint") return mint(world, cmd);
  const agent = world.agents.get(cmd.agent);
  if (agent === undefined) return no(generic("NOT_FOUND", "OP-0.2.c3", `no agent ${cmd.agent}`, ["agent"]));
  if (QUIESCED_OPS.has(cmd.op) && quiesced(agent))
    return no(
      violates(
        "I4",
        quiescenceCheckOf(cmd.op).id,
        `agent is quiesced by migration ${agent.ripa.migration?.migration_id ?? ""}; ${cmd.op} is refused`,
      ),
    );
  const handler = HANDLERS[cmd.op] as Handler<typeof cmd.op>;
  return handler(world, agent, cmd as never);
};

/**
 * The pure transition function. On success the world tick becomes the command's tick; on
 * rejection the failure carries the typed `Rejection` and the input world is untouched.
 */
export const transition = (
  world: World,
  input: Command | unknown,
): Result.Result<{ readonly world: World; readonly events: Event[] }, import("./rejection.ts").Rejection> => {
  const parsed = parseCommand(input);
  if (Result.isFailure(parsed)) return no(parsed.failure);
  const cmd = parsed.success;
  if (cmd.tick < world.tick)
    return no(generic("TICK_REGRESSED", "OP-0.2.c2", `tick ${cmd.tick} is before ${world.tick}`, ["tick"]));
  const stepped = dispatch(world, cmd);
  if (Result.isFailure(stepped)) return no(stepped.failure);
  return ok({ world: { ...stepped.success.world, tick: cmd.tick }, events: [...stepped.success.events] });
};
