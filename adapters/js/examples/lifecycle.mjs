/**
 * Step 2 of the implementer's path: the janma lifecycle of spec/OPERATIONS.md OP-2 (conceive,
 * birth, act, acquire, expire, withdraw, distil, dissolve) and custody OP-3 (attempt, expire), on
 * the world of step 1 (world.mjs). Every operation lists its checks in the order of
 * spec/CHECKS.md, each with its clause, so that the first failing one decides the code (D-032).
 *
 * An instance's view (InstanceView) and an obligation (DistillationObligation) live in the
 * agent's `instances` and `obligations` maps, which step 1 already shows. What no view shows is
 * kept beside them in `agent.lives`: per instance its manifest and its trace (until distillation,
 * D-029), per obligation the distillate it holds (until it is discharged).
 */
import { fileURLToPath } from "node:url";
import { Refusal, validate } from "../index.mjs";
import { loadTokeniser } from "../tokeniser.mjs";
import { digestOf } from "./canonical.mjs";
import { byString, checkQuiescent, own, sortedSet } from "./world.mjs";

/**
 * D-010's tokens, with the Unicode 17.0 data of D-045 from the adapter's spec copy (so this runs
 * wherever the adapter folder is copied); the table is read at the first distillation.
 */
const TABLE = fileURLToPath(new URL("../spec-copy/unicode/tokeniser-17.0.json", import.meta.url));
let tokeniser;
const tokens = (text) => (tokeniser ??= loadTokeniser(TABLE)).tokens(text);

// ---------------------------------------------------------------------------------------------
// What an agent holds for its lives

/**
 * The private part of an agent: manifests and traces by instance, held distillates by obligation
 * (step 3, lineage.mjs, adds the contents of the distillates its store retains).
 */
export const livesOf = (agent) => (agent.lives ??= { manifests: {}, traces: {}, held: {} });

const instanceOf = (agent, id) => {
  const instance = own(agent.instances, id);
  if (instance === undefined) throw new Refusal("NOT_FOUND", null, `no instance ${id}`, ["instance_id"]);
  return instance;
};

const obligationOf = (agent, id) => {
  const obligation = own(agent.obligations, id);
  if (obligation === undefined) throw new Refusal("NOT_FOUND", null, `no obligation ${id}`, ["obligation_id"]);
  return obligation;
};

const J1 = (message, path) => new Refusal("JANMA_INCOMPLETE_AT_BIRTH", "J-1", message, path);
const J2 = (message, path) => new Refusal("JANMA_CAPABILITY_OUT_OF_SCOPE", "J-2", message, path);
const J3 = (message, path) => new Refusal("JANMA_LIFETIME_EXCEEDED", "J-3", message, path);
const J4 = (message, path) => new Refusal("JANMA_DISTILLATION_OBLIGATION", "J-4", message, path);
const S1 = (message, path) => new Refusal("SAMSKARA_NON_DISPOSITIONAL", "S-1", message, path);
const S2 = (message, path) => new Refusal("SAMSKARA_WEIGHT_NOT_PRINCIPAL_SIGNED", "S-2", message, path);

// ---------------------------------------------------------------------------------------------
// The capability algebra (OP-2, D-016)

/** `grant` covers capability `c`: it is `c`, or it is `p.*` and `c` lies below `p`. */
const covers = (grant, c) => grant === c || (grant.endsWith(".*") && c.startsWith(grant.slice(0, -1)));

/** `g` can be granted from the offered list. */
const grantable = (g, offered) =>
  offered.some((h) => {
    if (h === g) return true;
    if (!h.endsWith(".*")) return false;
    const q = h.slice(0, -2);
    if (!g.endsWith(".*")) return covers(h, g);
    const p = g.slice(0, -2);
    return p === q || p.startsWith(`${q}.`);
  });

// ---------------------------------------------------------------------------------------------
// Termination (OP-2.3, D-015)

const holds = (p, instance, now) => {
  switch (p.op) {
    case "acts_at_least":
      return instance.acts >= p.n;
    case "failures_at_least":
      return instance.failures >= p.n;
    case "consecutive_failures_at_least":
      return instance.consecutive_failures >= p.n;
    case "ticks_since_birth_at_least":
      return now - instance.born_tick >= p.n;
    case "tool_used":
      return instance.tools_used.includes(p.tool);
    case "all":
      return p.of.every((q) => holds(q, instance, now));
    case "any":
      return p.of.some((q) => holds(q, instance, now));
    case "not":
      return !holds(p.of, instance, now);
    default:
      throw new Error(`termination predicate ${JSON.stringify(p.op)} is not one of D-015's`);
  }
};

