/**
 * A history of the reference model (model/predicates.ts `HistoryStep[]`, what the history
 * predicates read) as an ITF trace, and back: the shape Apalache and Quint give a run, one state
 * per world. State 0 is the initial world; state i+1 is the world after the i-th command.
 *
 * Variables: `world` (the complete model state, encoded by model/state-schema.ts `encodeWorld`:
 * plain JSON, maps as sorted `[key, value]` entries, so equal worlds give equal ITF), `command`
 * (the command that led here; None in state 0), `events` (what it emitted) and `accepted`
 * (whether the model accepted it; None in state 0). The model's own canonical encoding is kept
 * rather than re-expressed with `#map`/`#set`: a reader gets back exactly what `decodeWorld`
 * checks, and the same bytes a stored world has.
 */
import { Result } from "effect";
import type { Command, Event } from "../../spec/index.ts";
import { decodeWorld, encodeWorld, type HistoryStep, type World } from "../../model/index.ts";
import { encodeJson } from "./encode.ts";
import { ITF_FORMAT_DESCRIPTION, ItfFormatError, readItf, type ItfTrace } from "./document.ts";

export const HISTORY_VARS = ["world", "command", "events", "accepted"] as const;

/** `history` (run from `initial`) as an ITF trace object. */
export const itfOfHistory = (
  initial: World,
  history: readonly HistoryStep[],
  description = "a history of the srk reference model",
): ItfTrace => ({
  "#meta": { format: "ITF", "format-description": ITF_FORMAT_DESCRIPTION, source: "srk", description, kind: "history" },
  vars: [...HISTORY_VARS],
  states: [
    {
      "#meta": { index: 0 },
      world: encodeJson(encodeWorld(initial)),
      command: encodeJson(null),
      events: encodeJson([]),
      accepted: encodeJson(null),
    },
    ...history.map((h, i) => ({
      "#meta": { index: i + 1 },
      world: encodeJson(encodeWorld(h.next), `steps[${i}].next`),
      command: encodeJson(h.command, `steps[${i}].command`),
      events: encodeJson(h.events, `steps[${i}].events`),
      accepted: h.accepted,
    })),
  ],
});

/** The initial world and history an ITF trace written by `itfOfHistory` holds. */
export const historyOfItf = (itf: unknown): { initial: World; history: HistoryStep[] } => {
  const d = readItf(itf);
  const worlds = d.states.map((s, i): World => {
    const r = decodeWorld(s.values["world"]);
    if (Result.isFailure(r)) throw new ItfFormatError(`state ${i}, variable world: ${r.failure.message}`);
    return r.success;
  });
  const initial = worlds[0];
  if (initial === undefined) throw new ItfFormatError("a history has at least its initial state");
  const history = d.states.slice(1).map((s, k): HistoryStep => {
    const accepted = s.values["accepted"];
    if (typeof accepted !== "boolean") throw new ItfFormatError(`state ${k + 1}, variable accepted: a boolean`);
    if (!Array.isArray(s.values["events"])) throw new ItfFormatError(`state ${k + 1}, variable events: a list`);
    return {
      prev: worlds[k] as World,
      next: worlds[k + 1] as World,
      command: s.values["command"] as unknown as Command,
      events: s.values["events"] as unknown as Event[],
      accepted,
    };
  });
  return { initial, history };
};
