/**
 * Scenario helpers shared by the model's tests: drive `transition` and fail loudly with the
 * rejection when a step that should be accepted is not (and vice versa).
 */
import { Result } from "effect";
import type { Command, Event, InvariantId, JanmaManifest } from "../spec/index.ts";
import { initialWorld, transition } from "./world.ts";
import type { Agent, Instance, World } from "./state.ts";
import { PREDICATES, type HistoryStep, type TransitionStep } from "./predicates.ts";
import type { Rejection } from "./rejection.ts";
import { check } from "../spec/checks.ts";
import * as K from "./testkit.ts";

export const accept = (w: World, c: Command): { world: World; events: Event[] } => {
  const r = transition(w, c);
  if (Result.isFailure(r))
    throw new Error(`expected ${c.op} to be accepted, got ${r.failure.code}: ${r.failure.message}`);
  return r.success;
};

export const rejection = (w: World, c: unknown): Rejection => {
  const r = transition(w, c);
  if (Result.isSuccess(r)) throw new Error(`expected ${(c as Command).op} to be rejected, it was accepted`);
  return r.failure;
};

/**
 * The command must be rejected at check clause `id` of spec/checks.ts: the rejection names that
 * clause (`Rejection.check`, which the kit's witness book reads as the verdict of which check
 * failed) and rejects with what that clause rejects with. `id` is the clause the scenario was
 * built to fail, read from the spec, never taken from the model's answer.
 */
export const rejectedAt = (w: World, c: unknown, id: string): Rejection => {
  const r = rejection(w, c);
  const op = (c as Command).op;
  if (r.check !== id)
    throw new Error(
      `expected ${op} to fail at ${id}, it failed at ${r.check === "" ? "(no clause)" : r.check} with ${r.code}`,
    );
  const targets: readonly string[] = check(id).targets;
  if (!targets.includes(r.invariant ?? r.code))
    throw new Error(`${op} failed at ${id} with ${r.invariant ?? r.code}; ${id} rejects with ${targets.join(" or ")}`);
  return r;
};

/** Apply commands in order, all of which must be accepted. */
export const acceptAll = (w: World, cs: readonly Command[]): World => cs.reduce((acc, c) => accept(acc, c).world, w);

export const ROOT = "root-1";
export const AGENT = K.identityFor(ROOT);
export const PIN = K.genesisFor(ROOT);

export const minted = (): World => accept(initialWorld(), K.mintCmd(1, ROOT)).world;

export interface Life {
  readonly id: string;
  readonly nonce: string;
  readonly manifest: JanmaManifest;
}

export const life = (id: string, pin: string = PIN, over: Partial<JanmaManifest> = {}): Life => ({
  id,
  nonce: `nonce-${id}`,
  manifest: K.manifest(pin, over),
});

/** conceive + birth at `tick`. */
export const born = (w: World, l: Life, tick: number, agent: string = AGENT): World =>
  acceptAll(w, [
    { op: "janma.conceive", tick, agent, instance_id: l.id, nonce: l.nonce, manifest: l.manifest },
    { op: "janma.birth", tick, agent, instance_id: l.id, environment: K.ENV },
  ]);

export const distilCmd = (
  l: Life,
  tick: number,
  distillateId: string,
  valence: number,
  confidence: number,
  dispositions: readonly ReturnType<typeof K.disposition>[],
  agent: string = AGENT,
): Command => ({
  op: "janma.distil",
  tick,
  agent,
  instance_id: l.id,
  obligation_id: `ob-${distillateId}`,
  distillate: K.distillate({
    id: distillateId,
    agent,
    nonce: l.nonce,
    instanceId: l.id,
    bornFrom: l.manifest.substrate.store_version,
    valence,
    confidence,
    dispositions,
  }),
});

/** A full life up to a pending obligation `ob-<distillateId>`. */
export const distilled = (
  w: World,
  l: Life,
  tick: number,
  distillateId: string,
  valence: number,
  confidence: number,
  dispositions: readonly ReturnType<typeof K.disposition>[],
): World =>
  acceptAll(born(w, l, tick), [
    K.actCmd(tick, AGENT, l.id, l.nonce, l.manifest, { trace: ["searched fares to lisbon on tuesday morning"] }),
    { op: "janma.withdraw", tick, agent: AGENT, instance_id: l.id, reason: "principal" },
    distilCmd(l, tick, distillateId, valence, confidence, dispositions),
  ]);

export { K };

// --- The predicate tests' run (model/predicates*.test.ts) ----------------------------------------

/** Run commands, recording every step (rejected ones included). */
export const record = (w0: World, cs: readonly Command[]): HistoryStep[] => {
  const h: HistoryStep[] = [];
  let w = w0;
  for (const c of cs) {
    const r = transition(w, c);
    const step: HistoryStep = Result.isSuccess(r)
      ? { prev: w, next: r.success.world, command: c, events: r.success.events, accepted: true }
      : { prev: w, next: w, command: c, events: [], accepted: false };
    h.push(step);
    w = step.next;
  }
  return h;
};