const withdraw = (instance, reason, tick) => {
  instance.state = "withdrawn";
  instance.withdrawal = reason;
  instance.withdrawn_tick = tick;
  return { type: "instance.withdrawn", instance_id: instance.instance_id, reason };
};

// ---------------------------------------------------------------------------------------------
// OP-2.1 … OP-2.8

/** OP-2.1 janma.conceive */
export const conceive = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  if (own(agent.instances, cmd.instance_id) !== undefined)
    throw new Refusal("DUPLICATE_ID", null, `instance ${cmd.instance_id} exists`, ["instance_id"]); // c2
  if (Object.values(agent.instances).some((i) => i.nonce === cmd.nonce)) {
    throw new Refusal(
      "ADVAITA_PROJECTION_STATEFUL",
      "AD-2",
      `nonce ${cmd.nonce} is already used by an instance of this agent`,
      ["nonce"],
    ); // c3
  }
  const { base_digest, store_version } = cmd.manifest.substrate;
  if (base_digest !== agent.identity.base_digest)
    throw J1("the manifest's base digest is not the agent's", ["manifest", "substrate", "base_digest"]); // c4
  if (agent.store.quarantined.includes(store_version))
    throw J4(`store version ${store_version} is quarantined`, ["manifest", "substrate", "store_version"]); // c5

  agent.instances[cmd.instance_id] = {
    instance_id: cmd.instance_id,
    nonce: cmd.nonce,
    manifest_digest: digestOf("manifest", cmd.manifest),
    state: "conceived",
    born_from: store_version,
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
  };
  const lives = livesOf(agent);
  lives.manifests[cmd.instance_id] = cmd.manifest;
  lives.traces[cmd.instance_id] = [];
  return [{ type: "instance.conceived", instance_id: cmd.instance_id }];
};

/** OP-2.2 janma.birth */
export const birth = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const instance = instanceOf(agent, cmd.instance_id); // c2
  if (instance.state !== "conceived")
    throw J1(`instance ${instance.instance_id} is ${instance.state}, not conceived`, ["instance_id"]); // c3
  if (!agent.store.chain.some((v) => v.version_id === instance.born_from))
    throw J1("the pinned store version is not in the current chain", ["instance_id"]); // c4
  if (agent.store.quarantined.includes(instance.born_from))
    throw J1("the pinned store version is quarantined", ["instance_id"]); // c5
  const manifest = livesOf(agent).manifests[instance.instance_id];
  manifest.tool_bindings.forEach((b, i) => {
    // c6: one offered entry must have every capability of the binding
    if (
      !cmd.environment.tools.some((t) => t.tool === b.tool && b.capabilities.every((c) => t.capabilities.includes(c)))
    ) {
      throw J1(`tool ${b.tool} is not offered with the capabilities its binding declares`, ["environment", "tools"]);
    }
  });
  manifest.capability_grants.forEach((g) => {
    // c7
    if (!grantable(g, cmd.environment.grantable))
      throw J1(`capability grant ${g} is not grantable`, ["environment", "grantable"]);
  });

  instance.state = "ready";
  instance.born_tick = cmd.tick;
  instance.tools = sortedSet(manifest.tool_bindings.map((b) => b.tool));
  instance.grants = sortedSet(manifest.capability_grants);
  return [{ type: "instance.born", instance_id: instance.instance_id }];
};

