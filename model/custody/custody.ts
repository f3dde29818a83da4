/**
 * Custody of distillation obligations (OP-3, D-018, D-019), protecting J-4: a corrective lesson
 * ends applied, declined or escalated, never lost silently, and the quarantine fail-safe applies
 * to the pin it was born from when it does not arrive.
 */
import type { CustodyOutcome, Event } from "../../spec/index.ts";
import { generic, no, ok, violates, type Outcome } from "../rejection.ts";
import { mapSet, sortStrings, type Agent, type Obligation } from "../state.ts";
import { withAgent, type Handler } from "../step.ts";

/** `check`: the lookup clause of the calling operation (OP-3.1.c1 or OP-3.2.c1). */
export const findObligation = (agent: Agent, id: string, check: string): Outcome<Obligation> => {
  const ob = agent.obligations.get(id);
  return ob === undefined ? no(generic("NOT_FOUND", check, `no obligation ${id}`, ["obligation_id"])) : ok(ob);
};

/**
 * Discharge an obligation: drop its held distillate, and apply the fail-safe if asked (J-4).
 * Returns the events `custody.discharged` and, if newly quarantined, `version.quarantined`.
 */
export const discharge = (
  agent: Agent,
  ob: Obligation,
  outcome: CustodyOutcome,
  failSafe: boolean,
): { agent: Agent; events: Event[] } => {
  const events: Event[] = [{ type: "custody.discharged", obligation_id: ob.view.obligation_id, outcome }];
  let quarantined = agent.store.quarantined;
  // Only a corrective obligation declares a fail-safe (D-063); `failSafe` is asked only for those.
  const safe = failSafe ? ob.view.fail_safe : null;
  if (safe !== null && !quarantined.includes(safe.store_version)) {
    quarantined = sortStrings([...quarantined, safe.store_version]);
    events.push({ type: "version.quarantined", store_version: safe.store_version });
  }
  const next: Obligation = { view: { ...ob.view, status: "discharged", outcome }, held: null };
  return {
    agent: {
      ...agent,
      obligations: mapSet(agent.obligations, ob.view.obligation_id, next),
      store: { ...agent.store, quarantined },
    },
    events,
  };
};

/** OP-3.1: one scripted delivery attempt. */
export const attempt: Handler<"custody.attempt"> = (world, agent, cmd) => {
  const found = findObligation(agent, cmd.obligation_id, "OP-3.1.c1");
  if (found._tag === "Failure") return no(found.failure);
  const ob = found.success;
  if (ob.view.status !== "pending") return no(violates("J-4", "OP-3.1.c2", "the obligation is already discharged"));
  // Strict (D-060): the deadline tick itself belongs to custody.expire, as in the custody protocol.
  if (cmd.tick >= ob.view.deadline_tick)
    return no(violates("J-4", "OP-3.1.c3", "the obligation's deadline has been reached"));
  if (ob.view.attempts >= ob.view.max_retries + 1)
    return no(violates("J-4", "OP-3.1.c4", "no delivery attempts are left"));
  const attempts = ob.view.attempts + 1;
  const tried: Obligation = { ...ob, view: { ...ob.view, attempts } };
  const events: Event[] = [{ type: "custody.attempted", obligation_id: ob.view.obligation_id, ack: cmd.ack, attempts }];
  const a1: Agent = { ...agent, obligations: mapSet(agent.obligations, ob.view.obligation_id, tried) };
  let settled: { agent: Agent; events: Event[] } | null = null;
  if (ob.view.kind === "reinforcing") {
    settled = discharge(a1, tried, cmd.ack === "declined" ? "declined" : "best_effort", false);
  } else if (cmd.ack === "declined") {
    settled = discharge(a1, tried, "declined", true);
  } else if (attempts === ob.view.max_retries + 1) {
    settled = discharge(a1, tried, "escalated", true);
  }
  return settled === null
    ? withAgent(world, a1, events)
    : withAgent(world, settled.agent, [...events, ...settled.events]);
};

/** OP-3.2: at or after the deadline, a pending obligation is settled. */
export const expireObligation: Handler<"custody.expire"> = (world, agent, cmd) => {
  const found = findObligation(agent, cmd.obligation_id, "OP-3.2.c1");
  if (found._tag === "Failure") return no(found.failure);
  const ob = found.success;
  if (ob.view.status !== "pending") return no(violates("J-4", "OP-3.2.c2", "the obligation is already discharged"));
  if (cmd.tick < ob.view.deadline_tick)
    return no(violates("J-4", "OP-3.2.c3", "the obligation's deadline has not been reached"));
  const settled =
    ob.view.kind === "corrective"
      ? discharge(agent, ob, "escalated", true)
      : discharge(agent, ob, "best_effort", false);
  return withAgent(world, settled.agent, settled.events);
};
