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
 */
import { seededRandom } from "../oracle/prng.ts";
import { outOfTime } from "./budget.ts";
import { owns } from "../shard/shard.ts";
import type { WorldView } from "../../spec/index.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import type { CrashAfterRequest, Reply } from "../../spec/wire/index.ts";
import { initialWorld, view } from "../../model/index.ts";
import { firstDifference } from "../../properties/differential.ts";
import { normativePart } from "../core/reply.ts";
import { attribute, type Place } from "../oracle/attribution.ts";
import { blameWorld } from "../oracle/world-diff.ts";
import { differingPaths, type JsonPath } from "../../properties/json-diff.ts";
import { familyOfInvariant, guardsOf, type Family } from "../oracle/families.ts";
import { seededSession, type ModelStep } from "../oracle/model.ts";
import { explain, type Session } from "../driver/target.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import {
  NONE_OWNED,
  outcome,
  Undrivable,
  WireBreak,
  type Finding,
  type StageContext,
  type StageOutcome,
} from "./types.ts";

export type CutPoint = CrashAfterRequest["at"];
export const CUT_POINTS: readonly CutPoint[] = ["before_commit", "after_commit"];

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
// Pure helpers: cut sampling, seeded randomness, witnesses, traces.

/** The 1-based write numbers to cut at: all of them, or `max` spread evenly from first to last. */
export const sampleCuts = (writes: number, max: number): number[] => {
  if (writes <= 0 || max <= 0) return [];
  if (writes <= max) return Array.from({ length: writes }, (_, i) => i + 1);
  if (max === 1) return [Math.ceil(writes / 2)];
  return [...new Set(Array.from({ length: max }, (_, i) => 1 + Math.round((i * (writes - 1)) / (max - 1))))];
};

/** When a black-box kill strikes: a delay after the whole session was written, or right after one reply. */
export type KillMoment =
  | { readonly kind: "delay"; readonly ms: number }
  | { readonly kind: "after_reply"; readonly index: number };

/** The j-th kill moment of a seed; the two kinds alternate so both always occur. */
export const killMoment = (seed: number, j: number, commands: number): KillMoment => {
  const rnd = seededRandom(Math.imul(seed, 0x9e3779b1) ^ (j + 1));
  return j % 2 === 0 && commands > 0
    ? { kind: "after_reply", index: Math.floor(rnd() * commands) }
    : { kind: "delay", ms: 2 + Math.floor(rnd() * 99) };
};

const describeMoment = (m: KillMoment): string =>
  m.kind === "delay"
    ? `${m.ms} ms after the last command was written`
    : `right after the reply to command ${m.index + 1}`;

/**
 * The fields a command changed in the world (at most 64): agents are matched by identity (a minted
 * or descended agent shifts the sorted list, which is no change to the others); a new agent is one
 * place.
 */
const worldChanges = (before: WorldView, after: WorldView): Place[] => {
  const out: JsonPath[] = differingPaths(
    { tick: before.tick, roots_used: before.roots_used },
    { tick: after.tick, roots_used: after.roots_used },
  );
  after.agents.forEach((a, i) => {
    const b = before.agents.find((x) => x.identity.identity === a.identity.identity);
    if (b === undefined) out.push(["agents", i]);
    else for (const p of differingPaths(b, a)) out.push(["agents", i, ...p]);
  });
  return out.slice(0, 64).map((path) => ({ in: "world", path }));
};

/**
 * The invariants a cut at a command of `op` exercises: its guards, and the invariants of the
 * profile's families whose state the command changes (attributed by field, D-035); an unguarded
 * op that changes nothing attributable falls back to attribute()'s family default.
 */
export const cutInvariants = (
  op: string,
  before: WorldView,
  after: WorldView,
  families: readonly Family[],
): InvariantId[] => {
  const ids = new Set<InvariantId>(guardsOf(op));
  for (const place of worldChanges(before, after)) {
    const id = attribute({ op, modelRejected: null, implRejected: null, path: place });
    if (families.includes(familyOfInvariant(id))) ids.add(id);
  }
  if (ids.size === 0) ids.add(attribute({ op, modelRejected: null, implRejected: null, path: null }));
  return [...ids];
};

/** 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st. */
export const ordinal = (n: number): string => {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};

type Json = TraceStep["expected"];
type Msg = { type: string; id: string; [k: string]: unknown };

const OK_EMPTY = { ok: true, events: [] };
const worldReply = (w: WorldView): Json => ({ ok: true, events: [], result: w }) as unknown as Json;

