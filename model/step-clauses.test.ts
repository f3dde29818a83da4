/**
 * The step clauses (D-076), each from both sides of the checks it restates: the command the model
 * rejects at that check (rejectedAt proves which check), presented as if it had been accepted,
 * breaks the clause; the nearest command the model accepts (the other side of the same boundary)
 * keeps it. A rejected step never breaks a clause, and a clause ignores operations it does not
 * concern. STEP_CLAUSE_CHECKS is held to the catalog: every check it names exists and protects the
 * clause's invariant, and this file reaches every one of them.
 */
import { describe, expect, it } from "vitest";
import { CHECKS } from "../spec/checks.ts";
import type { Command, InvariantId } from "../spec/index.ts";
import {
  AGENT,
  K,
  accept,
  acceptAll,
  agentOf,
  born,
  distilCmd,
  distilled,
  life,
  minted,
  patch,
  rejectedAt,
} from "./fixture.ts";
import type { TransitionStep } from "./predicates.ts";
import type { World } from "./state.ts";
import { STEP_CLAUSES, STEP_CLAUSE_CHECKS, stepViolations } from "./step-clauses.ts";

const reached = new Set<string>();

/** The step of a command the model rejects at `check`, as a mutant that let it through would take it. */
const forged = (w: World, c: Command, check: string, next: World = w): TransitionStep => {
  rejectedAt(w, c, check);
  reached.add(check);
  return { prev: w, next, command: c, events: [], accepted: true };
};
/** The step of a command the model accepts. */
const real = (w: World, c: Command): TransitionStep => {
  const r = accept(w, c);
  return { prev: w, next: r.world, command: c, events: r.events, accepted: true };
};

const breaks = (id: InvariantId, s: TransitionStep, words: string): void => {
  const v = STEP_CLAUSES[id]?.(s);
  expect(v).toEqual({ violation: expect.stringContaining(words) });
  expect(stepViolations(s).map((x) => x.invariant)).toContain(id);
};
const holds = (id: InvariantId, s: TransitionStep): void => {
  expect(STEP_CLAUSES[id]?.(s)).toBe(true);
  expect(stepViolations(s)).toEqual([]);
};

const l1 = life("i1");
/** ob-d1 pending, its deadline read from the obligation (the rule's input). */
const pending = () => {
  const w = distilled(minted(), l1, 2, "d1", 600_000, 800_000, [K.disposition("k.a", 500_000)]);
  const ob = agentOf(w).obligations.get("ob-d1");
  if (ob === undefined) throw new Error("no ob-d1");
  return { w, deadline: ob.view.deadline_tick };
};
const attempt = (tick: number, ack: "declined" | "deferred" | "lost" = "lost"): Command => ({
  op: "custody.attempt",
  tick,
  agent: AGENT,
  obligation_id: "ob-d1",
  ack,
});
const expire = (tick: number): Command => ({ op: "custody.expire", tick, agent: AGENT, obligation_id: "ob-d1" });
const merge = (tick: number): Command => ({ op: "samskara.merge", tick, agent: AGENT, obligation_ids: ["ob-d1"] });

