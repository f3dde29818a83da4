/** OP-3 (J-4, D-018, D-019): custody of the distillation obligation and the quarantine fail-safe. */
import type { CustodyOutcome, Event } from "../../../spec/index.ts";
import type { Agent } from "../agent.ts";
import type { Obligation } from "../obligation.ts";
import { violates } from "../rejection.ts";
import { obligationOf, type Handler } from "./context.ts";

/** Discharge, then apply the fail-safe if asked (J-4): quarantine the life's pinned version. */
const discharge = (agent: Agent, ob: Obligation, outcome: CustodyOutcome, failSafe: boolean, events: Event[]): void => {
  ob.discharge(outcome);
  events.push({ type: "custody.discharged", obligation_id: ob.obligationId, outcome });
  if (failSafe && !agent.store.quarantined.has(ob.bornFrom)) {
    agent.store.quarantined.add(ob.bornFrom);
    events.push({ type: "version.quarantined", store_version: ob.bornFrom });
  }
};

/** OP-3.1 */
export const attempt: Handler<"custody.attempt"> = (_world, cmd, agent) => {
  const ob = obligationOf(agent, cmd.obligation_id);
  if (ob.status !== "pending") violates("J-4", `obligation is already discharged (${ob.outcome})`);
  if (cmd.tick >= ob.deadlineTick) violates("J-4", `deadline ${ob.deadlineTick} reached`); // D-060: strict, the deadline tick is expire's
  if (ob.attempts >= ob.maxRetries + 1) violates("J-4", `all ${ob.maxRetries + 1} attempts are used`);
  ob.attempts += 1;
  const events: Event[] = [
    { type: "custody.attempted", obligation_id: ob.obligationId, ack: cmd.ack, attempts: ob.attempts },
  ];
  if (ob.kind === "reinforcing") {
    discharge(agent, ob, cmd.ack === "declined" ? "declined" : "best_effort", false, events);
  } else if (cmd.ack === "declined") {
    discharge(agent, ob, "declined", true, events);
  } else if (ob.attempts === ob.maxRetries + 1) {
    discharge(agent, ob, "escalated", true, events);
  }
  return events;
};

/** OP-3.2 */
export const expire: Handler<"custody.expire"> = (_world, cmd, agent) => {
  const ob = obligationOf(agent, cmd.obligation_id);
  if (ob.status !== "pending") violates("J-4", `obligation is already discharged (${ob.outcome})`);
  if (cmd.tick < ob.deadlineTick) violates("J-4", `deadline ${ob.deadlineTick} not reached`);
  const events: Event[] = [];
  if (ob.kind === "corrective") discharge(agent, ob, "escalated", true, events);
  else discharge(agent, ob, "best_effort", false, events);
  return events;
};
