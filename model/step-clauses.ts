/**
 * Step clauses (D-076): what one accepted step must satisfy, for invariants whose rule forbids a
 * command that would leave a state no predicate could tell from a legal one. A custody attempt at
 * the deadline tick leaves an obligation with one more attempt, exactly as an attempt a tick
 * earlier does; an act under a signature that does not recompute leaves the same counters as a
 * signed one; an effect under a stale token adds the same effect id as one under the current token.
 * The invariant's predicate (predicates.ts) reads states or histories and cannot see these, so
 * each such invariant also carries a clause over the step: the previous world, the command, and
 * whether the model accepted it. Like the predicates, the clauses are written from the rules
 * (spec/OPERATIONS.md), not from the guards: a guard removed or altered in the model makes its
 * clause fail on the step it lets through (conformance/explore/model-mutants/catalog.ts).
 *
 * A clause reads only accepted steps (a rejected one changes nothing) and returns `true` for every
 * operation it does not concern. Which clause serves which check is in STEP_CLAUSE_CHECKS, so a
 * reader finds each check's clause by its id.
 */
import { DOMAIN, digestOf, type InvariantId } from "../spec/index.ts";
import type { Agent } from "./state.ts";
import type { TransitionStep, Verdict } from "./predicates.ts";
import { leaks } from "./samskara/leakage.ts";

export type StepClause = (s: TransitionStep) => Verdict;

const fail = (violation: string): Verdict => ({ violation });

/** The agent a step's command names, as it was before the step. */
const before = (s: TransitionStep): Agent | undefined =>
  "agent" in s.command ? s.prev.agents.get(s.command.agent) : undefined;

/**
 * J-4 (OP-3.1.c2–c4, OP-3.2.c2–c3, OP-4.1.c3–c4; D-060): custody acts on a pending obligation, an
 * attempt strictly before the deadline tick and only while attempts are left, an expiry at or after
 * it; a merge applies no obligation at or after its deadline and none discharged another way.
 */
export const custodyInTime: StepClause = (s) => {
  if (!s.accepted) return true;
  const c = s.command;
  const a = before(s);
  if (a === undefined) return true;
  if (c.op === "custody.attempt" || c.op === "custody.expire") {
    const v = a.obligations.get(c.obligation_id)?.view;
    if (v === undefined) return fail(`${c.op} accepted on unknown obligation ${c.obligation_id}`);
    if (v.status !== "pending") return fail(`${c.op} accepted on ${c.obligation_id}, already ${v.status}`);
    if (c.op === "custody.attempt") {
      if (c.tick >= v.deadline_tick)
        return fail(`attempt on ${c.obligation_id} at tick ${c.tick}, deadline ${v.deadline_tick}`);
      if (v.attempts >= v.max_retries + 1)
        return fail(`attempt on ${c.obligation_id} with no attempts left (${v.attempts} of ${v.max_retries + 1})`);
    } else if (c.tick < v.deadline_tick)
      return fail(`expiry of ${c.obligation_id} at tick ${c.tick}, before its deadline ${v.deadline_tick}`);
    return true;
  }
  if (c.op === "samskara.merge") {
    for (const id of c.obligation_ids) {
      const v = a.obligations.get(id)?.view;
      if (v === undefined) return fail(`merge accepted naming unknown obligation ${id}`);
      if (v.status === "pending" && c.tick >= v.deadline_tick)
        return fail(`merge applied ${id} at tick ${c.tick}, deadline ${v.deadline_tick}`);
      if (v.status === "discharged" && v.outcome !== "applied")
        return fail(`merge accepted naming ${id}, discharged ${String(v.outcome)}`);
    }
  }
  return true;
};

/**
 * S-1 (OP-2.7.c9, D-010): a distillation keeps no guidance that reproduces 4 consecutive tokens of
 * the life's trace. The trace is destroyed by the same step, so only the step shows it. The
 * validator is the rule's own definition (model/samskara/leakage.ts, as consentAllows serves the
 * S-1 predicate); the clause checks that the distillation applied it.
 */
export const distilledWithoutLeak: StepClause = (s) => {
  const c = s.command;
  if (!s.accepted || c.op !== "janma.distil") return true;
  const trace = before(s)?.instances.get(c.instance_id)?.trace ?? [];
  const held = s.next.agents.get(c.agent)?.obligations.get(c.obligation_id)?.held;
  const leaked = (held?.dispositions ?? []).find((x) => leaks(x.guidance, trace));
  return leaked === undefined
    ? true
    : fail(`${c.instance_id} distilled guidance of ${leaked.key} that repeats its trace`);
};

/**
 * AD-4 (OP-2.3.c5): an accepted act is signed by this projection: its identity, nonce, manifest
 * digest and tick are the projection's, and the signature is the action digest of them (recomputed
 * here from spec/digest.ts, not with the model's helper).
 */
