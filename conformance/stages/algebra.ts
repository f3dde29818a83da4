/**
 * The algebra stage: merge order-independence (AD-3), replay exactness (S-4) and exact excision
 * (S-5), over the wire, with the reference model as the oracle.
 *
 * Design.
 * - A *prefix* builds one agent with n lives, each conceived, born, acted (signed), withdrawn and
 *   distilled, so that n obligations are pending (algebra-script.ts). Their distillates share keys,
 *   contest them, tie on |w|·c (broken by distillate id) and round a mean of exactly one half
 *   (D-002, D-007), so a wrong or order-dependent aggregate shows.
 * - "Separate agents merging one set of distillates" are realized as separate runs of the same
 *   prefix on one process, each after `reset` (W-2.4), rather than as agents minted from different
 *   roots. Distillates carry their agent's identity, so agents with different roots would hold
 *   different distillate digests, batch digests and version ids and only the bare `state` could be
 *   compared; after a reset the identity is the same, so everything the model shows to be
 *   order-independent (state, retained distillates with their digests, the head's state digest,
 *   the replay claim's identity and state digest…) is compared, and every run is a portable trace
 *   that starts, like `srk replay`, from an empty world.
 * - AD-3: every order of 3 lives, every order of 4 lives plus batchings (1, 2 or all obligations
 *   per `samskara.merge`) and duplicate deliveries (D-008), and ~10 orders of 7 lives sampled from
 *   the seed; each run ends with `samskara.replay` and a `store` query. Each run is compared with
 *   the model step by step (replies, and the store after every merge, excision and replay), then
 *   its outcome with the group's first run on the fields on which the model's own runs of the group
 *   agree (algebra-outcome.ts): the model decides what must be order-independent.
 * - S-4: the replay reply (its claim) must equal the model's; a difference also says whether the
 *   claim contradicts the implementation's own chain.
 * - S-5: merge 4 lives in some batches, excise some (one case empties a whole batch, D-009; two are
 *   sampled), replay; compare with a run that distilled the same lives but never merged the
 *   excised ones (same batches without them), on the fields the model shows to be equal.
 * A mismatch with the model is attributed with `attribute()` (D-035); the check is named by the
 * phase of the step (prefix, merge, excision, replay). A scripted command the model rejects is a
 * runner bug and throws.
 *
 * Driver and checkers (issue 22). `driveAlgebra` runs the campaign and records a history
 * (algebra-history.ts): each group and excision case with the model's side of its scripts, each
 * run's requests, the model's expected replies and the implementation's, and where it had to stop
 * (a break of the wire protocol, an undrivable implementation, a reset that did not empty the
 * world, the time budget). It judges nothing: a mismatch does not stop a run (its requests are
 * pipelined, and its trace shows every reply). The checkers (algebra-check.ts) read the history
 * and decide the findings, notes, checks and witnesses; the stage drives, then checks.
 */
import { owns } from "../shard/shard.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { Family } from "../oracle/families.ts";
import type { Session } from "../driver/target.ts";
import { outcome, Undrivable, WireBreak, type StageContext, type StageOutcome } from "./types.ts";
import { type AlgebraEvent, type AlgebraHistory, OPEN_PART, STAGE_PART } from "./algebra-history.ts";
import { checkAlgebra, fieldsOf } from "./algebra-check.ts";
import { modelSide } from "./algebra-outcome.ts";
import {
  batchingsOf4,
  describeMerges,
  excisionCases,
  exhaustiveOrders,
  sampledSchedules,
  type ExcisionCase,
  type Schedule,
} from "./algebra-schedules.ts";
import { buildPrefix, type Script, type ScriptBuilder } from "./algebra-script.ts";
import { driveScript } from "./algebra-wire.ts";
import { outOfTime } from "./budget.ts";
import { newHistory } from "../core/history.ts";

const NEEDED: readonly Family[] = ["janma", "samskara"];
const ALGEBRA: readonly InvariantId[] = ["AD-3", "S-4", "S-5"];
const SAMPLED_LIVES = 7;
const SAMPLED_ORDERS = 10;
const EXCISION_LIVES = 4;
const SAMPLED_EXCISIONS = 2;

interface Group {
  readonly n: number;
  readonly schedules: readonly Schedule[];
}

/**
 * A runner bug, not a finding: the model's own runs of a group (or case) must agree on `needed`,
 * else the scripts do not test what they claim. Asks the checker which fields agree.
 */
