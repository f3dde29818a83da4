/**
 * Stage 2, golden sessions (W-9): the committed transcripts `conformance/golden/session-*.jsonl`,
 * replayed on a fresh data directory, every reply's normative part compared with the file. A
 * session that uses an operation outside the declared families is not applicable (W-5.2: those
 * operations are never sent); it is reported in the notes, never as passed.
 *
 * The implementation is shut down and started again on the same data directory every
 * RESTART_EVERY lines and the transcript goes on (golden-recovery.ts `withRestarts`, W-7.1), and a
 * session that agrees to its end is then recovered: shut down, started again, its world must still
 * be the model's.
 *
 * Then the wire session (W-9.1, `conformance/golden/wire-session.jsonl`): its raw lines, sent at
 * once to a fresh process before any handshake, must get exactly the replies in the file, in order.
 * A profile is sent the lines it may be sent: all of them when it declares a family (the session's
 * only operation is the bootstrap advaita.mint, D-034), the lines that need no family when it is
 * empty — so even the empty profile's replay checks something. Which lines and sessions apply is
 * computed from the lines themselves (conformance/golden/applicability.ts).
 * A difference is a wire-protocol finding (`invariant: null`, check `golden/wire-session`).
 */
import { placeText } from "../oracle/attribution.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KIT_ROOT } from "../kit-root.ts";
import { readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { guardsOf } from "../oracle/families.ts";
import { refineMismatch } from "../oracle/refine.ts";
import {
  breakTrace,
  isRestart,
  opAt,
  PlannedBreak,
  plannedTrace,
  runPlanned,
  type PlannedStep,
} from "../oracle/planned.ts";
import { recordAgreedStep } from "../verdicts/witnesses.ts";
import { owns } from "../shard/shard.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import { outcome, type Finding, type StageContext, type StageOutcome } from "./types.ts";
import { replayWireSession } from "../golden/wire-replay.ts";
import { goldenRecovery, withRestarts } from "./golden-recovery.ts";
import { readWireSession, WIRE_SESSION_PATH } from "../golden/wire-session.ts";
import { opsOutside, sessionOps, wireStepOp, wireStepsFor } from "../golden/applicability.ts";

/** The wire session as one more unit of the golden stage (sharding), after the command sessions. */
const WIRE_UNIT = (): number => GOLDEN_SESSIONS.length;

export const goldenSteps = (name: string): PlannedStep[] => {
  const g = GOLDEN_SESSIONS.find((x) => x.name === name);
  if (g === undefined) throw new Error(`no golden session ${name}`);
  return readGolden(join(KIT_ROOT, goldenPath(g))).map((l) => ({
    request: l.request,
    expected: l.reply,
    ...(l.model === undefined ? {} : { rejectedAt: l.model }),
  }));
};

/**
 * Where step `index` of a session's steps (restarts inserted) is in its transcript file: "line N",
 * with the last restart before it named, since a difference after a restart is likely its doing.
 */
export const lineOf = (steps: readonly PlannedStep[], index: number): string => {
  let restarts = 0;
  let lastRestartAfter = 0;
  for (let i = 0; i <= index && i < steps.length; i++) {
    if (isRestart(steps[i] as PlannedStep)) {
      restarts++;
      lastRestartAfter = i + 1 - restarts;
    }
  }
  const step = steps[index];
  if (step !== undefined && isRestart(step)) return `the shutdown after line ${lastRestartAfter}`;
  const line = `line ${index + 1 - restarts}`;
  return restarts === 0 ? line : `${line} (after a restart on the same data directory after line ${lastRestartAfter})`;
};

export const goldenStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const findings: Finding[] = [];
  const notes: string[] = [];
  let checks = 0;
  let ran = 0;
  const mine = GOLDEN_SESSIONS.filter((_, k) => owns(ctx.shard, "golden", k));
  const wireMine = owns(ctx.shard, "golden", WIRE_UNIT());
  for (const g of mine) {
    const steps = withRestarts(goldenSteps(g.name));
    const outside = opsOutside(sessionOps(steps), ctx.families);
    if (outside.length > 0) {
      notes.push(
        `${g.name}: not applicable, it uses operations outside the profile (${outside.slice(0, 4).join(", ")}${outside.length > 4 ? ", …" : ""})`,
      );
      continue;
    }
    const restarts = steps.filter(isRestart).length;
    ctx.progress.line(
      `srk: golden ${g.name} (${steps.length - restarts} lines, restarted ${restarts} times on its data directory)`,
    );
    const session = await ctx.target.open();
    try {
      let planned: Awaited<ReturnType<typeof runPlanned>>;
      try {
        planned = await runPlanned(session, steps);
      } catch (e) {
        // A reply that breaks the wire protocol ends this session, not the stage: it becomes a
        // finding with a trace up to that line, and the next session runs on a fresh process.
        if (!(e instanceof PlannedBreak)) throw e;
        ran++;
        checks += e.index + 1;
        for (let i = 0; i < e.index; i++) {
          const s = steps[i];
          if (s?.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(steps, i)), s.expected);
        }
        const at = `${g.name} ${lineOf(steps, e.index)} (${String(steps[e.index]?.request.id)})`;
        findings.push({
          invariant: null,
          stage: "golden",
          check: `golden/${g.name}`,
          summary: `${at}: ${e.rule}: ${e.message}; raw: ${e.raw}`,
          trace: breakTrace(e, steps, "golden", `golden/${g.name}`, "seed" in g ? g.seed : null),
        });
        continue;
      }
      const { replies, mismatch } = planned;
      ran++;
      const agreed = mismatch === null ? replies.length : mismatch.index;
      checks += replies.length;
      for (let i = 0; i < agreed; i++) {
        const s = steps[i];
        if (s?.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(steps, i)), s.expected);
      }
      ctx.coverage?.recordSession(steps.slice(0, agreed));
      if (mismatch !== null) {
        const refined = await refineMismatch(session, steps, mismatch.index, mismatch.mismatch);
        const m = refined?.mismatch ?? mismatch.mismatch;
        const shown = refined ?? { steps, replies, index: mismatch.index };
        findings.push({
          invariant: m.invariant,
          stage: "golden",
          check: `golden/${g.name}`,
          summary: `${g.name} ${lineOf(steps, mismatch.index)} (${String(steps[mismatch.index]?.request.id)}): ${m.summary}`,
          trace: {
            trace_version: 1,
            invariant: m.invariant,
            stage: "golden",
            check: `golden/${g.name}`,
            summary: m.summary,
            seed: "seed" in g ? g.seed : null,
            path: null,
            steps: plannedTrace(shown.steps, shown.replies, shown.index),
            failing_step: shown.index,
            difference: m.path === null ? null : placeText(m.path),
            shrink: null,
          },
        });
      } else {
        const r = await goldenRecovery(session, g.name, "seed" in g ? g.seed : null, steps, replies);
        if (r.checked) checks += 2;
        if (r.finding !== null) findings.push(r.finding);
      }
    } finally {
      await session.close();
    }
  }
  if (wireMine) {
    const all = readWireSession(readFileSync(join(KIT_ROOT, WIRE_SESSION_PATH), "utf8"));
    const steps = wireStepsFor(all, ctx.families);
    if (steps.length < all.length) {
      const ops = [
        ...new Set(
          all
            .filter((s) => !steps.includes(s))
            .map(wireStepOp)
            .filter((op) => op !== null),
        ),
      ];
      notes.push(
        `wire-session: ${steps.length} of its ${all.length} lines, those the profile may be sent; the other ${all.length - steps.length} send ${ops.join(", ")}, outside the profile, or read the world it made (W-5.2, D-034)`,
      );
    }
    ctx.progress.line(`srk: golden wire-session (${steps.length} raw lines)`);
    const r = await replayWireSession(
      ctx.target.spawnSpec(ctx.target.freshDir()),
      steps,
      ctx.settings.startupTimeoutMs + 4 * ctx.settings.requestTimeoutMs,
      ctx.signal,
    );
    ran++;
    checks += r.replies;
    // Its raw lines (broken framing, bytes that are not UTF-8) fit no portable trace: `srk golden` replays the session itself.
    if (r.mismatch !== null)
      findings.push({
        invariant: null,
        stage: "golden",
        check: "golden/wire-session",
        summary: `wire-session ${r.mismatch}`,
        trace: null,
        rerun: "golden",
      });
  }
  if (ran === 0) return outcome("not-applicable", "no golden session uses only the declared families", 0, [], notes);
  if (findings.length > 0)
    return outcome("fail", `${findings.length} golden session(s) diverged`, checks, findings, notes);
  return outcome("pass", `${ran} golden session(s), every reply as expected`, checks, [], notes);
};

/** The golden stage: one unit per golden session, then the wire session (WIRE_UNIT). */
export const golden: StageDefinition<"golden"> = {
  ...STAGE_CATALOG.golden,
  shard: { dealt: "before", units: () => WIRE_UNIT() + 1 },
  run: goldenStage,
};