export const actSignedByProjection: StepClause = (s) => {
  const c = s.command;
  if (!s.accepted || c.op !== "janma.act") return true;
  const a = before(s);
  const i = a?.instances.get(c.instance_id);
  if (a === undefined || i === undefined) return fail(`act accepted on unknown instance ${c.instance_id}`);
  const g = c.signed;
  if (g.identity !== a.identity.identity) return fail(`${c.instance_id} acted under another identity`);
  if (g.nonce !== i.view.nonce) return fail(`${c.instance_id} acted under another projection's nonce`);
  if (g.manifest_digest !== i.view.manifest_digest) return fail(`${c.instance_id} acted under another manifest digest`);
  if (g.action.tick !== c.tick)
    return fail(`${c.instance_id} acted at ${c.tick} under a signature for tick ${g.action.tick}`);
  const expected = digestOf(DOMAIN.action, {
    identity: g.identity,
    nonce: g.nonce,
    manifest_digest: g.manifest_digest,
    action: g.action,
  });
  return g.signature === expected ? true : fail(`${c.instance_id} acted under a signature that does not recompute`);
};

/** I2 (OP-6.3.c2, OP-6.4.c2, OP-6.5.c1): a task is resumed, requested or replied to only if memory recorded it. */
export const taskInMemory: StepClause = (s) => {
  const c = s.command;
  if (!s.accepted || (c.op !== "ripa.task_resume" && c.op !== "ripa.request" && c.op !== "ripa.reply")) return true;
  const tasks = before(s)?.memory.task_ids ?? [];
  return tasks.includes(c.task_id) ? true : fail(`${c.op} accepted for task ${c.task_id}, which memory never recorded`);
};

/**
 * I4 (OP-6.6.c1, OP-6.4.c3, OP-6.5.c2): an effect is performed only by the holder under the
 * current epoch's token; a request's attempt nonce is fresh; a reply is accepted only for the
 * task's live attempt.
 */
export const underCurrentAuthority: StepClause = (s) => {
  const c = s.command;
  if (!s.accepted) return true;
  const r = before(s)?.ripa;
  if (r === undefined) return true;
  if (c.op === "ripa.effect") {
    if (r.authority.holder === null || c.execution_id !== r.authority.holder)
      return fail(`effect ${c.effect_id} by ${c.execution_id}, not the holder`);
    if (c.token !== r.authority.token)
      return fail(`effect ${c.effect_id} under token ${c.token}, not the current epoch's`);
  }
  if (c.op === "ripa.request" && r.attempt_nonces_used.has(c.attempt_nonce))
    return fail(`attempt nonce ${c.attempt_nonce} used twice`);
  if (c.op === "ripa.reply" && r.live_attempts.get(c.task_id) !== c.attempt_nonce)
    return fail(`reply for ${c.task_id} under attempt ${c.attempt_nonce}, not the live one`);
  return true;
};

/** I5 (OP-6.6.c2–c3): an effect goes through a bound provider that grants its capability, with no substitution. */
export const providerGrants: StepClause = (s) => {
  const c = s.command;
  if (!s.accepted || c.op !== "ripa.effect") return true;
  const provider = before(s)?.ripa.providers.find((p) => p.provider_id === c.provider_id);
  if (provider === undefined) return fail(`effect ${c.effect_id} through unbound provider ${c.provider_id}`);
  return provider.capabilities.includes(c.capability)
    ? true
    : fail(`effect ${c.effect_id} through ${c.provider_id}, which does not grant ${c.capability}`);
};

/** The step clause of each invariant that has one. */
export const STEP_CLAUSES: Readonly<Partial<Record<InvariantId, StepClause>>> = {
  "J-4": custodyInTime,
  "S-1": distilledWithoutLeak,
  "AD-4": actSignedByProjection,
  I2: taskInMemory,
  I4: underCurrentAuthority,
  I5: providerGrants,
};

/** The checks of spec/checks.json each clause restates on the accepted side (traceability; a test holds them to the catalog). */
export const STEP_CLAUSE_CHECKS: Readonly<Partial<Record<InvariantId, readonly string[]>>> = {
  "J-4": ["OP-3.1.c2", "OP-3.1.c3", "OP-3.1.c4", "OP-3.2.c2", "OP-3.2.c3", "OP-4.1.c3", "OP-4.1.c4"],
  "S-1": ["OP-2.7.c9"],
  "AD-4": ["OP-2.3.c5"],
  I2: ["OP-6.3.c2", "OP-6.4.c2", "OP-6.5.c1"],
  I4: ["OP-6.6.c1", "OP-6.4.c3", "OP-6.5.c2"],
  I5: ["OP-6.6.c2", "OP-6.6.c3"],
};

/** Every clause that applies to the step, with its invariant; the first violation of each. */
export const stepViolations = (
  s: TransitionStep,
): { readonly invariant: InvariantId; readonly violation: string }[] => {
  const out: { invariant: InvariantId; violation: string }[] = [];
  if (!s.accepted) return out;
  for (const [id, clause] of Object.entries(STEP_CLAUSES) as [InvariantId, StepClause][]) {
    const v = clause(s);
    if (v !== true) out.push({ invariant: id, violation: v.violation });
  }
  return out;
};
