/**
 * The drain of D-062: eventual discharge as a property of the caller's clock. From any world a
 * history reached, the caller can always end every life and every obligation:
 *
 *  1. withdraw every `ready` or `active` instance (janma.withdraw, reason "principal", OP-2.6);
 *  2. distil every withdrawn instance that has no obligation with the no-feedback distillate of
 *     D-057 (signal valence 0, confidence 0, the manifest's satisfaction model, explicit false; no
 *     dispositions; attributed to the instance's projection and pin; fresh ids), OP-2.7;
 *  3. at the largest deadline_tick of the pending obligations (never before the world's tick),
 *     custody.expire every pending obligation (OP-3.2);
 *  4. dissolve every withdrawn instance (OP-2.8).
 *
 * Then every obligation must be discharged and every instance that was born must be dissolved.
 * What is reported: each drain command that was rejected (with the rejection), each obligation
 * left pending, and each instance left `ready`, `active` or `withdrawn` (a stranded life).
 *
 * Conceived instances are out of scope and only counted: a conceived instance was never born, so
 * it has no life to end and owes no obligation (J-4's obligation is emitted at shutdown of a life);
 * withdraw refuses it (OP-2.6.c2, J-1), and birth is not the caller's to force: it is refused while
 * the agent is quiesced by a migration (I4) and when the pin left the chain (OP-2.2, J-1). D-062
 * speaks of "every instance that was withdrawn"; a conceived one never can be.
 *
 * Ticks never go backwards (OP-0.2.c2, TICK_REGRESSED): steps 1 and 2 run at the world's tick,
 * steps 3 and 4 at max(world tick, largest deadline). None of the four operations is refused while
 * quiesced (OP-0.4), so a migration in progress does not block the drain.
 *
 * The drain reads only what the wire shows: the world view and the replies to its commands, so the
 * same function drives the model (`modelStepper`) and an implementation (`systemStepper`). The one
 * thing the view does not show is the instance's manifest (its satisfaction model, D-053): the
 * caller supplies it (`modelsFromMemory` reads the generator's memory and checks that the
 * manifest's digest is the view's manifest_digest).
 */
import { Result } from "effect";
import { DOMAIN, digestOf, type Command, type InstanceView, type WorldView } from "../spec/index.ts";
import { toRejectionData, transition, view, type World } from "../model/index.ts";
import { materialize, type Choice, type GenMemory } from "./generators/commands.ts";

export interface DrainRejection {
  readonly code: string;
  readonly invariant: string | null;
  readonly message: string;
}

export type StepOutcome<S> =
  | { readonly ok: true; readonly next: S }
  | { readonly ok: false; readonly rejection: DrainRejection };

/** How to observe and step a system: the model's pure world, or an implementation's handle. */
export interface Stepper<S> {
  readonly view: (s: S) => WorldView;
  readonly apply: (s: S, cmd: Command) => StepOutcome<S>;
}

/** The reference model: the state is the World, each step a pure transition. */
export const modelStepper: Stepper<World> = {
  view: (w) => view(w),
  apply: (w, cmd) => {
    const r = transition(w, cmd);
    if (Result.isSuccess(r)) return { ok: true, next: r.success.world };
    const d = toRejectionData(r.failure);
    return { ok: false, rejection: { code: d.code, invariant: d.invariant ?? null, message: d.message } };
  },
};

/** Any system with the implementation's in-process face (impl/api.ts); the state is the handle itself. */
export interface System {
  apply(
    command: unknown,
  ): { ok: true } | { ok: false; error: { code: string; invariant: string | null; message: string } };
  world(): WorldView;
}
export const systemStepper = <T extends System>(): Stepper<T> => ({
  view: (s) => s.world(),
  apply: (s, cmd) => {
    const r = s.apply(cmd);
    return r.ok
      ? { ok: true, next: s }
      : {
          ok: false,
          rejection: { code: r.error.code, invariant: r.error.invariant ?? null, message: r.error.message },
        };
  },
});

/**
 * The satisfaction model a life's manifest declares (D-053), or undefined when the caller does not
 * know the life's manifest.
 */
export type SatisfactionModelOf = (agent: string, instance: InstanceView) => string | null | undefined;

