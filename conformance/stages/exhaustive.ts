/**
 * The exhaustive stage (issue 27 item 3, D-074): every edge (state, command) of a scope's explored
 * graph driven over the wire. The reference model is explored breadth first over the scope
 * (conformance/explore/), and the sessions of conformance/explore/edge-cover.ts walk every edge of
 * that graph: each command the model accepts or rejects in each reachable state, reached by the
 * model's shortest path, every reply compared with the model's and every distinct state's world
 * view compared once. Where the differential campaign samples, this says: no behaviour of this
 * scope differs from the model's.
 *
 * The default campaign runs it on the shipped scope `quick` (seconds); `srk certify --exhaustive
 * <scope>` names a larger one (D-074). Each session is one `reset` and a pipelined exchange on one
 * process; a protocol break starts a new one. A profile is explored with its own operations only
 * (W-5.2: the others are never sent), so a partial profile is driven through every edge they reach.
 * After a difference the stage goes on with the next session, and reports at most one finding per
 * invariant (and one for the wire protocol): the rest of a scope usually repeats the first.
 */
import { placeText } from "../oracle/attribution.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace } from "../../spec/certificate.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import type { ExpectedReply } from "../core/reply.ts";
import type { CoverSession } from "../explore/edge-cover.ts";
import { guardsOf } from "../oracle/families.ts";
import { expect1 } from "../oracle/model.ts";
import {
  breakTrace,
  judgePlanned,
  opAt,
  PlannedBreak,
  plannedTrace,
  runPlanned,
  type PlannedStep,
  type PlannedVerdict,
} from "../oracle/planned.ts";
import { refinedFromHistory, refineMismatch, type Refined } from "../oracle/refine.ts";
import { newHistory, type History } from "../core/history.ts";
import type { Mismatch } from "../oracle/compare.ts";
import { owns } from "../shard/shard.ts";
import { recordAgreedStep } from "../verdicts/witnesses.ts";
import { outOfTime } from "./budget.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { coverOf, scopeOf } from "./scope-cover.ts";
import type { StageDefinition } from "./definition.ts";
import { outcome, type Finding, type StageContext, type StageOutcome } from "./types.ts";

/** A cover session as a planned exchange: the model's reply to each command, its world view at each query. */
export const planSession = (s: CoverSession): PlannedStep[] => {
  let world: World = initialWorld();
  let n = 0;
  return s.items.map((item): PlannedStep => {
    n++;
    if ("world" in item) {
      const expected: ExpectedReply = { ok: true, events: [], result: view(world) };
      return { request: { type: "query", id: `x${n}`, query: { name: "world" } }, expected };
    }
    const e = expect1(world, item.command);
    world = e.world;
    return {
      request: { type: "command", id: `x${n}`, command: item.command },
      expected: e.reply,
      ...(e.rejectedAt === undefined ? {} : { rejectedAt: e.rejectedAt }),
    };
  });
};

/** The part of the exhaustive stage's history that is cover session `k`'s run (its reset is `<part>/reset`, its probes `<part>/refine`). */
const sessionPart = (k: number): string => `session-${k + 1}`;

/**
 * The first difference of a cover session's run that the stage reports, read from the history: the
 * run's first differing reply, sharpened by the probe the driver settled on, unless a difference of
 * its invariant was found in an earlier session (`found`, the invariants reported so far, null for
 * the wire protocol). Also what the driver asks to decide whether probing is worth it.
 */
const reportable = (
  history: History,
  part: string,
  steps: readonly PlannedStep[],
  found: ReadonlySet<InvariantId | null>,
): {
  readonly verdict: PlannedVerdict;
  readonly refine: boolean;
  readonly m: Mismatch | null;
  readonly refined: Refined | null;
} => {
  const verdict = judgePlanned(history, part, steps);
  const first = verdict.mismatch;
  if (first === null || found.has(first.mismatch.invariant)) return { verdict, refine: false, m: null, refined: null };
  const refined = refinedFromHistory(history, `${part}/refine`, steps, first.index, first.mismatch);
  const m = refined?.mismatch ?? first.mismatch;
  return { verdict, refine: true, m: found.has(m.invariant) ? null : m, refined };
};

/**
 * The exhaustive stage's driver: each cover session of this shard, after a reset, pipelined
 * (runPlanned, recorded as its part of the history), a difference probed to sharpen it when it
 * could be reported (refine.ts); a process that broke the wire protocol is replaced by a fresh one.
 * Returns the sessions it ran and whether the time budget cut it short.
 */
