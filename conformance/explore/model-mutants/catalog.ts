/**
 * Mutants of the reference model (issue 27 item 2): planted model bugs that `srk explore` must
 * find as predicate violations with a shortest path. properties/mutants/catalog.ts patches impl/;
 * this set breaks the same rules in model/, at least one per invariant, each a guard removed or
 * altered as its impl twin is (`twin` names the impl mutant when there is one). Where a twin
 * cannot be planted in the model so that a predicate could ever see it (a change inside a function
 * the predicates themselves call, an event field no predicate reads), the invariant gets a model
 * mutant of its own guard instead (helperA-decisions: "model mutants the predicates can see").
 *
 * A patch names a file under model/, a text that must occur there exactly once, and its
 * replacement; if the model changes so that the text no longer occurs, the runner fails loudly
 * (copy.ts) and the mutant must be updated, as in the impl catalog.
 *
 * `reach` says, from the rule alone, which step of an exploration exercises the broken rule: the
 * operation, and the check that rejects it in the correct model (a guard removed or moved) or the
 * accepted step whose effect the patch changes. reach.ts looks for that step in the correct
 * model's exploration of the same scope: when none is reached, the scope cannot find the mutant,
 * and the report says which operation or check the scope lacks; when one is, the mutant must be
 * found.
 */
import type { InvariantId } from "../../../spec/invariant-ids.ts";
import type { CommandOp } from "../../../spec/index.ts";
import type { TransitionStep } from "../../../model/index.ts";

/** The step of an exploration that exercises a mutant's rule, found in the correct model. */
export interface Reach {
  /** The operation the step is. */
  readonly op: CommandOp;
  /** For a guard: the check whose rejection the mutant turns into an acceptance (or moves); absent for an effect. */
  readonly check?: string;
  /** A further condition on the step (e.g. exactly at the deadline tick); the correct model's step. */
  readonly when?: (s: TransitionStep) => boolean;
  /** The situation in words, for the report ("a dissolve of a withdrawn life whose obligation is pending"). */
  readonly situation: string;
}

export interface ModelMutant {
  readonly id: string;
  readonly invariant: InvariantId;
  /** The rule the patch breaks: a check id of spec/checks.json or an operation clause of spec/OPERATIONS.md. */
  readonly clause: string;
  /** The impl mutant (properties/mutants/catalog.ts) whose guard this one removes or alters in the model; null when none. */
  readonly twin: string | null;
  readonly description: string;
  /** Under model/, relative to the repository root. */
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  readonly reach: Reach;
}

const agentOf = (s: TransitionStep) => ("agent" in s.command ? s.prev.agents.get(s.command.agent) : undefined);
const obligationOf = (s: TransitionStep) => {
  const c = s.command;
  return c.op === "custody.attempt" || c.op === "custody.expire"
    ? agentOf(s)?.obligations.get(c.obligation_id)
    : undefined;
};
const instanceOf = (s: TransitionStep) => {
  const c = s.command;
  return "instance_id" in c ? agentOf(s)?.instances.get(c.instance_id) : undefined;
};