/** From the generator's memory: the manifest it conceived the life with, if its digest is the view's. */
export const modelsFromMemory =
  (mem: GenMemory): SatisfactionModelOf =>
  (agent, inst) => {
    const life = mem.lives.get(`${agent}/${inst.instance_id}`);
    if (
      life === undefined ||
      life.nonce !== inst.nonce ||
      digestOf(DOMAIN.manifest, life.manifest) !== inst.manifest_digest
    )
      return undefined;
    return life.manifest.distillation_policy.satisfaction_model;
  };

export type DrainViolation =
  | { readonly kind: "rejected"; readonly command: Command; readonly rejection: DrainRejection }
  | { readonly kind: "unknown-manifest"; readonly agent: string; readonly instance_id: string }
  | { readonly kind: "obligation-pending"; readonly agent: string; readonly obligation_id: string }
  | { readonly kind: "life-stranded"; readonly agent: string; readonly instance_id: string; readonly state: string };

export interface DrainCounts {
  /** Instances the drain withdrew (step 1). */
  withdrawn: number;
  /** Withdrawn lives without an obligation that the drain distilled with the no-feedback distillate (step 2). */
  distilled: number;
  /** Of those, lives the history had withdrawn (not the drain). */
  distilledFromHistory: number;
  /** Pending obligations the drain expired (step 3), by kind; those the drain itself emitted are reinforcing. */
  expiredCorrective: number;
  expiredReinforcing: number;
  /** Of the expired ones, obligations the history had emitted (not the drain). */
  expiredFromHistory: { corrective: number; reinforcing: number };
  /** Instances the drain dissolved (step 4). */
  dissolved: number;
  /** Conceived instances left alone (out of scope, see the header). */
  conceived: number;
}

export interface DrainReport<S> {
  readonly final: S;
  readonly violations: readonly DrainViolation[];
  readonly counts: DrainCounts;
  /** The drain's commands in order, accepted or not. */
  readonly commands: readonly Command[];
  /** The tick of steps 1–2 and of steps 3–4. */
  readonly ticks: { readonly start: number; readonly expiry: number };
}

const DRAIN_PREFIX = "drain-";

/** The no-feedback distillate of D-057 for one withdrawn life. */
export const noFeedbackDistillate = (
  agent: string,
  inst: InstanceView,
  model: string | null,
  distillateId: string,
) => ({
  distillate_id: distillateId,
  source: { identity: agent, nonce: inst.nonce, instance_id: inst.instance_id },
  born_from: inst.born_from,
  signal: { valence: 0, confidence: 0, model_version: model, explicit: false },
  dispositions: [],
});

