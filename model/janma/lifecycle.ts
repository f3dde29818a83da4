/**
 * Janma lifecycle operations (OP-2.1 .. OP-2.6, OP-2.8): conceive, birth, act, acquire, expire,
 * withdraw, dissolve. Each check is listed in the order OPERATIONS.md fixes (D-032) and names
 * the invariant it protects.
 */
import { DOMAIN, digestOf, type Event } from "../../spec/index.ts";
import { Result } from "effect";
import { generic, no, violates } from "../rejection.ts";
import { sortStrings, sortedUnique } from "../state.ts";
import { withAgent, type Handler } from "../step.ts";
import { actionSignature } from "../advaita/identity.ts";
import { grantable, heldGrantCovers } from "./capability.ts";
import { firedCondition } from "./termination.ts";
import { findInstance, pastTtl, putInstance, withView, withdrawn } from "./instances.ts";

/** OP-2.1 conceive: AD-2 (nonce unique), J-1 (same substrate), J-4 (no quarantined pin). */
export const conceive: Handler<"janma.conceive"> = (world, agent, cmd) => {
  if (agent.instances.has(cmd.instance_id))
    return no(generic("DUPLICATE_ID", "OP-2.1.c2", `instance ${cmd.instance_id} exists`, ["instance_id"]));
  for (const i of agent.instances.values())
    if (i.view.nonce === cmd.nonce)
      return no(violates("AD-2", "OP-2.1.c3", `nonce ${cmd.nonce} already used by ${i.view.instance_id}`, ["nonce"]));
  if (cmd.manifest.substrate.base_digest !== agent.identity.base_digest)
    return no(
      violates("J-1", "OP-2.1.c4", "manifest base digest differs from the agent's", [
        "manifest",
        "substrate",
        "base_digest",
      ]),
    );
  if (agent.store.quarantined.includes(cmd.manifest.substrate.store_version))
    return no(
      violates("J-4", "OP-2.1.c5", "refusing to conceive from a quarantined store version", [
        "manifest",
        "substrate",
        "store_version",
      ]),
    );
  const inst = {
    manifest: cmd.manifest,
    trace: [],
    view: {
      instance_id: cmd.instance_id,
      nonce: cmd.nonce,
      manifest_digest: digestOf(DOMAIN.manifest, cmd.manifest),
      state: "conceived" as const,
      born_from: cmd.manifest.substrate.store_version,
      born_tick: null,
      acts: 0,
      failures: 0,
      consecutive_failures: 0,
      tools_used: [],
      trace_entries: 0,
      grants: [],
      tools: [],
      withdrawal: null,
      withdrawn_tick: null,
      obligation_id: null,
    },
  };
  return withAgent(world, putInstance(agent, inst), [{ type: "instance.conceived", instance_id: cmd.instance_id }]);
};

/** J-1: every manifest tool binding resolves to an offered tool with at least its capabilities. */
export const toolsResolve = (
  bindings: readonly { tool: string; capabilities: readonly string[] }[],
  offered: readonly { tool: string; capabilities: readonly string[] }[],
): boolean =>
  bindings.every((b) =>
    offered.some((o) => o.tool === b.tool && b.capabilities.every((c) => o.capabilities.includes(c))),
  );

/** OP-2.2 birth: J-1 complete at birth. */
export const birth: Handler<"janma.birth"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.2.c2");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  if (inst.view.state !== "conceived")
    return no(violates("J-1", "OP-2.2.c3", `instance is ${inst.view.state}, not conceived`));
  if (!agent.store.chain.some((v) => v.version_id === inst.view.born_from))
    return no(violates("J-1", "OP-2.2.c4", "pinned store version is not in the current chain"));
  if (agent.store.quarantined.includes(inst.view.born_from))
    return no(violates("J-1", "OP-2.2.c5", "pinned store version is quarantined"));
  if (!toolsResolve(inst.manifest.tool_bindings, cmd.environment.tools))
    return no(
      violates("J-1", "OP-2.2.c6", "a tool binding does not resolve to an offered tool", ["environment", "tools"]),
    );
  const missing = inst.manifest.capability_grants.find((g) => !grantable(g, cmd.environment.grantable));
  if (missing !== undefined)
    return no(violates("J-1", "OP-2.2.c7", `grant ${missing} is not grantable`, ["environment", "grantable"]));
  const next = withView(inst, {
    state: "ready",
    born_tick: cmd.tick,
    tools: sortStrings(inst.manifest.tool_bindings.map((b) => b.tool)),
    grants: sortedUnique(inst.manifest.capability_grants),
  });
  return withAgent(world, putInstance(agent, next), [{ type: "instance.born", instance_id: cmd.instance_id }]);
};

