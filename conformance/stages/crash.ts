/**
 * The crash stage: durability and atomicity across crashes (spec/wire/PROTOCOL.md W-7.1, W-7.3,
 * W-7.4), judged against the reference model's world after each command of a generated session.
 *
 * 1. Baseline: the session is run once without any crash, with a `world` query after every step.
 *    Cuts are only judged over the steps where the implementation agrees with the model, so a
 *    crash finding is about the crash, never a plain disagreement (the differential stage owns
 *    those).
 * 2. Hook cuts (W-7.3, when the profile declares `crash_hook`): for the k-th durable write
 *    (accepted command) of the session and each `at`, `reset`, `crash_after {writes: k, at}`, then
 *    the commands in order. The process must die at exactly that command; restarted on the same
 *    directory, its world must equal the model's world before (`before_commit`) or after
 *    (`after_commit`) it. `reset` is a durable write too: one more cut per `at` arms the hook and
 *    sends `reset`.
 * 3. Black-box kills (W-7.4): the whole session is pipelined and the process group is SIGKILLed at
 *    a seeded moment (a delay, or right after a given reply). Restarted, its world must equal the
 *    model's world after some prefix of the sent commands that includes every answered one (W-7.1).
 *
 * A cut whose recovered world equals the model's is a `crash_cuts` witness for the invariants
 * guarding the cut command's operation and those whose state that command changes.
 *
 * This file is the driver (issue 22): it sends, kills and restarts, and records each part of the
 * run in a history (CrashEvent, crash-check.ts) with the model's side as it computed it — the
 * worlds before and after each cut command, the prefix worlds a kill may recover to. It judges
 * nothing but what it needs to go on. The checkers in crash-check.ts read that history alone and
 * decide the findings, the witnesses, the notes and the verdict.
 */
import { seededRandom } from "../oracle/prng.ts";
import { outOfTime } from "./budget.ts";
import { owns } from "../shard/shard.ts";
import type { WorldView } from "../../spec/index.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { initialWorld, view } from "../../model/index.ts";
import { newHistory, partOf, type SentRequest } from "../core/history.ts";
import type { ExpectedReply } from "../core/reply.ts";
import { seededSession, type ModelStep } from "../oracle/model.ts";
import { explain, type Session } from "../driver/target.ts";
import type { Outcome } from "../transport/client.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import { outcome, Undrivable, WireBreak, type StageContext, type StageOutcome } from "./types.ts";
import {
  baselineAgreement,
  checkCrash,
  checkCut,
  CUT_POINTS,
  killDisagreement,
  MARK_HOOKS,
  MARK_KILLS,
  replyDifference,
  stepsOf,
  worldDifference,
  type CrashEvent,
  type CrashHistory,
  type CutPoint,
  type KillMoment,
} from "./crash-check.ts";

// The pure parts other modules and the tests use, where they always were.
export { CUT_POINTS, cutInvariants, ordinal, type CutPoint, type KillMoment } from "./crash-check.ts";

/** How much the stage does; the defaults keep it to a few dozen restarts. */
export interface CrashPlan {
  /** Choices of the generated session (commands outside the profile are dropped from it). */
  readonly length: number;
  /** Hook cuts per `at` at most; sampled evenly over the durable writes when there are more. */
  readonly maxCutsPerAt: number;
  /** Black-box SIGKILL cuts. */
  readonly kills: number;
}

export const CRASH_PLAN: CrashPlan = { length: 40, maxCutsPerAt: 12, kills: 4 };

// ---------------------------------------------------------------------------------------------
// Cut sampling and seeded kill moments (the driver's plan).

/** The 1-based write numbers to cut at: all of them, or `max` spread evenly from first to last. */
export const sampleCuts = (writes: number, max: number): number[] => {
  if (writes <= 0 || max <= 0) return [];
  if (writes <= max) return Array.from({ length: writes }, (_, i) => i + 1);
  if (max === 1) return [Math.ceil(writes / 2)];
  return [...new Set(Array.from({ length: max }, (_, i) => 1 + Math.round((i * (writes - 1)) / (max - 1))))];
};

