/**
 * The crash stage's history and checkers (issue 22). The driver (crash.ts) records, per part — the
 * baseline, each hook cut `hook-<at>-<k>`, each reset cut `reset-<at>`, each black-box kill
 * `kill-<j>` — what it sent and what came back, with the model's side as it computed it from the
 * generated session: the worlds before and after a cut command, the prefix worlds a kill may
 * recover to. The checkers here read that history alone (pure, no session) and decide: whether the
 * process died at the armed command, whether the recovered world is the model's, the findings with
 * their attribution, the `crash_cuts` witnesses, the notes and the verdict.
 */
import type { WorldView } from "../../spec/index.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import type { CrashAfterRequest, Reply } from "../../spec/wire/index.ts";
import { firstDifference } from "../../properties/differential.ts";
import { differingPaths, type JsonPath } from "../../properties/json-diff.ts";
import type { History, HistoryEvent, SentRequest } from "../core/history.ts";
import { normativePart, type ExpectedReply } from "../core/reply.ts";
import { attribute, type Place } from "../oracle/attribution.ts";
import { familyOfInvariant, guardsOf, type Family } from "../oracle/families.ts";
import { blameWorld } from "../oracle/world-diff.ts";
import type { ExitInfo } from "../transport/process.ts";
import { NONE_OWNED, outcome, type Finding, type StageOutcome } from "./types.ts";

export type CutPoint = CrashAfterRequest["at"];
export const CUT_POINTS: readonly CutPoint[] = ["before_commit", "after_commit"];

/** When a black-box kill strikes: a delay after the whole session was written, or right after one reply. */
export type KillMoment =
  | { readonly kind: "delay"; readonly ms: number }
  | { readonly kind: "after_reply"; readonly index: number };

export const describeMoment = (m: KillMoment): string =>
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

// ---------------------------------------------------------------------------------------------
// The history.

/** The crash stage's own events (StageEvent): plain JSON, like the common ones. */
export type CrashEvent =
  /** What the run is of: the seed, the generated session (choices and commands), the profile, the kills planned. */
  | {
      readonly kind: "crash-plan";
      readonly part: "plan";
      readonly seed: number;
      readonly length: number;
      readonly commands: number;
      readonly families: readonly Family[];
      readonly crashHook: boolean;
      readonly kills: number;
    }
  /** After the baseline: the durable writes among the agreed steps, and the write numbers hook cuts are made at. */
  | { readonly kind: "crash-cuts"; readonly part: "plan"; readonly writes: number; readonly cuts: readonly number[] }
  /** A hook cut begins: armed for the k-th durable write (step `index`, of `op`); the model's world before and after it. */
  | {
      readonly kind: "crash-hook";
      readonly part: string;
      readonly at: CutPoint;
      readonly k: number;
      readonly index: number;
      readonly op: string;
      readonly before: WorldView;
      readonly after: WorldView;
    }
  /** A reset cut begins: the model's world before the reset (after the agreed steps) and after it (empty). */
  | {
      readonly kind: "crash-reset";
      readonly part: string;
      readonly at: CutPoint;
      readonly before: WorldView;
      readonly after: WorldView;
    }
  /**
   * A black-box kill begins: its moment, the ops of the commands to pipeline, and the model's world
   * after each prefix of them (`prefixes[p]`: after the first p, p = 0 … ops.length).
   */
  | {
      readonly kind: "crash-kill";
      readonly part: string;
      readonly j: number;
      readonly moment: KillMoment;
      readonly ops: readonly string[];
      readonly prefixes: readonly WorldView[];
    }
  /** The runner SIGKILLed the process group (the replies to the pipelined commands follow). */
  | { readonly kind: "crash-sigkill"; readonly part: string }
  /** Step `step` of `part` got no reply: the process ended (the hook's crash, or the runner's SIGKILL). */
  | {
      readonly kind: "crash-exit";
      readonly part: string;
      readonly step: number;
      readonly request: SentRequest;
      readonly expected: ExpectedReply;
      readonly exit: ExitInfo;
      readonly stderrTail: string;
    }
  /** The time budget ended before the next cut. */
  | { readonly kind: "crash-out-of-time"; readonly part: "plan" }
  /** The driver went through its plan: how many shard units it dealt, and whether the stage was sharded. */
  | { readonly kind: "crash-end"; readonly part: "plan"; readonly units: number; readonly sharded: boolean };

