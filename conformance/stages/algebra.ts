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
 */
import { owns } from "../shard/shard.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { Family } from "../oracle/families.ts";
import type { Session } from "../driver/target.ts";
import { outcome, Undrivable, WireBreak, type StageContext, type StageOutcome } from "./types.ts";
import { AlgebraLedger } from "./algebra-ledger.ts";
import {
  agreedFields,
  claimContradiction,
  implOutcome,
  modelOutcome,
  outcomeDifference,
  type Outcome,
} from "./algebra-outcome.ts";
import {
  batchingsOf4,
  describeMerges,
  excisionCases,
  exhaustiveOrders,
  sampledSchedules,
  type ExcisionCase,
  type Schedule,
} from "./algebra-schedules.ts";
import { buildPrefix, type Phase, type ScriptBuilder } from "./algebra-script.ts";
import { runScript, traceOf, type WireRun } from "./algebra-wire.ts";

const NEEDED: readonly Family[] = ["janma", "samskara"];
const ALGEBRA: readonly InvariantId[] = ["AD-3", "S-4", "S-5"];
const SAMPLED_LIVES = 7;
const SAMPLED_ORDERS = 10;
const EXCISION_LIVES = 4;
const SAMPLED_EXCISIONS = 2;

const CHECK_OF_PHASE: Readonly<Record<Phase, string>> = {
  prefix: "algebra/prefix",
  merge: "algebra/AD-3-merge",
  excise: "algebra/S-5-excision",
  replay: "algebra/S-4-replay",
};

interface Group {
  readonly n: number;
  readonly schedules: readonly Schedule[];
}

/** Did the run agree with the model through its merges (a later replay mismatch is S-4's)? */
const mergesAgreed = (run: WireRun): boolean => run.mismatch === null || run.mismatch.phase === "replay";

/** Compares one run with the model: a finding for its first mismatch, else an S-4 witness (its replay agreed). */
const judge = (led: AlgebraLedger, seed: number, run: WireRun): void => {
  led.checks++;
  const m = run.mismatch;
  if (m === null) {
    led.witness("S-4");
    return;
  }
  const check = CHECK_OF_PHASE[m.phase];
  const contradiction = m.phase === "replay" ? claimContradiction(run) : null;
  const summary =
    `${run.script.label}: step ${m.index + 1} (${m.op}) differs from the model: ${m.difference}` +
    (m.after === null ? "" : `; the store right after it: ${m.after}`) +
    (contradiction === null ? "" : `; the claim also contradicts the implementation's own store: ${contradiction}`);
  led.finding({
    invariant: m.invariant,
    stage: "algebra",
    check,
    summary,
    trace: traceOf(run, {
      invariant: m.invariant,
      check,
      summary,
      seed,
      failingStep: m.index,
      difference: m.difference,
    }),
  });
};

/** The run to show for a disagreement between two runs: the one that also deviates from the model, if any. */
const culprit = (a: WireRun, b: WireRun): WireRun => (b.mismatch !== null || a.mismatch === null ? b : a);

const requireFields = (fields: readonly string[], needed: string, what: string): void => {
  if (!fields.includes(needed))
    throw new Error(
      `algebra stage (runner bug): the model's own runs of ${what} disagree on ${needed}; the script is wrong`,
    );
};

const mergeGroup = async (led: AlgebraLedger, session: Session, seed: number, g: Group): Promise<boolean> => {
  const prefix = buildPrefix(g.n);
  const scripts = g.schedules.map((s) => {
    const b = prefix.fork();
    for (const m of s.merges) b.merge(m);
    return b.replay().build(s.label);
  });
  const fields = agreedFields(scripts.map(modelOutcome));
  requireFields(fields, "store.state", `${g.n} lives`);
  led.notes.push(
    `AD-3 over ${g.n} distillates: ${scripts.length} schedules compared on ${fields.join(", ")} (the fields the model's schedules agree on)`,
  );
  let reference: { readonly run: WireRun; readonly outcome: Outcome } | null = null;
  for (const [k, script] of scripts.entries()) {
    if (!led.timeLeft()) return false;
    const run = await runScript(session, script, `algebra-n${g.n}-${k + 1}`);
    judge(led, seed, run);
    led.tick();
    const out = implOutcome(run);
    if (out === null) continue; // a refused replay or store query is already a finding: the model accepted it
    if (reference === null) {
      reference = { run, outcome: out };
      if (mergesAgreed(run)) led.witness("AD-3");
      continue;
    }
    led.checks++;
    const d = outcomeDifference(reference.outcome, out, fields);
    if (d === null) {
      if (mergesAgreed(run)) led.witness("AD-3");
      continue;
    }
    const shown = culprit(reference.run, run);
    const summary = `merging the same ${g.n} distillates under "${reference.run.script.label}" and "${script.label}" gives different results: ${d}`;
    led.finding({
      invariant: "AD-3",
      stage: "algebra",
      check: "algebra/AD-3-order",
      summary,
      trace: traceOf(shown, {
        invariant: "AD-3",
        check: "algebra/AD-3-order",
        summary,
        seed,
        failingStep: shown.mismatch?.index ?? shown.requests.length - 1,
        difference: d,
      }),
    });
  }
  return true;
};