/** The j-th kill moment of a seed; the two kinds alternate so both always occur. */
export const killMoment = (seed: number, j: number, commands: number): KillMoment => {
  const rnd = seededRandom(Math.imul(seed, 0x9e3779b1) ^ (j + 1));
  return j % 2 === 0 && commands > 0
    ? { kind: "after_reply", index: Math.floor(rnd() * commands) }
    : { kind: "delay", ms: 2 + Math.floor(rnd() * 99) };
};

// ---------------------------------------------------------------------------------------------
// The driver.

/** Ends the drive early: the time budget is spent. */
class OutOfTime extends Error {}
/** Ends the drive early: what stopped it (a refused reset or world query, a failed restart) is recorded. */
class Halt extends Error {}

const OK_EMPTY: ExpectedReply = { ok: true, events: [] };
const worldReply = (w: WorldView): ExpectedReply => ({ ok: true, events: [], result: w });
const commandMsg = (id: string, step: ModelStep): SentRequest => ({ type: "command", id, command: step.command });
const worldMsg = (id: string): SentRequest => ({ type: "query", id, query: { name: "world" } });

/**
 * Sends, kills and restarts, and records it all in the history, part by part. It decides only
 * what it needs to go on: where the baseline stops agreeing (baselineAgreement), whether a hook
 * cut goes on after each command, whether crash_after was refused (no further hook cut), whether
 * a kill's replies disagree (then its world is not queried), when the time budget ends.
 */
class CrashDriver {
  /** Where the driver is: the part and step a break or a stop is recorded at. */
  part = "plan";
  step = 0;
  /** Set when crash_after is refused: no further hook cut is tried. */
  hookRefused = false;
  /** For the progress line only: what the parts judged so far hold (checkCut, pure). */
  witnessed = 0;
  violations = 0;

  constructor(
    readonly ctx: StageContext,
    readonly session: Session,
    readonly steps: readonly ModelStep[],
    readonly history: CrashHistory,
  ) {}

  get events(): CrashHistory["events"] {
    return this.history.events;
  }

  /** The model's world after the first `p` steps (p = 0: the empty world a reset leaves). */
  worldAfter(p: number): WorldView {
    return p === 0 ? view(initialWorld()) : (this.steps[p - 1]?.worldAfter ?? view(initialWorld()));
  }

  checkTime(): void {
    if (outOfTime(this.ctx)) throw new OutOfTime();
  }

  begin(part: string): void {
    this.part = part;
    this.step = 0;
  }

  /** Shows the judged parts' witnesses and violations on the progress line. */
  tick(done: number, total: number, part: string): void {
    const j = checkCut(partOf(this.history, part), { seed: this.ctx.settings.seed, families: this.ctx.families });
    this.witnessed += j.witnessed.length;
    this.violations += j.findings.length;
    this.ctx.progress.tick(done, total, { witnesses: this.witnessed, violations: this.violations });
  }

  async send(msg: SentRequest, expected: ExpectedReply): Promise<Reply> {
    const step = this.step++;
    const reply = await this.session.reply(msg);
    this.events.push({ kind: "exchange", part: this.part, step, request: msg, expected, reply });
    return reply;
  }

  /** Sends a request the process may die on: its reply, or null when it ended (recorded with its exit). */
  async sendMayDie(msg: SentRequest, expected: ExpectedReply, what: string): Promise<Reply | null> {
    const step = this.step++;
    const o = await this.session.client.send(msg);
    return this.record(step, msg, expected, o, what);
  }

  record(step: number, msg: SentRequest, expected: ExpectedReply, o: Outcome, what: string): Reply | null {
    if (o.kind === "exited") {
      this.events.push({
        kind: "crash-exit",
        part: this.part,
        step,
        request: msg,
        expected,
        exit: o.exit,
        stderrTail: o.stderrTail,
      });
      return null;
    }
    const reply = this.session.check(o, what);
    this.events.push({ kind: "exchange", part: this.part, step, request: msg, expected, reply });
    return reply;
  }