export type CrashHistory = History<CrashEvent>;
type Event = HistoryEvent | CrashEvent;
type Exchange = Extract<HistoryEvent, { kind: "exchange" }>;

/** The marks the driver leaves in the plan part when a phase is through (the notes say what it did). */
export const MARK_HOOKS = "hook cuts done";
export const MARK_KILLS = "kills done";

// ---------------------------------------------------------------------------------------------
// Pure judgements shared with the driver (what it needs to go on).

type Json = TraceStep["expected"];

const traceStep = (request: SentRequest, expected: unknown, actual: Reply | null): TraceStep => ({
  request: request as unknown as TraceStep["request"],
  expected: expected as Json,
  actual: actual === null ? null : (normativePart(actual) as Json),
});

/** How a command's reply differs from the model's (null: it agrees). */
export const replyDifference = (expected: ExpectedReply, reply: Reply): string | null =>
  firstDifference(expected, normativePart(reply), "$reply");

/** How a world reply differs from the model's world (null: equal); the reply must be a success. */
export const worldDifference = (expected: WorldView, reply: Reply): string | null =>
  firstDifference(expected, reply.ok ? reply.result : undefined, "$world");

/**
 * The baseline: how many leading steps agree with the model (every reply, and the world after each
 * step), and how the first one that does not differs. The driver asks it where the cuts may go.
 */
export const baselineAgreement = (
  history: CrashHistory,
  commands: number,
): { agreed: number; departure: { index: number; op: string; difference: string } | null } => {
  const exchanges = history.events.filter((e): e is Exchange => e.kind === "exchange" && e.part === "baseline");
  let i = 0;
  for (let n = 0; n < exchanges.length; n++) {
    const x = exchanges[n];
    if (x === undefined || x.request.type !== "command") continue;
    const next = exchanges[n + 1];
    const w = next?.request.type === "query" ? next : undefined;
    const command = x.request["command"] as { op: string };
    const d =
      x.expected === null
        ? null
        : (replyDifference(x.expected, x.reply) ??
          (w === undefined || w.expected === null || !w.expected.ok || w.expected.result === undefined
            ? null
            : worldDifference(w.expected.result, w.reply)));
    if (d !== null) return { agreed: i, departure: { index: i, op: command.op, difference: d } };
    i++;
  }
  return { agreed: commands, departure: null };
};

/**
 * The first pipelined command (1-based: step 0 is the reset) whose reply differs from the model's,
 * or -1: a kill after a disagreement is not judged, and the driver does not query the world then.
 */
export const killDisagreement = (steps: readonly TraceStep[]): number =>
  steps.findIndex((st, i) => i > 0 && st.actual !== null && firstDifference(st.expected, st.actual) !== null);

/** The trace steps of a part so far: its exchanges and the requests the process ended on, in order. */
export const stepsOf = (events: readonly Event[]): TraceStep[] =>
  events.flatMap((e) =>
    e.kind === "exchange"
      ? [traceStep(e.request, e.expected, e.reply)]
      : e.kind === "crash-exit"
        ? [traceStep(e.request, e.expected, null)]
        : [],
  );

// ---------------------------------------------------------------------------------------------
// The checkers.

/** Why the run ended early, as far as one part tells. */
export type PartEnd =
  | { readonly kind: "wire" }
  | { readonly kind: "unrecoverable" }
  | { readonly kind: "stopped"; readonly reason: string };

/** What one part decides. */
export interface PartJudgement {
  readonly findings: Finding[];
  readonly notes: string[];
  /** Cuts judged equal to the model. */
  readonly checks: number;
  /** The `crash_cuts` witnesses, in order (an invariant once per cut that exercised it). */
  readonly witnessed: InvariantId[];
  /** Set when the driver could not go on after this part. */
  readonly end: PartEnd | null;
}

/** The context a checker reads from the plan event. */
export interface CrashCheckContext {
  readonly seed: number;
  readonly families: readonly Family[];
}

