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
import { check } from "../../spec/checks.ts";
import { decision } from "../../spec/decisions.ts";
import { initialWorld, toRejectionData, transition, view, type World } from "../../model/index.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "../../properties/generators/commands.ts";
import { SCHEMA_SESSION } from "./scripts/schema.ts";
import { LIVENESS_SESSION } from "./scripts/liveness.ts";
import { RIPA_DECISIONS_SESSION } from "./scripts/ripa.ts";
import { BOUNDS_OPS_SESSION } from "./scripts/bounds-ops.ts";
import { MODEL_RIPA_SESSION } from "./scripts/model-ripa.ts";
import { JANMA_SAMSKARA_SESSIONS } from "./scripts/janma-samskara.ts";
import { MODEL_ADVAITA_SESSION } from "./scripts/model-advaita.ts";
import { ALGEBRA_EDGES_SESSION } from "./scripts/algebra-edges.ts";

/** The normative part of a reply. */
export type ExpectedReply =
  | { readonly ok: true; readonly events: readonly Event[]; readonly result?: WorldView }
  | { readonly ok: false; readonly error: { readonly code: string; readonly invariant: string | null; readonly definite: boolean } };

/**
 * Where the model's rejection failed: the check clause (spec/CHECKS.md) and, for a MALFORMED from a
 * uniqueness rule, the rule (spec/json-schema/rules.json). Informative, never compared (W-9): the
 * runner reads it to attribute a disagreement over a generic code to the invariant that check or
 * rule protects (D-035 rule 1).
 */
export interface RejectedAt {
  readonly check: string;
  readonly rule?: string;
}

export interface GoldenLine {
  readonly request: { readonly type: "command"; readonly id: string; readonly command: Command } | { readonly type: "query"; readonly id: string; readonly query: { readonly name: "world" } };
  readonly reply: ExpectedReply;
  /** On a rejected command: where the model's rejection failed (informative). */
  readonly model?: RejectedAt;
}

/** The informative note of a model rejection. */
export const rejectedAt = (r: { readonly check: string; readonly rule?: string | undefined }): RejectedAt =>
  r.rule === undefined ? { check: r.check } : { check: r.check, rule: r.rule };

/** A session drawn from the property generator with a fixed seed. */
export interface GeneratedGoldenSpec {
  readonly name: string;
  readonly seed: number;
  readonly steps: number;
  /** Generator profile (properties/generators/commands.ts); `mixed` when absent. */
  readonly profile?: GenProfile;
}

/**
 * What a scripted session sees: it sends commands to the reference model one by one (each becomes
 * a golden line) and reads the world view between them, so a script can build exactly the
 * situation that pins one reading of the spec.
 */
export interface ScriptContext {
  /**
   * Applies `command` to the model and records it as a golden line. `pins` names the spec-review
   * item (e.g. "G-32"), the check clause (e.g. "OP-2.3.c5", spec/CHECKS.md) or the decision (e.g. "D-051") the line pins; it becomes the prefix of the request id ("G-32.7"), so a
   * failing line names the decision it checks. Lines that only set the scene carry no pin ("s.7").
   */
  readonly send: (command: Command, pins?: string) => ExpectedReply;
  /**
   * Records a world query pinned to `pins` (request id "G-33.4") and returns the view it expects.
   * A reading that shows only in the world view (an order, a kept or dropped entry) is pinned by
   * such a query right after the step that makes the difference, so that a mutant taking the other
   * reading first fails on a line of its own item, not on the session's final query.
   */
  readonly query: (pins: string) => WorldView;
  /** The model's world view now, without recording a line (for building the next commands). */
  readonly view: () => WorldView;
}

/** A session written by hand as a script: each pinned line checks one decided point. */
export interface ScriptedGoldenSpec {
  readonly name: string;
  readonly script: (ctx: ScriptContext) => void;
}

export type GoldenSpec = GeneratedGoldenSpec | ScriptedGoldenSpec;

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
  return { world, reply: { ok: false, error: { code: d.code, invariant: d.invariant, definite: true } }, model: rejectedAt(r.failure) };
};

const finalQuery = (world: World): GoldenLine => ({
  request: { type: "query", id: "q-final", query: { name: "world" } },
  reply: { ok: true, events: [], result: view(world) },
});

/** Computes a golden session from the model. */
export const goldenSession = (g: GoldenSpec): GoldenLine[] => ("script" in g ? scriptedSession(g) : generatedSession(g));

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
    lines.push({ request: { type: "command", id: `c${i + 1}`, command }, reply: step.reply, ...(step.model === undefined ? {} : { model: step.model }) });
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
      lines.push({ request: { type: "command", id: `${pins ?? "s"}.${lines.length + 1}`, command }, reply: step.reply, ...(step.model === undefined ? {} : { model: step.model }) });
      return step.reply;
    },
    query: (pins) => {
      if (!/^(G-\d+|D-\d{3}|OP-\d+(\.\d+)?\.c\d+)$/.test(pins)) throw new Error(`golden script ${g.name}: a pinned query names a review item, a decision or a check clause, not ${JSON.stringify(pins)}`);
      if (pins.startsWith("OP-")) check(pins);
      const result = view(world);
      lines.push({ request: { type: "query", id: `${pins}.${lines.length + 1}`, query: { name: "world" } }, reply: { ok: true, events: [], result } });
      return result;
    },
    view: () => view(world),
  });
  lines.push(finalQuery(world));
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