  /** A reset that must succeed for the part to go on (a refusal is for the checker: W-7.1). */
  async clear(id: string): Promise<void> {
    const r = await this.send({ type: "reset", id }, OK_EMPTY);
    if (!r.ok) throw new Halt();
  }

  /** Arms the hook; false when crash_after is refused (then no further hook cut is tried). */
  async arm(id: string, writes: number, at: CutPoint): Promise<boolean> {
    const r = await this.send({ type: "crash_after", id, writes, at }, OK_EMPTY);
    if (!r.ok) this.hookRefused = true;
    return r.ok;
  }

  /** Restarts on the same directory; a failure to come back is recorded, and ends the drive. */
  async recover(): Promise<void> {
    try {
      await this.session.restart();
    } catch (e) {
      if (!(e instanceof Undrivable)) throw e;
      this.events.push({ kind: "restart-failed", part: this.part, reason: e.message });
      throw new Halt();
    }
    this.events.push({ kind: "restart", part: this.part });
  }

  /** The recovered world, queried with the model's as the expected reply (a refusal ends the drive). */
  async world(id: string, expected: WorldView): Promise<Reply> {
    const r = await this.send(worldMsg(id), worldReply(expected));
    if (!r.ok) throw new Halt();
    return r;
  }
}

/** Runs the session once without crashes, with a world query after every step, up to the first departure. */
const baseline = async (d: CrashDriver): Promise<void> => {
  d.begin("baseline");
  await d.clear("base-reset");
  for (const [i, step] of d.steps.entries()) {
    const r = await d.send(commandMsg(`base-c${i}`, step), step.expected);
    if (replyDifference(step.expected, r) !== null) return;
    if (worldDifference(step.worldAfter, await d.world(`base-${i}-world`, step.worldAfter)) !== null) return;
  }
};

/** One hook cut at the k-th durable write (step `index`): the commands up to it, the restart, the world. */
const hookCut = async (d: CrashDriver, k: number, index: number, at: CutPoint): Promise<void> => {
  const tag = `${at === "before_commit" ? "bc" : "ac"}${k}`;
  const cut = d.steps[index];
  if (cut === undefined) throw new Error(`runner bug: no step ${index}`);
  d.begin(`hook-${at}-${k}`);
  d.events.push({
    kind: "crash-hook",
    part: d.part,
    at,
    k,
    index,
    op: cut.command.op,
    before: d.worldAfter(index),
    after: cut.worldAfter,
  });
  await d.clear(`${tag}-reset`);
  if (!(await d.arm(`${tag}-arm`, k, at))) return;
  for (let i = 0; i <= index; i++) {
    const step = d.steps[i];
    if (step === undefined) throw new Error(`runner bug: no step ${i}`);
    const msg = commandMsg(`${tag}-c${i}`, step);
    const r = await d.sendMayDie(msg, step.expected, `command ${JSON.stringify(msg.id)}`);
    // An early death, or a hook that did not fire: restarted, and nothing more to query.
    if ((r === null) !== (i === index)) return d.recover();
  }
  await d.recover();
  await d.world(`${tag}-world`, at === "before_commit" ? d.worldAfter(index) : cut.worldAfter);
};

/** `reset` is a durable write (W-7.3): after the first `agreed` steps, armed for one write, reset must kill. */
const resetCut = async (d: CrashDriver, at: CutPoint, agreed: number): Promise<void> => {
  const tag = `${at === "before_commit" ? "bc" : "ac"}-reset`;
  d.begin(`reset-${at}`);
  const current = d.worldAfter(agreed);
  const empty = view(initialWorld());
  d.events.push({ kind: "crash-reset", part: d.part, at, before: current, after: empty });
  await d.clear(`${tag}-clear`);
  for (const [i, step] of d.steps.slice(0, agreed).entries())
    await d.send(commandMsg(`${tag}-c${i}`, step), step.expected);
  if (!(await d.arm(`${tag}-arm`, 1, at))) return;
  const r = await d.sendMayDie({ type: "reset", id: `${tag}-reset` }, OK_EMPTY, "reset");
  await d.recover();
  if (r !== null) return;
  await d.world(`${tag}-world`, at === "before_commit" ? current : empty);
};