/** Collects one part's judgement while reading its events in order. */
class Judge {
  readonly steps: TraceStep[] = [];
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  readonly witnessed: InvariantId[] = [];
  checks = 0;
  end: PartEnd | null = null;

  constructor(readonly ctx: CrashCheckContext) {}

  find(
    invariant: InvariantId | null,
    check: string,
    summary: string,
    traced: boolean,
    failing: number | null,
    difference: string | null,
  ): void {
    const trace: PortableTrace | null = traced
      ? {
          trace_version: 1,
          invariant,
          stage: "crash",
          check,
          summary,
          seed: this.ctx.seed,
          path: null,
          steps: [...this.steps],
          failing_step: failing,
          difference,
          shrink: null,
        }
      : null;
    this.findings.push({ invariant, stage: "crash", check, summary, trace });
  }

  /** The cut's command recovered to the model's world: a check, and a witness per invariant it exercises. */
  witness(op: string, before: WorldView, after: WorldView): void {
    this.checks++;
    for (const id of cutInvariants(op, before, after, this.ctx.families)) this.witnessed.push(id);
  }

  /**
   * Records an event's trace step, and judges what every part judges alike: breaks of the wire
   * protocol, a driver that could not go on, a refused clearing reset (step 0) or world query, a
   * restart that failed (W-7.1, after `after`). True when the event was one of those.
   */
  common(e: Event, after: string): boolean {
    if (e.kind === "exchange") this.steps.push(traceStep(e.request, e.expected, e.reply));
    else if (e.kind === "crash-exit") this.steps.push(traceStep(e.request, e.expected, null));
    if (e.kind === "break") {
      this.find(null, `wire/${e.rule}`, e.message, false, null, null);
      this.end = { kind: "wire" };
      return true;
    }
    if (e.kind === "stopped") {
      this.end = { kind: "stopped", reason: e.reason };
      return true;
    }
    if (e.kind === "restart-failed") {
      this.find(
        null,
        "crash/recovery",
        `after ${after}, the implementation could not be restarted on its data directory (W-7.1: it MUST recover from any interrupted write before answering hello): ${e.reason}`,
        true,
        null,
        null,
      );
      this.end = { kind: "unrecoverable" };
      return true;
    }
    if (e.kind === "exchange" && !e.reply.ok && e.request.type === "reset" && e.step === 0) {
      this.find(null, "wire/W-7.1", `reset was refused with ${e.reply.error.code}`, false, null, null);
      this.end = { kind: "wire" };
      return true;
    }
    if (e.kind === "exchange" && !e.reply.ok && e.request.type === "query") {
      this.find(null, "wire/W-3", `the world query was refused with ${e.reply.error.code}`, false, null, null);
      this.end = { kind: "wire" };
      return true;
    }
    return false;
  }

  /** A refused crash_after although the profile declares the hook (W-7.3). */
  refusedArm(e: Event): boolean {
    if (e.kind !== "exchange" || e.request.type !== "crash_after" || e.reply.ok) return false;
    this.find(
      null,
      "crash/hook",
      `crash_after was refused with ${e.reply.error.code} although the profile declares crash_hook: true (W-7.3)`,
      true,
      this.steps.length - 1,
      null,
    );
    return true;
  }

  result(): PartJudgement {
    return {
      findings: this.findings,
      notes: this.notes,
      checks: this.checks,
      witnessed: this.witnessed,
      end: this.end,
    };
  }
}

/** The baseline: a departure from the model is a note (the differential stage reports it), never a finding. */
export const checkBaseline = (history: CrashHistory, ctx: CrashCheckContext, commands: number): PartJudgement => {
  const j = new Judge(ctx);
  for (const e of history.events) if (e.part === "baseline" && j.common(e, "the baseline")) break;
  if (j.end === null) {
    const { departure: d } = baselineAgreement(history, commands);
    if (d !== null)
      j.notes.push(
        `without any crash, the implementation departs from the model at step ${d.index + 1} (${d.op}): ${d.difference}; the differential stage reports this, and crash cuts cover only the ${d.index} steps before it`,
      );
  }
  return j.result();
};