/** Runs the drain from `start`; pure given a pure stepper (the model), otherwise it steps the system. */
export const drainLives = <S>(start: S, stepper: Stepper<S>, modelOf: SatisfactionModelOf): DrainReport<S> => {
  let s = start;
  const violations: DrainViolation[] = [];
  const commands: Command[] = [];
  const counts: DrainCounts = {
    withdrawn: 0,
    distilled: 0,
    distilledFromHistory: 0,
    expiredCorrective: 0,
    expiredReinforcing: 0,
    expiredFromHistory: { corrective: 0, reinforcing: 0 },
    dissolved: 0,
    conceived: 0,
  };
  const step = (cmd: Command): boolean => {
    commands.push(cmd);
    const r = stepper.apply(s, cmd);
    if (r.ok) {
      s = r.next;
      return true;
    }
    violations.push({ kind: "rejected", command: cmd, rejection: r.rejection });
    return false;
  };
  // Ids no generator uses (the generator's are a letter prefix and a number), unused in the view too.
  const v0 = stepper.view(s);
  const taken = new Set(
    v0.agents.flatMap((a) => [
      ...a.obligations.flatMap((o) => [o.obligation_id, o.distillate_id]),
      ...a.store.distillates.map((d) => d.distillate_id),
    ]),
  );
  let seq = 0;
  const fresh = (p: string): string => {
    let id = `${DRAIN_PREFIX}${p}${seq++}`;
    while (taken.has(id)) id = `${DRAIN_PREFIX}${p}${seq++}`;
    return id;
  };
  const t0 = v0.tick;
  const withdrawnByHistory = new Set<string>();
  const pendingByHistory = new Set<string>();
  for (const a of v0.agents) {
    for (const i of a.instances)
      if (i.state === "withdrawn") withdrawnByHistory.add(`${a.identity.identity}/${i.instance_id}`);
    for (const o of a.obligations)
      if (o.status === "pending") pendingByHistory.add(`${a.identity.identity}/${o.obligation_id}`);
    counts.conceived += a.instances.filter((i) => i.state === "conceived").length;
  }

  // 1. Withdraw every living instance.
  for (const a of v0.agents) {
    const A = a.identity.identity;
    for (const i of a.instances) {
      if (i.state !== "ready" && i.state !== "active") continue;
      if (step({ op: "janma.withdraw", tick: t0, agent: A, instance_id: i.instance_id, reason: "principal" }))
        counts.withdrawn++;
    }
  }

  // 2. Distil every withdrawn life that has no obligation, with the no-feedback distillate (D-057).
  for (const a of stepper.view(s).agents) {
    const A = a.identity.identity;
    for (const i of a.instances) {
      if (i.state !== "withdrawn" || i.obligation_id !== null) continue;
      const model = modelOf(A, i);
      if (model === undefined) {
        violations.push({ kind: "unknown-manifest", agent: A, instance_id: i.instance_id });
        continue;
      }
      const cmd: Command = {
        op: "janma.distil",
        tick: t0,
        agent: A,
        instance_id: i.instance_id,
        obligation_id: fresh("ob"),
        distillate: noFeedbackDistillate(A, i, model, fresh("d")),
      };
      if (step(cmd)) {
        counts.distilled++;
        if (withdrawnByHistory.has(`${A}/${i.instance_id}`)) counts.distilledFromHistory++;
      }
    }
  }

  // 3. At the largest deadline (never before the world's tick), expire every pending obligation.
  const v2 = stepper.view(s);
  const pending = v2.agents.flatMap((a) =>
    a.obligations.filter((o) => o.status === "pending").map((o) => ({ A: a.identity.identity, o })),
  );
  const t1 = Math.max(v2.tick, t0, ...pending.map((p) => p.o.deadline_tick));
  for (const { A, o } of pending) {
    if (!step({ op: "custody.expire", tick: t1, agent: A, obligation_id: o.obligation_id })) continue;
    if (o.kind === "corrective") counts.expiredCorrective++;
    else counts.expiredReinforcing++;
    if (pendingByHistory.has(`${A}/${o.obligation_id}`)) counts.expiredFromHistory[o.kind]++;
  }

  // 4. Dissolve every withdrawn instance.
  for (const a of stepper.view(s).agents) {
    const A = a.identity.identity;
    for (const i of a.instances) {
      if (i.state !== "withdrawn") continue;
      if (step({ op: "janma.dissolve", tick: t1, agent: A, instance_id: i.instance_id })) counts.dissolved++;
    }
  }

  // What must hold now: every obligation discharged, every born instance dissolved.
  for (const a of stepper.view(s).agents) {
    const A = a.identity.identity;
    for (const o of a.obligations)
      if (o.status !== "discharged")
        violations.push({ kind: "obligation-pending", agent: A, obligation_id: o.obligation_id });
    for (const i of a.instances)
      if (i.state !== "dissolved" && i.state !== "conceived")
        violations.push({ kind: "life-stranded", agent: A, instance_id: i.instance_id, state: i.state });
  }
  return { final: s, violations, counts, commands, ticks: { start: t0, expiry: t1 } };
};

/**
 * Plays a generated history on a system: each choice is made into a command against the system's
 * own view (as the differential does), and a rejected command leaves the state as it was.
 */
export const runHistory = <S>(start: S, stepper: Stepper<S>, mem: GenMemory, choices: readonly Choice[]): S => {
  let s = start;
  for (const c of choices) {
    const r = stepper.apply(s, materialize(stepper.view(s), mem, c));
    if (r.ok) s = r.next;
  }
  return s;
};

/** One line per violation, for a failure message. */
export const describeViolations = (vs: readonly DrainViolation[]): string =>
  vs
    .map((v) =>
      v.kind === "rejected"
        ? `rejected ${v.command.op} ${JSON.stringify(v.command).slice(0, 300)}: ${v.rejection.code}/${v.rejection.invariant ?? "-"} ${v.rejection.message}`
        : v.kind === "unknown-manifest"
          ? `no known manifest for ${v.agent.slice(0, 16)}…/${v.instance_id}`
          : v.kind === "obligation-pending"
            ? `obligation ${v.obligation_id} of ${v.agent.slice(0, 16)}… still pending`
            : `life ${v.instance_id} of ${v.agent.slice(0, 16)}… stranded ${v.state}`,
    )
    .join("\n");