/** OP-2.3 janma.act */
export const act = (world, cmd, agent) => {
  checkQuiescent(agent); // c1
  const instance = instanceOf(agent, cmd.instance_id); // c2
  if (instance.state === "conceived") throw J1(`instance ${instance.instance_id} was never born`, ["instance_id"]); // c3
  if (instance.state === "withdrawn" || instance.state === "dissolved")
    throw J3(`instance ${instance.instance_id} is ${instance.state}`, ["instance_id"]); // c4
  const { signed } = cmd;
  const { action } = signed;
  const signature = digestOf("action", {
    identity: signed.identity,
    nonce: signed.nonce,
    manifest_digest: signed.manifest_digest,
    action,
  });
  if (
    signed.identity !== agent.identity.identity ||
    signed.nonce !== instance.nonce ||
    signed.manifest_digest !== instance.manifest_digest ||
    action.tick !== cmd.tick ||
    signed.signature !== signature
  ) {
    throw new Refusal("ADVAITA_ATTRIBUTION_LOST", "AD-4", "the act is not signed by this projection (D-021)", [
      "signed",
    ]); // c5
  }
  const manifest = livesOf(agent).manifests[instance.instance_id];
  if (cmd.tick >= instance.born_tick + manifest.ttl_ticks)
    throw J3(`the lifetime ended at tick ${instance.born_tick + manifest.ttl_ticks}`, ["tick"]); // c6
  const binding = manifest.tool_bindings.find((b) => b.tool === action.tool);
  if (
    !instance.tools.includes(action.tool) ||
    binding === undefined ||
    !binding.capabilities.includes(action.capability) ||
    !instance.grants.some((g) => covers(g, action.capability))
  ) {
    throw J2(`${action.tool} / ${action.capability} is not in the instance's scope`, ["signed", "action"]); // c7
  }

  instance.state = "active";
  instance.acts += 1;
  if (action.outcome === "failed") {
    instance.failures += 1;
    instance.consecutive_failures += 1;
  } else {
    instance.consecutive_failures = 0;
  }
  instance.tools_used = sortedSet([...instance.tools_used, action.tool]);
  livesOf(agent).traces[instance.instance_id].push(...action.trace);
  instance.trace_entries += action.trace.length;
  const events = [
    {
      type: "instance.acted",
      instance_id: instance.instance_id,
      tool: action.tool,
      capability: action.capability,
      outcome: action.outcome,
    },
  ];
  const fired = manifest.termination_conditions.find((c) => holds(c.when, instance, cmd.tick));
  if (fired !== undefined)
    events.push(withdraw(instance, { kind: "termination_condition", condition_id: fired.id }, cmd.tick));
  return events;
};

/** OP-2.4 janma.acquire: nothing is acquired after conception (D-017). */
export const acquire = (world, cmd, agent) => {
  instanceOf(agent, cmd.instance_id); // c1
  if (cmd.acquisition.kind === "tool") throw J1("a tool cannot be acquired after conception", ["acquisition"]); // c2
  throw J2("a capability cannot be acquired after conception", ["acquisition"]);
};

/** OP-2.5 janma.expire */
export const expire = (world, cmd, agent) => {
  const instance = instanceOf(agent, cmd.instance_id); // c1
  const live = instance.state === "ready" || instance.state === "active";
  if (!live || cmd.tick < instance.born_tick + livesOf(agent).manifests[instance.instance_id].ttl_ticks) return [];
  return [withdraw(instance, { kind: "ttl" }, cmd.tick)];
};

/** OP-2.6 janma.withdraw */
export const withdrawInstance = (world, cmd, agent) => {
  const instance = instanceOf(agent, cmd.instance_id); // c1
  if (instance.state === "conceived") throw J1(`instance ${instance.instance_id} was never born`, ["instance_id"]); // c2
  if (instance.state === "withdrawn" || instance.state === "dissolved")
    throw J4(`instance ${instance.instance_id} is already ${instance.state}`, ["instance_id"]); // c3
  return [withdraw(instance, { kind: cmd.reason }, cmd.tick)];
};

const SENSITIVITY = { low: 0, medium: 1, high: 2 };

/**
 * D-011, D-058: persisting a disposition is both the "storage" and the "training" use of its
 * category (D-011 first read training alone).
 */
const PERSIST_DIMENSIONS = ["storage", "training"];

/** The sensitivity of (category, dimension): the exact cell, else the category's default row, else low. */
const sensitivityOf = (grant, category, dimension) => {
  const cell = grant.cells.find((c) => c.category === category && c.dimension === dimension);
  const row = grant.category_defaults.find((d) => d.category === category);
  return cell?.sensitivity ?? row?.sensitivity ?? "low";
};

/** A disposition of `category` may persist iff both its storage and its training sensitivity are at or below the ceiling. */
const consents = (grant, category) =>
  PERSIST_DIMENSIONS.every(
    (dim) => SENSITIVITY[sensitivityOf(grant, category, dim)] <= SENSITIVITY[grant.persist_ceiling],
  );

/** D-010: some 4 consecutive tokens of the guidance are 4 consecutive tokens of the trace. */
const leaks = (guidance, trace) => {
  const g = tokens(guidance);
  if (g.length < 4) return false;
  const t = trace.flatMap((entry) => tokens(entry)); // one sequence: a run may span entries
  const runs = new Set();
  for (let i = 0; i + 4 <= t.length; i++) runs.add(JSON.stringify(t.slice(i, i + 4)));
  for (let i = 0; i + 4 <= g.length; i++) if (runs.has(JSON.stringify(g.slice(i, i + 4)))) return true;
  return false;
};

