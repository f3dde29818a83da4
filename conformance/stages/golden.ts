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
import { refinedFromHistory, refineMismatch } from "../oracle/refine.ts";
import {
  breakTrace,
  isRestart,
  judgePlanned,
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
import { checkRecovery, driveRecovery, withRestarts } from "./golden-recovery.ts";
import { newHistory, type History } from "../core/history.ts";
import type { Session } from "../driver/target.ts";
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

/** The parts of a golden session's history: the transcript, the probes that refine a mismatch, the recovery check. */
const TRANSCRIPT = "transcript";
const REFINE = "refine";
const RECOVERY = "recovery";

/**
 * The golden session's driver: replays the transcript (its restarts included), stopping at the
 * first reply that differs from the file (comparePlanned: what it needs to know to stop), and then
 * either probes the implementation to sharpen that difference (refine.ts) or, when the transcript
 * agreed to its end, runs the recovery check's restart (golden-recovery.ts). Everything sent and
 * received is in the history it returns; it judges nothing else. A reply that breaks the wire
 * protocol ends the drive with that break recorded.
 */
export const driveGoldenSession = async (
  session: Session,
  name: string,
  steps: readonly PlannedStep[],
): Promise<History> => {
  const history = newHistory(name);
  let planned: Awaited<ReturnType<typeof runPlanned>>;
  try {
    planned = await runPlanned(session, steps, undefined, { history, part: TRANSCRIPT });
  } catch (e) {
    if (e instanceof PlannedBreak) return history;
    throw e;
  }
  const { mismatch } = planned;
  if (mismatch !== null)
    await refineMismatch(session, steps, mismatch.index, mismatch.mismatch, { history, part: REFINE });
  else await driveRecovery(session, steps, { history, part: RECOVERY });
  return history;
};

/** What the checkers of a golden session decide from its history. */
export interface GoldenVerdict {
  readonly finding: Finding | null;
  readonly checks: number;
  /** The leading transcript steps that agreed with the file (their commands are witnesses). */
  readonly agreed: number;
  /** Whether the agreed steps count towards the transition coverage (not after a break). */
  readonly coverage: boolean;
}

/**
 * The golden session's checkers, reading only its history: a break of the wire protocol (a finding
 * with the trace up to it); else the first reply that differs from the transcript (comparePlanned),
 * sharpened by the probe the driver settled on when there is one; else the recovery check.
 */
export const checkGoldenSession = (
  history: History,
  name: string,
  seed: number | null,
  steps: readonly PlannedStep[],
): GoldenVerdict => {
  const { replies, broken, mismatch } = judgePlanned(history, TRANSCRIPT, steps);
  if (broken !== null) {
    const at = `${name} ${lineOf(steps, broken.index)} (${String(steps[broken.index]?.request.id)})`;
    return {
      finding: {
        invariant: null,
        stage: "golden",
        check: `golden/${name}`,
        summary: `${at}: ${broken.rule}: ${broken.message}; raw: ${broken.raw}`,
        trace: breakTrace(broken, steps, "golden", `golden/${name}`, seed),
      },
      checks: broken.index + 1,
      agreed: broken.index,
      coverage: false,
    };
  }
  if (mismatch !== null) {
    const { index, mismatch: first } = mismatch;
    const refined = refinedFromHistory(history, REFINE, steps, index, first);
    const m = refined?.mismatch ?? first;
    const shown = refined ?? { steps, replies, index };
    return {
      finding: {
        invariant: m.invariant,
        stage: "golden",
        check: `golden/${name}`,
        summary: `${name} ${lineOf(steps, index)} (${String(steps[index]?.request.id)}): ${m.summary}`,
        trace: {
          trace_version: 1,
          invariant: m.invariant,
          stage: "golden",
          check: `golden/${name}`,
          summary: m.summary,
          seed,
          path: null,
          steps: plannedTrace(shown.steps, shown.replies, shown.index),
          failing_step: shown.index,
          difference: m.path === null ? null : placeText(m.path),
          shrink: null,
        },
      },
      checks: replies.length,
      agreed: index,
      coverage: true,
    };
  }
  const r = checkRecovery(history, RECOVERY, name, seed, steps, replies);
  return { finding: r.finding, checks: replies.length + (r.checked ? 2 : 0), agreed: replies.length, coverage: true };
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
    let history: History;
    try {
      history = await driveGoldenSession(session, g.name, steps);
    } finally {
      await session.close();
    }
    const judged = checkGoldenSession(history, g.name, "seed" in g ? g.seed : null, steps);
    ran++;
    checks += judged.checks;
    for (let i = 0; i < judged.agreed; i++) {
      const s = steps[i];
      if (s?.request.type === "command") recordAgreedStep(ctx.witnesses, guardsOf(opAt(steps, i)), s.expected);
    }
    if (judged.coverage) ctx.coverage?.recordSession(steps.slice(0, judged.agreed));
    if (judged.finding !== null) findings.push(judged.finding);
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
