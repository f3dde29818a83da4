/**
 * The types of golden sessions: a golden line, a session drawn from the generator, a session
 * written as a script, and the context a script runs in. Kept apart from the registry of sessions
 * (session.ts), which imports every script, so that a script importing these types makes no
 * import circle.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import type { GenProfile } from "../../properties/generators/commands.ts";
import type { ExpectedReply, RejectedAt } from "../core/reply.ts";

export interface GoldenLine {
  readonly request:
    | { readonly type: "command"; readonly id: string; readonly command: Command }
    | { readonly type: "query"; readonly id: string; readonly query: { readonly name: "world" } };
  readonly reply: ExpectedReply;
  /** On a rejected command: where the model's rejection failed (informative). */
  readonly model?: RejectedAt;
}

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
 * The golden stage's restarts inside a transcript (D-069): after every RESTART_EVERY lines a
 * `shutdown` is inserted, after which the runner starts the implementation again on the same data directory (oracle/planned.ts) and the
 * transcript goes on. The lines after a restart then read state the world view does not show
 * (used nonces, ids, tokens, attempt nonces, migration ids), which a restart must not lose either:
 * a duplicate refused before the restart must be refused after it. None is inserted after the
 * last line (the end is the recovery check's).
 */
export const RESTART_EVERY = 40;