export const MODEL_MUTANTS: readonly ModelMutant[] = [
  {
    id: "J-1.birth-ignores-unresolved-tool",
    invariant: "J-1",
    clause: "OP-2.2.c6",
    twin: "J-1.birth-ignores-unresolved-tool",
    description: "birth succeeds although a bound tool is not offered",
    file: "model/janma/lifecycle.ts",
    find: "if (!toolsResolve(inst.manifest.tool_bindings, cmd.environment.tools))",
    replace: "if (!toolsResolve(inst.manifest.tool_bindings, cmd.environment.tools) && (false as boolean))",
    reach: {
      op: "janma.birth",
      check: "OP-2.2.c6",
      situation: "a birth whose environment does not offer a bound tool",
    },
  },
  {
    id: "J-1.birth-from-quarantined-pin",
    invariant: "J-1",
    clause: "OP-2.2.c5",
    twin: null,
    description: "birth succeeds although the pinned store version was quarantined after conception",
    file: "model/janma/lifecycle.ts",
    find: 'if (agent.store.quarantined.includes(inst.view.born_from))\n    return no(violates("J-1", "OP-2.2.c5"',
    replace: 'if (false as boolean) return no(violates("J-1", "OP-2.2.c5"',
    reach: {
      op: "janma.birth",
      check: "OP-2.2.c5",
      situation: "a birth of a life whose pinned version is quarantined",
    },
  },
  {
    id: "J-2.act-without-covering-grant",
    invariant: "J-2",
    clause: "OP-2.3.c7",
    twin: "J-2.act-without-covering-grant",
    description: "an act is accepted although no held grant covers its capability",
    file: "model/janma/lifecycle.ts",
    find: "||\n    !heldGrantCovers(inst.view.grants, sig.action.capability)\n  )",
    replace: "|| (!heldGrantCovers(inst.view.grants, sig.action.capability) && (false as boolean)))",
    reach: {
      op: "janma.act",
      check: "OP-2.3.c7",
      situation: "an act of a bound tool and a capability of its binding that no held grant covers",
      // OP-2.3.c7 also refuses an unbound tool or a capability outside the binding; the mutant keeps those.
      when: (s) => {
        const i = instanceOf(s);
        if (s.command.op !== "janma.act" || i === undefined) return false;
        const a = s.command.signed.action;
        return (
          i.view.tools.includes(a.tool) &&
          (i.manifest.tool_bindings.find((b) => b.tool === a.tool)?.capabilities.includes(a.capability) ?? false)
        );
      },
    },
  },
  {
    id: "J-3.act-after-ttl",
    invariant: "J-3",
    clause: "OP-2.3.c6",
    twin: "J-3.act-after-ttl",
    description: "acts are accepted at or after the TTL deadline",
    file: "model/janma/lifecycle.ts",
    find: 'if (pastTtl(inst, cmd.tick)) return no(violates("J-3", "OP-2.3.c6"',
    replace: 'if (pastTtl(inst, cmd.tick - 1_000_000)) return no(violates("J-3", "OP-2.3.c6"',
    reach: {
      op: "janma.act",
      check: "OP-2.3.c6",
      situation: "an act of a living instance at or after born_tick + ttl_ticks",
    },
  },
  {
    id: "J-4.dissolve-before-discharge",
    invariant: "J-4",
    clause: "OP-2.8.c3",
    twin: "J-4.dissolve-before-discharge",
    description: "an instance dissolves while its obligation is still pending",
    file: "model/janma/lifecycle.ts",
    find: 'if (ob === undefined || ob.view.status !== "discharged")',
    replace: "if (ob === undefined)",
    reach: {
      op: "janma.dissolve",
      check: "OP-2.8.c3",
      situation: "a dissolve of a withdrawn life whose obligation is pending",
      when: (s) => instanceOf(s)?.view.obligation_id !== null && instanceOf(s)?.view.obligation_id !== undefined,
    },
  },
  {
    id: "J-4.conceive-from-quarantined-pin",
    invariant: "J-4",
    clause: "OP-2.1.c5",
    twin: null,
    description: "a life is conceived from a quarantined store version",
    file: "model/janma/lifecycle.ts",
    find: "if (agent.store.quarantined.includes(cmd.manifest.substrate.store_version))\n    return no(",
    replace: "if (false as boolean)\n    return no(",
    reach: { op: "janma.conceive", check: "OP-2.1.c5", situation: "a conception pinned to a quarantined version" },
  },
  {
    id: "J-4.attempt-at-deadline",
    invariant: "J-4",
    clause: "OP-3.1.c3",
    twin: "J-4.attempt-at-deadline",
    description: "a custody attempt exactly at the deadline tick is accepted (and can escalate or discharge there)",
    file: "model/custody/custody.ts",
    find: "if (cmd.tick >= ob.view.deadline_tick)\n    return no(",
    replace: "if (cmd.tick > ob.view.deadline_tick) return no(",
    reach: {
      op: "custody.attempt",
      check: "OP-3.1.c3",
      situation: "a delivery attempt exactly at the obligation's deadline tick",
      when: (s) => s.command.tick === obligationOf(s)?.view.deadline_tick,
    },
  },
  {
    id: "J-4.merge-at-deadline",
    invariant: "J-4",
    clause: "OP-4.1.c4",
    twin: "J-4.merge-at-deadline",
    description: "a pending obligation is merged (applied) exactly at its deadline tick",
    file: "model/samskara/store.ts",
    find: 'if (ob.view.status === "pending" && cmd.tick >= ob.view.deadline_tick)',
    replace: 'if (ob.view.status === "pending" && cmd.tick > ob.view.deadline_tick)',
    reach: {
      op: "samskara.merge",
      check: "OP-4.1.c4",
      situation: "a merge of a pending obligation exactly at its deadline tick",
      when: (s) => {
        const c = s.command;
        const a = agentOf(s);
        return (
          c.op === "samskara.merge" &&
          c.obligation_ids.some((id) => a?.obligations.get(id)?.view.deadline_tick === c.tick)
        );
      },
    },
  },
  {
    id: "J-4.declined-without-fail-safe",
    invariant: "J-4",
    clause: "OP-3.1",
    twin: "J-4.declined-without-fail-safe",
    description: "a declined corrective obligation does not quarantine the pin it was born from",
    file: "model/custody/custody.ts",
    find: 'settled = discharge(a1, tried, "declined", true);',
    replace: 'settled = discharge(a1, tried, "declined", false);',
    reach: {
      op: "custody.attempt",
      situation: "an accepted attempt whose ack declines a corrective obligation",
      when: (s) =>
        s.accepted &&
        s.command.op === "custody.attempt" &&
        s.command.ack === "declined" &&
        obligationOf(s)?.view.kind === "corrective",
    },
  },
  {
    id: "J-4.exhausted-corrective-stays-pending",
    invariant: "J-4",
    clause: "OP-3.1",
    twin: "J-4.exhausted-corrective-stays-pending",
    description: "a corrective obligation whose attempts are exhausted is never escalated, so no fail-safe applies",
    file: "model/custody/custody.ts",
    find: "} else if (attempts === ob.view.max_retries + 1) {",
    replace: "} else if (attempts === ob.view.max_retries + 2) {",
    reach: {
      op: "custody.attempt",
      situation: "an accepted, not declined attempt that uses a corrective obligation's last retry",
      when: (s) => {
        const o = obligationOf(s);
        return (
          s.accepted &&
          s.command.op === "custody.attempt" &&
          s.command.ack !== "declined" &&
          o?.view.kind === "corrective" &&
          o.view.attempts + 1 === o.view.max_retries + 1
        );
      },
    },
  },
  {
    id: "S-1.trace-kept-after-distillation",
    invariant: "S-1",
    clause: "OP-2.7",
    twin: "S-1.trace-kept-after-distillation",
    description: "the episode trace survives distillation",
    file: "model/janma/distil.ts",
    find: "{ ...withView(inst, { trace_entries: 0, obligation_id: cmd.obligation_id }), trace: [] }",
    replace: "{ ...withView(inst, { obligation_id: cmd.obligation_id }), trace: inst.trace }",
    reach: {
      op: "janma.distil",
      situation: "an accepted distillation of a life that acted (its trace is not empty)",
      when: (s) => s.accepted && (instanceOf(s)?.trace.length ?? 0) > 0,
    },
  },
  {
    id: "S-1.no-leakage-check",
    invariant: "S-1",
    clause: "OP-2.7.c9",
    twin: "S-1.no-leakage-check",
    description: "guidance that repeats four trace tokens is persisted",
    file: "model/janma/distil.ts",
    find: "const j = d.dispositions.findIndex((x) => leaks(x.guidance, trace));",
    replace: "const j = d.dispositions.findIndex((x) => leaks(x.guidance, trace) && (false as boolean));",
    reach: {
      op: "janma.distil",
      check: "OP-2.7.c9",
      situation: "a distillate whose guidance repeats 4 consecutive trace tokens",
    },
  },
  {
    id: "S-2.sign-not-checked",
    invariant: "S-2",
    clause: "OP-2.7.c7",
    twin: "S-2.sign-not-checked",
    description: "a disposition may carry a weight of the opposite sign to the principal's valence",
    file: "model/janma/distil.ts",
    find: "(x) => Math.sign(x.weight) === Math.sign(d.signal.valence) && Math.abs(x.weight) <= Math.abs(d.signal.valence),",
    replace: "(x) => Math.abs(x.weight) <= Math.abs(d.signal.valence),",
    reach: {
      op: "janma.distil",
      check: "OP-2.7.c7",
      situation: "a distillate with a weight of the opposite sign to its valence and no weight above it",
      // OP-2.7.c7 also refuses a weight larger than the valence; the mutant keeps that.
      when: (s) => {
        if (s.command.op !== "janma.distil") return false;
        const d = s.command.distillate as { signal?: { valence?: number }; dispositions?: { weight?: number }[] };
        const v = d.signal?.valence ?? 0;
        const ws = (d.dispositions ?? []).map((x) => x.weight ?? 0);
        return ws.some((w) => Math.sign(w) !== Math.sign(v)) && ws.every((w) => Math.abs(w) <= Math.abs(v));
      },
    },
  },
  {
    id: "S-2.signal-model-unchecked",
    invariant: "S-2",
    clause: "OP-2.7.c6",
    twin: "S-2.signal-model-unchecked",
    description: "a distillate whose signal names another satisfaction model than the manifest's is accepted",
    file: "model/janma/distil.ts",
    find: "if (d.signal.model_version !== satisfactionModel)",
    replace: "if (d.signal.model_version !== satisfactionModel && (false as boolean))",
    reach: {
      op: "janma.distil",
      check: "OP-2.7.c6",
      situation: "a distillate judged under another satisfaction model than the manifest's",
      when: (s) =>
        s.command.op === "janma.distil" &&
        (s.command.distillate as { signal?: { model_version?: unknown } }).signal?.model_version !==
          instanceOf(s)?.manifest.distillation_policy.satisfaction_model,
    },
  },
  {
    id: "S-3.version-not-linked-to-head",
    invariant: "S-3",
    clause: "OP-1.6",
    twin: "S-3.version-not-linked-to-head",
    description: "a new version names the genesis, not the previous head, as its parent",
    file: "model/samskara/store.ts",
    find: "const step = mergeStep(\n    head(store),\n    ",
    replace: "const step = mergeStep(store.chain[0] as StoreVersion, ",
    reach: {
      op: "samskara.merge",
      situation: "an accepted merge onto a store whose head is not the genesis",
      when: (s) =>
        s.accepted && s.events.some((e) => e.type === "store.merged") && (agentOf(s)?.store.chain.length ?? 0) > 1,
    },
  },
  {
    id: "S-3.excision-unrecorded",
    invariant: "S-3",
    clause: "OP-4.2",
    twin: null,
    description: "an excision rewrites the chain without appending its excision record",
    file: "model/samskara/store.ts",
    find: "excisions: [...store.excisions, record],\n    },\n  ",
    replace: "excisions: store.excisions },",
    reach: { op: "samskara.excise", situation: "an accepted excision", when: (s) => s.accepted },
  },
  {
    id: "S-4.batch-not-recorded",
    invariant: "S-4",
    clause: "OP-4.1",
    twin: null,
    description: "a merge extends the chain without recording its batch, so the batches no longer replay to the chain",
    file: "model/samskara/store.ts",
    find: "batches: [...store.batches, step.batch],",
    replace: "batches: store.batches,",
    reach: {
      op: "samskara.merge",
      situation: "an accepted merge of a pending obligation",
      when: (s) => s.accepted && s.events.some((e) => e.type === "store.merged"),
    },
  },
  {
    id: "S-5.excised-content-retained",
    invariant: "S-5",
    clause: "OP-4.2",
    twin: "S-5.excised-content-retained",
    description: "excision re-derives the chain but keeps the forgotten distillates' content",
    file: "model/samskara/store.ts",
    find: "for (const id of ids) retained.delete(id); // S-5: the content is gone",
    replace: "// S-5: the content is gone (mutant: it is not)",
    reach: { op: "samskara.excise", situation: "an accepted excision", when: (s) => s.accepted },
  },
  {
    id: "AD-1.root-reuse",
    invariant: "AD-1",
    clause: "OP-5.1.c1",
    twin: "AD-1.root-reuse",
    description: "a lineage root may be used twice",
    file: "model/advaita/mint.ts",
    find: "if (!rootFresh(world, cmd.root))\n    return no(",
    replace: "if (false as boolean) return no(",
    reach: { op: "advaita.mint", check: "OP-5.1.c1", situation: "a mint from a root already used" },
  },
  {
    id: "AD-2.nonce-reuse",
    invariant: "AD-2",
    clause: "OP-2.1.c3",
    twin: "AD-2.nonce-reuse",
    description: "two projections may share a nonce",
    file: "model/janma/lifecycle.ts",
    find: "if (i.view.nonce === cmd.nonce)\n      return no(",
    replace: "if (i.view.nonce === cmd.nonce && (false as boolean)) return no(",
    reach: {
      op: "janma.conceive",
      check: "OP-2.1.c3",
      situation: "a conception with a nonce another life of the agent holds",
    },
  },
  {
    id: "AD-3.merge-forgets-retained",
    invariant: "AD-3",
    clause: "OP-1.6",
    twin: null,
    description: "a merge aggregates only the new batch, not the retained set with it",
    file: "model/samskara/store.ts",
    find: "[...store.retained.values()].map((r) => r.distillate),\n    added,\n  );",
    replace: "[], added);",
    reach: {
      op: "samskara.merge",
      situation: "an accepted merge onto a store that already retains a distillate",
      when: (s) =>
        s.accepted && s.events.some((e) => e.type === "store.merged") && (agentOf(s)?.store.retained.size ?? 0) > 0,
    },
  },
  {
    id: "AD-3.excision-keeps-stale-state",
    invariant: "AD-3",
    clause: "OP-1.8",
    twin: null,
    description: "an excision re-derives the chain but keeps the states of the old one",
    file: "model/samskara/store.ts",
    find: "chain: lineage.chain,\n      states: lineage.states,\n      ",
    replace: "chain: lineage.chain, states: store.states,",
    reach: { op: "samskara.excise", situation: "an accepted excision", when: (s) => s.accepted },
  },
  {
    id: "AD-4.unsigned-act",
    invariant: "AD-4",
    clause: "OP-2.3.c5",
    twin: "AD-4.unsigned-act",
    description: "an act whose signature does not recompute is accepted",
    file: "model/janma/lifecycle.ts",
    find: "sig.action.tick !== cmd.tick ||\n    sig.signature !== actionSignature(sig.identity, sig.nonce, sig.manifest_digest, sig.action)",
    replace: "sig.action.tick !== cmd.tick",
    reach: {
      op: "janma.act",
      check: "OP-2.3.c5",
      situation:
        "an act whose identity, nonce, manifest digest and tick are the projection's but whose signature does not recompute",
      // OP-2.3.c5 also refuses another identity, nonce, manifest digest or tick; the mutant keeps those.
      when: (s) => {
        const i = instanceOf(s);
        const a = agentOf(s);
        if (s.command.op !== "janma.act" || i === undefined || a === undefined) return false;
        const g = s.command.signed;
        return (
          g.identity === a.identity.identity &&
          g.nonce === i.view.nonce &&
          g.manifest_digest === i.view.manifest_digest &&
          g.action.tick === s.command.tick
        );
      },
    },
  },
  {
    id: "I1.ungoverned-identity-update",
    invariant: "I1",
    clause: "OP-6.8.c2",
    twin: "I1.ungoverned-identity-update",
    description: "anyone may update the installed identity",
    file: "model/ripa/substrate.ts",
    find: 'if (!authorised(agent, cmd.authorization))\n    return no(violates("I1", "OP-6.8.c2"',
    replace: 'if (false as boolean) return no(violates("I1", "OP-6.8.c2"',
    reach: {
      op: "ripa.identity_update",
      check: "OP-6.8.c2",
      situation: "an identity update without a custodian's authorisation",
    },
  },
  {
    id: "I2.unknown-task-resumes",
    invariant: "I2",
    clause: "OP-6.3.c2",
    twin: "I2.unknown-task-resumes",
    description: "a task that memory never recorded can be resumed",
    file: "model/ripa/substrate.ts",
    find: 'if (!taskRecorded(agent, cmd.task_id))\n    return no(violates("I2", "OP-6.3.c2"',
    replace: 'if (false as boolean) return no(violates("I2", "OP-6.3.c2"',
    reach: { op: "ripa.task_resume", check: "OP-6.3.c2", situation: "a resume of a task memory never recorded" },
  },
  {
    id: "I2.unauthorised-excision",
    invariant: "I2",
    clause: "OP-4.2.c3",
    twin: null,
    description: "an excision (a memory repair) is accepted without a custodian's authorisation",
    file: "model/samskara/store.ts",
    find: 'if (!authorised(agent, cmd.authorization))\n    return no(\n      violates("I2", "OP-4.2.c3"',
    replace: 'if (false as boolean) return no(violates("I2", "OP-4.2.c3"',
    reach: {
      op: "samskara.excise",
      check: "OP-4.2.c3",
      situation: "an excision authorised by no custodian of the agent",
    },
  },
  {
    id: "I3.ungoverned-evolution",
    invariant: "I3",
    clause: "OP-6.7.c2",
    twin: "I3.ungoverned-evolution",
    description: "anyone may evolve the body",
    file: "model/ripa/substrate.ts",
    find: 'if (!authorised(agent, cmd.authorization))\n    return no(violates("I3", "OP-6.7.c2"',
    replace: 'if (false as boolean) return no(violates("I3", "OP-6.7.c2"',
    reach: { op: "ripa.evolve", check: "OP-6.7.c2", situation: "a body evolution without a custodian's authorisation" },
  },
  {
    id: "I4.stale-token-effect",
    invariant: "I4",
    clause: "OP-6.6.c1",
    twin: "I4.stale-token-effect",
    description: "an effect under a stale epoch token is performed",
    file: "model/ripa/substrate.ts",
    find: "if (cmd.token !== auth.token || auth.holder === null || cmd.execution_id !== auth.holder)",
    replace: "if (auth.holder === null || cmd.execution_id !== auth.holder)",
    reach: {
      op: "ripa.effect",
      check: "OP-6.6.c1",
      situation: "an effect by the holder under a token that is not the current epoch's",
      // OP-6.6.c1 also refuses a non-holder (or no holder); the mutant keeps that.
      when: (s) => {
        const auth = agentOf(s)?.ripa.authority;
        return (
          s.command.op === "ripa.effect" &&
          auth !== undefined &&
          auth.holder !== null &&
          s.command.execution_id === auth.holder &&
          s.command.token !== auth.token
        );
      },
    },
  },
  {
    id: "I5.provider-capability-not-checked",
    invariant: "I5",
    clause: "OP-6.6.c3",
    twin: "I5.provider-capability-not-checked",
    description: "an effect goes through a provider that does not grant its capability",
    file: "model/ripa/substrate.ts",
    find: "if (!provider.capabilities.includes(cmd.capability))",
    replace: "if (!provider.capabilities.includes(cmd.capability) && (false as boolean))",
    reach: {
      op: "ripa.effect",
      check: "OP-6.6.c3",
      situation: "an effect through a provider that does not grant its capability",
    },
  },
  {
    id: "I6.reserved-labels-accepted",
    invariant: "I6",
    clause: "OP-6.9.c1",
    twin: "I6.reserved-labels-accepted",
    description: "a label may claim the identity",
    file: "model/ripa/substrate.ts",
    find: 'if (bad !== undefined)\n    return no(violates("I6", "OP-6.9.c1"',
    replace: 'if (false as boolean) return no(violates("I6", "OP-6.9.c1"',
    reach: { op: "ripa.bind_surface", check: "OP-6.9.c1", situation: "a surface binding with a reserved label key" },
  },
];
