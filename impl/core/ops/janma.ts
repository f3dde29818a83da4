/** OP-2: the Janma lifecycle of one life (conceive, birth, act, acquire, expire, withdraw, dissolve). */
import { DOMAIN, digestOf } from "../../../spec/index.ts";
import { grantCovers, isGrantable } from "../capabilities.ts";
import { Instance } from "../instance.ts";
import { refuse, violates } from "../rejection.ts";
import { holds } from "../termination.ts";
import { instanceOf, requireNotQuiesced, sortedUnique, type Handler } from "./context.ts";

/** OP-2.1 */
export const conceive: Handler<"janma.conceive"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4
  if (agent.instances.has(cmd.instance_id))
    refuse("DUPLICATE_ID", `instance ${cmd.instance_id} already exists`, ["instance_id"]);
  // AD-2: nonces carry attribution and are unique within the identity.
  if (agent.nonces.has(cmd.nonce))
    violates("AD-2", `nonce ${cmd.nonce} is already used by another projection`, ["nonce"]);
  const pin = cmd.manifest.substrate;
  // J-1: the manifest must be for this agent's base model.
  if (pin.base_digest !== agent.identity.base_digest) {
    violates("J-1", "manifest base digest differs from the agent's base digest", [
      "manifest",
      "substrate",
      "base_digest",
    ]);
  }
  // J-4 (D-019): refuse to descend a life from a quarantined pin.
  if (agent.store.quarantined.has(pin.store_version)) {
    violates("J-4", `store version ${pin.store_version} is quarantined`, ["manifest", "substrate", "store_version"]);
  }
  const instance = new Instance(
    cmd.instance_id,
    cmd.nonce,
    cmd.manifest,
    digestOf(DOMAIN.manifest, cmd.manifest),
    pin.store_version,
  );
  agent.instances.set(cmd.instance_id, instance);
  agent.nonces.add(cmd.nonce);
  return [{ type: "instance.conceived", instance_id: cmd.instance_id }];
};

/** OP-2.2 (J-1: complete at birth) */
export const birth: Handler<"janma.birth"> = (world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4
  const inst = instanceOf(agent, cmd.instance_id);
  if (inst.state !== "conceived") violates("J-1", `instance is ${inst.state}, only a conceived instance can be born`);
  if (!agent.store.hasVersion(inst.bornFrom))
    violates("J-1", `pinned store version ${inst.bornFrom} is not in the current chain`);
  if (agent.store.quarantined.has(inst.bornFrom))
    violates("J-1", `pinned store version ${inst.bornFrom} is quarantined`);
  for (const [i, b] of inst.manifest.tool_bindings.entries()) {
    const offered = cmd.environment.tools.some(
      (t) => t.tool === b.tool && b.capabilities.every((c) => t.capabilities.includes(c)),
    );
    if (!offered)
      violates("J-1", `tool ${b.tool} is not offered with capabilities ${b.capabilities.join(", ")}`, [
        "environment",
        "tools",
        i,
      ]);
  }
  for (const g of inst.manifest.capability_grants) {
    if (!isGrantable(g, cmd.environment.grantable))
      violates("J-1", `grant ${g} is not grantable in this environment`, ["environment", "grantable"]);
  }
  inst.state = "ready";
  inst.bornTick = cmd.tick;
  inst.tools = sortedUnique(inst.manifest.tool_bindings.map((b) => b.tool));
  inst.grants = sortedUnique(inst.manifest.capability_grants);
  void world;
  return [{ type: "instance.born", instance_id: cmd.instance_id }];
};

