/** OP-2.7 (J-4, S-1, S-2, AD-4, AD-3): distil a withdrawn life into one obligation. */
import type { Event } from "../../../spec/index.ts";
import { SamskaraDistillate } from "../../../spec/index.ts";
import { mayPersist } from "../consent.ts";
import { TraceRuns } from "../leakage.ts";
import { Obligation } from "../obligation.ts";
import { refuse, violates } from "../rejection.ts";
import { distillateDigest } from "../store.ts";
import { instanceOf, type Handler } from "./context.ts";

/** Spec review G-49: the papers' decimal weights and short digests fail here; say what the field wants. */
const MILLIONTHS = " (numbers are integer millionths, 0.9 is 900000: D-001)";
const DIGEST = ' (digests are "sha256:" and 64 lowercase hex digits: D-004)';
const FORMAT_HINT: Readonly<Record<string, string>> = {
  weight: MILLIONTHS,
  valence: MILLIONTHS,
  confidence: MILLIONTHS,
  evidence_digest: DIGEST,
  born_from: DIGEST,
  identity: DIGEST,
};

export const distil: Handler<"janma.distil"> = (_world, cmd, agent) => {
  const inst = instanceOf(agent, cmd.instance_id);
  // J-4: exactly one distillation, and only after withdrawal.
  if (inst.state !== "withdrawn" || inst.obligationId !== null) {
    violates(
      "J-4",
      inst.obligationId !== null ? "this life was already distilled" : `instance is ${inst.state}, not withdrawn`,
    );
  }
  if (agent.obligations.has(cmd.obligation_id))
    refuse("DUPLICATE_ID", `obligation ${cmd.obligation_id} already exists`, ["obligation_id"]);
  // S-1 (D-028): the distillate is parsed strictly here, so a trace field is an S-1 rejection.
  const parsed = SamskaraDistillate.safeParse(cmd.distillate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ["distillate", ...(issue?.path ?? []).map((p) => (typeof p === "number" ? p : String(p)))];
    return violates(
      "S-1",
      `distillate is not a strict SamskaraDistillate: ${issue?.message ?? "invalid"}${FORMAT_HINT[String(path.at(-1))] ?? ""}`,
      path,
    );
  }
  const d = parsed.data;
  // AD-4: the distillate must be attributed to this projection.
  if (
    d.source.identity !== agent.identity.identity ||
    d.source.nonce !== inst.nonce ||
    d.source.instance_id !== inst.instanceId ||
    d.born_from !== inst.bornFrom
  ) {
    violates("AD-4", "distillate source does not match the projection that lived", ["distillate", "source"]);
  }
  // S-2 (D-053): the signal is computed under the satisfaction model the principal declared.
  if (d.signal.model_version !== inst.manifest.distillation_policy.satisfaction_model) {
    violates("S-2", `signal model ${String(d.signal.model_version)} is not the manifest's satisfaction model`, [
      "distillate",
      "signal",
      "model_version",
    ]);
  }
  // S-2 (D-057): a zero confidence is a life without feedback: no valence, no dispositions.
  if (d.signal.confidence === 0 && d.signal.valence !== 0)
    violates("S-2", "a zero-confidence signal must have valence 0", ["distillate", "signal", "valence"]);
  if (d.signal.confidence === 0 && d.dispositions.length > 0)
    violates("S-2", "a zero-confidence signal cannot back dispositions", ["distillate", "dispositions"]);
  // S-2 (D-012): weights follow the principal's valence.
  const v = d.signal.valence;
  for (const [i, disp] of d.dispositions.entries()) {
    if (Math.sign(disp.weight) !== Math.sign(v) || Math.abs(disp.weight) > Math.abs(v)) {
      violates("S-2", `weight ${disp.weight} does not follow valence ${v} in sign and magnitude`, [
        "distillate",
        "dispositions",
        i,
        "weight",
      ]);
    }
  }
  // S-1 (D-011, D-058): every category must be authorised for storage and training by the life's consent grant.
  const consent = inst.manifest.consent_scope;
  for (const [i, disp] of d.dispositions.entries()) {
    if (!mayPersist(consent, disp.category)) {
      violates("S-1", `consent does not allow persisting category ${disp.category}`, [
        "distillate",
        "dispositions",
        i,
        "category",
      ]);
    }
  }
  // S-1 (D-010): no guidance may carry a 4-token run of the trace.
  const runs = new TraceRuns(inst.trace);
  for (const [i, disp] of d.dispositions.entries()) {
    if (runs.leaks(disp.guidance))
      violates("S-1", "guidance repeats 4 consecutive trace tokens", ["distillate", "dispositions", i, "guidance"]);
  }
  // AD-3 (D-008): a distillate id is never reused within the agent.
  if (agent.distillateIds.has(d.distillate_id)) {
    violates("AD-3", `distillate id ${d.distillate_id} was already used`, ["distillate", "distillate_id"]);
  }

  const destroyed = inst.trace.length;
  inst.trace = []; // S-1 (D-029): the episode is destroyed in the same atomic step.
  const digest = distillateDigest(d);
  const policy = inst.manifest.distillation_policy;
  const kind = v < 0 ? "corrective" : "reinforcing"; // D-013
  const ob = new Obligation(
    cmd.obligation_id,
    inst.instanceId,
    kind,
    d.distillate_id,
    digest,
    inst.bornFrom,
    cmd.tick,
    cmd.tick + policy.deadline_ticks,
    policy.max_retries,
    { digest, distillate: d },
  );
  agent.obligations.set(ob.obligationId, ob);
  agent.distillateIds.add(d.distillate_id);
  inst.obligationId = ob.obligationId;
  const events: Event[] = [
    { type: "trace.destroyed", instance_id: inst.instanceId, entries: destroyed },
    { type: "obligation.emitted", obligation_id: ob.obligationId, kind },
  ];
  return events;
};