const traceStep = (request: Msg, expected: unknown, actual: Reply | null): TraceStep => ({
  request: request as unknown as TraceStep["request"],
  expected: expected as Json,
  actual: actual === null ? null : (normativePart(actual) as Json),
});

const commandMsg = (id: string, step: ModelStep): Msg => ({ type: "command", id, command: step.command });
const worldMsg = (id: string): Msg => ({ type: "query", id, query: { name: "world" } });

// ---------------------------------------------------------------------------------------------
// The stage.

/** Ends the stage early: the time budget is spent. */
class OutOfTime extends Error {}
/** Ends the stage early: the implementation did not come back after a crash (already a finding). */
class Unrecoverable extends Error {}

class CrashRun {
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  checks = 0;
  witnessed = 0;
  /** Set when crash_after is refused: no further hook cut is tried. */
  hookRefused = false;

  constructor(
    readonly ctx: StageContext,
    readonly session: Session,
    readonly steps: readonly ModelStep[],
  ) {}

  get seed(): number {
    return this.ctx.settings.seed;
  }

  /** The model's world after the first `p` steps (p = 0: the empty world a reset leaves). */
  worldAfter(p: number): WorldView {
    return p === 0 ? view(initialWorld()) : (this.steps[p - 1]?.worldAfter ?? view(initialWorld()));
  }

  checkTime(): void {
    if (outOfTime(this.ctx)) throw new OutOfTime();
  }

  tick(done: number, total: number): void {
    this.ctx.progress.tick(done, total, { witnesses: this.witnessed, violations: this.findings.length });
  }

  witness(op: string, before: WorldView, after: WorldView): void {
    this.checks++;
    for (const id of cutInvariants(op, before, after, this.ctx.families)) {
      this.ctx.witnesses.add(id, "crash_cuts");
      this.witnessed++;
    }
  }

  find(
    invariant: InvariantId | null,
    check: string,
    summary: string,
    steps: TraceStep[] | null,
    failing: number | null,
    difference: string | null,
  ): void {
    const trace: PortableTrace | null =
      steps === null
        ? null
        : {
            trace_version: 1,
            invariant,
            stage: "crash",
            check,
            summary,
            seed: this.seed,
            path: null,
            steps,
            failing_step: failing,
            difference,
            shrink: null,
          };
    this.findings.push({ invariant, stage: "crash", check, summary, trace });
    this.ctx.progress.line(`srk: crash: ${check}: ${summary}`);
  }

  /** Restart on the same directory; a failure to come back is a violation of W-7.1, and ends the stage. */
  async recover(after: string, steps: TraceStep[]): Promise<void> {
    try {
      await this.session.restart();
    } catch (e) {
      if (!(e instanceof Undrivable)) throw e;
      this.find(
        null,
        "crash/recovery",
        `after ${after}, the implementation could not be restarted on its data directory (W-7.1: it MUST recover from any interrupted write before answering hello): ${e.message}`,
        steps,
        null,
        null,
      );
      throw new Unrecoverable();
    }
  }

  async send(msg: Msg, expected: unknown, steps: TraceStep[]): Promise<Reply> {
    const r = await this.session.reply(msg);
    steps.push(traceStep(msg, expected, r));
    return r;
  }

  async resetAndArm(tag: string, writes: number, at: CutPoint, steps: TraceStep[]): Promise<boolean> {
    const reset = await this.send({ type: "reset", id: `${tag}-reset` }, OK_EMPTY, steps);
    if (!reset.ok) throw new WireBreak("W-7.1", `reset was refused with ${reset.error.code}`, JSON.stringify(reset));
    return this.arm(tag, writes, at, steps);
  }

  async arm(tag: string, writes: number, at: CutPoint, steps: TraceStep[]): Promise<boolean> {
    const armed = await this.send({ type: "crash_after", id: `${tag}-arm`, writes, at }, OK_EMPTY, steps);
    if (armed.ok) return true;
    this.hookRefused = true;
    this.find(
      null,
      "crash/hook",
      `crash_after was refused with ${armed.error.code} although the profile declares crash_hook: true (W-7.3)`,
      steps,
      steps.length - 1,
      null,
    );
    return false;
  }

  /** The recovered world, and how it differs from `expected` (null: equal). */
  async recoveredWorld(
    tag: string,
    expected: WorldView,
    steps: TraceStep[],
  ): Promise<{ difference: string | null; actual: unknown }> {
    const r = await this.send(worldMsg(`${tag}-world`), worldReply(expected), steps);
    if (!r.ok) throw new WireBreak("W-3", `the world query was refused with ${r.error.code}`, JSON.stringify(r));
    return { difference: firstDifference(expected, r.result, "$world"), actual: r.result };
  }
}

