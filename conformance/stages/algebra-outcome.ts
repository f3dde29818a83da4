/**
 * What a finished algebra run shows, on either side (model or implementation): the store after the
 * final replay and the replay claim (S-4), flattened into named fields so that two schedules can
 * be compared field by field. Which fields must agree is not assumed here: the stage asks the
 * model (the fields on which the model's own runs agree) and compares only those. Pure: the
 * checkers read both sides from a history (the model's side of every planned script, the
 * implementation's replies of every recorded run).
 */
import type { LineageReplayClaim } from "../../spec/index.ts";
import { firstDifference } from "../../properties/differential.ts";
import { STORE_FIELDS } from "./algebra-wire.ts";
import type { Script, ScriptRequest } from "./algebra-script.ts";
import type { ModelSide, RecordedRun } from "./algebra-history.ts";

export type Outcome = Readonly<Record<string, unknown>>;

const record = (x: unknown): Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {};

const claimOf = (events: unknown): Record<string, unknown> | null => {
  if (!Array.isArray(events)) return null;
  const e = events.map(record).find((x) => x["type"] === "lineage.replayed");
  return e === undefined ? null : record(e["claim"]);
};

/** Index of the last `samskara.replay` command of a script (or of a recorded run's steps). */
export const replayIndex = (steps: readonly { readonly request: ScriptRequest }[]): number => {
  for (let k = steps.length - 1; k >= 0; k--) {
    const r = steps[k]?.request;
    if (r?.type === "command" && r.command.op === "samskara.replay") return k;
  }
  return -1;
};

const flatten = (store: unknown, claim: Record<string, unknown> | null): Outcome => {
  const s = record(store);
  const chain = Array.isArray(s["chain"]) ? (s["chain"] as unknown[]) : [];
  const out: Record<string, unknown> = Object.fromEntries(STORE_FIELDS.map((f) => [`store.${f}`, s[f]]));
  out["store.head_state_digest"] = record(chain[chain.length - 1])["state_digest"];
  for (const [k, v] of Object.entries(claim ?? {})) out[`claim.${k}`] = v;
  return out;
};

const notEnding = (label: string): Error =>
  new Error(`algebra stage (runner bug): script ${label} does not end with a replay and a store query`);

/** The model's side of a script (what the driver records of it): its last replay's and store query's expected replies. */
export const modelSide = (script: Script): ModelSide => {
  const last = script.steps[script.steps.length - 1];
  const replay = script.steps[replayIndex(script.steps)];
  if (last === undefined || replay === undefined) throw notEnding(script.label);
  return { label: script.label, replay: replay.expected, store: last.expected };
};

/** The model's outcome of a script, from its side: its last store query and the claim of its last replay. */
export const modelOutcomeOf = (side: ModelSide): Outcome => {
  const { replay, store } = side;
  if (!store.ok || !replay.ok || !("result" in store)) throw notEnding(side.label);
  return flatten(store.result, claimOf(replay.events));
};

/** The model's outcome of a script. */
export const modelOutcome = (script: Script): Outcome => modelOutcomeOf(modelSide(script));

/** The implementation's outcome of a recorded run, or null when its final replay or store query was refused. */
export const implOutcome = (run: RecordedRun): Outcome | null => {
  const last = run.steps[run.steps.length - 1]?.reply;
  const replay = run.steps[replayIndex(run.steps)]?.reply;
  if (last === undefined || replay === undefined || !last.ok || !replay.ok) return null;
  return flatten(last.result, claimOf(replay.events));
};

/** The fields on which all the given outcomes agree (what the model shows to be order-independent). */
export const agreedFields = (outcomes: readonly Outcome[]): string[] => {
  const first = outcomes[0];
  if (first === undefined) return [];
  const keys = new Set(outcomes.flatMap((o) => Object.keys(o)));
  return [...keys].filter((k) => outcomes.every((o) => firstDifference(first[k], o[k]) === null));
};

/** The first of `fields` on which a and b differ, as `field…: x vs y`, or null. */
export const outcomeDifference = (a: Outcome, b: Outcome, fields: readonly string[]): string | null => {
  for (const f of fields) {
    const d = firstDifference(a[f], b[f], f);
    if (d !== null) return d.replace(": model ", ": ").replace(" vs impl ", " vs ");
  }
  return null;
};

/**
 * Where the implementation's replay claim contradicts its own store (S-4: the claim must describe
 * the chain it attests), or null. Used to explain a replay that differs from the model's.
 */
export const claimContradiction = (run: RecordedRun): string | null => {
  const o = implOutcome(run);
  if (o === null) return null;
  const chain = Array.isArray(o["store.chain"]) ? (o["store.chain"] as unknown[]) : [];
  const batches = Array.isArray(o["store.batches"]) ? (o["store.batches"] as unknown[]) : [];
  const excisions = Array.isArray(o["store.excisions"]) ? (o["store.excisions"] as unknown[]) : [];
  const expected: Partial<Record<keyof LineageReplayClaim, unknown>> = {
    genesis: record(chain[0])["version_id"],
    head: o["store.head"],
    versions: chain.length,
    batch_digests: batches.map((b) => record(b)["batch_digest"]),
    state_digest: o["store.head_state_digest"],
    excisions: excisions.length,
  };
  for (const [k, v] of Object.entries(expected)) {
    const d = firstDifference(v, o[`claim.${k}`], `claim.${k}`);
    if (d !== null) return d.replace(": model ", ": its store says ").replace(" vs impl ", ", its claim says ");
  }
  return null;
};