describe("J-4: custody and merge in time (OP-3.1, OP-3.2, OP-4.1; D-060)", () => {
  it("an attempt at the deadline tick breaks the clause; one tick before keeps it", () => {
    const { w, deadline } = pending();
    breaks("J-4", forged(w, attempt(deadline), "OP-3.1.c3"), `deadline ${deadline}`);
    breaks("J-4", { ...forged(w, attempt(deadline + 1), "OP-3.1.c3") }, "deadline");
    holds("J-4", real(w, attempt(deadline - 1)));
  });
  it("an attempt on a discharged obligation, or with no attempts left, breaks it", () => {
    const { w } = pending();
    const declined = accept(w, attempt(3, "declined")).world;
    breaks("J-4", forged(declined, attempt(4), "OP-3.1.c2"), "already discharged");
    // Attempts exhausted while still pending: no accepted step reaches it in the correct model
    // (the last attempt discharges), so the prior state is built; the clause reads it alone.
    const exhausted = patch(w, (a) => {
      const ob = a.obligations.get("ob-d1");
      if (ob === undefined) throw new Error("no ob-d1");
      return {
        ...a,
        obligations: new Map(a.obligations).set("ob-d1", {
          ...ob,
          view: { ...ob.view, attempts: ob.view.max_retries + 1 },
        }),
      };
    });
    breaks("J-4", forged(exhausted, attempt(3), "OP-3.1.c4"), "no attempts left");
    const one = patch(w, (a) => {
      const ob = a.obligations.get("ob-d1");
      if (ob === undefined) throw new Error("no ob-d1");
      return {
        ...a,
        obligations: new Map(a.obligations).set("ob-d1", {
          ...ob,
          view: { ...ob.view, attempts: ob.view.max_retries },
        }),
      };
    });
    holds("J-4", real(one, attempt(3)));
  });
  it("an expiry one tick before the deadline breaks it; at the deadline keeps it; of a discharged obligation breaks it", () => {
    const { w, deadline } = pending();
    breaks("J-4", forged(w, expire(deadline - 1), "OP-3.2.c3"), "before its deadline");
    holds("J-4", real(w, expire(deadline)));
    const declined = accept(w, attempt(3, "declined")).world;
    breaks("J-4", forged(declined, expire(deadline), "OP-3.2.c2"), "already discharged");
  });
  it("a merge applying a pending obligation at its deadline breaks it; one tick before keeps it", () => {
    const { w, deadline } = pending();
    breaks("J-4", forged(w, merge(deadline), "OP-4.1.c4"), `deadline ${deadline}`);
    holds("J-4", real(w, merge(deadline - 1)));
    // Once applied, naming it again at any tick is a no-op merge (D-008), not an application.
    const applied = accept(w, merge(3)).world;
    holds("J-4", real(applied, merge(deadline + 5)));
  });
  it("a merge naming an obligation discharged otherwise breaks it", () => {
    const { w } = pending();
    const declined = accept(w, attempt(3, "declined")).world;
    breaks("J-4", forged(declined, merge(4), "OP-4.1.c3"), "discharged declined");
  });
});

describe("S-1: no trace in the distilled guidance (OP-2.7.c9, D-010)", () => {
  const withdrawn = (): World =>
    acceptAll(born(minted(), l1, 2), [
      K.actCmd(2, AGENT, l1.id, l1.nonce, l1.manifest, { trace: ["searched fares to lisbon on tuesday morning"] }),
      { op: "janma.withdraw", tick: 2, agent: AGENT, instance_id: l1.id, reason: "principal" },
    ]);
  it("guidance repeating 4 consecutive trace tokens breaks the clause; 3 keep it", () => {
    const w = withdrawn();
    const leaking = distilCmd(l1, 3, "d1", 600_000, 800_000, [
      K.disposition("k.a", 500_000, { guidance: "Fares, to Lisbon on!" }),
    ]);
    // The state after a mutant's distillation: the legal one's, holding the leaking guidance.
    const safe = distilCmd(l1, 3, "d1", 600_000, 800_000, [
      K.disposition("k.a", 500_000, { guidance: "fares to lisbon" }),
    ]);
    const after = real(w, safe);
    holds("S-1", after);
    const leaked = patch(after.next, (a) => {
      const ob = a.obligations.get("ob-d1");
      if (ob?.held == null) throw new Error("no held distillate");
      const held = {
        ...ob.held,
        dispositions: ob.held.dispositions.map((x) => ({ ...x, guidance: "Fares, to Lisbon on!" })),
      };
      return { ...a, obligations: new Map(a.obligations).set("ob-d1", { ...ob, held }) };
    });
    breaks("S-1", forged(w, leaking, "OP-2.7.c9", leaked), "repeats its trace");
  });
});

describe("AD-4: an act signed by its projection (OP-2.3.c5)", () => {
  const w = () => born(minted(), l1, 2);
  const act = (over: Partial<Extract<Command, { op: "janma.act" }>["signed"]> = {}, tick = 3): Command => {
    const c = K.actCmd(tick, AGENT, l1.id, l1.nonce, l1.manifest);
    return { ...c, signed: { ...c.signed, ...over } };
  };
  it("each field that binds the act, changed alone, breaks the clause; the signed act keeps it", () => {
    holds("AD-4", real(w(), act()));
    breaks(
      "AD-4",
      forged(
        w(),
        act({ signature: "sha256:0000000000000000000000000000000000000000000000000000000000000000" }),
        "OP-2.3.c5",
      ),
      "does not recompute",
    );
    breaks("AD-4", forged(w(), act({ identity: K.identityFor("root-9") }), "OP-2.3.c5"), "another identity");
    breaks("AD-4", forged(w(), act({ nonce: "nonce-other" }), "OP-2.3.c5"), "another projection's nonce");
    breaks(
      "AD-4",
      forged(
        w(),
        act({ manifest_digest: "sha256:1111111111111111111111111111111111111111111111111111111111111111" }),
        "OP-2.3.c5",
      ),
      "another manifest digest",
    );
    const late = K.actCmd(4, AGENT, l1.id, l1.nonce, l1.manifest);
    breaks("AD-4", forged(w(), { ...late, tick: 3 }, "OP-2.3.c5"), "signature for tick 4");
  });
});