/** One black-box kill with the session pipelined (W-7.4). */
const killCut = async (d: CrashDriver, j: number, agreed: number): Promise<void> => {
  const tag = `kill${j}`;
  const sent = d.steps.slice(0, agreed);
  const moment = killMoment(d.ctx.settings.seed, j, sent.length);
  d.begin(`kill-${j}`);
  d.events.push({
    kind: "crash-kill",
    part: d.part,
    j,
    moment,
    ops: sent.map((s) => s.command.op),
    prefixes: Array.from({ length: sent.length + 1 }, (_, p) => d.worldAfter(p)),
  });
  await d.clear(`${tag}-reset`);
  const client = d.session.client;
  const msgs = sent.map((s, i) => commandMsg(`${tag}-c${i}`, s));
  const pending = msgs.map((m) => client.send(m));
  if (moment.kind === "after_reply") await pending[moment.index];
  else await new Promise((r) => setTimeout(r, moment.ms));
  if (client.hasExited)
    throw new Undrivable(
      explain(client, "the implementation ended while pipelined commands were in flight, before the runner killed it"),
    );
  await client.kill("SIGKILL");
  d.events.push({ kind: "crash-sigkill", part: d.part });
  const outcomes = await Promise.all(pending);
  let answered = 0;
  outcomes.forEach((o, i) => {
    const m = msgs[i];
    const s = sent[i];
    if (m === undefined || s === undefined) return;
    d.step = i + 1;
    if (d.record(i + 1, m, s.expected, o, `command ${JSON.stringify(m.id)}`) !== null) answered = i + 1;
  });
  d.step = sent.length + 1;
  // A kill after a disagreeing reply is not judged: no world to query.
  const disagreeing = killDisagreement(stepsOf(partOf(d.history, d.part)));
  await d.recover();
  if (disagreeing >= 0) return;
  await d.world(`${tag}-world`, d.worldAfter(answered));
};

/**
 * The generated session: `plan.length` choices, lengthened (up to 4×) while it has fewer durable
 * writes than hook cuts wanted — a narrow profile drops most generated commands.
 */
const sessionFor = (ctx: StageContext, plan: CrashPlan): { steps: ModelStep[]; length: number } => {
  let length = plan.length;
  let steps = seededSession(ctx.settings.seed, length, { families: ctx.families });
  while (steps.filter((s) => s.expected.ok).length < plan.maxCutsPerAt && length < 4 * plan.length) {
    length *= 2;
    steps = seededSession(ctx.settings.seed, length, { families: ctx.families });
  }
  return { steps, length };
};

/**
 * The crash stage's driver with an explicit plan: the baseline, then (in shard units, D-038) each
 * hook cut, the reset cut of each cut point, each kill, until the budget ends or the
 * implementation cannot be driven or restarted; everything is recorded in `history`.
 */
