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
import type { Command } from "../../spec/index.ts";
import { check } from "../../spec/checks.ts";
import { decision } from "../../spec/decisions.ts";
import { initialWorld, toRejectionData, transition, view, type World } from "../../model/index.ts";
import { choicesArb, materialize, newMemory } from "../../properties/generators/commands.ts";
import { SCHEMA_SESSION } from "./scripts/schema.ts";
import { LIVENESS_SESSION } from "./scripts/liveness.ts";
import { RIPA_DECISIONS_SESSION } from "./scripts/ripa.ts";
import { BOUNDS_OPS_SESSION } from "./scripts/bounds-ops.ts";
import { MODEL_RIPA_SESSION } from "./scripts/model-ripa.ts";
import { JANMA_SAMSKARA_SESSIONS } from "./scripts/janma-samskara.ts";
import { MODEL_ADVAITA_SESSION } from "./scripts/model-advaita.ts";
import { ALGEBRA_EDGES_SESSION } from "./scripts/algebra-edges.ts";
import { rejectedAt, type ExpectedReply, type RejectedAt } from "../core/reply.ts";
import type { GeneratedGoldenSpec, GoldenLine, GoldenSpec, ScriptedGoldenSpec } from "./types.ts";

/**
 * The committed golden sessions, in the order every replay uses (the golden stage, `srk golden`,
 * the mutation harness). The scripted sessions come first and the generated ones last: a mutant
 * taking the other reading of a spec-review item must first fail on a line pinning that item
 * (conformance/review.test.ts), and the generated sessions reach almost every reading somewhere in
 * their 300 steps, on lines that pin nothing. Among the scripted ones, an item's telling line comes
 * before any other line a mutant of it could fail (e.g. G-49's before G-5's in session-schema).
 */
export const GOLDEN_SESSIONS: readonly GoldenSpec[] = [
  // Scripted: the schema decisions of the first spec review (D-041 code points, D-042 default rows).
  SCHEMA_SESSION,
  LIVENESS_SESSION,
  // Spec review 1, RIPA items (G-33 … G-42): conformance/golden/scripts/ripa.ts.
  RIPA_DECISIONS_SESSION,
  // Spec review 1: the Janma / Samskara / Advaita readings the generated sessions do not pin.
  ...JANMA_SAMSKARA_SESSIONS,
  // Stryker survivors of impl/core/ops/ and views.ts: conformance/golden/scripts/bounds-ops.ts.
  BOUNDS_OPS_SESSION,
  // Stryker survivors of model/ripa/ (effect authority, cancel of another migration): conformance/golden/scripts/model-ripa.ts.
  MODEL_RIPA_SESSION,
  // Stryker survivors of the model's samskara/store.ts: conformance/golden/scripts/model-advaita.ts.
  MODEL_ADVAITA_SESSION,
  // D-007 confidence tie-break and S-1 token-by-token leakage, unit-tested only: conformance/golden/scripts/algebra-edges.ts.
  ALGEBRA_EDGES_SESSION,
  // Seeds chosen so that together the sessions reach every family's deep states: merges, excisions,
  // quarantine, dissolution, replies, descent, completed and cancelled migrations, contested keys.
  { name: "session-1", seed: 154, steps: 300 },
  { name: "session-2", seed: 3, steps: 300 },
  { name: "session-3-store", seed: 33, steps: 300, profile: "store" },
];

export const goldenPath = (g: GoldenSpec): string => `conformance/golden/${g.name}.jsonl`;

/** The model's reply to one command: the next world and the normative part of the reply. */
const answer = (world: World, command: Command): { world: World; reply: ExpectedReply; model?: RejectedAt } => {
  const r = transition(world, command);
  if (Result.isSuccess(r)) return { world: r.success.world, reply: { ok: true, events: r.success.events } };
  const d = toRejectionData(r.failure);
  return {
    world,
    reply: { ok: false, error: { code: d.code, invariant: d.invariant, definite: true } },
    model: rejectedAt(r.failure),
  };
};

const finalQuery = (world: World): GoldenLine => ({
  request: { type: "query", id: "q-final", query: { name: "world" } },
  reply: { ok: true, events: [], result: view(world) },
});

/** Computes a golden session from the model. */
export const goldenSession = (g: GoldenSpec): GoldenLine[] =>
  "script" in g ? scriptedSession(g) : generatedSession(g);

const generatedSession = (g: GeneratedGoldenSpec): GoldenLine[] => {
  const [choices] = fc.sample(choicesArb(g.steps, g.steps), { seed: g.seed, numRuns: 1 });
  if (choices === undefined) throw new Error("fast-check produced no sample");
  const mem = newMemory(g.profile ?? "mixed");
  let world = initialWorld();
  const lines: GoldenLine[] = [];
  choices.forEach((choice, i) => {
    const command = materialize(view(world), mem, choice);
    const step = answer(world, command);
    world = step.world;
    lines.push({
      request: { type: "command", id: `c${i + 1}`, command },
      reply: step.reply,
      ...(step.model === undefined ? {} : { model: step.model }),
    });
  });
  lines.push(finalQuery(world));
  return lines;
};

const scriptedSession = (g: ScriptedGoldenSpec): GoldenLine[] => {
  let world = initialWorld();
  const lines: GoldenLine[] = [];
  g.script({
    send: (command, pins) => {
      // A check-clause pin must name a clause of spec/CHECKS.md (check() throws on a typo).
      if (pins?.startsWith("OP-") === true) check(pins);
      // A decision pin must name a recorded decision (spec/decisions.ts).
      if (pins?.startsWith("D-") === true) decision(pins as `D-${string}`);
      const step = answer(world, command);
      world = step.world;
      lines.push({
        request: { type: "command", id: `${pins ?? "s"}.${lines.length + 1}`, command },
        reply: step.reply,
        ...(step.model === undefined ? {} : { model: step.model }),
      });
      return step.reply;
    },
    query: (pins) => {
      if (!/^(G-\d+|D-\d{3}|OP-\d+(\.\d+)?\.c\d+)$/.test(pins))
        throw new Error(
          `golden script ${g.name}: a pinned query names a review item, a decision or a check clause, not ${JSON.stringify(pins)}`,
        );
      if (pins.startsWith("OP-")) check(pins);
      const result = view(world);
      lines.push({
        request: { type: "query", id: `${pins}.${lines.length + 1}`, query: { name: "world" } },
        reply: { ok: true, events: [], result },
      });
      return result;
    },
    view: () => view(world),
  });
  lines.push(finalQuery(world));
  return lines;
};

export const renderGolden = (g: GoldenSpec): string =>
  `${goldenSession(g)
    .map((l) => JSON.stringify(l))
    .join("\n")}\n`;
