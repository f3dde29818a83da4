/**
 * OP-2.7 distil: the one way a life reaches the store. Validates the distillate (S-1 schema,
 * consent and leakage; S-2 principal-signed weights; AD-4 attribution; AD-3 fresh id), destroys
 * the trace (S-1, D-029) and emits exactly one obligation (J-4).
 */
import { Result } from "effect";
import {
  SamskaraDistillate,
  type DistillationObligation,
  type SamskaraDistillate as Distillate,
} from "../../spec/index.ts";
import { generic, no, ok, violates, type Outcome, type Rejection } from "../rejection.ts";
import { mapSet, setAdd } from "../state.ts";
import { withAgent, type Handler } from "../step.ts";
import { consentAllows } from "../samskara/consent.ts";
import { leaks } from "../samskara/leakage.ts";
import { distillateDigest } from "../samskara/aggregate.ts";
import { findInstance, putInstance, withView } from "./instances.ts";
import type { ConsentGrant } from "../../spec/index.ts";

/** S-1 (D-028): strict parse; the rejection carries the issue path under `distillate`. */
export const parseDistillate = (raw: unknown): Outcome<Distillate> => {
  const r = SamskaraDistillate.safeParse(raw);
  if (r.success) return ok(r.data);
  const issue = r.error.issues[0];
  const path = ["distillate", ...(issue?.path ?? []).map((p) => (typeof p === "number" ? p : String(p)))];
  return no(
    violates(
      "S-1",
      "OP-2.7.c4",
      `distillate is not dispositional: ${issue?.message ?? "schema failure"}${formatHint(path.at(-1))}`,
      path,
    ),
  );
};

/**
 * The paper writes weights as decimals and digests abbreviated (spec review G-49); a reader who
 * copies them meets S-1 here, so the message says which format the field wants.
 */
const formatHint = (field: string | number | undefined): string =>
  field === "weight" || field === "valence" || field === "confidence"
    ? " (write it as integer millionths, 0.9 = 900000: D-001)"
    : field === "evidence_digest" || field === "born_from" || field === "identity"
      ? ' (write a full digest, "sha256:" and 64 lowercase hex digits: D-004)'
      : "";

/** S-2 (D-012): sign follows valence (0 when valence is 0) and |weight| <= |valence|. */
export const weightsPrincipalSigned = (d: Distillate): boolean =>
  d.dispositions.every(
    (x) => Math.sign(x.weight) === Math.sign(d.signal.valence) && Math.abs(x.weight) <= Math.abs(d.signal.valence),
  );

/**
 * S-2 (OP-2.7.c6): the signal is the principal's. It is computed under the satisfaction model the
 * manifest declares (D-053), and a zero confidence (no feedback, the satisfaction protocol's SR-1)
 * comes only with valence 0 and no dispositions, the no-feedback distillate that lets such a life
 * end (D-057): no weight is ever backed by a zero confidence.
 */
export const principalsSignal = (d: Distillate, satisfactionModel: string | null): Rejection | null => {
  if (d.signal.model_version !== satisfactionModel)
    return violates(
      "S-2",
      "OP-2.7.c6",
      "the signal was not computed under the principal's declared satisfaction model",
      ["distillate", "signal", "model_version"],
    );
  if (d.signal.confidence === 0 && d.signal.valence !== 0)
    return violates("S-2", "OP-2.7.c6", "a zero-confidence signal carries no valence", [
      "distillate",
      "signal",
      "valence",
    ]);
  if (d.signal.confidence === 0 && d.dispositions.length > 0)
    return violates("S-2", "OP-2.7.c6", "a zero-confidence signal backs no disposition", [
      "distillate",
      "dispositions",
    ]);
  return null;
};

/** S-1 content checks after the schema: consent (D-011) then leakage (D-010). */
export const dispositionalContent = (
  d: Distillate,
  consent: ConsentGrant,
  trace: readonly string[],
): Rejection | null => {
  const i = d.dispositions.findIndex((x) => !consentAllows(consent, x.category));
  if (i >= 0)
    return violates("S-1", "OP-2.7.c8", "a disposition's category is not authorised by the consent grant", [
      "distillate",
      "dispositions",
      i,
      "category",
    ]);
  const j = d.dispositions.findIndex((x) => leaks(x.guidance, trace));
  if (j >= 0)
    return violates("S-1", "OP-2.7.c9", "a disposition's guidance reproduces 4 consecutive trace tokens", [
      "distillate",
      "dispositions",
      j,
      "guidance",
    ]);
  return null;
};

export const distil: Handler<"janma.distil"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.7.c1");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  if (inst.view.state !== "withdrawn" || inst.view.obligation_id !== null)
    return no(
      violates("J-4", "OP-2.7.c2", "only a withdrawn life without an obligation can be distilled, exactly once"),
    );
  if (agent.obligations.has(cmd.obligation_id))
    return no(generic("DUPLICATE_ID", "OP-2.7.c3", `obligation ${cmd.obligation_id} exists`, ["obligation_id"]));
  const parsed = parseDistillate(cmd.distillate);
  if (Result.isFailure(parsed)) return no(parsed.failure);
  const d = parsed.success;
  if (
    d.source.identity !== agent.identity.identity ||
    d.source.nonce !== inst.view.nonce ||
    d.source.instance_id !== inst.view.instance_id ||
    d.born_from !== inst.view.born_from
  )
    return no(
      violates("AD-4", "OP-2.7.c5", "the distillate is not attributed to this projection", ["distillate", "source"]),
    );
  const signal = principalsSignal(d, inst.manifest.distillation_policy.satisfaction_model);
  if (signal !== null) return no(signal);
  if (!weightsPrincipalSigned(d))
    return no(
      violates("S-2", "OP-2.7.c7", "a weight does not carry the principal's valence", ["distillate", "dispositions"]),
    );
  const content = dispositionalContent(d, inst.manifest.consent_scope, inst.trace);
  if (content !== null) return no(content);
  if (agent.distillate_ids_used.has(d.distillate_id))
    return no(
      violates("AD-3", "OP-2.7.c10", `distillate id ${d.distillate_id} was already used`, [
        "distillate",
        "distillate_id",
      ]),
    );
  const common = {
    obligation_id: cmd.obligation_id,
    instance_id: cmd.instance_id,
    distillate_id: d.distillate_id,
    distillate_digest: distillateDigest(d),
    born_from: inst.view.born_from,
    created_tick: cmd.tick,
    deadline_tick: cmd.tick + inst.manifest.distillation_policy.deadline_ticks,
    max_retries: inst.manifest.distillation_policy.max_retries,
    attempts: 0,
    status: "pending" as const,
    outcome: null,
  };
  // Only a corrective obligation declares the quarantine fail-safe (D-019, D-063).
  const obligation: DistillationObligation =
    d.signal.valence < 0
      ? { ...common, kind: "corrective", fail_safe: { action: "quarantine", store_version: inst.view.born_from } }
      : { ...common, kind: "reinforcing", fail_safe: null };
  const kind = obligation.kind;
  const destroyed = inst.trace.length;
  const next = { ...withView(inst, { trace_entries: 0, obligation_id: cmd.obligation_id }), trace: [] };
  const updated = {
    ...putInstance(agent, next),
    obligations: mapSet(agent.obligations, cmd.obligation_id, { view: obligation, held: d }),
    distillate_ids_used: setAdd(agent.distillate_ids_used, d.distillate_id),
  };
  return withAgent(world, updated, [
    { type: "trace.destroyed", instance_id: cmd.instance_id, entries: destroyed },
    { type: "obligation.emitted", obligation_id: cmd.obligation_id, kind },
  ]);
};