const driveCover = async (
  ctx: StageContext,
  cover: ReturnType<typeof coverOf>,
  history: History,
): Promise<{ readonly ran: { readonly k: number; readonly steps: PlannedStep[] }[]; readonly cut: boolean }> => {
  const ran: { k: number; steps: PlannedStep[] }[] = [];
  const found = new Set<InvariantId | null>();
  let session = await ctx.target.open();
  try {
    for (const [k, s] of cover.sessions.entries()) {
      if (!owns(ctx.shard, "exhaustive", k)) continue;
      if (outOfTime(ctx)) return { ran, cut: true };
      const steps = planSession(s);
      const part = sessionPart(k);
      // Sent as before (the client gives it an id); recorded under the plan's name for it.
      const reply = await session.ok({ type: "reset" });
      history.events.push({
        kind: "exchange",
        part: `${part}/reset`,
        step: 0,
        request: { type: "reset", id: "reset" },
        expected: { ok: true, events: [] },
        reply,
      });
      ran.push({ k, steps });
      try {
        await runPlanned(session, steps, undefined, { history, part });
      } catch (e) {
        if (!(e instanceof PlannedBreak)) throw e;
        found.add(null);
        await session.close();
        session = await ctx.target.open();
        continue;
      }
      const r = reportable(history, part, steps, found);
      const first = r.verdict.mismatch;
      if (!r.refine || first === null) continue;
      await refineMismatch(session, steps, first.index, first.mismatch, { history, part: `${part}/refine` });
      const m = reportable(history, part, steps, found).m;
      if (m !== null) found.add(m.invariant);
    }
  } finally {
    await session.close();
  }
  return { ran, cut: false };
};

export const exhaustiveStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const scope = scopeOf(ctx.settings);
  const cover = coverOf(scope, ctx.families);
  const check = `exhaustive/${scope}`;
  if (cover.edges === 0) return outcome("not-applicable", `the profile's operations make no step in scope ${scope}`, 0);
  const mine = cover.sessions.filter((_, k) => owns(ctx.shard, "exhaustive", k)).length;
  const history = newHistory(`exhaustive/${scope}`);
  const { ran: driven, cut } = await driveCover(ctx, cover, history);

  // The checkers: every session's run judged from the history alone, in the order they ran.
  const findings: Finding[] = [];
  const found = new Set<InvariantId | null>();
  let checks = 0;
  let requests = 0;
  for (const { k, steps } of driven) {
    const part = sessionPart(k);
    const where = `scope ${scope}, session ${k + 1} of ${cover.sessions.length} (${cover.sessions[k]?.part})`;
    requests++; // its reset
    const r = reportable(history, part, steps, found);
    const { replies, broken, mismatch } = r.verdict;
    if (broken !== null) {
      checks += broken.index + 1;
      requests += broken.index + 1;
      if (!found.has(null)) {
        found.add(null);
        findings.push({
          invariant: null,
          stage: "exhaustive",
          check,
          summary: `${where} step ${broken.index + 1}: ${broken.rule}: ${broken.message}; raw: ${broken.raw}`,
          trace: breakTrace(broken, steps, "exhaustive", check, null),
        });
      }
      continue;
    }
    requests += replies.length;
    checks += replies.length;
    const agreed = mismatch === null ? replies.length : mismatch.index;
    for (let i = 0; i < agreed; i++) {
      const st = steps[i];
      if (st?.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(steps, i)), st.expected);
    }
    ctx.coverage?.recordSession(steps.slice(0, agreed));
    const m = r.m;
    if (mismatch === null || m === null) continue;
    found.add(m.invariant);
    const shown = r.refined ?? { steps, replies, index: mismatch.index };
    const trace: PortableTrace = {
      trace_version: 1,
      invariant: m.invariant,
      stage: "exhaustive",
      check,
      summary: m.summary,
      seed: null,
      path: null,
      steps: plannedTrace(shown.steps, shown.replies, shown.index),
      failing_step: shown.index,
      difference: m.path === null ? null : placeText(m.path),
      shrink: null,
    };
    findings.push({
      invariant: m.invariant,
      stage: "exhaustive",
      check,
      summary: `${where} step ${mismatch.index + 1}: ${m.summary}`,
      trace,
    });
  }
  const ranCount = driven.length;
  const notes: string[] = [];
  const whole = ctx.shard === undefined || ctx.shard.count === 1;
  notes.push(
    `scope ${scope}: ${cover.edges} edges of ${cover.states} states (depth ≤ ${cover.explored.maxDepth}), driven by ${cover.sessions.length} sessions of ${cover.requests} requests in all` +
      (whole ? "" : `; this shard's: ${mine} sessions`),
    `sent ${requests} requests (resets included) in ${ranCount} sessions`,
  );
  if (findings.length > 0)
    return outcome(
      "fail",
      `${findings.length} difference(s) from the model on the edges of scope ${scope}`,
      checks,
      findings,
      notes,
    );
  if (cut)
    return outcome(
      "inconclusive",
      `the time budget ran out after ${ranCount} of the scope's ${mine} sessions`,
      checks,
      [],
      notes,
    );
  const what = whole
    ? `every edge of scope ${scope} driven in ${ranCount} sessions`
    : `this shard's ${ranCount} sessions of scope ${scope} driven`;
  return outcome("pass", `${what}, every reply and world view as the model's`, checks, [], notes);
};

/** The exhaustive stage: one unit per cover session. */
export const exhaustive: StageDefinition<"exhaustive"> = {
  ...STAGE_CATALOG.exhaustive,
  shard: { dealt: "before", units: (ctx) => coverOf(scopeOf(ctx.settings), ctx.families).sessions.length },
  run: exhaustiveStage,
};
