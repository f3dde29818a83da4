/**
 * Liveness on generated histories.
 *
 * D-062 (eventual discharge as a property of the caller's clock): after every generated history the
 * drain of properties/liveness.ts withdraws each living instance, distils each withdrawn life that
 * has no obligation with the no-feedback distillate (D-057), expires each pending obligation at the
 * largest deadline and dissolves each withdrawn instance; every obligation must then be discharged
 * and every instance that was born dissolved. Counted, so that it cannot pass vacuously. The same
 * drain against the implementation, and its kill of a mutant that strands a life:
 * properties/liveness-impl.test.ts.
 *
 * The generator reaches the situation of review G-53 (D-046, OP-6.12): a worker publishes an
 * attempt and dies, the fence is refused while the attempt is live, native recovery pauses the task
 * (revoking the attempt), the dead worker's late reply is rejected as stale (I4), and a fence then
 * succeeds. Counted on the model over generated sequences, so a generator change that stops
 * producing it fails here rather than silently weakening the differential and the golden sessions.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import { initialWorld, transition, view, type World } from "../model/index.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "./generators/commands.ts";
import {
  describeViolations,
  drainLives,
  modelStepper,
  modelsFromMemory,
  runHistory,
  type DrainCounts,
  type Stepper,
} from "./liveness.ts";

interface Counts {
  pauses: number;
  staleReplies: number;
  /** revoke, then the late reply rejected (I4), then a fence accepted on the same agent. */
  situations: number;
  /** …and the fence had been refused (I4) while the revoked attempt was still live. */
  refusedThenMigrated: number;
}

/** Per agent: where it stands in the G-53 sequence. */
interface Track {
  refusedWhileLive: Set<string>;
  revoked: Set<string>;
  lateRejected: boolean;
  refused: boolean;
}

const count = (runs: number, seed: number): Counts => {
  const counts: Counts = { pauses: 0, staleReplies: 0, situations: 0, refusedThenMigrated: 0 };
  for (const choices of fc.sample(choicesArb(200, 300), { seed, numRuns: runs })) {
    const mem = newMemory();
    let w = initialWorld();
    const tracks = new Map<string, Track>();
    for (const choice of choices) {
      const before = view(w);
      const cmd = materialize(before, mem, choice);
      const r = transition(w, cmd);
      if (cmd.op === "advaita.mint") {
        if (Result.isSuccess(r)) w = r.success.world;
        continue;
      }
      const t = tracks.get(cmd.agent) ?? {
        refusedWhileLive: new Set(),
        revoked: new Set(),
        lateRejected: false,
        refused: false,
      };
      tracks.set(cmd.agent, t);
      const live = before.agents.find((a) => a.identity.identity === cmd.agent)?.ripa.live_attempts ?? [];
      if (Result.isSuccess(r)) {
        w = r.success.world;
        // A revoked attempt's late reply is never accepted.
        expect(
          cmd.op === "ripa.reply" && t.revoked.has(cmd.attempt_nonce),
          `late reply ${cmd.op === "ripa.reply" ? cmd.attempt_nonce : ""} accepted`,
        ).toBe(false);
        if (cmd.op === "ripa.task_pause") {
          counts.pauses++;
          t.revoked.add(cmd.attempt_nonce);
          if (t.refusedWhileLive.has(cmd.attempt_nonce)) t.refused = true;
        }
        if (cmd.op === "ripa.migration_fence" && t.lateRejected) {
          counts.situations++;
          if (t.refused) counts.refusedThenMigrated++;
          tracks.set(cmd.agent, {
            refusedWhileLive: new Set(),
            revoked: new Set(),
            lateRejected: false,
            refused: false,
          });
        }
      } else {
        if (cmd.op === "ripa.migration_fence" && r.failure.invariant === "I4")
          for (const l of live) t.refusedWhileLive.add(l.attempt_nonce);
        // A late reply that fails a common check first (a regressed tick, OP-0.2.c2) never reaches
        // the attempt check; every other rejection of it must be the stale attempt, I4.
        if (
          cmd.op === "ripa.reply" &&
          t.revoked.has(cmd.attempt_nonce) &&
          !(r.failure.check ?? "").startsWith("OP-0.2.")
        ) {
          expect(r.failure.invariant, `${r.failure.code} ${r.failure.message}`).toBe("I4");
          counts.staleReplies++;
          t.lateRejected = true;
        }
      }
    }
  }
  return counts;
};

describe("the generator reaches the G-53 situation (worker died, revoke, late reply rejected, fence)", () => {
  it("counts pauses, stale late replies, and complete sequences ending in an accepted fence", () => {
    const c = count(30, 53);
    console.error(`G-53 situation counts over 30 runs: ${JSON.stringify(c)}`);
    expect(c.pauses).toBeGreaterThanOrEqual(20);
    expect(c.staleReplies).toBeGreaterThanOrEqual(10);
    expect(c.situations).toBeGreaterThanOrEqual(3);
    expect(c.refusedThenMigrated).toBeGreaterThanOrEqual(1);
  });
});

