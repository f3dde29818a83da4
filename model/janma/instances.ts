/** Helpers for reading and replacing one instance of an agent. */
import type { InstanceView, WithdrawalReason } from "../../spec/index.ts";
import { generic, no, ok, type Outcome } from "../rejection.ts";
import { mapSet, type Agent, type Instance } from "../state.ts";

/** `check`: the calling operation's "instance exists" clause (OP-2.2.c2, OP-2.3.c2, …). */
export const findInstance = (agent: Agent, instanceId: string, check: string): Outcome<Instance> => {
  const inst = agent.instances.get(instanceId);
  return inst === undefined ? no(generic("NOT_FOUND", check, `no instance ${instanceId}`, ["instance_id"])) : ok(inst);
};

export const putInstance = (agent: Agent, inst: Instance): Agent => ({
  ...agent,
  instances: mapSet(agent.instances, inst.view.instance_id, inst),
});

export const withView = (inst: Instance, patch: Partial<InstanceView>): Instance => ({
  ...inst,
  view: { ...inst.view, ...patch },
});

/** Withdrawal effect shared by act (termination), expire (TTL) and withdraw (J-3, J-4). */
export const withdrawn = (inst: Instance, reason: WithdrawalReason, tick: number): Instance =>
  withView(inst, { state: "withdrawn", withdrawal: reason, withdrawn_tick: tick });

/** J-3: the TTL deadline b + t has been reached (D-014). */
export const pastTtl = (inst: Instance, tick: number): boolean =>
  inst.view.born_tick !== null && tick >= inst.view.born_tick + inst.manifest.ttl_ticks;