/** OP-2.3 act: J-1 (not before READY), J-3 (lifetime), AD-4 (signature), J-2 (scope). */
export const act: Handler<"janma.act"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.3.c2");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  const s = inst.view.state;
  if (s === "conceived") return no(violates("J-1", "OP-2.3.c3", "an instance must not act before it is born"));
  if (s === "withdrawn" || s === "dissolved")
    return no(violates("J-3", "OP-2.3.c4", `instance is ${s}; its life is over`));
  const sig = cmd.signed;
  if (
    sig.identity !== agent.identity.identity ||
    sig.nonce !== inst.view.nonce ||
    sig.manifest_digest !== inst.view.manifest_digest ||
    sig.action.tick !== cmd.tick ||
    sig.signature !== actionSignature(sig.identity, sig.nonce, sig.manifest_digest, sig.action)
  )
    return no(violates("AD-4", "OP-2.3.c5", "the action's signature does not bind it to this projection", ["signed"]));
  if (pastTtl(inst, cmd.tick)) return no(violates("J-3", "OP-2.3.c6", "the TTL deadline has passed"));
  const binding = inst.manifest.tool_bindings.find((b) => b.tool === sig.action.tool);
  if (!inst.view.tools.includes(sig.action.tool) || binding === undefined)
    return no(
      violates("J-2", "OP-2.3.c7", `tool ${sig.action.tool} was not bound at birth`, ["signed", "action", "tool"]),
    );
  if (
    !binding.capabilities.includes(sig.action.capability) ||
    !heldGrantCovers(inst.view.grants, sig.action.capability)
  )
    return no(
      violates("J-2", "OP-2.3.c7", `capability ${sig.action.capability} is out of scope`, [
        "signed",
        "action",
        "capability",
      ]),
    );
  const failed = sig.action.outcome === "failed";
  let next = withView(inst, {
    state: "active",
    acts: inst.view.acts + 1,
    failures: inst.view.failures + (failed ? 1 : 0),
    consecutive_failures: failed ? inst.view.consecutive_failures + 1 : 0,
    tools_used: sortedUnique([...inst.view.tools_used, sig.action.tool]),
    trace_entries: inst.view.trace_entries + sig.action.trace.length,
  });
  next = { ...next, trace: [...inst.trace, ...sig.action.trace] };
  const events: Event[] = [
    {
      type: "instance.acted",
      instance_id: cmd.instance_id,
      tool: sig.action.tool,
      capability: sig.action.capability,
      outcome: sig.action.outcome,
    },
  ];
  const fired = firedCondition(inst.manifest.termination_conditions, next.view, cmd.tick);
  if (fired !== undefined) {
    const reason = { kind: "termination_condition" as const, condition_id: fired.id };
    next = withdrawn(next, reason, cmd.tick);
    events.push({ type: "instance.withdrawn", instance_id: cmd.instance_id, reason });
  }
  return withAgent(world, putInstance(agent, next), events);
};

/** OP-2.4 acquire: nothing is acquired after conception (J-1 tools, J-2 capabilities, D-017). */
export const acquire: Handler<"janma.acquire"> = (_world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.4.c1");
  if (Result.isFailure(found)) return no(found.failure);
  return cmd.acquisition.kind === "tool"
    ? no(violates("J-1", "OP-2.4.c2", "tools cannot be acquired after conception", ["acquisition"]))
    : no(violates("J-2", "OP-2.4.c2", "capabilities cannot be acquired after conception", ["acquisition"]));
};

/** OP-2.5 expire: J-3, withdraw a living instance at or after its TTL deadline. */
export const expire: Handler<"janma.expire"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.5.c1");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  if ((inst.view.state === "ready" || inst.view.state === "active") && pastTtl(inst, cmd.tick)) {
    const reason = { kind: "ttl" as const };
    return withAgent(world, putInstance(agent, withdrawn(inst, reason, cmd.tick)), [
      { type: "instance.withdrawn", instance_id: cmd.instance_id, reason },
    ]);
  }
  return withAgent(world, agent, []);
};

/** OP-2.6 withdraw: J-1 (never born), J-4 (already withdrawn: one death, one obligation). */
export const withdraw: Handler<"janma.withdraw"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.6.c1");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  if (inst.view.state === "conceived") return no(violates("J-1", "OP-2.6.c2", "a conceived instance was never born"));
  if (inst.view.state === "withdrawn" || inst.view.state === "dissolved")
    return no(violates("J-4", "OP-2.6.c3", `instance is already ${inst.view.state}`));
  const reason = { kind: cmd.reason };
  return withAgent(world, putInstance(agent, withdrawn(inst, reason, cmd.tick)), [
    { type: "instance.withdrawn", instance_id: cmd.instance_id, reason },
  ]);
};

/** OP-2.8 dissolve: J-4, never before the obligation is discharged. */
export const dissolve: Handler<"janma.dissolve"> = (world, agent, cmd) => {
  const found = findInstance(agent, cmd.instance_id, "OP-2.8.c1");
  if (Result.isFailure(found)) return no(found.failure);
  const inst = found.success;
  if (inst.view.state !== "withdrawn")
    return no(violates("J-4", "OP-2.8.c2", `instance is ${inst.view.state}, not withdrawn`));
  const ob = inst.view.obligation_id === null ? undefined : agent.obligations.get(inst.view.obligation_id);
  if (ob === undefined || ob.view.status !== "discharged")
    return no(violates("J-4", "OP-2.8.c3", "the instance's distillation obligation is not discharged"));
  return withAgent(world, putInstance(agent, withView(inst, { state: "dissolved" })), [
    { type: "instance.dissolved", instance_id: cmd.instance_id },
  ]);
};