/**
 * Runs the session once without crashes, comparing every reply and the world after every step
 * with the model; returns how many leading steps agree.
 */
const baseline = async (run: CrashRun): Promise<number> => {
  const scratch: TraceStep[] = [];
  const reset = await run.send({ type: "reset", id: "base-reset" }, OK_EMPTY, scratch);
  if (!reset.ok) throw new WireBreak("W-7.1", `reset was refused with ${reset.error.code}`, JSON.stringify(reset));
  for (const [i, step] of run.steps.entries()) {
    const r = await run.send(commandMsg(`base-c${i}`, step), step.expected, scratch);
    const d =
      firstDifference(step.expected, normativePart(r), "$reply") ??
      (await run.recoveredWorld(`base-${i}`, step.worldAfter, scratch)).difference;
    if (d !== null) {
      run.notes.push(
        `without any crash, the implementation departs from the model at step ${i + 1} (${step.command.op}): ${d}; the differential stage reports this, and crash cuts cover only the ${i} steps before it`,
      );
      return i;
    }
  }
  return run.steps.length;
};

/** One hook cut at the k-th durable write (step `index`): must die there, recover to the model's world. */
const hookCut = async (run: CrashRun, k: number, index: number, at: CutPoint): Promise<void> => {
  const tag = `${at === "before_commit" ? "bc" : "ac"}${k}`;
  const steps: TraceStep[] = [];
  if (!(await run.resetAndArm(tag, k, at, steps))) return;
  const cut = run.steps[index];
  if (cut === undefined) throw new Error(`runner bug: no step ${index}`);
  const armed = `crash_after {writes: ${k}, at: "${at}"}`;
  for (let i = 0; i <= index; i++) {
    const step = run.steps[i];
    if (step === undefined) throw new Error(`runner bug: no step ${i}`);
    const msg = commandMsg(`${tag}-c${i}`, step);
    const o = await run.session.client.send(msg);
    if (o.kind === "exited") {
      steps.push(traceStep(msg, step.expected, null));
      if (i === index) break;
      run.find(
        null,
        "crash/hook",
        `armed with ${armed}, the implementation died at step ${i + 1} (${step.command.op}), before the ${ordinal(k)} durable write at step ${index + 1} (W-7.3: only accepted commands and reset count)`,
        steps,
        steps.length - 1,
        null,
      );
      await run.recover(`an early death under ${armed}`, steps);
      return;
    }
    const r = run.session.check(o, `command ${JSON.stringify(msg.id)}`);
    steps.push(traceStep(msg, step.expected, r));
    if (i === index) {
      run.find(
        null,
        "crash/hook",
        `armed with ${armed}, the implementation answered step ${index + 1} (${cut.command.op}), its ${ordinal(k)} durable write, instead of dying before the reply (W-7.3)`,
        steps,
        steps.length - 1,
        null,
      );
      await run.recover(`a hook that did not fire`, steps);
      return;
    }
  }
  await run.recover(`the crash at step ${index + 1} (${cut.command.op}) under ${armed}`, steps);
  const before = run.worldAfter(index);
  const expected = at === "before_commit" ? before : cut.worldAfter;
  const { difference: d, actual } = await run.recoveredWorld(tag, expected, steps);
  if (d === null) {
    run.witness(cut.command.op, before, cut.worldAfter);
    return;
  }
  const when = at === "before_commit" ? "before" : "after";
  run.find(
    blameWorld(cut.command.op, expected, actual),
    `crash/${at}`,
    `killed by ${armed} at step ${index + 1} (${cut.command.op}) and restarted on the same directory, the implementation's world differs from the model's world ${when} that command (W-7.3): ${d} (seed ${run.seed})`,
    steps,
    steps.length - 1,
    d,
  );
};

/**
 * `reset` is a durable write (W-7.3): after the first `agreed` steps, armed for one write, reset
 * must kill; the recovered world is the one before it, or the empty one.
 */