const excisionCase = async (
  led: AlgebraLedger,
  session: Session,
  seed: number,
  prefix: ScriptBuilder,
  c: ExcisionCase,
  k: number,
): Promise<boolean> => {
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
  const fields = agreedFields([modelOutcome(excising), modelOutcome(never)]);
  requireFields(fields, "store.chain", `excision case ${c.label}`);
  if (!led.timeLeft()) return false;
  const ra = await runScript(session, excising, `algebra-x${k + 1}-a`);
  judge(led, seed, ra);
  led.tick();
  if (!led.timeLeft()) return false;
  const rb = await runScript(session, never, `algebra-x${k + 1}-b`);
  judge(led, seed, rb);
  led.tick();
  const oa = implOutcome(ra);
  const ob = implOutcome(rb);
  if (oa === null || ob === null) return true;
  led.checks++;
  const d = outcomeDifference(ob, oa, fields);
  if (d === null) {
    if (ra.mismatch === null && rb.mismatch === null) led.witness("S-5");
    return true;
  }
  const shown = rb.mismatch !== null && ra.mismatch === null ? rb : ra;
  const summary = `"${c.label}" differs from "${never.label}" (the lineage that never had them): ${d}`;
  led.finding({
    invariant: "S-5",
    stage: "algebra",
    check: "algebra/S-5-excision",
    summary,
    trace: traceOf(shown, {
      invariant: "S-5",
      check: "algebra/S-5-excision",
      summary,
      seed,
      failingStep: shown.mismatch?.index ?? shown.requests.length - 1,
      difference: d,
    }),
  });
  return true;
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

export const algebraStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const campaign = campaignOf(ctx);
  if ("verdict" in campaign) return campaign;
  const { allGroups, allCases } = campaign;
  const seed = ctx.settings.seed;
  // Shard units (D-038): each merge group (its schedules are compared with each other, so a group
  // stays whole), then each excision case.
  const groups = allGroups.filter((_, k) => owns(ctx.shard, "algebra", k));
  // Each case keeps its index in the whole campaign (it names the excision), whichever shard runs it.
  const cases = allCases.map((c, k) => ({ c, k })).filter(({ k }) => owns(ctx.shard, "algebra", allGroups.length + k));
  // A shard that owns none of them does not get here: the shard gate (shard-gate.ts) asks `algebra.shard`.
  const total = groups.reduce((n, g) => n + g.schedules.length, 0) + 2 * cases.length;
  const ledger = new AlgebraLedger(ctx, total);
  let session: Session | null = null;
  try {
    if (!ledger.timeLeft()) return ledger.result("");
    session = await ctx.target.open();
    let going = true;
    for (const g of groups) if (going) going = await mergeGroup(ledger, session, seed, g);
    const prefix = cases.length > 0 && going ? buildPrefix(EXCISION_LIVES) : null;
    for (const { c, k } of cases)
      if (going && prefix !== null) going = await excisionCase(ledger, session, seed, prefix, c, k);
  } catch (e) {
    if (e instanceof Undrivable) ledger.stopped = `the implementation could not be driven: ${e.message}`;
    else if (e instanceof WireBreak)
      ledger.finding({ invariant: null, stage: "algebra", check: `wire/${e.rule}`, summary: e.message, trace: null });
    else throw e;
  } finally {
    await session?.close().catch(() => undefined);
  }
  // Violations that still produced a reply (e.g. replies out of order, W-1.6) are breaks too.
  for (const v of session?.client.violations ?? [])
    ledger.finding({ invariant: null, stage: "algebra", check: `wire/${v.rule}`, summary: v.message, trace: null });
  return ledger.result(
    `${ledger.witnesses("AD-3")} merge schedules agreed with the model and with each other (AD-3), ${ledger.witnesses("S-4")} replays agreed (S-4), ${ledger.witnesses("S-5")} excisions equalled never merging (S-5)`,
  );
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