/** Every distillate id the agent has used: by an obligation (whatever its outcome) or by its store. */
const distillateIdsUsed = (agent) =>
  new Set([
    ...Object.values(agent.obligations).map((o) => o.distillate_id),
    ...agent.store.distillates.map((d) => d.distillate_id),
    ...agent.store.excisions.flatMap((x) => x.excised.map((d) => d.distillate_id)),
  ]);

/** OP-2.7 janma.distil */
export const distil = (world, cmd, agent) => {
  const instance = instanceOf(agent, cmd.instance_id); // c1
  if (instance.state !== "withdrawn" || instance.obligation_id !== null) {
    throw J4(
      `instance ${instance.instance_id} is ${instance.state}${instance.obligation_id === null ? "" : " and already distilled"}`,
      ["instance_id"],
    ); // c2
  }
  if (own(agent.obligations, cmd.obligation_id) !== undefined)
    throw new Refusal("DUPLICATE_ID", null, `obligation ${cmd.obligation_id} exists`, ["obligation_id"]); // c3
  const failure = validate("SamskaraDistillate", cmd.distillate); // c4 (D-028)
  if (failure !== null)
    throw S1(`the distillate is not a SamskaraDistillate: ${failure.message}`, ["distillate", ...failure.path]);
  const d = cmd.distillate;
  if (
    d.source.identity !== agent.identity.identity ||
    d.source.nonce !== instance.nonce ||
    d.source.instance_id !== instance.instance_id ||
    d.born_from !== instance.born_from
  ) {
    throw new Refusal("ADVAITA_ATTRIBUTION_LOST", "AD-4", "the distillate is not attributed to this instance", [
      "distillate",
      "source",
    ]); // c5
  }
  // c6: the signal is the principal's: computed under the manifest's satisfaction model (D-053;
  // null is the reference formula, compared exactly), and a confidence of 0 only with valence 0 and
  // no dispositions, the no-feedback distillate (D-057).
  const lives = livesOf(agent);
  const manifest = lives.manifests[instance.instance_id];
  if (d.signal.model_version !== manifest.distillation_policy.satisfaction_model) {
    throw S2("the signal was not computed under the principal's declared satisfaction model", [
      "distillate",
      "signal",
      "model_version",
    ]);
  }
  if (d.signal.confidence === 0 && d.signal.valence !== 0)
    throw S2("a zero-confidence signal carries no valence", ["distillate", "signal", "valence"]);
  if (d.signal.confidence === 0 && d.dispositions.length > 0)
    throw S2("a zero-confidence signal backs no disposition", ["distillate", "dispositions"]);
  const valence = d.signal.valence;
  d.dispositions.forEach((p, i) => {
    // c7 (D-012)
    if (Math.sign(p.weight) !== Math.sign(valence) || Math.abs(p.weight) > Math.abs(valence)) {
      throw S2(`weight ${p.weight} does not carry the valence ${valence}`, ["distillate", "dispositions", i, "weight"]);
    }
  });
  d.dispositions.forEach((p, i) => {
    // c8 (D-011, D-058)
    if (!consents(manifest.consent_scope, p.category))
      throw S1(`category ${p.category} may not persist under the consent grant for both storage and training`, [
        "distillate",
        "dispositions",
        i,
        "category",
      ]);
  });
  const trace = lives.traces[instance.instance_id];
  d.dispositions.forEach((p, i) => {
    // c9
    if (leaks(p.guidance, trace))
      throw S1("the guidance repeats 4 consecutive tokens of the trace", ["distillate", "dispositions", i, "guidance"]);
  });
  if (distillateIdsUsed(agent).has(d.distillate_id)) {
    throw new Refusal("ADVAITA_RECONCILIATION_DIVERGED", "AD-3", `distillate id ${d.distillate_id} was used before`, [
      "distillate",
      "distillate_id",
    ]); // c10
  }

  const entries = trace.length;
  lives.traces[instance.instance_id] = []; // the trace is destroyed in this write (D-029, W-7.2)
  instance.trace_entries = 0;
  instance.obligation_id = cmd.obligation_id;
  const kind = valence < 0 ? "corrective" : "reinforcing"; // D-013
  agent.obligations[cmd.obligation_id] = {
    obligation_id: cmd.obligation_id,
    instance_id: instance.instance_id,
    kind,
    distillate_id: d.distillate_id,
    distillate_digest: digestOf("distillate", d),
    born_from: instance.born_from,
    created_tick: cmd.tick,
    deadline_tick: cmd.tick + manifest.distillation_policy.deadline_ticks,
    max_retries: manifest.distillation_policy.max_retries,
    attempts: 0,
    status: "pending",
    outcome: null,
    // Only a corrective obligation declares the quarantine fail-safe (D-019, D-063).
    fail_safe: kind === "corrective" ? { action: "quarantine", store_version: instance.born_from } : null,
  };
  lives.held[cmd.obligation_id] = d; // until a merge applies it or custody discharges it otherwise
  return [
    { type: "trace.destroyed", instance_id: instance.instance_id, entries },
    { type: "obligation.emitted", obligation_id: cmd.obligation_id, kind },
  ];
};