export const driveCrash = async (
  ctx: StageContext,
  session: Session,
  plan: CrashPlan,
  history: CrashHistory,
): Promise<void> => {
  const { steps, length } = sessionFor(ctx, plan);
  const d = new CrashDriver(ctx, session, steps, history);
  history.events.push({
    kind: "crash-plan",
    part: "plan",
    seed: ctx.settings.seed,
    length,
    commands: steps.length,
    families: [...ctx.families],
    crashHook: ctx.crashHook,
    kills: plan.kills,
  });
  let done = 0;
  try {
    await baseline(d);
    const { agreed } = baselineAgreement(history, steps.length);
    const writes = steps.slice(0, agreed).flatMap((s, i) => (s.expected.ok ? [i] : []));
    const cuts = ctx.crashHook ? sampleCuts(writes.length, plan.maxCutsPerAt) : [];
    const total = cuts.length * CUT_POINTS.length + plan.kills;
    history.events.push({ kind: "crash-cuts", part: "plan", writes: writes.length, cuts });
    // Shard units (D-038), in this order: each hook cut, the reset cut of each cut point, each kill.
    let unit = 0;
    let resetCuts = 0;
    const mine = (): boolean => owns(ctx.shard, "crash", unit++);
    for (const at of CUT_POINTS) {
      for (const k of cuts) {
        if (d.hookRefused) break;
        if (!mine()) continue;
        d.checkTime();
        const index = writes[k - 1];
        if (index === undefined) throw new Error(`runner bug: no write ${k}`);
        await hookCut(d, k, index, at);
        d.tick(++done, total, d.part);
      }
      // Reset is one more durable write to cut at, from a world it visibly changes.
      if (cuts.length > 0 && !d.hookRefused && d.worldAfter(agreed).agents.length > 0 && mine()) {
        d.checkTime();
        await resetCut(d, at, agreed);
        resetCuts++;
      }
    }
    history.events.push({ kind: "mark", part: "plan", label: MARK_HOOKS, value: resetCuts });
    if (agreed > 0)
      for (let j = 0; j < plan.kills; j++) {
        if (!mine()) continue;
        d.checkTime();
        await killCut(d, j, agreed);
        d.tick(++done, total, d.part);
      }
    history.events.push({ kind: "mark", part: "plan", label: MARK_KILLS, value: agreed > 0 ? plan.kills : 0 });
    history.events.push({
      kind: "crash-end",
      part: "plan",
      units: unit,
      sharded: ctx.shard !== undefined && ctx.shard.count > 1,
    });
  } catch (e) {
    if (e instanceof OutOfTime) history.events.push({ kind: "crash-out-of-time", part: "plan" });
    else if (e instanceof Undrivable) history.events.push({ kind: "stopped", part: d.part, reason: e.message });
    else if (e instanceof WireBreak)
      history.events.push({ kind: "break", part: d.part, step: d.step, rule: e.rule, message: e.message, raw: e.raw });
    else if (!(e instanceof Halt)) throw e;
  }
};

/** The crash stage with an explicit plan (tests use smaller ones): drive, then check. */
export const runCrashStage = async (ctx: StageContext, plan: CrashPlan): Promise<StageOutcome> => {
  if (ctx.families.length === 0)
    return outcome("not-applicable", "the profile declares no family: there is no command to crash", 0);
  let session: Session;
  try {
    session = await ctx.target.open();
  } catch (e) {
    if (e instanceof Undrivable) return outcome("inconclusive", e.message, 0);
    if (e instanceof WireBreak)
      return outcome("fail", e.message, 0, [
        { invariant: null, stage: "crash", check: `wire/${e.rule}`, summary: e.message, trace: null },
      ]);
    throw e;
  }
  const history = newHistory<CrashEvent>(`crash seed ${ctx.settings.seed}`);
  try {
    await driveCrash(ctx, session, plan, history);
  } finally {
    await session.close().catch(() => undefined);
  }
  const v = checkCrash(history);
  for (const id of v.witnessed) ctx.witnesses.add(id, "crash_cuts");
  for (const f of v.outcome.findings) ctx.progress.line(`srk: crash: ${f.check}: ${f.summary}`);
  return v.outcome;
};

export const crashStage = (ctx: StageContext): Promise<StageOutcome> => runCrashStage(ctx, CRASH_PLAN);

/**
 * The crash stage: one unit per hook cut, reset cut and kill, in that order. Dealt out while
 * running: how many cuts there are depends on the durable writes the implementation agreed to.
 */
export const crash: StageDefinition<"crash"> = {
  ...STAGE_CATALOG.crash,
  shard: { dealt: "while-running" },
  run: crashStage,
};
