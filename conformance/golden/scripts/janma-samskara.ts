/**
 * Golden script for the Janma / Samskara / Advaita readings of spec review 1 that the generated
 * sessions do not pin (../shared/reviews/spec-review-1.md, sections E, G and I). Each pinned line
 * builds the one situation where the decided reading and the review's alternative give different
 * replies; its request id starts with the review item ("G-23.41"), so a failing line names the
 * decision it checks. spec/review/janma-samskara.ts records which item each line pins.
 */
import type { Command, Disposition, JanmaManifest, TerminationCondition } from "../../../spec/index.ts";
import { DOMAIN, digestOf } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { BASE, counting, EVIDENCE, exec } from "./travel-driver.ts";
import { RESTART_EVERY } from "../types.ts";

const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };
const ROGUE = { custodian: "mallory", decision_id: "decision-x" };

interface Life {
  readonly agent: string;
  readonly instance_id: string;
  readonly nonce: string;
  readonly manifest: JanmaManifest;
}

/** A small world driver over the script context: ticks advance by one per command. */
const driver = (ctx: ScriptContext) => {
  let tick = 0;
  let seq = 0;
  const send = (cmd: (t: number) => Command, pins?: string) => ctx.send(cmd(++tick), pins);
  const agentOf = (root: string): string => {
    const a = ctx.view().agents.find((x) => x.ripa.authority.token === `tok-${root}`);
    if (a === undefined) throw new Error(`no agent minted from ${root}`);
    return a.identity.identity;
  };
  const mint = (root: string): string => {
    send((t) => ({
      op: "advaita.mint",
      tick: t,
      base_digest: BASE,
      root,
      designation: root,
      body_revision: "rev-0",
      custodians: ["custodian-1"],
      execution: exec(`exec-${root}`),
      providers: [
        { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
      ],
      required_capabilities: ["fare.search"],
      authority_token: `tok-${root}`,
    }));
    return agentOf(root);
  };
  const head = (agent: string): string => {
    const a = ctx.view().agents.find((x) => x.identity.identity === agent);
    if (a === undefined) throw new Error("unknown agent");
    return a.store.head;
  };
  const manifestFor = (agent: string, over: Partial<JanmaManifest> = {}): JanmaManifest => ({
    manifest_version: 1,
    substrate: { base_digest: BASE, store_version: head(agent) },
    mission: "travel",
    capability_grants: ["fare.*", "mail.send"],
    tool_bindings: [
      { tool: "search", capabilities: ["fare.search", "fare.book"] },
      { tool: "mail", capabilities: ["mail.send"] },
    ],
    consent_scope: { grant_id: "g", principal: "p", cells: [], category_defaults: [], persist_ceiling: "low" },
    ttl_ticks: 1000,
    termination_conditions: [],
    distillation_policy: { deadline_ticks: 1000, max_retries: 1, satisfaction_model: "psm-travel-1" },
    ...over,
  });
  const ENV = {
    tools: [
      { tool: "search", capabilities: ["fare.search", "fare.book"] },
      { tool: "mail", capabilities: ["mail.send"] },
    ],
    grantable: ["fare.*", "mail.send"],
  };
  const conceive = (agent: string, over: Partial<JanmaManifest> = {}, pins?: string): Life => {
    const life = { agent, instance_id: `i${++seq}`, nonce: `n${seq}`, manifest: manifestFor(agent, over) };
    send(
      (t) => ({
        op: "janma.conceive",
        tick: t,
        agent,
        instance_id: life.instance_id,
        nonce: life.nonce,
        manifest: life.manifest,
      }),
      pins,
    );
    return life;
  };
  const born = (agent: string, over: Partial<JanmaManifest> = {}, pins?: string): Life => {
    const life = conceive(agent, over);
    send((t) => ({ op: "janma.birth", tick: t, agent, instance_id: life.instance_id, environment: ENV }), pins);
    return life;
  };
  /** A signed act; `forged` replaces the signature with one that does not recompute (AD-4). */
  const act = (
    life: Life,
    trace: readonly string[],
    pins?: string,
    tool = "search",
    capability = "fare.search",
    forged = false,
    outcome: "ok" | "failed" = "ok",
  ) =>
    send((t) => {
      const action = { tool, capability, outcome, tick: t, trace: [...trace] };
      const manifest_digest = digestOf(DOMAIN.manifest, life.manifest);
      const signature = forged
        ? EVIDENCE
        : digestOf(DOMAIN.action, { identity: life.agent, nonce: life.nonce, manifest_digest, action });
      return {
        op: "janma.act",
        tick: t,
        agent: life.agent,
        instance_id: life.instance_id,
        signed: { identity: life.agent, nonce: life.nonce, manifest_digest, action, signature },
      };
    }, pins);
  const withdraw = (life: Life) =>
    send((t) => ({
      op: "janma.withdraw",
      tick: t,
      agent: life.agent,
      instance_id: life.instance_id,
      reason: "principal",
    }));
  const disposition = (key: string, guidance: string, weight: number): Disposition => ({
    key,
    guidance,
    weight,
    evidence_digest: EVIDENCE,
    category: "operational",
  });
  const distillate = (
    life: Life,
    distillate_id: string,
    dispositions: readonly unknown[],
    signal: { valence: number; confidence: number } = { valence: 900_000, confidence: 1_000_000 },
  ) => ({
    distillate_id,
    source: { identity: life.agent, nonce: life.nonce, instance_id: life.instance_id },
    born_from: life.manifest.substrate.store_version,
    signal: { ...signal, model_version: life.manifest.distillation_policy.satisfaction_model, explicit: true },
    dispositions,
  });
  const distil = (life: Life, obligation_id: string, d: unknown, pins?: string) =>
    send(
      (t) => ({
        op: "janma.distil",
        tick: t,
        agent: life.agent,
        instance_id: life.instance_id,
        obligation_id,
        distillate: d,
      }),
      pins,
    );
  /** A life that acted once, withdrew and distilled `d` under `obligation_id`. */
  const distilled = (
    agent: string,
    obligation_id: string,
    distillate_id: string,
    dispositions: readonly Disposition[],
    valence = 900_000,
    confidence = 1_000_000,
  ): Life => {
    const life = born(agent);
    act(life, ["looked up fares"]);
    withdraw(life);
    distil(life, obligation_id, distillate(life, distillate_id, dispositions, { valence, confidence }));
    return life;
  };
  const merge = (agent: string, obligation_ids: readonly string[], pins?: string) =>
    send((t) => ({ op: "samskara.merge", tick: t, agent, obligation_ids: [...obligation_ids] }), pins);
  const attempt = (agent: string, obligation_id: string, ack: "declined" | "deferred" | "lost", pins?: string) =>
    send((t) => ({ op: "custody.attempt", tick: t, agent, obligation_id, ack }), pins);
  const excise = (
    agent: string,
    excision_id: string,
    distillate_ids: readonly string[],
    authorization: typeof AUTH,
    pins?: string,
  ) =>
    send(
      (t) => ({
        op: "samskara.excise",
        tick: t,
        agent,
        excision_id,
        distillate_ids: [...distillate_ids],
        authorization,
      }),
      pins,
    );
  const birth = (life: Life, tools: readonly { tool: string; capabilities: string[] }[], pins?: string) =>
    send(
      (t) => ({
        op: "janma.birth",
        tick: t,
        agent: life.agent,
        instance_id: life.instance_id,
        environment: { tools: [...tools], grantable: ["fare.*", "mail.send"] },
      }),
      pins,
    );
  return {
    send,
    mint,
    conceive,
    born,
    act,
    withdraw,
    disposition,
    distillate,
    distil,
    distilled,
    merge,
    attempt,
    excise,
    birth,
    tickNow: () => tick,
  };
};

const condition = (id: string, when: TerminationCondition["when"]): TerminationCondition => ({ id, when });

export const janmaSamskaraScript = (outer: ScriptContext): void => {
  const ctx = counting(outer);
  const w = driver(ctx);
  const A = w.mint("root-a");
  const B = w.mint("root-b");

  // G-27 (OP-2.2): a binding resolves against ONE offered entry that has all its capabilities;
  // a tool offered twice is fine as long as some entry suffices, and two partial entries are not
  // united. The first entry named `search` lacks fare.book, so a first-match reading refuses.
  const dup = w.conceive(A);
  w.birth(
    dup,
    [
      { tool: "search", capabilities: ["fare.search"] },
      { tool: "search", capabilities: ["fare.book", "fare.search"] },
      { tool: "mail", capabilities: ["mail.send"] },
    ],
    "G-27",
  );
  const split = w.conceive(A);
  w.birth(
    split,
    [
      { tool: "search", capabilities: ["fare.search"] },
      { tool: "search", capabilities: ["fare.book"] },
      { tool: "mail", capabilities: ["mail.send"] },
    ],
    "G-27",
  );

  // G-28 (OP-2.3, D-015): ticks_since_birth_at_least n holds when now − born_tick ≥ n (the
  // boundary fires); tool_used sees the current act's tool; the tools_used view is sorted, not in
  // order of use (search is used first, then mail: the final view lists ["mail", "search"]).
  const aged = w.born(A, { termination_conditions: [condition("aged", { op: "ticks_since_birth_at_least", n: 2 })] });
  w.act(aged, ["first look"], "G-28"); // born at t, acts at t+1: 1 < 2, nothing fires
  w.act(aged, ["second look"], "G-28"); // t+2: exactly 2, "aged" fires
  const mailer = w.born(A, { termination_conditions: [condition("mailed", { op: "tool_used", tool: "mail" })] });
  w.act(mailer, ["searched fares"], "G-28");
  w.act(mailer, ["sent the summary"], "G-28", "mail", "mail.send"); // fires on the act that uses mail
  ctx.query("G-28"); // the instance's tools_used: ["mail", "search"], sorted
  // acts_at_least counts accepted acts only: a refused act (capability not declared) does not count.
  const counted = w.born(A, { termination_conditions: [condition("two", { op: "acts_at_least", n: 2 })] });
  w.act(counted, ["one"], "G-28");
  w.act(counted, ["refused"], "G-28", "search", "mail.send");
  w.act(counted, ["two"], "G-28");

  // G-29 (OP-2.3): the signature (AD-4) is checked before the TTL (J-3): a forged act after the
  // deadline is AD-4; a well-signed one is J-3.
  const brief = w.born(A, { ttl_ticks: 2 });
  w.act(brief, ["quick look"]);
  w.act(brief, ["too late"], "G-29", "search", "fare.search", true); // born at t, now t+2 = the deadline
  w.act(brief, ["too late"], "G-29");

  // G-32 (OP-2.7): trace.destroyed counts trace entries (strings), not acts: 3 + 2 entries in 2 acts.
  const talker = w.born(A);
  w.act(talker, ["asked for dates", "found three fares", "compared prices"]);
  w.act(talker, ["picked the cheapest", "sent it"]);
  w.withdraw(talker);
  w.distil(
    talker,
    "ob-talker",
    w.distillate(talker, "d-talker", [w.disposition("k.talk", "compare before booking", 400_000)]),
    "G-32",
  );

  // G-51 (D-010): a run may span trace entries; the trace is one token sequence. "tuesday window"
  // ends one entry and "seat refund" begins the next, so the guidance below leaks 4 tokens.
  const spanner = w.born(A);
  w.act(spanner, ["booked lisbon tuesday window", "seat refund was late"]);
  w.withdraw(spanner);
  w.distil(
    spanner,
    "ob-span-1",
    w.distillate(spanner, "d-span", [w.disposition("k.span", "always tuesday window seat refund", 400_000)]),
    "G-51",
  );
  // Three tokens across the boundary are no leak (the 4-token rule's boundary).
  // G-50 (D-010): `_` separates tokens, so traveler_profile: PII_x7k2m9q4 is four tokens and leaks;
  // one canary alone (two tokens) passes, as the paper says of short identifiers.
  const canary = w.born(A);
  w.act(canary, ["traveler_profile: PII_x7k2m9q4 PII_n8p1v6r3"]);
  w.withdraw(canary);
  w.distil(
    canary,
    "ob-canary-1",
    w.distillate(canary, "d-canary", [w.disposition("k.pii", "remember traveler_profile PII_x7k2m9q4", 400_000)]),
    "G-50",
  );
  w.distil(
    canary,
    "ob-canary-2",
    w.distillate(canary, "d-canary", [w.disposition("k.pii", "check PII_x7k2m9q4 PII_n8p1v6r3", 400_000)]),
    "G-50",
  );
  w.distil(
    canary,
    "ob-canary-3",
    w.distillate(canary, "d-canary", [w.disposition("k.pii", "greet PII_x7k2m9q4 politely", 400_000)]),
    "G-50",
  );
  w.distil(
    spanner,
    "ob-span-2",
    w.distillate(spanner, "d-span", [w.disposition("k.span", "prefer window seat refund", 400_000)]),
    "G-51",
  );

  // G-30 (OP-2.7): the attribution check (AD-4) comes before the signal checks (S-2): a
  // distillate with a foreign nonce AND zero confidence is AD-4. A duplicate disposition key is a
  // schema refinement, hence S-1 (D-028), not "first disposition wins".
  const checker = w.born(A);
  w.act(checker, ["checked the refund terms"]);
  w.withdraw(checker);
  const foreign = {
    ...w.distillate(checker, "d-check", [w.disposition("k.x", "check refund terms", 400_000)], {
      valence: 900_000,
      confidence: 0,
    }),
    source: { identity: A, nonce: "n-other", instance_id: checker.instance_id },
  };
  w.distil(checker, "ob-check-1", foreign, "G-30");
  const twice = w.distillate(checker, "d-check", [
    w.disposition("k.x", "check refund terms", 400_000),
    w.disposition("k.x", "ask the agent", 300_000),
  ]);
  w.distil(checker, "ob-check-2", twice, "G-30");

  // G-49 (D-001, D-004, D-028): the paper's example disposition copied verbatim (weight +0.9,
  // a 12-hex-digit evidence digest) is S-1; the rejection's path names the field.
  w.distil(
    checker,
    "ob-check-3",
    w.distillate(checker, "d-check", [
      {
        key: "k.x",
        guidance: "check refund terms",
        weight: 0.9,
        evidence_digest: "dfde43976886",
        category: "operational",
      },
    ]),
    "G-49",
  );
  w.distil(
    checker,
    "ob-check-4",
    w.distillate(checker, "d-check", [
      {
        key: "k.x",
        guidance: "check refund terms",
        weight: 900_000,
        evidence_digest: "dfde43976886",
        category: "operational",
      },
    ]),
    "G-49",
  );
  w.distil(
    checker,
    "ob-check-5",
    w.distillate(checker, "d-check", [w.disposition("k.x", "check refund terms", 900_000)]),
    "G-49",
  );

  // G-31 (OP-2.7, AD-3): an id whose obligation was discharged `declined` (its content dropped)
  // still counts as used.
  w.distilled(A, "ob-declined", "d-declined", [w.disposition("k.d", "ask before booking", 400_000)]);
  w.attempt(A, "ob-declined", "declined");
  const reuser = w.born(A);
  w.act(reuser, ["asked before booking"]);
  w.withdraw(reuser);
  w.distil(
    reuser,
    "ob-reuse",
    w.distillate(reuser, "d-declined", [w.disposition("k.d", "ask twice", 400_000)]),
    "G-31",
  );
  w.distil(reuser, "ob-reuse", w.distillate(reuser, "d-reuser", [w.disposition("k.d", "ask twice", 400_000)]), "G-31");

  // G-23 (OP-4.1): every listed obligation must exist before any J-4 check: a declined obligation
  // listed with a missing one (that sorts after it) is NOT_FOUND, not J-4.
  w.merge(A, ["ob-declined", "zz-missing"], "G-23");
  w.merge(A, ["ob-declined"], "G-23");

  // G-52 / D-007: equal |w|·c, |w| and c; the smallest distillate id wins. d-tie-b is merged
  // first (its guidance leads), then d-tie-a takes the lead: the version id of the second merge
  // binds the state digest, so the reading shows in the event.
  w.distilled(A, "ob-tie-b", "d-tie-b", [w.disposition("k.tie", "prefer early departures", 500_000)], 500_000, 600_000);
  w.merge(A, ["ob-tie-b"], "G-52");
  w.distilled(
    A,
    "ob-tie-a",
    "d-tie-a",
    [w.disposition("k.tie", "avoid overnight layovers", 500_000)],
    500_000,
    600_000,
  );
  w.merge(A, ["ob-tie-a"], "G-52");

  // G-25 (OP-4.1): a merge mixing an applied and a pending obligation discharges only the pending
  // one; the applied one appears in no event. G-24: a no-op merge lists every named obligation
  // de-duplicated and sorted, whatever order and repetition it was given in.
  w.distilled(A, "ob-talk", "d-talk", [w.disposition("k.talk", "compare before booking", 300_000)]);
  w.merge(A, ["ob-tie-b", "ob-talk", "ob-talker"], "G-25");
  w.merge(A, ["ob-tie-b", "ob-talk", "ob-tie-a", "ob-talk"], "G-24");

  // G-39 (OP-4.2): the excision id is checked before the authorisation: a reused id with a rogue
  // custodian is DUPLICATE_ID, not I2. The id is unique per agent: agent B may use "x-1" too (its
  // missing distillate then decides: NOT_FOUND, not DUPLICATE_ID).
  w.excise(A, "x-1", ["d-tie-b"], AUTH, "G-39");
  w.excise(A, "x-1", ["d-tie-a"], ROGUE, "G-39");
  w.excise(A, "x-2", ["d-tie-a"], ROGUE, "G-39");
  w.excise(B, "x-1", ["d-nothing"], AUTH, "G-39");
  // G-26 (OP-1.9): momentum is recomputed over the re-derived chain; an excision of an early
  // distillate changes the momentum of the batches after it (visible in the final view): two
  // later batches move k.talk, and d-talker's weight is in the mean they move it from.
  w.distilled(A, "ob-m1", "d-m1", [w.disposition("k.talk", "compare twice", 100_000)], 100_000, 1_000_000);
  w.merge(A, ["ob-m1"], "G-26");
  w.distilled(A, "ob-m2", "d-m2", [w.disposition("k.talk", "compare again", 900_000)], 900_000, 250_000);
  w.merge(A, ["ob-m2"], "G-26");
  w.excise(A, "x-3", ["d-talker"], AUTH, "G-26");
  ctx.query("G-26"); // the momentum series of the re-derived chain
  w.send((t) => ({ op: "samskara.replay", tick: t, agent: A }), "G-26");

  // Not review items: per-invariant situations that the generated sessions hold only for some
  // generator versions (their seeds drift whenever the generator changes), kept here so the golden
  // sessions always check them. Only Janma / Samskara / Advaita operations, so that an
  // implementation of those families alone can replay this whole session (conformance golden stage).
  // J-4: no dissolution while the obligation is pending.
  const pending = w.distilled(A, "ob-last", "d-last", [w.disposition("k.last", "confirm the fare", 200_000)]);
  w.send((t) => ({ op: "janma.dissolve", tick: t, agent: A, instance_id: pending.instance_id }));
  // J-2: a capability the binding declares but no held grant covers.
  const narrow = w.born(A, { capability_grants: ["fare.search"] });
  w.act(narrow, ["booked a fare"], undefined, "search", "fare.book");
  // J-4 custody fail-safes: a declined corrective obligation quarantines its pin; one whose attempts
  // are exhausted is escalated. Both lives are distilled before the pin is quarantined.
  const lessons = [w.disposition("k.c", "avoid night trains", -300_000)];
  const sorry = [w.born(A), w.born(A)];
  for (const [k, life] of sorry.entries()) {
    w.act(life, ["took the night train"]);
    w.withdraw(life);
    w.distil(
      life,
      `ob-corr-${k}`,
      w.distillate(life, `d-corr-${k}`, lessons, { valence: -300_000, confidence: 1_000_000 }),
    );
  }
  w.attempt(A, "ob-corr-0", "declined");
  w.attempt(A, "ob-corr-1", "deferred");
  w.attempt(A, "ob-corr-1", "lost");

  // The readings decided against the adjacent protocols (../shared/reviews/adjacent-review-1.md,
  // D-052 .. D-063), each line failing the other reading. On agent B: A's pin is quarantined above.
  // D-053: the signal must be computed under the satisfaction model the manifest declares
  // (psm-travel-1 here): the reference formula (null) and a model of the distiller's are S-2.
  const judged = w.born(B, {
    consent_scope: {
      grant_id: "g",
      principal: "p",
      cells: [{ category: "location", dimension: "storage", sensitivity: "medium" }],
      category_defaults: [],
      persist_ceiling: "low",
    },
  });
  w.act(judged, ["asked about refunds"]);
  w.withdraw(judged);
  const lesson = [w.disposition("k.judged", "read the refund terms first", 400_000)];
  const under = (model: string | null) => ({
    ...w.distillate(judged, "d-judged", lesson),
    signal: { valence: 900_000, confidence: 1_000_000, model_version: model, explicit: true },
  });
  w.distil(judged, "ob-judged-1", under(null), "D-053");
  w.distil(judged, "ob-judged-2", under("psm-distiller"), "D-053");
  // D-058: persisting uses storage as well as training: location's storage cell (medium, above the
  // low ceiling) refuses it although its training resolves to low.
  w.distil(judged, "ob-judged-3", w.distillate(judged, "d-judged", [{ ...lesson[0], category: "location" }]), "D-058");
  w.distil(judged, "ob-judged-4", under("psm-travel-1"), "D-053");

  // D-057: a life without feedback ends. A zero confidence with a valence, or backing a disposition,
  // is S-2; with valence 0 and no dispositions it is the no-feedback distillate, accepted; its
  // reinforcing obligation expires best_effort at its deadline and the life dissolves.
  const silent = w.born(B, {
    distillation_policy: { deadline_ticks: 2, max_retries: 0, satisfaction_model: "psm-travel-1" },
  });
  w.act(silent, ["looked at hotels"]);
  w.withdraw(silent);
  w.distil(silent, "ob-silent-1", w.distillate(silent, "d-silent", [], { valence: 300_000, confidence: 0 }), "D-057");
  w.distil(
    silent,
    "ob-silent-2",
    w.distillate(silent, "d-silent", [w.disposition("k.silent", "wait for the principal", 0)], {
      valence: 0,
      confidence: 0,
    }),
    "D-057",
  );
  w.distil(silent, "ob-silent-3", w.distillate(silent, "d-silent", [], { valence: 0, confidence: 0 }), "D-057"); // deadline: now + 2
  w.send((t) => ({ op: "janma.dissolve", tick: t, agent: B, instance_id: silent.instance_id }), "D-057"); // pending: J-4
  w.send((t) => ({ op: "custody.expire", tick: t, agent: B, obligation_id: "ob-silent-3" }), "D-057"); // at the deadline
  w.send((t) => ({ op: "janma.dissolve", tick: t, agent: B, instance_id: silent.instance_id }), "D-057");

  // D-060: the custody deadline is strict. `late` (corrective, 3 attempts) and `slow` (reinforcing)
  // are distilled at t and t+1 with deadlines t+3 and t+4: an attempt at t+2 is accepted, one at
  // its deadline t+3 is J-4, and so is a merge at slow's deadline t+4; expire settles both after.
  const policy = (deadline_ticks: number) => ({
    distillation_policy: { deadline_ticks, max_retries: 2, satisfaction_model: "psm-travel-1" },
  });
  const late = w.born(B, policy(3));
  const slow = w.born(B, policy(3));
  for (const life of [late, slow]) {
    w.act(life, ["waited for the train"]);
    w.withdraw(life);
  }
  w.distil(
    late,
    "ob-late",
    w.distillate(late, "d-late", [w.disposition("k.late", "avoid the last train", -300_000)], {
      valence: -300_000,
      confidence: 1_000_000,
    }),
  );
  w.distil(
    slow,
    "ob-slow",
    w.distillate(slow, "d-slow", [w.disposition("k.slow", "book the first train", 300_000)], {
      valence: 300_000,
      confidence: 1_000_000,
    }),
  );
  // D-063: only the corrective obligation declares a fail-safe; the reinforcing ones show null.
  ctx.query("D-063");
  w.attempt(B, "ob-late", "deferred", "D-060"); // t+2 = deadline − 1: accepted, still pending
  w.attempt(B, "ob-late", "lost", "D-060"); // t+3 = its deadline: J-4
  w.merge(B, ["ob-slow"], "D-060"); // t+4 = its deadline: J-4
  w.send((t) => ({ op: "custody.expire", tick: t, agent: B, obligation_id: "ob-late" }), "D-060");
  w.send((t) => ({ op: "custody.expire", tick: t, agent: B, obligation_id: "ob-slow" }), "D-060");

  // D-058 again, each dimension read from its own cell: the category's other cell is listed first
  // and resolves low, so a resolver that takes the first cell of the category whatever its dimension
  // accepts what the exact (category, dimension) cell refuses (a generated mutant of
  // impl/core/consent.ts survived every line above, issue 21). Appended last so no line id moves,
  // on a third agent: B's escalated obligation refuses new conceptions (J-4).
  const C = w.mint("root-c");
  for (const [k, [first, second]] of (
    [
      ["training", "storage"],
      ["storage", "training"],
    ] as const
  ).entries()) {
    const cells = [
      { category: "location", dimension: first, sensitivity: "low" },
      { category: "location", dimension: second, sensitivity: "medium" },
    ] as const;
    const life = w.born(C, {
      consent_scope: {
        grant_id: "g",
        principal: "p",
        cells: [...cells],
        category_defaults: [],
        persist_ceiling: "low",
      },
    });
    w.act(life, ["asked about the station"]);
    w.withdraw(life);
    w.distil(
      life,
      `ob-dim-${k}`,
      w.distillate(life, `d-dim-${k}`, [
        { ...w.disposition(`k.dim${k}`, "meet at the station", 300_000), category: "location" },
      ]),
      "D-058",
    );
  }

  // D-016: a wildcard is granted only by an equal or wider wildcard; a plain capability grants no
  // wildcard, even one whose prefix it shares after its last two characters ("mail.send" does not
  // grant "mail.se.*": a resolver that took the plain capability for a wildcard would; a generated
  // mutant of impl/core/capabilities.ts did, issue 21). Birth is refused under J-1.
  w.born(C, { capability_grants: ["mail.se.*"], tool_bindings: [] }, "D-016");

  // Appended for the generated survivors of shards 1-5 (issue 21), each line the first where the
  // decided reading and a generated mutant's differ; on agent C, after every line above.
  // D-058 (and D-011's resolution order): only the storage and training cells decide. A cell of
  // another dimension of the category (access: high) is not either: both resolve to the default,
  // low, and the disposition persists. A resolver that took a cell of any other dimension than the
  // one asked refuses it. The distillate id d-access is reused after a restart below (AD-3).
  const access = w.born(C, {
    consent_scope: {
      grant_id: "g",
      principal: "p",
      cells: [{ category: "location", dimension: "access", sensitivity: "high" }],
      category_defaults: [],
      persist_ceiling: "low",
    },
  });
  w.act(access, ["asked about the station"]);
  w.withdraw(access);
  w.distil(
    access,
    "ob-access",
    w.distillate(access, "d-access", [
      { ...w.disposition("k.access", "meet at the station", 300_000), category: "location" },
    ]),
    "D-058",
  );
  // D-011: with no exact cell, the category's default row decides (medium, above the low ceiling):
  // refused under S-1. A resolver that skipped the default rows would resolve low and accept.
  const defaulted = w.born(C, {
    consent_scope: {
      grant_id: "g",
      principal: "p",
      cells: [],
      category_defaults: [{ category: "location", sensitivity: "medium" }],
      persist_ceiling: "low",
    },
  });
  w.act(defaulted, ["asked about the platform"]);
  w.withdraw(defaulted);
  w.distil(
    defaulted,
    "ob-default-1",
    w.distillate(defaulted, "d-default", [
      { ...w.disposition("k.default", "wait on the platform", 300_000), category: "location" },
    ]),
    "D-011",
  );
  w.distil(
    defaulted,
    "ob-default-2",
    w.distillate(defaulted, "d-default", [w.disposition("k.default", "wait on the platform", 300_000)]),
    "D-011",
  );
  // D-010 (G-51): an entry without tokens ("", "...") adds no token, so a run still spans it:
  // "for lisbon" ends one entry, "tuesday window" begins a later one, and the guidance leaks.
  const gapped = w.born(C);
  w.act(gapped, ["paid for lisbon", "", "...", "tuesday window"]);
  w.withdraw(gapped);
  w.distil(
    gapped,
    "ob-gap-1",
    w.distillate(gapped, "d-gap", [w.disposition("k.gap", "ask for lisbon tuesday window", 300_000)]),
    "D-010",
  );
  w.distil(
    gapped,
    "ob-gap-2",
    w.distillate(gapped, "d-gap", [w.disposition("k.gap", "ask for a window", 300_000)]),
    "D-010",
  );
  // D-015: failures_at_least counts every failed act, not a run of them: failed, ok, failed makes
  // 2 failures (1 consecutive), and the condition withdraws the life on the third act (J-3).
  const failing = w.born(C, { termination_conditions: [condition("two-failures", { op: "failures_at_least", n: 2 })] });
  w.act(failing, ["no fares found"], undefined, "search", "fare.search", false, "failed");
  w.act(failing, ["found a fare"], "D-015");
  w.act(failing, ["the fare vanished"], "D-015", "search", "fare.search", false, "failed");
  // D-016: a wildcard covers only what lies below its prefix and a dot: "fare.*" does not grant
  // "fare_2", which extends the prefix by two characters without a dot (J-1 refuses the birth; a
  // resolver that cut the last two characters of a plain capability as if it were a wildcard grants it).
  w.born(C, { capability_grants: ["fare_2"], tool_bindings: [] }, "D-016");
  // AD-3 (D-008) across a restart (D-069): d-access, used above, is still used after the
  // implementation restarts on its data directory. The life acts until the transcript reaches a
  // restart (none if it already has), so the reuse is the first distil after it.
  const again = w.born(C);
  while (ctx.lines() % RESTART_EVERY !== 0) w.act(again, ["asked again about the station"]);
  w.withdraw(again);
  w.distil(
    again,
    "ob-reuse-after-restart-1",
    w.distillate(again, "d-access", [w.disposition("k.reuse", "ask at the desk", 300_000)]),
    "D-008",
  );
  w.distil(
    again,
    "ob-reuse-after-restart-2",
    w.distillate(again, "d-reuse", [w.disposition("k.reuse", "ask at the desk", 300_000)]),
    "D-008",
  );

  // Appended for the generated survivors of shard 6 (issue 21).
  // OP-2.2.c6 (J-1): a binding is met by the offered tool of its own name. Here every capability of
  // the "search" binding is offered, but by a tool named "other": birth is refused. A resolver that
  // matched a binding against any tool offering its capabilities (a generated mutant of
  // impl/core/ops/janma.ts did) would give birth.
  const renamed = w.conceive(C);
  w.birth(
    renamed,
    [
      { tool: "other", capabilities: ["fare.search", "fare.book"] },
      { tool: "mail", capabilities: ["mail.send"] },
    ],
    "OP-2.2.c6",
  );

  // Appended for the generated survivors of shards 7 and 8 (issue 21).
  // OP-2.5 and D-014 (J-3): expire changes nothing once a life is no longer ready or active. A life its
  // principal withdrew, expired at its TTL deadline (born_tick + ttl_ticks): accepted, no events,
  // and the world keeps reason principal and its withdrawal tick (the session's last line). An
  // expire that withdrew a life in any state at its deadline (a generated mutant of
  // impl/core/ops/janma.ts) withdraws it again, for ttl.
  const gone = w.born(C, { ttl_ticks: 2 });
  w.withdraw(gone);
  w.send((tick) => ({ op: "janma.expire", tick, agent: C, instance_id: gone.instance_id }), "D-014");
  // D-045 (S-1, OP-2.7.c9): the tokeniser lower-cases (after NFKC); it does not upper-case, which
  // is not the same equivalence: "straße" upper-cases to "STRASSE" but lower-cases to itself. The
  // trace and the guidance share no run of four tokens ("straße" ≠ "strasse"), so the distillate is
  // accepted; a tokeniser that upper-cased (a generated mutant of impl/core/leakage.ts) sees the run
  // "paid for strasse tuesday" and refuses it under S-1.
  const street = w.born(C);
  w.act(street, ["paid for straße tuesday window"]);
  w.withdraw(street);
  w.distil(
    street,
    "ob-street",
    w.distillate(street, "d-street", [w.disposition("k.street", "paid for strasse tuesday", 300_000)]),
    "D-045",
  );
};

export const JANMA_SAMSKARA_SESSIONS: readonly ScriptedGoldenSpec[] = [
  { name: "session-decisions-samsara", script: janmaSamskaraScript },
];