/** OP-2.8 janma.dissolve */
export const dissolve = (world, cmd, agent) => {
  const instance = instanceOf(agent, cmd.instance_id); // c1
  if (instance.state !== "withdrawn")
    throw J4(`instance ${instance.instance_id} is ${instance.state}, not withdrawn`, ["instance_id"]); // c2
  const obligation = instance.obligation_id === null ? undefined : own(agent.obligations, instance.obligation_id);
  if (obligation === undefined || obligation.status !== "discharged")
    throw J4(`instance ${instance.instance_id}'s obligation is not discharged`, ["instance_id"]); // c3
  instance.state = "dissolved";
  return [{ type: "instance.dissolved", instance_id: instance.instance_id }];
};

// ---------------------------------------------------------------------------------------------
// OP-3 custody

/**
 * Discharges an obligation, drops its distillate and applies the fail-safe (D-019) when due: only
 * a corrective obligation declares one (D-063), and it applies when declined or escalated. A merge
 * (step 3, lineage.mjs) discharges with "applied", after it has taken the distillate.
 */
export const discharge = (agent, obligation, outcome) => {
  obligation.status = "discharged";
  obligation.outcome = outcome;
  delete livesOf(agent).held[obligation.obligation_id];
  const events = [{ type: "custody.discharged", obligation_id: obligation.obligation_id, outcome }];
  const failSafe =
    obligation.kind === "corrective" && (outcome === "declined" || outcome === "escalated")
      ? obligation.fail_safe
      : null;
  const version = failSafe?.store_version;
  if (failSafe !== null && !agent.store.quarantined.includes(version)) {
    agent.store.quarantined = [...agent.store.quarantined, version].sort(byString);
    events.push({ type: "version.quarantined", store_version: version });
  }
  return events;
};

/** OP-3.1 custody.attempt */
export const custodyAttempt = (world, cmd, agent) => {
  const obligation = obligationOf(agent, cmd.obligation_id); // c1
  if (obligation.status !== "pending")
    throw J4(`obligation ${obligation.obligation_id} is already discharged`, ["obligation_id"]); // c2
  // c3, strict: the deadline tick belongs to custody.expire (D-060)
  if (cmd.tick >= obligation.deadline_tick)
    throw J4(`the deadline is tick ${obligation.deadline_tick}; an attempt comes before it`, ["tick"]);
  if (obligation.attempts >= obligation.max_retries + 1) throw J4("no attempt is left", ["obligation_id"]); // c4

  obligation.attempts += 1;
  const events = [
    { type: "custody.attempted", obligation_id: obligation.obligation_id, ack: cmd.ack, attempts: obligation.attempts },
  ];
  if (cmd.ack === "declined") return [...events, ...discharge(agent, obligation, "declined")];
  if (obligation.kind === "reinforcing") return [...events, ...discharge(agent, obligation, "best_effort")];
  if (obligation.attempts === obligation.max_retries + 1)
    return [...events, ...discharge(agent, obligation, "escalated")];
  return events; // a corrective delivery deferred or lost, with attempts left: still pending
};

/** OP-3.2 custody.expire */
export const custodyExpire = (world, cmd, agent) => {
  const obligation = obligationOf(agent, cmd.obligation_id); // c1
  if (obligation.status !== "pending")
    throw J4(`obligation ${obligation.obligation_id} is already discharged`, ["obligation_id"]); // c2
  if (cmd.tick < obligation.deadline_tick) throw J4(`the deadline is tick ${obligation.deadline_tick}`, ["tick"]); // c3
  return discharge(agent, obligation, obligation.kind === "corrective" ? "escalated" : "best_effort");
};

/** The operations step 2 adds, by op. */
export const lifecycleOperations = {
  "janma.conceive": conceive,
  "janma.birth": birth,
  "janma.act": act,
  "janma.acquire": acquire,
  "janma.expire": expire,
  "janma.withdraw": withdrawInstance,
  "janma.distil": distil,
  "janma.dissolve": dissolve,
  "custody.attempt": custodyAttempt,
  "custody.expire": custodyExpire,
};