/**
 * A hook cut (W-7.3): armed for the k-th durable write, the process must die at exactly that
 * command, before replying; restarted, its world must equal the model's world before
 * (`before_commit`) or after (`after_commit`) the command.
 */
export const checkHookCut = (events: readonly Event[], ctx: CrashCheckContext): PartJudgement => {
  const j = new Judge(ctx);
  const head = events.find((e) => e.kind === "crash-hook");
  if (head?.kind !== "crash-hook") throw new Error("runner bug: a hook cut without its crash-hook event");
  const { at, k, index, op, before, after } = head;
  const armed = `crash_after {writes: ${k}, at: "${at}"}`;
  let recovering = `the crash at step ${index + 1} (${op}) under ${armed}`;
  let done = false;
  for (const e of events) {
    if (j.common(e, recovering) || j.refusedArm(e)) return j.result();
    if (done) continue;
    if ((e.kind === "exchange" || e.kind === "crash-exit") && e.request.type === "command") {
      const i = e.step - 2;
      if (e.kind === "crash-exit" && i !== index) {
        j.find(
          null,
          "crash/hook",
          `armed with ${armed}, the implementation died at step ${i + 1} (${(e.request["command"] as { op: string }).op}), before the ${ordinal(k)} durable write at step ${index + 1} (W-7.3: only accepted commands and reset count)`,
          true,
          j.steps.length - 1,
          null,
        );
        recovering = `an early death under ${armed}`;
        done = true;
      } else if (e.kind === "exchange" && i === index) {
        j.find(
          null,
          "crash/hook",
          `armed with ${armed}, the implementation answered step ${index + 1} (${op}), its ${ordinal(k)} durable write, instead of dying before the reply (W-7.3)`,
          true,
          j.steps.length - 1,
          null,
        );
        recovering = "a hook that did not fire";
        done = true;
      }
    } else if (e.kind === "exchange" && e.request.type === "query" && e.reply.ok) {
      const expected = at === "before_commit" ? before : after;
      const d = worldDifference(expected, e.reply);
      if (d === null) j.witness(op, before, after);
      else
        j.find(
          blameWorld(op, expected, e.reply.result),
          `crash/${at}`,
          `killed by ${armed} at step ${index + 1} (${op}) and restarted on the same directory, the implementation's world differs from the model's world ${at === "before_commit" ? "before" : "after"} that command (W-7.3): ${d} (seed ${ctx.seed})`,
          true,
          j.steps.length - 1,
          d,
        );
    }
  }
  return j.result();
};

/**
 * A reset cut (W-7.1, W-7.3): reset is a durable write, so armed for one write it must kill; the
 * recovered world is the one before it (`before_commit`) or the empty one (`after_commit`).
 */
export const checkResetCut = (events: readonly Event[], ctx: CrashCheckContext): PartJudgement => {
  const j = new Judge(ctx);
  const head = events.find((e) => e.kind === "crash-reset");
  if (head?.kind !== "crash-reset") throw new Error("runner bug: a reset cut without its crash-reset event");
  const { at, before, after } = head;
  let recovering = `the crash at reset (${at})`;
  let armed = false;
  for (const e of events) {
    if (j.common(e, recovering) || j.refusedArm(e)) return j.result();
    if (e.kind === "exchange" && e.request.type === "crash_after") armed = true;
    else if (armed && e.kind === "exchange" && e.request.type === "reset") {
      j.find(
        null,
        "crash/hook",
        `armed with crash_after {writes: 1, at: "${at}"}, the implementation answered reset instead of dying (W-7.3: reset counts as a durable write)`,
        true,
        j.steps.length - 1,
        null,
      );
      recovering = "a hook that did not fire on reset";
    } else if (e.kind === "exchange" && e.request.type === "query" && e.reply.ok) {
      const d = worldDifference(at === "before_commit" ? before : after, e.reply);
      if (d === null) j.checks++;
      else
        j.find(
          null,
          `crash/${at}`,
          `killed by crash_after {writes: 1, at: "${at}"} at reset and restarted, the world is not the one ${at === "before_commit" ? "before the reset" : "after it (empty)"} (W-7.1, W-7.3): ${d}`,
          true,
          j.steps.length - 1,
          d,
        );
    }
  }
  return j.result();
};