export const l1 = life("i1");
export const l2 = life("i2");

/**
 * The run that touches every protocol, built inside each test that needs it (never at module
 * level: Stryker attributes the model code it executes to the test that runs it).
 */
export const scenario = () => {
  let base = minted();
  base = distilled(base, l1, 2, "d1", 600_000, 800_000, [K.disposition("k.a", 500_000), K.disposition("k.b", 100_000)]);
  base = born(base, l2, 3);
  const history = record(base, [
    K.actCmd(3, AGENT, "i2", l2.nonce, l2.manifest, { trace: ["looked at fares"], outcome: "failed" }),
    { op: "janma.withdraw", tick: 3, agent: AGENT, instance_id: "i2", reason: "forced" },
    distilCmd(l2, 4, "d2", -700_000, 500_000, [K.disposition("k.a", -700_000, { guidance: "avoid k.a" })]),
    { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
    { op: "samskara.merge", tick: 5, agent: AGENT, obligation_ids: ["ob-d1"] },
    { op: "custody.attempt", tick: 6, agent: AGENT, obligation_id: "ob-d2", ack: "declined" },
    { op: "janma.dissolve", tick: 6, agent: AGENT, instance_id: "i2" },
    { op: "ripa.task_start", tick: 7, agent: AGENT, task_id: "t1" },
    {
      op: "ripa.bind_surface",
      tick: 7,
      agent: AGENT,
      surface: { surface_id: "s1", kind: "chat", account: "a", session: "x" },
      labels: { team: "blue" },
    },
    { op: "ripa.replicate", tick: 7, agent: AGENT, execution: K.exec("rep-1") },
    { op: "ripa.identity_update", tick: 7, agent: AGENT, designation: "renamed", authorization: K.AUTH },
    { op: "ripa.evolve", tick: 7, agent: AGENT, revision: "rev-2", authorization: K.AUTH },
    { op: "samskara.excise", tick: 8, agent: AGENT, excision_id: "x1", distillate_ids: ["d1"], authorization: K.AUTH },
    { op: "ripa.evolve", tick: 8, agent: AGENT, revision: "rev-2", authorization: K.AUTH },
    { op: "ripa.migration_fence", tick: 9, agent: AGENT, migration_id: "m1", token: "f1" },
    { op: "ripa.migration_checkpoint", tick: 9, agent: AGENT, migration_id: "m1" },
  ]);
  const last = history[history.length - 1] as HistoryStep;
  const bundleDigest = last.next.agents.get(AGENT)?.ripa.migration?.bundle_digest ?? "";
  const validated = record(last.next, [
    {
      op: "ripa.migration_validate",
      tick: 9,
      agent: AGENT,
      migration_id: "m1",
      bundle_digest: bundleDigest,
      target: {
        execution: K.exec("exec-2"),
        providers: [{ provider_id: "p2", kind: "runtime", contract_version: "v", capabilities: ["fare.search"] }],
        body_revision: "rev-2",
      },
      gain_authorization: null,
    },
  ]);
  const full = [...history, ...validated];
  const final = (full[full.length - 1] as HistoryStep).next;
  const stepOf = (op: Command["op"]): HistoryStep => {
    const s = full.find((x) => x.command.op === op && x.accepted);
    if (s === undefined) throw new Error(`no accepted ${op} step`);
    return s;
  };
  return { base, full, final, stepOf };
};

export const agentOf = (w: World): Agent => {
  const a = w.agents.get(AGENT);
  if (a === undefined) throw new Error("no agent");
  return a;
};
export const patch = (w: World, f: (a: Agent) => Agent): World => ({
  ...w,
  agents: new Map(w.agents).set(AGENT, f(agentOf(w))),
});
/** The world with one instance of the agent rewritten by `f` (removed when `f` returns undefined). */
export const withInstance = (w: World, id: string, f: (i: Instance) => Instance | undefined): World =>
  patch(w, (a) => {
    const i = a.instances.get(id);
    if (i === undefined) throw new Error(`no instance ${id}`);
    const m = new Map(a.instances);
    const j = f(i);
    if (j === undefined) m.delete(id);
    else m.set(id, j);
    return { ...a, instances: m };
  });
/** The world with the agent's store fields that `f` returns replaced. */
export const withStore = (w: World, f: (st: Agent["store"]) => Partial<Agent["store"]>): World =>
  patch(w, (a) => ({ ...a, store: { ...a.store, ...f(a.store) } }));

export const violated = (id: InvariantId, subject: World | TransitionStep | readonly HistoryStep[]): boolean => {
  const p = PREDICATES[id];
  const v =
    p.kind === "state"
      ? p.check(subject as World)
      : p.kind === "transition"
        ? p.check(subject as TransitionStep)
        : p.check(subject as readonly HistoryStep[]);
  return v !== true;
};