/** Sums of the drain's counts over many histories. */
const emptyCounts = (): DrainCounts => ({
  withdrawn: 0,
  distilled: 0,
  distilledFromHistory: 0,
  expiredCorrective: 0,
  expiredReinforcing: 0,
  expiredFromHistory: { corrective: 0, reinforcing: 0 },
  dissolved: 0,
  conceived: 0,
});
const addCounts = (t: DrainCounts, c: DrainCounts): void => {
  t.withdrawn += c.withdrawn;
  t.distilled += c.distilled;
  t.distilledFromHistory += c.distilledFromHistory;
  t.expiredCorrective += c.expiredCorrective;
  t.expiredReinforcing += c.expiredReinforcing;
  t.expiredFromHistory.corrective += c.expiredFromHistory.corrective;
  t.expiredFromHistory.reinforcing += c.expiredFromHistory.reinforcing;
  t.dissolved += c.dissolved;
  t.conceived += c.conceived;
};

/** The budget: mixed histories (every family, migrations in progress) and store histories (many lives). */
const BUDGET: readonly { readonly profile: GenProfile; readonly runs: number; readonly seed: number }[] = [
  { profile: "mixed", runs: 60, seed: 62 },
  { profile: "store", runs: 40, seed: 57 },
];

describe("D-062: after every generated history, the caller can end every life and discharge every obligation (model)", () => {
  it("the drain (withdraw, no-feedback distil, expire at the largest deadline, dissolve) leaves nothing pending or stranded", () => {
    const total = emptyCounts();
    let histories = 0;
    let regressed = 0;
    for (const { profile, runs, seed } of BUDGET) {
      fc.assert(
        fc.property(choicesArb(60, 200), (cs) => {
          const mem = newMemory(profile);
          const reached = runHistory(initialWorld(), modelStepper, mem, cs);
          const before = JSON.stringify(view(reached));
          const r = drainLives(reached, modelStepper, modelsFromMemory(mem));
          expect(r.violations, describeViolations(r.violations)).toEqual([]);
          // Pure: the world the history reached is untouched; ticks never go backwards.
          expect(JSON.stringify(view(reached))).toBe(before);
          expect(r.ticks.expiry).toBeGreaterThanOrEqual(r.ticks.start);
          if (r.ticks.start < view(reached).tick) regressed++;
          histories++;
          addCounts(total, r.counts);
        }),
        { seed, numRuns: runs },
      );
    }
    console.error(`D-062 drain over ${histories} histories: ${JSON.stringify(total)}`);
    expect(regressed).toBe(0);
    // Not vacuous: the drain really ended lives and obligations of every kind the history left.
    // (Seeds 62 and 57 gave 200 withdrawn, 346 distilled, 146 of them withdrawn by the history, 55
    // corrective and 116 reinforcing obligations of the history expired; the floors are half that.)
    expect(total.withdrawn).toBeGreaterThanOrEqual(100);
    expect(total.distilled).toBeGreaterThanOrEqual(170);
    expect(total.distilledFromHistory).toBeGreaterThanOrEqual(70);
    expect(total.expiredFromHistory.corrective).toBeGreaterThanOrEqual(25);
    expect(total.expiredFromHistory.reinforcing).toBeGreaterThanOrEqual(55);
    expect(total.dissolved).toBeGreaterThanOrEqual(total.distilled);
  });

  it("the drain reports a stranded life: a model that refuses every zero-confidence signal (D-057's old reading) fails it", () => {
    // The model with one rule changed, as a stepper: janma.distil with confidence 0 is refused (S-2).
    const oldReading: Stepper<World> = {
      view: modelStepper.view,
      apply: (w, cmd) =>
        cmd.op === "janma.distil" && (cmd.distillate as { signal?: { confidence?: number } }).signal?.confidence === 0
          ? { ok: false, rejection: { code: "INVARIANT_VIOLATION", invariant: "S-2", message: "zero confidence" } }
          : modelStepper.apply(w, cmd),
    };
    const [cs] = fc.sample(choicesArb(60, 200), { seed: 62, numRuns: 1 });
    const mem = newMemory("store");
    const reached = runHistory(initialWorld(), modelStepper, mem, cs ?? []);
    const r = drainLives(reached, oldReading, modelsFromMemory(mem));
    expect(
      r.violations.some(
        (x) => x.kind === "rejected" && x.command.op === "janma.distil" && x.rejection.invariant === "S-2",
      ),
    ).toBe(true);
    expect(r.violations.some((x) => x.kind === "life-stranded" && x.state === "withdrawn")).toBe(true);
    expect(drainLives(reached, modelStepper, modelsFromMemory(mem)).violations).toEqual([]);
  });
});