/**
 * A black-box kill (W-7.1, W-7.4): restarted, the world must equal the model's world after some
 * prefix of the pipelined commands that includes every answered one. Not judged when a pipelined
 * reply already differs from the model's (a note).
 */
export const checkKillCut = (events: readonly Event[], ctx: CrashCheckContext): PartJudgement => {
  const j = new Judge(ctx);
  const head = events.find((e) => e.kind === "crash-kill");
  if (head?.kind !== "crash-kill") throw new Error("runner bug: a kill cut without its crash-kill event");
  const { ops, prefixes } = head;
  const world = (p: number): WorldView => {
    const w = prefixes[p];
    if (w === undefined) throw new Error(`runner bug: no prefix world ${p}`);
    return w;
  };
  const replay = `seed ${ctx.seed}, kill ${head.j + 1}: SIGKILL ${describeMoment(head.moment)}`;
  const recovering = `a SIGKILL (${replay})`;
  // Replies come in request order (W-1.6), so the answered commands are a prefix — counted up to
  // the last one answered, to be safe.
  let answered = 0;
  let noted = false;
  for (const e of events) {
    if (!noted && (e.kind === "restart" || e.kind === "restart-failed")) {
      noted = true;
      const disagreeing = killDisagreement(j.steps);
      if (disagreeing >= 0)
        j.notes.push(
          `black-box kill (${replay}) not judged: with the commands pipelined, the reply to command ${disagreeing} differs from the model's`,
        );
    }
    if (j.common(e, recovering)) return j.result();
    if (e.kind === "exchange" && e.request.type === "command") answered = e.step;
    if (e.kind !== "exchange" || e.request.type !== "query" || !e.reply.ok) continue;
    const result = e.reply.result;
    const p = prefixes.findIndex((w, q) => q >= answered && firstDifference(w, result, "$world") === null);
    if (p >= 0) {
      const cut = Math.min(p, ops.length - 1);
      const op = ops[cut];
      if (op !== undefined) j.witness(op, world(cut), world(cut + 1));
      else j.checks++;
      continue;
    }
    const d = firstDifference(world(answered), result, "$world") ?? "";
    const op = ops[answered] ?? ops[answered - 1] ?? "advaita.mint";
    j.find(
      blameWorld(op, world(answered), result),
      "crash/sigkill",
      `after a SIGKILL (${replay}) with ${ops.length} commands pipelined and ${answered} answered, the recovered world equals the model's world after no prefix that includes every answered command (W-7.1, W-7.4); against the answered prefix: ${d}`,
      true,
      j.steps.length - 1,
      d,
    );
  }
  return j.result();
};

/** The judgement of one cut part, by the kind of its first event. */
export const checkCut = (events: readonly Event[], ctx: CrashCheckContext): PartJudgement => {
  const kind = events.find((e) => e.kind === "crash-hook" || e.kind === "crash-reset" || e.kind === "crash-kill")?.kind;
  if (kind === "crash-hook") return checkHookCut(events, ctx);
  if (kind === "crash-reset") return checkResetCut(events, ctx);
  if (kind === "crash-kill") return checkKillCut(events, ctx);
  throw new Error("runner bug: a crash part without a cut event");
};

/** What the crash stage's checker decides from the history. */
export interface CrashVerdict {
  readonly outcome: StageOutcome;
  /** The `crash_cuts` witnesses, in order. */
  readonly witnessed: readonly InvariantId[];
}

const verdictOf = (
  findings: readonly Finding[],
  checks: number,
  notes: readonly string[],
  reason: string | null,
): StageOutcome => {
  if (findings.length > 0)
    return outcome(
      "fail",
      `${findings.length} crash cut(s) violated durability or the crash hook${reason === null ? "" : `; then ${reason}`}`,
      checks,
      findings,
      notes,
    );
  if (reason !== null) return outcome("inconclusive", reason, checks, findings, notes);
  if (checks === 0) return outcome("inconclusive", "no crash cut could be judged", 0, [], notes);
  return outcome("pass", `${checks} crash cuts recovered to the model's world`, checks, [], notes);
};

