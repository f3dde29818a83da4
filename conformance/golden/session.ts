/**
 * Golden transcripts: a fixed, deterministic session of wire requests with the normative part of
 * every expected reply, computed by the reference model. Any implementation, in any language, can
 * replay the file over its own stdin/stdout and diff the replies (codes, invariants, definiteness,
 * events, results; never messages or paths — spec/wire/PROTOCOL.md W-9, D-032).
 *
 * The commands come from the property generator with a fixed seed, so the session reaches deep
 * states (merges, excisions, quarantine, six-phase migrations) and many agreed rejections.
 */
import fc from "fast-check";
import { Result } from "effect";
import type { Command, Event, WorldView } from "../../spec/index.ts";
import { initialWorld, toRejectionData, transition, view } from "../../model/index.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "../../properties/generators/commands.ts";

/** The normative part of a reply. */
export type ExpectedReply =
  | { readonly ok: true; readonly events: readonly Event[]; readonly result?: WorldView }
  | { readonly ok: false; readonly error: { readonly code: string; readonly invariant: string | null; readonly definite: boolean } };

export interface GoldenLine {
  readonly request: { readonly type: "command"; readonly id: string; readonly command: Command } | { readonly type: "query"; readonly id: string; readonly query: { readonly name: "world" } };
  readonly reply: ExpectedReply;
}

export interface GoldenSpec {
  readonly name: string;
  readonly seed: number;
  readonly steps: number;
  /** Generator profile (properties/generators/commands.ts); `mixed` when absent. */
  readonly profile?: GenProfile;
}

/** The committed golden sessions. */
export const GOLDEN_SESSIONS: readonly GoldenSpec[] = [
  // Seeds chosen so that together the sessions reach every family's deep states: merges, excisions,
  // quarantine, dissolution, replies, descent, completed and cancelled migrations, contested keys.
  { name: "session-1", seed: 154, steps: 300 },
  { name: "session-2", seed: 3, steps: 300 },
  { name: "session-3-store", seed: 33, steps: 300, profile: "store" },
];

export const goldenPath = (g: GoldenSpec): string => `conformance/golden/${g.name}.jsonl`;

/** Computes a golden session from the model. */
export const goldenSession = (g: GoldenSpec): GoldenLine[] => {
  const [choices] = fc.sample(choicesArb(g.steps, g.steps), { seed: g.seed, numRuns: 1 });
  if (choices === undefined) throw new Error("fast-check produced no sample");
  const mem = newMemory(g.profile ?? "mixed");
  let world = initialWorld();
  const lines: GoldenLine[] = [];
  choices.forEach((choice, i) => {
    const command = materialize(view(world), mem, choice);
    const r = transition(world, command);
    let reply: ExpectedReply;
    if (Result.isSuccess(r)) {
      world = r.success.world;
      reply = { ok: true, events: r.success.events };
    } else {
      const d = toRejectionData(r.failure);
      reply = { ok: false, error: { code: d.code, invariant: d.invariant, definite: true } };
    }
    lines.push({ request: { type: "command", id: `c${i + 1}`, command }, reply });
  });
  lines.push({ request: { type: "query", id: "q-final", query: { name: "world" } }, reply: { ok: true, events: [], result: view(world) } });
  return lines;
};

export const renderGolden = (g: GoldenSpec): string => `${goldenSession(g).map((l) => JSON.stringify(l)).join("\n")}\n`;

/** The normative part of an actual wire reply, for comparison with an expected one. */
export const normativePart = (reply: {
  ok: boolean;
  events?: readonly unknown[];
  result?: unknown;
  error?: { code: string; invariant: string | null; definite: boolean };
}): unknown =>
  reply.ok
    ? { ok: true, events: reply.events ?? [], ...(reply.result === undefined ? {} : { result: reply.result }) }
    : { ok: false, error: { code: reply.error?.code, invariant: reply.error?.invariant ?? null, definite: reply.error?.definite } };