/** OP-2.3 (J-1, J-2, J-3, AD-4) */
export const act: Handler<"janma.act"> = (_world, cmd, agent) => {
  requireNotQuiesced(agent, cmd.op); // I4
  const inst = instanceOf(agent, cmd.instance_id);
  if (inst.state === "conceived") violates("J-1", "a conceived instance may not act before birth");
  if (inst.state === "withdrawn" || inst.state === "dissolved")
    violates("J-3", `instance is ${inst.state}; its life is over`);
  const s = cmd.signed;
  // AD-4 (D-021): the act must be bound to this projection and its signature must recompute.
  const expected = digestOf(DOMAIN.action, {
    identity: s.identity,
    nonce: s.nonce,
    manifest_digest: s.manifest_digest,
    action: s.action,
  });
  if (
    s.identity !== agent.identity.identity ||
    s.nonce !== inst.nonce ||
    s.manifest_digest !== inst.manifestDigest ||
    s.action.tick !== cmd.tick ||
    s.signature !== expected
  ) {
    violates("AD-4", "action signature does not bind it to this projection", ["signed"]);
  }
  const m = inst.manifest;
  const bornTick = inst.bornTick ?? 0;
  // J-3: no act at or after the TTL deadline.
  if (cmd.tick >= bornTick + m.ttl_ticks) violates("J-3", `TTL deadline ${bornTick + m.ttl_ticks} reached`);
  // J-2: tool bound, capability declared by that binding, and covered by a held grant.
  const binding = inst.tools.includes(s.action.tool)
    ? m.tool_bindings.find((b) => b.tool === s.action.tool)
    : undefined;
  if (binding === undefined)
    violates("J-2", `tool ${s.action.tool} was not bound at birth`, ["signed", "action", "tool"]);
  if (!binding?.capabilities.includes(s.action.capability)) {
    violates("J-2", `tool ${s.action.tool} does not declare ${s.action.capability}`, [
      "signed",
      "action",
      "capability",
    ]);
  }
  if (!inst.grants.some((g) => grantCovers(g, s.action.capability))) {
    violates("J-2", `no grant covers ${s.action.capability}`, ["signed", "action", "capability"]);
  }

  inst.state = "active";
  inst.acts += 1;
  if (s.action.outcome === "failed") {
    inst.failures += 1;
    inst.consecutiveFailures += 1;
  } else {
    inst.consecutiveFailures = 0;
  }
  inst.toolsUsed.add(s.action.tool);
  inst.trace.push(...s.action.trace);
  const events: ReturnType<Handler<"janma.act">> = [
    {
      type: "instance.acted",
      instance_id: inst.instanceId,
      tool: s.action.tool,
      capability: s.action.capability,
      outcome: s.action.outcome,
    },
  ];
  // J-3 (D-015): conditions in declaration order; the first that holds withdraws.
  const counters = {
    acts: inst.acts,
    failures: inst.failures,
    consecutiveFailures: inst.consecutiveFailures,
    bornTick,
    toolsUsed: inst.toolsUsed,
  };
  const fired = m.termination_conditions.find((c) => holds(c.when, counters, cmd.tick));
  if (fired !== undefined) {
    const reason = { kind: "termination_condition", condition_id: fired.id } as const;
    inst.withdraw(reason, cmd.tick);
    events.push({ type: "instance.withdrawn", instance_id: inst.instanceId, reason });
  }
  return events;
};

/** OP-2.4 (J-1 tools, J-2 capabilities): nothing is acquired after conception. */
export const acquire: Handler<"janma.acquire"> = (_world, cmd, agent) => {
  instanceOf(agent, cmd.instance_id);
  if (cmd.acquisition.kind === "tool") {
    return violates("J-1", `tool ${cmd.acquisition.tool.tool} cannot be acquired after conception`, ["acquisition"]);
  }
  return violates("J-2", `capability ${cmd.acquisition.capability} cannot be acquired after conception`, [
    "acquisition",
  ]);
};

/** OP-2.5 (J-3): TTL withdrawal, or an accepted no-op. */
export const expire: Handler<"janma.expire"> = (_world, cmd, agent) => {
  const inst = instanceOf(agent, cmd.instance_id);
  const live = inst.state === "ready" || inst.state === "active";
  if (!live || inst.bornTick === null || cmd.tick < inst.bornTick + inst.manifest.ttl_ticks) return [];
  const reason = { kind: "ttl" } as const;
  inst.withdraw(reason, cmd.tick);
  return [{ type: "instance.withdrawn", instance_id: inst.instanceId, reason }];
};

/** OP-2.6 */
export const withdraw: Handler<"janma.withdraw"> = (_world, cmd, agent) => {
  const inst = instanceOf(agent, cmd.instance_id);
  if (inst.state === "conceived") violates("J-1", "a conceived instance was never born and cannot be withdrawn");
  if (inst.state === "withdrawn" || inst.state === "dissolved") violates("J-4", `instance is already ${inst.state}`);
  const reason = { kind: cmd.reason };
  inst.withdraw(reason, cmd.tick);
  return [{ type: "instance.withdrawn", instance_id: inst.instanceId, reason }];
};

/** OP-2.8 (J-4): no dissolution before the obligation is discharged. */
export const dissolve: Handler<"janma.dissolve"> = (_world, cmd, agent) => {
  const inst = instanceOf(agent, cmd.instance_id);
  if (inst.state !== "withdrawn") violates("J-4", `instance is ${inst.state}; only a withdrawn instance dissolves`);
  const ob = inst.obligationId === null ? undefined : agent.obligations.get(inst.obligationId);
  if (ob === undefined || ob.status !== "discharged")
    violates("J-4", "the instance's distillation obligation is not discharged");
  inst.state = "dissolved";
  return [{ type: "instance.dissolved", instance_id: inst.instanceId }];
};