const resetCut = async (run: CrashRun, at: CutPoint, agreed: number): Promise<void> => {
  const tag = `${at === "before_commit" ? "bc" : "ac"}-reset`;
  const steps: TraceStep[] = [];
  const reset = await run.send({ type: "reset", id: `${tag}-clear` }, OK_EMPTY, steps);
  if (!reset.ok) throw new WireBreak("W-7.1", `reset was refused with ${reset.error.code}`, JSON.stringify(reset));
  for (const [i, step] of run.steps.slice(0, agreed).entries())
    await run.send(commandMsg(`${tag}-c${i}`, step), step.expected, steps);
  const current = run.worldAfter(agreed);
  if (!(await run.arm(tag, 1, at, steps))) return;
  const msg: Msg = { type: "reset", id: `${tag}-reset` };
  const o = await run.session.client.send(msg);
  steps.push(traceStep(msg, OK_EMPTY, o.kind === "exited" ? null : run.session.check(o, "reset")));
  if (o.kind !== "exited") {
    run.find(
      null,
      "crash/hook",
      `armed with crash_after {writes: 1, at: "${at}"}, the implementation answered reset instead of dying (W-7.3: reset counts as a durable write)`,
      steps,
      steps.length - 1,
      null,
    );
    await run.recover("a hook that did not fire on reset", steps);
    return;
  }
  await run.recover(`the crash at reset (${at})`, steps);
  const empty = view(initialWorld());
  const expected = at === "before_commit" ? current : empty;
  const { difference: d } = await run.recoveredWorld(tag, expected, steps);
  if (d === null) {
    run.checks++;
    return;
  }
  run.find(
    null,
    `crash/${at}`,
    `killed by crash_after {writes: 1, at: "${at}"} at reset and restarted, the world is not the one ${at === "before_commit" ? "before the reset" : "after it (empty)"} (W-7.1, W-7.3): ${d}`,
    steps,
    steps.length - 1,
    d,
  );
};

/** One black-box kill with the session pipelined (W-7.4). */
const killCut = async (run: CrashRun, j: number, agreed: number): Promise<void> => {
  const tag = `kill${j}`;
  const sent = run.steps.slice(0, agreed);
  const moment = killMoment(run.seed, j, sent.length);
  const steps: TraceStep[] = [];
  const reset = await run.send({ type: "reset", id: `${tag}-reset` }, OK_EMPTY, steps);
  if (!reset.ok) throw new WireBreak("W-7.1", `reset was refused with ${reset.error.code}`, JSON.stringify(reset));
  const client = run.session.client;
  const msgs = sent.map((s, i) => commandMsg(`${tag}-c${i}`, s));
  const pending = msgs.map((m) => client.send(m));
  if (moment.kind === "after_reply") await pending[moment.index];
  else await new Promise((r) => setTimeout(r, moment.ms));
  if (client.hasExited)
    throw new Undrivable(
      explain(client, "the implementation ended while pipelined commands were in flight, before the runner killed it"),
    );
  await client.kill("SIGKILL");
  const outcomes = await Promise.all(pending);
  // Every answered command must be durable; replies come in request order (W-1.6), so the
  // answered commands are a prefix — counted up to the last one answered, to be safe.
  let answered = 0;
  outcomes.forEach((o, i) => {
    const m = msgs[i];
    const s = sent[i];
    if (m === undefined || s === undefined) return;
    const r = o.kind === "exited" ? null : run.session.check(o, `command ${JSON.stringify(m.id)}`);
    steps.push(traceStep(m, s.expected, r));
    if (r !== null) answered = i + 1;
  });
  const replay = `seed ${run.seed}, kill ${j + 1}: SIGKILL ${describeMoment(moment)}`;
  const disagreeing = steps.findIndex(
    (st, i) => i > 0 && st.actual !== null && firstDifference(st.expected, st.actual) !== null,
  );
  if (disagreeing >= 0) {
    run.notes.push(
      `black-box kill (${replay}) not judged: with the commands pipelined, the reply to command ${disagreeing} differs from the model's`,
    );
    await run.recover(`a SIGKILL (${replay})`, steps);
    return;
  }
  await run.recover(`a SIGKILL (${replay})`, steps);
  const r = await run.send(worldMsg(`${tag}-world`), worldReply(run.worldAfter(answered)), steps);
  if (!r.ok) throw new WireBreak("W-3", `the world query was refused with ${r.error.code}`, JSON.stringify(r));
  for (let p = answered; p <= sent.length; p++) {
    if (firstDifference(run.worldAfter(p), r.result, "$world") === null) {
      const at = Math.min(p, sent.length - 1);
      const cut = sent[at];
      if (cut !== undefined) run.witness(cut.command.op, run.worldAfter(at), run.worldAfter(at + 1));
      else run.checks++;
      return;
    }
  }
  const d = firstDifference(run.worldAfter(answered), r.result, "$world") ?? "";
  const op = (sent[answered] ?? sent[answered - 1])?.command.op ?? "advaita.mint";
  run.find(
    blameWorld(op, run.worldAfter(answered), r.result),
    "crash/sigkill",
    `after a SIGKILL (${replay}) with ${sent.length} commands pipelined and ${answered} answered, the recovered world equals the model's world after no prefix that includes every answered command (W-7.1, W-7.4); against the answered prefix: ${d}`,
    steps,
    steps.length - 1,
    d,
  );
};

