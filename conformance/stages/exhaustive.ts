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
import { breakTrace, opAt, PlannedBreak, plannedTrace, runPlanned, type PlannedStep } from "../oracle/planned.ts";
import { refineMismatch } from "../oracle/refine.ts";
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

export const exhaustiveStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const scope = scopeOf(ctx.settings);
  const cover = coverOf(scope, ctx.families);
  const check = `exhaustive/${scope}`;
  const findings: Finding[] = [];
  const found = new Set<InvariantId | null>();
  const notes: string[] = [];
  let checks = 0;
  let ran = 0;
  let requests = 0;
  let cut = false;
  if (cover.edges === 0) return outcome("not-applicable", `the profile's operations make no step in scope ${scope}`, 0);
  const mine = cover.sessions.filter((_, k) => owns(ctx.shard, "exhaustive", k)).length;
  let session = await ctx.target.open();
  try {
    for (const [k, s] of cover.sessions.entries()) {
      if (!owns(ctx.shard, "exhaustive", k)) continue;
      if (outOfTime(ctx)) {
        cut = true;
        break;
      }
      const steps = planSession(s);
      const where = `scope ${scope}, session ${k + 1} of ${cover.sessions.length} (${s.part})`;
      await session.ok({ type: "reset" });
      requests++;
      let planned: Awaited<ReturnType<typeof runPlanned>>;
      try {
        planned = await runPlanned(session, steps);
      } catch (e) {
        if (!(e instanceof PlannedBreak)) throw e;
        ran++;
        checks += e.index + 1;
        requests += e.index + 1;
        if (!found.has(null)) {
          found.add(null);
          findings.push({
            invariant: null,
            stage: "exhaustive",
            check,
            summary: `${where} step ${e.index + 1}: ${e.rule}: ${e.message}; raw: ${e.raw}`,
            trace: breakTrace(e, steps, "exhaustive", check, null),
          });
        }
        await session.close();
        session = await ctx.target.open();
        continue;
      }
      const { replies, mismatch } = planned;
      ran++;
      requests += replies.length;
      checks += replies.length;
      const agreed = mismatch === null ? replies.length : mismatch.index;
      for (let i = 0; i < agreed; i++) {
        const st = steps[i];
        if (st?.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(steps, i)), st.expected);
      }
      ctx.coverage?.recordSession(steps.slice(0, agreed));
      if (mismatch === null || found.has(mismatch.mismatch.invariant)) continue;
      const refined = await refineMismatch(session, steps, mismatch.index, mismatch.mismatch);
      const m = refined?.mismatch ?? mismatch.mismatch;
      if (found.has(m.invariant)) continue;
      found.add(m.invariant);
      const shown = refined ?? { steps, replies, index: mismatch.index };
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
  } finally {
    await session.close();
  }
  const whole = ctx.shard === undefined || ctx.shard.count === 1;
  notes.push(
    `scope ${scope}: ${cover.edges} edges of ${cover.states} states (depth ≤ ${cover.explored.maxDepth}), driven by ${cover.sessions.length} sessions of ${cover.requests} requests in all` +
      (whole ? "" : `; this shard's: ${mine} sessions`),
    `sent ${requests} requests (resets included) in ${ran} sessions`,
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
      `the time budget ran out after ${ran} of the scope's ${mine} sessions`,
      checks,
      [],
      notes,
    );
  const what = whole
    ? `every edge of scope ${scope} driven in ${ran} sessions`
    : `this shard's ${ran} sessions of scope ${scope} driven`;
  return outcome("pass", `${what}, every reply and world view as the model's`, checks, [], notes);
};

/** The exhaustive stage: one unit per cover session. */
export const exhaustive: StageDefinition<"exhaustive"> = {
  ...STAGE_CATALOG.exhaustive,
  shard: { dealt: "before", units: (ctx) => coverOf(scopeOf(ctx.settings), ctx.families).sessions.length },
  run: exhaustiveStage,
};