describe("I2, I4, I5: tasks in memory, current authority, granting providers (OP-6.3 … OP-6.6)", () => {
  const started = () => accept(minted(), { op: "ripa.task_start", tick: 2, agent: AGENT, task_id: "t1" }).world;
  const request = (task: string, nonce: string): Command => ({
    op: "ripa.request",
    tick: 3,
    agent: AGENT,
    task_id: task,
    attempt_nonce: nonce,
  });
  const reply = (task: string, nonce: string): Command => ({
    op: "ripa.reply",
    tick: 3,
    agent: AGENT,
    task_id: task,
    attempt_nonce: nonce,
  });
  const effect = (over: object = {}): Command =>
    ({
      op: "ripa.effect",
      tick: 3,
      agent: AGENT,
      execution_id: "exec-1",
      token: "tok-root-1",
      provider_id: "prov-a",
      capability: "fare.search",
      effect_id: "e1",
      ...over,
    }) as Command;

  it("I2: resume, request and reply of a task memory never recorded break the clause; of a recorded one keep it", () => {
    breaks(
      "I2",
      forged(started(), { op: "ripa.task_resume", tick: 3, agent: AGENT, task_id: "t9" }, "OP-6.3.c2"),
      "never recorded",
    );
    breaks("I2", forged(started(), request("t9", "a1"), "OP-6.4.c2"), "never recorded");
    breaks("I2", forged(started(), reply("t9", "a1"), "OP-6.5.c1"), "never recorded");
    holds("I2", real(started(), { op: "ripa.task_resume", tick: 3, agent: AGENT, task_id: "t1" }));
    holds("I2", real(started(), request("t1", "a1")));
  });
  it("I4: an effect under a stale token, a reused attempt nonce, a reply to an attempt not live break the clause", () => {
    const restarted = accept(minted(), {
      op: "ripa.restart",
      tick: 2,
      agent: AGENT,
      execution_id: "exec-1",
      token: "t2",
    }).world;
    breaks("I4", forged(restarted, effect(), "OP-6.6.c1"), "not the current epoch's");
    holds("I4", real(restarted, effect({ token: "t2" })));
    const requested = accept(started(), request("t1", "a1")).world;
    breaks("I4", forged(requested, request("t1", "a1"), "OP-6.4.c3"), "used twice");
    holds("I4", real(requested, request("t1", "a2")));
    breaks("I4", forged(requested, reply("t1", "a0"), "OP-6.5.c2"), "not the live one");
    holds("I4", real(requested, reply("t1", "a1")));
  });
  it("I4: an effect by an execution that does not hold authority breaks the clause", () => {
    const replica = accept(minted(), { op: "ripa.replicate", tick: 2, agent: AGENT, execution: K.exec("rep-1") }).world;
    breaks("I4", forged(replica, effect({ execution_id: "rep-1" }), "OP-6.6.c1"), "not the holder");
  });
  it("I5: an effect through an unbound provider, or one that does not grant the capability, breaks the clause", () => {
    breaks("I5", forged(minted(), effect({ provider_id: "prov-z" }), "OP-6.6.c2"), "unbound provider");
    breaks("I5", forged(minted(), effect({ capability: "vcs.push" }), "OP-6.6.c3"), "does not grant vcs.push");
    holds("I5", real(minted(), effect()));
  });
});

describe("the clauses as a set", () => {
  it("a rejected step breaks no clause, whatever its command", () => {
    const { w, deadline } = pending();
    expect(stepViolations({ prev: w, next: w, command: attempt(deadline), events: [], accepted: false })).toEqual([]);
  });
  it("STEP_CLAUSE_CHECKS names existing checks of each clause's own invariant, one list per clause, and this file reaches each", () => {
    expect(Object.keys(STEP_CLAUSE_CHECKS).sort()).toEqual(Object.keys(STEP_CLAUSES).sort());
    const byId = new Map(CHECKS.map((c) => [c.id, c]));
    for (const [id, ids] of Object.entries(STEP_CLAUSE_CHECKS))
      for (const c of ids ?? []) expect(byId.get(c)?.targets, `${c} of ${id}`).toContain(id);
    const named = Object.values(STEP_CLAUSE_CHECKS).flat();
    expect(named.filter((c) => !reached.has(c))).toEqual([]);
  });
});