const requireFields = (fields: readonly string[], needed: string, what: string): void => {
  if (!fields.includes(needed))
    throw new Error(
      `algebra stage (runner bug): the model's own runs of ${what} disagree on ${needed}; the script is wrong`,
    );
};

/** What the driver needs beside the session: the budget, and a tick after each run (progress). */
interface Driving {
  readonly session: Session;
  readonly history: AlgebraHistory;
  /** False once the time budget is spent (recorded: the driver starts no further run). */
  readonly timeLeft: () => boolean;
  readonly ran: () => void;
}

/** Runs one script; false when the driver cannot go on (recorded in the run's part). */
const run = async (d: Driving, script: Script, part: string): Promise<boolean> => {
  const going = await driveScript(d.session, script, part, d.history);
  if (going) d.ran();
  return going;
};

const driveGroup = async (d: Driving, g: Group): Promise<boolean> => {
  const prefix = buildPrefix(g.n);
  const scripts = g.schedules.map((s) => {
    const b = prefix.fork();
    for (const m of s.merges) b.merge(m);
    return b.replay().build(s.label);
  });
  const models = scripts.map(modelSide);
  requireFields(fieldsOf(models), "store.state", `${g.n} lives`);
  const runs = scripts.map((_, k) => `algebra-n${g.n}-${k + 1}`);
  d.history.events.push({ kind: "algebra-group", part: `algebra-n${g.n}`, n: g.n, runs, models });
  for (const [k, script] of scripts.entries()) {
    if (!d.timeLeft()) return false;
    if (!(await run(d, script, runs[k] ?? ""))) return false;
  }
  return true;
};

const driveExcision = async (d: Driving, prefix: ScriptBuilder, c: ExcisionCase, k: number): Promise<boolean> => {
  const a = prefix.fork();
  for (const m of c.batches) a.merge(m);
  const excising = a
    .excise(`excision-${k + 1}`, c.excised)
    .replay()
    .build(c.label);
  const remaining = c.batches.map((m) => m.filter((i) => !c.excised.includes(i))).filter((m) => m.length > 0);
  const b = prefix.fork();
  for (const m of remaining) b.merge(m);
  const never = b
    .replay()
    .build(
      `n${EXCISION_LIVES} merges ${remaining.length === 0 ? "none" : describeMerges(remaining)} (never merging the excised)`,
    );
  const models = [modelSide(excising), modelSide(never)] as const;
  requireFields(fieldsOf(models), "store.chain", `excision case ${c.label}`);
  const parts = [`algebra-x${k + 1}-a`, `algebra-x${k + 1}-b`] as const;
  d.history.events.push({
    kind: "algebra-excision",
    part: `algebra-x${k + 1}`,
    excising: parts[0],
    never: parts[1],
    models,
  });
  if (!d.timeLeft()) return false;
  if (!(await run(d, excising, parts[0]))) return false;
  if (!d.timeLeft()) return false;
  return run(d, never, parts[1]);
};

/** The whole campaign, before sharding: the merge groups, then the excision cases. */
interface Campaign {
  readonly allGroups: readonly Group[];
  readonly allCases: readonly ExcisionCase[];
}

/**
 * The whole campaign, or the outcome that ends the stage before any unit is dealt out: the profile
 * lacks a family it needs, or --only selects none of its invariants (the same on every shard).
 * From the context alone, so the shard gate (`algebra.shard`) and the run compute the same units.
 */
const campaignOf = (ctx: StageContext): Campaign | StageOutcome => {
  const missing = NEEDED.filter((f) => !ctx.families.includes(f));
  if (missing.length > 0)
    return outcome(
      "not-applicable",
      `the profile does not declare ${missing.join(" and ")}: merges, excisions and replays need distilled lives`,
      0,
    );
  const wanted = ALGEBRA.filter((id) => ctx.settings.only.length === 0 || ctx.settings.only.includes(id));
  if (wanted.length === 0) return outcome("not-selected", "--only names none of AD-3, S-4, S-5", 0);
  const seed = ctx.settings.seed;
  const allGroups: Group[] =
    wanted.includes("AD-3") || wanted.includes("S-4")
      ? [
          { n: 3, schedules: exhaustiveOrders(3) },
          { n: 4, schedules: [...exhaustiveOrders(4), ...batchingsOf4()] },
          { n: SAMPLED_LIVES, schedules: sampledSchedules(SAMPLED_LIVES, SAMPLED_ORDERS, seed) },
        ]
      : [];
  const allCases = wanted.includes("S-5") ? excisionCases(EXCISION_LIVES, SAMPLED_EXCISIONS, seed) : [];
  return { allGroups, allCases };
};

