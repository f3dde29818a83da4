/**
 * The step-by-step comparison of the reference model with an implementation (differential
 * testing), shared by the differential property and the mutation suite: the same outcome
 * (accepted with the same events, or rejected with the same code and invariant) and the same
 * world view after every step. Paths and messages are informative and not compared (D-032).
 */
import { Result } from "effect";
import type { Command } from "../spec/index.ts";
import { initialWorld, toRejectionData, transition, view } from "../model/index.ts";
import type { Implementation } from "../impl/api.ts";
import { materialize, newMemory, type Choice, type GenProfile } from "./generators/commands.ts";
import { describeDifference, firstDifferenceOf } from "./json-diff.ts";

/**
 * The first difference between two JSON values as one line for a person, `path` its root's name
 * (json-diff.ts firstDifferenceOf, describeDifference); null when they are equal.
 */
export const firstDifference = (a: unknown, b: unknown, path = "$"): string | null => {
  const d = firstDifferenceOf(a, b);
  return d === null ? null : describeDifference(d, path);
};

export interface CompareStats {
  steps: number;
  agreedRejections: number;
  readonly ops: Set<string>;
  /** Per edge case of the generator (GenMemory.edges): how often the model answered what ("J-1", "accepted"…). */
  readonly edges?: Map<string, Map<string, number>>;
}

/**
 * Runs one generated sequence against the model and a fresh implementation from `open`; throws
 * an Error describing the first disagreement (step, recent ops, command, difference).
 */
export const compareRun = (
  open: () => Implementation,
  choices: readonly Choice[],
  options: { readonly stats?: CompareStats; readonly profile?: GenProfile; readonly edges?: boolean } = {},
): void => {
  const { stats, profile = "mixed", edges = false } = options;
  const impl = open();
  try {
    const mem = newMemory(profile, new Set(), { edges });
    let world = initialWorld();
    const trail: string[] = [];
    for (const choice of choices) {
      const cmd: Command = materialize(view(world), mem, choice);
      trail.push(cmd.op);
      const where = () =>
        `step ${trail.length} (${trail.slice(-6).join(" -> ")}): ${JSON.stringify(cmd).slice(0, 400)}`;
      const m = transition(world, cmd);
      const i = impl.apply(cmd);
      const edge = mem.lastEdge ?? null;
      if (stats?.edges !== undefined && edge !== null) {
        const verdict = Result.isSuccess(m)
          ? "accepted"
          : (toRejectionData(m.failure).invariant ?? toRejectionData(m.failure).code);
        const row = stats.edges.get(edge) ?? new Map<string, number>();
        row.set(verdict, (row.get(verdict) ?? 0) + 1);
        stats.edges.set(edge, row);
      }
      if (Result.isSuccess(m)) {
        if (!i.ok)
          throw new Error(`model accepted, impl rejected with ${i.error.code} (${i.error.message}) at ${where()}`);
        const d = firstDifference(m.success.events, i.events, "$events");
        if (d !== null) throw new Error(`events differ at ${where()}: ${d}`);
        world = m.success.world;
      } else {
        const r = toRejectionData(m.failure);
        if (i.ok) throw new Error(`model rejected with ${r.code} (${r.message}), impl accepted at ${where()}`);
        if (i.error.code !== r.code || (i.error.invariant ?? null) !== r.invariant) {
          throw new Error(
            `rejection differs at ${where()}: model ${r.code}/${r.invariant} (${r.message}) vs impl ${i.error.code}/${i.error.invariant} (${i.error.message})`,
          );
        }
        if (stats !== undefined) stats.agreedRejections++;
      }
      const d = firstDifference(view(world), impl.world(), "$world");
      if (d !== null) throw new Error(`world views differ after ${where()}: ${d}`);
      if (stats !== undefined) {
        stats.steps++;
        stats.ops.add(cmd.op);
      }
    }
  } finally {
    impl.close();
  }
};