const verdictOf = (run: CrashRun, reason: string | null): StageOutcome => {
  if (run.findings.length > 0)
    return outcome(
      "fail",
      `${run.findings.length} crash cut(s) violated durability or the crash hook${reason === null ? "" : `; then ${reason}`}`,
      run.checks,
      run.findings,
      run.notes,
    );
  if (reason !== null) return outcome("inconclusive", reason, run.checks, run.findings, run.notes);
  if (run.checks === 0) return outcome("inconclusive", "no crash cut could be judged", 0, [], run.notes);
  return outcome("pass", `${run.checks} crash cuts recovered to the model's world`, run.checks, [], run.notes);
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

/** The crash stage with an explicit plan (tests use smaller ones). */
export const runCrashStage = async (ctx: StageContext, plan: CrashPlan): Promise<StageOutcome> => {
  if (ctx.families.length === 0)
    return outcome("not-applicable", "the profile declares no family: there is no command to crash", 0);
  const { steps, length } = sessionFor(ctx, plan);
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
  const run = new CrashRun(ctx, session, steps);
  run.notes.push(
    `session: seed ${ctx.settings.seed}, ${length} generated choices, ${steps.length} commands in the profile`,
  );
  let done = 0;
  let resetCuts = 0;
  try {
    const agreed = await baseline(run);
    const writes = run.steps.slice(0, agreed).flatMap((s, i) => (s.expected.ok ? [i] : []));
    const cuts = ctx.crashHook ? sampleCuts(writes.length, plan.maxCutsPerAt) : [];
    const total = cuts.length * CUT_POINTS.length + plan.kills;
    if (!ctx.crashHook) {
      run.notes.push(
        "the profile does not declare crash_hook: the before/after-commit cuts (W-7.3) are not applicable (not passed); only black-box kills ran",
      );
    } else if (cuts.length < writes.length) {
      run.notes.push(
        `the session has ${writes.length} durable writes; hook cuts sampled evenly at writes ${cuts.join(", ")} for each of ${CUT_POINTS.join(", ")}`,
      );
    }
    // Shard units (D-038), in this order: each hook cut, the reset cut of each cut point, each kill.
    let unit = 0;
    const mine = (): boolean => owns(ctx.shard, "crash", unit++);
    for (const at of CUT_POINTS) {
      for (const k of cuts) {
        if (run.hookRefused) break;
        if (!mine()) continue;
        run.checkTime();
        const index = writes[k - 1];
        if (index === undefined) throw new Error(`runner bug: no write ${k}`);
        await hookCut(run, k, index, at);
        run.tick(++done, total);
      }
      // Reset is one more durable write to cut at, from a world it visibly changes.
      if (cuts.length > 0 && !run.hookRefused && run.worldAfter(agreed).agents.length > 0 && mine()) {
        run.checkTime();
        await resetCut(run, at, agreed);
        resetCuts++;
      }
    }
    if (ctx.crashHook)
      run.notes.push(
        `hook cuts: ${cuts.length} at each of ${CUT_POINTS.join(", ")} (of ${writes.length} durable writes), plus ${resetCuts} at reset`,
      );
    if (agreed === 0) run.notes.push("black-box kills skipped: no step agrees with the model");
    else {
      for (let j = 0; j < plan.kills; j++) {
        if (!mine()) continue;
        run.checkTime();
        await killCut(run, j, agreed);
        run.tick(++done, total);
      }
      run.notes.push(
        `black-box kills: ${plan.kills} (seed ${ctx.settings.seed}), each with ${agreed} commands pipelined`,
      );
    }
    if (
      unit > 0 &&
      done + resetCuts === 0 &&
      run.findings.length === 0 &&
      ctx.shard !== undefined &&
      ctx.shard.count > 1
    )
      return NONE_OWNED;
    return verdictOf(run, null);
  } catch (e) {
    if (e instanceof OutOfTime)
      return verdictOf(
        run,
        `the time budget ended after ${done + resetCuts} crash cuts (${run.checks} judged equal to the model)`,
      );
    if (e instanceof Unrecoverable)
      return verdictOf(run, "the implementation could not be restarted, so no further cut was made");
    if (e instanceof Undrivable) return verdictOf(run, `the implementation could not be driven: ${e.message}`);
    if (e instanceof WireBreak) {
      run.find(null, `wire/${e.rule}`, e.message, null, null, null);
      return verdictOf(run, null);
    }
    throw e;
  } finally {
    await session.close().catch(() => undefined);
  }
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