/**
 * The algebra stage's driver: this shard's merge groups, then its excision cases, on one process,
 * recorded in `history`. It stops at the first run that breaks the wire protocol, cannot be driven
 * or whose reset does not empty the world, and when the time budget is spent; then it records the
 * wire violations the session saw. `ran` is called after each run that went through (progress).
 */
export const driveAlgebra = async (
  ctx: StageContext,
  campaign: { readonly groups: readonly Group[]; readonly cases: readonly { c: ExcisionCase; k: number }[] },
  history: AlgebraHistory,
  ran: () => void = () => undefined,
): Promise<void> => {
  const { groups, cases } = campaign;
  const events = history.events;
  const total = groups.reduce((n, g) => n + g.schedules.length, 0) + 2 * cases.length;
  events.push({ kind: "algebra-plan", part: STAGE_PART, seed: ctx.settings.seed, runs: total });
  const timeLeft = (): boolean => {
    if (!outOfTime(ctx)) return true;
    events.push({ kind: "algebra-budget", part: STAGE_PART });
    return false;
  };
  if (!timeLeft()) return;
  let session: Session;
  try {
    session = await ctx.target.open();
  } catch (e) {
    if (e instanceof Undrivable) events.push({ kind: "stopped", part: OPEN_PART, reason: e.message });
    else if (e instanceof WireBreak)
      events.push({ kind: "break", part: OPEN_PART, step: 0, rule: e.rule, message: e.message, raw: e.raw });
    else throw e;
    return;
  }
  try {
    const d: Driving = { session, history, timeLeft, ran };
    let going = true;
    for (const g of groups) if (going) going = await driveGroup(d, g);
    const prefix = cases.length > 0 && going ? buildPrefix(EXCISION_LIVES) : null;
    for (const { c, k } of cases) if (going && prefix !== null) going = await driveExcision(d, prefix, c, k);
  } finally {
    await session.close().catch(() => undefined);
  }
  // Violations that still produced a reply (e.g. replies out of order, W-1.6): the checker reports them.
  events.push({
    kind: "algebra-violations",
    part: STAGE_PART,
    violations: session.client.violations.map((v) => ({ rule: v.rule, message: v.message })),
  });
};

export const algebraStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const campaign = campaignOf(ctx);
  if ("verdict" in campaign) return campaign;
  const { allGroups, allCases } = campaign;
  // Shard units (D-038): each merge group (its schedules are compared with each other, so a group
  // stays whole), then each excision case.
  const groups = allGroups.filter((_, k) => owns(ctx.shard, "algebra", k));
  // Each case keeps its index in the whole campaign (it names the excision), whichever shard runs it.
  const cases = allCases.map((c, k) => ({ c, k })).filter(({ k }) => owns(ctx.shard, "algebra", allGroups.length + k));
  // A shard that owns none of them does not get here: the shard gate (shard-gate.ts) asks `algebra.shard`.
  const total = groups.reduce((n, g) => n + g.schedules.length, 0) + 2 * cases.length;
  const history = newHistory<AlgebraEvent>(`algebra-${ctx.settings.seed}`);
  // Progress only: the checker's counts over the history so far, at most every 2 s (a full check
  // takes tens of milliseconds; a display needs no more).
  let runs = 0;
  let counted = { at: 0, witnesses: 0, violations: 0 };
  const ran = (): void => {
    runs++;
    if (Date.now() - counted.at >= 2_000 || runs === total) {
      const v = checkAlgebra(history);
      counted = { at: Date.now(), witnesses: v.witnessed.length, violations: v.violations };
    }
    ctx.progress.tick(runs, total, { witnesses: counted.witnesses, violations: counted.violations });
  };
  await driveAlgebra(ctx, { groups, cases }, history, ran);
  const v = checkAlgebra(history);
  for (const id of v.witnessed) ctx.witnesses.add(id, "algebra");
  for (const f of v.outcome.findings)
    ctx.progress.line(`srk: algebra: ${f.invariant ?? "wire"} ${f.check}: ${f.summary.slice(0, 300)}`);
  return v.outcome;
};

/** The algebra stage: one unit per merge group (its schedules are compared with each other), then one per excision case. */
export const algebra: StageDefinition<"algebra"> = {
  ...STAGE_CATALOG.algebra,
  shard: {
    dealt: "before",
    units: (ctx) => {
      const campaign = campaignOf(ctx);
      return "verdict" in campaign ? null : campaign.allGroups.length + campaign.allCases.length;
    },
  },
  run: algebraStage,
};
