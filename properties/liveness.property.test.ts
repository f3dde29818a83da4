/**
 * The generator reaches the situation of review G-53 (D-046, OP-6.12): a worker publishes an
 * attempt and dies, the fence is refused while the attempt is live, native recovery pauses the task
 * (revoking the attempt), the dead worker's late reply is rejected as stale (I4), and a fence then
 * succeeds. Counted on the model over generated sequences, so a generator change that stops
 * producing it fails here rather than silently weakening the differential and the golden sessions.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import { initialWorld, transition, view } from "../model/index.ts";
import { choicesArb, materialize, newMemory } from "./generators/commands.ts";

interface Counts {
  pauses: number;
  staleReplies: number;
  /** revoke, then the late reply rejected (I4), then a fence accepted on the same agent. */
  situations: number;
  /** …and the fence had been refused (I4) while the revoked attempt was still live. */
  refusedThenMigrated: number;
}

/** Per agent: where it stands in the G-53 sequence. */
interface Track { refusedWhileLive: Set<string>; revoked: Set<string>; lateRejected: boolean; refused: boolean }

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
      const t = tracks.get(cmd.agent) ?? { refusedWhileLive: new Set(), revoked: new Set(), lateRejected: false, refused: false };
      tracks.set(cmd.agent, t);
      const live = before.agents.find((a) => a.identity.identity === cmd.agent)?.ripa.live_attempts ?? [];
      if (Result.isSuccess(r)) {
        w = r.success.world;
        // A revoked attempt's late reply is never accepted.
        expect(cmd.op === "ripa.reply" && t.revoked.has(cmd.attempt_nonce), `late reply ${cmd.op === "ripa.reply" ? cmd.attempt_nonce : ""} accepted`).toBe(false);
        if (cmd.op === "ripa.task_pause") {
          counts.pauses++;
          t.revoked.add(cmd.attempt_nonce);
          if (t.refusedWhileLive.has(cmd.attempt_nonce)) t.refused = true;
        }
        if (cmd.op === "ripa.migration_fence" && t.lateRejected) {
          counts.situations++;
          if (t.refused) counts.refusedThenMigrated++;
          tracks.set(cmd.agent, { refusedWhileLive: new Set(), revoked: new Set(), lateRejected: false, refused: false });
        }
      } else {
        if (cmd.op === "ripa.migration_fence" && r.failure.invariant === "I4")
          for (const l of live) t.refusedWhileLive.add(l.attempt_nonce);
        // A late reply that fails a common check first (a regressed tick, OP-0.2.c2) never reaches
        // the attempt check; every other rejection of it must be the stale attempt, I4.
        if (cmd.op === "ripa.reply" && t.revoked.has(cmd.attempt_nonce) && !(r.failure.check ?? "").startsWith("OP-0.2.")) {
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