/**
 * The crash stage's checker: reads the history in order — the plan's notes, the baseline, each cut
 * part (checkCut), the driver's marks — and composes the parts' findings, witnesses and checks into
 * the stage's verdict; a part after which the driver could not go on ends the reading.
 */
export const checkCrash = (history: CrashHistory): CrashVerdict => {
  const plan = history.events.find((e) => e.kind === "crash-plan");
  if (plan?.kind !== "crash-plan") throw new Error("runner bug: a crash history without its plan");
  const ctx: CrashCheckContext = { seed: plan.seed, families: plan.families };
  const findings: Finding[] = [];
  const notes: string[] = [
    `session: seed ${plan.seed}, ${plan.length} generated choices, ${plan.commands} commands in the profile`,
  ];
  const witnessed: InvariantId[] = [];
  let checks = 0;
  let cutParts = 0;
  let agreed = 0;
  let cuts: Extract<CrashEvent, { kind: "crash-cuts" }> | null = null;
  const seen = new Set<string>(["plan"]);
  const verdict = (o: StageOutcome): CrashVerdict => ({ outcome: o, witnessed });
  const ended = (end: PartEnd): CrashVerdict =>
    verdict(
      verdictOf(
        findings,
        checks,
        notes,
        end.kind === "wire"
          ? null
          : end.kind === "unrecoverable"
            ? "the implementation could not be restarted, so no further cut was made"
            : `the implementation could not be driven: ${end.reason}`,
      ),
    );
  for (const e of history.events) {
    if (e.part === "plan") {
      if (e.kind === "crash-cuts") {
        cuts = e;
        if (!plan.crashHook)
          notes.push(
            "the profile does not declare crash_hook: the before/after-commit cuts (W-7.3) are not applicable (not passed); only black-box kills ran",
          );
        else if (e.cuts.length < e.writes)
          notes.push(
            `the session has ${e.writes} durable writes; hook cuts sampled evenly at writes ${e.cuts.join(", ")} for each of ${CUT_POINTS.join(", ")}`,
          );
      } else if (e.kind === "mark" && e.label === MARK_HOOKS && plan.crashHook)
        notes.push(
          `hook cuts: ${cuts?.cuts.length ?? 0} at each of ${CUT_POINTS.join(", ")} (of ${cuts?.writes ?? 0} durable writes), plus ${e.value} at reset`,
        );
      else if (e.kind === "mark" && e.label === MARK_KILLS)
        notes.push(
          agreed === 0
            ? "black-box kills skipped: no step agrees with the model"
            : `black-box kills: ${plan.kills} (seed ${plan.seed}), each with ${agreed} commands pipelined`,
        );
      else if (e.kind === "crash-out-of-time")
        return verdict(
          verdictOf(
            findings,
            checks,
            notes,
            `the time budget ended after ${cutParts} crash cuts (${checks} judged equal to the model)`,
          ),
        );
      else if (e.kind === "crash-end") {
        if (e.units > 0 && cutParts === 0 && findings.length === 0 && e.sharded) return verdict(NONE_OWNED);
        return verdict(verdictOf(findings, checks, notes, null));
      } else if (e.kind === "stopped") return ended({ kind: "stopped", reason: e.reason });
      else if (e.kind === "break") {
        findings.push({ invariant: null, stage: "crash", check: `wire/${e.rule}`, summary: e.message, trace: null });
        return ended({ kind: "wire" });
      }
      continue;
    }
    if (seen.has(e.part)) continue;
    seen.add(e.part);
    let j: PartJudgement;
    if (e.part === "baseline") {
      j = checkBaseline(history, ctx, plan.commands);
      agreed = baselineAgreement(history, plan.commands).agreed;
    } else {
      j = checkCut(
        history.events.filter((x) => x.part === e.part),
        ctx,
      );
      cutParts++;
    }
    findings.push(...j.findings);
    notes.push(...j.notes);
    witnessed.push(...j.witnessed);
    checks += j.checks;
    if (j.end !== null) return ended(j.end);
  }
  // The driver's record ends without its end: it was cut short by an error of the runner itself.
  throw new Error("runner bug: a crash history that ends without its end");
};
