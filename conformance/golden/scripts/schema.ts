/**
 * Golden session "session-schema": pins the schema decisions of the first spec review.
 *
 * - G-6 / D-041: string bounds count Unicode code points. 200 astral characters (400 UTF-16 code
 *   units) are a valid designation, 201 are not; 1000 astral characters are a valid guidance inside
 *   a distillate, 1001 are not (S-1, D-028). An implementation counting UTF-16 units rejects the
 *   valid lines; one counting bytes rejects even more.
 * - G-30 / D-042: a consent grant with two default rows for one category is MALFORMED at
 *   conception (no "first row wins"), like two cells for one (category, dimension) pair (G-5).
 * - G-5: the other rules of spec/json-schema/rules.json (a tool bound twice, a disposition key
 *   repeated in a distillate) reject although the JSON Schemas alone accept.
 * - G-49 / G-30: the paper's example disposition (a decimal weight) and a repeated key whose second
 *   disposition leaks are S-1, before the G-5 line, so that each reading fails on its own line.
 * - G-47: list orders first written in the list-order table (TAB-5): tasks and body revisions in
 *   the order added, not sorted; the checkpoint bundle's task ids in memory order and its required
 *   capabilities sorted, each once. The bundle digest of the checkpoint line depends on both.
 *
 * Every pinned line names its item in its request id ("G-6.3"); scene-setting lines are "s.<n>".
 */
import { DOMAIN, digestOf, type Command, type Disposition, type JanmaManifest } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";

const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
/** One code point, two UTF-16 code units. */
const ROCKET = "\u{1F680}";
const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });
const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };

const mint = (tick: number, root: string, designation: string): Command => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation,
  body_revision: "rev-0",
  custodians: ["custodian-1"],
  execution: exec(`exec-${root}`),
  providers: [
    { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
  ],
  // Unsorted and repeated on purpose: the agent's list is sorted, each once (OP-5.1, TAB-5).
  required_capabilities: ["mail.send", "fare.search", "mail.send"],
  authority_token: `tok-${root}`,
});

const manifestFor = (
  pin: string,
  consent: Partial<JanmaManifest["consent_scope"]> = {},
  tools?: JanmaManifest["tool_bindings"],
): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "travel",
  capability_grants: ["fare.*"],
  tool_bindings: tools ?? [{ tool: "search", capabilities: ["fare.search", "fare.book"] }],
  consent_scope: {
    grant_id: "g",
    principal: "p",
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
    category_defaults: [{ category: "financial", sensitivity: "medium" }],
    persist_ceiling: "low",
    ...consent,
  },
  ttl_ticks: 50,
  termination_conditions: [],
  distillation_policy: { deadline_ticks: 20, max_retries: 1, satisfaction_model: null },
});

const disposition = (key: string, guidance: string): Disposition => ({
  key,
  guidance,
  weight: 400_000,
  evidence_digest: EVIDENCE,
  category: "operational",
});

/** Conceive, birth, act once, withdraw: a life ready to be distilled. Returns its nonce. */
const liveAndWithdraw = (
  ctx: ScriptContext,
  tick: number,
  agent: string,
  instance: string,
): { nonce: string; bornFrom: string } => {
  const a = ctx.view().agents.find((x) => x.identity.identity === agent);
  if (a === undefined) throw new Error("session-schema: the agent was not minted");
  const nonce = `n-${instance}`;
  ctx.send({ op: "janma.conceive", tick, agent, instance_id: instance, nonce, manifest: manifestFor(a.store.head) });
  ctx.send({
    op: "janma.birth",
    tick,
    agent,
    instance_id: instance,
    environment: { tools: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }], grantable: ["fare.*"] },
  });
  const inst = ctx
    .view()
    .agents.find((x) => x.identity.identity === agent)
    ?.instances.find((i) => i.instance_id === instance);
  if (inst === undefined) throw new Error("session-schema: the instance was not conceived");
  const action = {
    tool: "search",
    capability: "fare.search",
    outcome: "ok" as const,
    tick,
    trace: ["searched fares for lisbon on tuesday"],
  };
  const signature = digestOf(DOMAIN.action, { identity: agent, nonce, manifest_digest: inst.manifest_digest, action });
  ctx.send({
    op: "janma.act",
    tick,
    agent,
    instance_id: instance,
    signed: { identity: agent, nonce, manifest_digest: inst.manifest_digest, action, signature },
  });
  ctx.send({ op: "janma.withdraw", tick, agent, instance_id: instance, reason: "principal" });
  return { nonce, bornFrom: inst.born_from };
};

const script = (ctx: ScriptContext): void => {
  // G-6: a designation is at most 200 code points, however many UTF-16 units they take.
  ctx.send(mint(1, "root-201", ROCKET.repeat(201)), "G-6"); // MALFORMED: 201 code points
  ctx.send(mint(1, "root-mixed", `${"x".repeat(199)}${ROCKET}`), "G-6"); // accepted: 200 code points, 201 units
  ctx.send(mint(2, "root-astral", ROCKET.repeat(200)), "G-6"); // accepted: 200 code points, 400 units
  const agent = ctx.view().agents.find((a) => a.identity.root === "root-astral")?.identity.identity;
  if (agent === undefined) throw new Error("session-schema: a 200-code-point designation must be accepted (D-041)");
  ctx.send(
    { op: "ripa.identity_update", tick: 3, agent, designation: `${ROCKET.repeat(199)}xy`, authorization: AUTH },
    "G-6",
  ); // MALFORMED: 201
  ctx.send(
    { op: "ripa.identity_update", tick: 3, agent, designation: `${ROCKET.repeat(199)}x`, authorization: AUTH },
    "G-6",
  ); // accepted: 200

  // G-30 (D-042): two default rows for one category are refused at conception, whichever comes first.
  const head = ctx.view().agents.find((a) => a.identity.identity === agent)?.store.head ?? EVIDENCE;
  const lowRow = { category: "financial" as const, sensitivity: "low" as const };
  const twoRows = [lowRow, { category: "financial" as const, sensitivity: "high" as const }];
  ctx.send(
    {
      op: "janma.conceive",
      tick: 4,
      agent,
      instance_id: "i-dup-defaults",
      nonce: "n-dup-defaults",
      manifest: manifestFor(head, { category_defaults: twoRows }),
    },
    "G-30",
  );
  ctx.send(
    {
      op: "janma.conceive",
      tick: 4,
      agent,
      instance_id: "i-dup-defaults-2",
      nonce: "n-dup-defaults-2",
      manifest: manifestFor(head, { category_defaults: [...twoRows].reverse() }),
    },
    "G-30",
  );
  // Distinct categories are fine, and so is the one row per category of D-011.
  ctx.send(
    {
      op: "janma.conceive",
      tick: 4,
      agent,
      instance_id: "i-defaults",
      nonce: "n-defaults",
      manifest: manifestFor(head, { category_defaults: [lowRow, { category: "health", sensitivity: "low" }] }),
    },
    "G-30",
  );

  // G-5: the other rules JSON Schema cannot express still reject (spec/json-schema/rules.json).
  const cell = { category: "health" as const, dimension: "training" as const, sensitivity: "high" as const };
  ctx.send(
    {
      op: "janma.conceive",
      tick: 5,
      agent,
      instance_id: "i-dup-cells",
      nonce: "n-dup-cells",
      manifest: manifestFor(head, { cells: [cell, { ...cell, sensitivity: "low" }] }),
    },
    "G-5",
  );
  const search = { tool: "search", capabilities: ["fare.search"] };
  ctx.send(
    {
      op: "janma.conceive",
      tick: 5,
      agent,
      instance_id: "i-dup-tools",
      nonce: "n-dup-tools",
      manifest: manifestFor(head, {}, [search, { ...search, capabilities: ["fare.book"] }]),
    },
    "G-5",
  );

  // A life to distil, then distillates at the guidance bound and with a repeated key.
  const life = liveAndWithdraw(ctx, 6, agent, "i-life");
  const distillate = (id: string, dispositions: readonly Disposition[]) => ({
    distillate_id: id,
    source: { identity: agent, nonce: life.nonce, instance_id: "i-life" },
    born_from: life.bornFrom,
    signal: { valence: 900_000, confidence: 800_000, model_version: null, explicit: true },
    dispositions,
  });
  const distil = (obligation: string, d: unknown): Command => ({
    op: "janma.distil",
    tick: 7,
    agent,
    instance_id: "i-life",
    obligation_id: obligation,
    distillate: d,
  });
  // G-49 (D-001, D-004, D-028): the paper's example disposition copied verbatim (weight +0.9, a
  // 12-hex-digit evidence digest) fails the distillate's schema, which is where S-1 is enforced:
  // S-1, not MALFORMED. First of the distillates here, so a reading that files every schema
  // failure of a distillate under MALFORMED fails on this line before any other.
  ctx.send(
    distil(
      "ob-paper",
      distillate("d-paper", [
        {
          key: "k.a",
          guidance: "ask before booking",
          weight: 0.9,
          evidence_digest: "dfde43976886",
          category: "operational",
        },
      ]),
    ),
    "G-49",
  );
  // G-30 (D-028): two dispositions for one key are S-1, not "the first disposition wins". The
  // second one repeats the life's trace, so a first-wins reading, which drops it unseen, accepts
  // the distillate, while a reading that skips the one-per-key rule still refuses it (S-1 leakage):
  // this line tells "first wins" from "the JSON Schemas alone" (G-5, the next line).
  ctx.send(
    distil(
      "ob-dup-leak",
      distillate("d-dup-leak", [
        disposition("k.a", "ask before booking"),
        disposition("k.a", "searched fares for lisbon on tuesday"),
      ]),
    ),
    "G-30",
  );
  // G-5: one disposition per key inside a distillate (S-1 inside janma.distil, D-028).
  ctx.send(
    distil(
      "ob-dup-keys",
      distillate("d-dup-keys", [disposition("k.a", "ask before booking"), disposition("k.a", "check refund terms")]),
    ),
    "G-5",
  );
  // G-6: a guidance is at most 1000 code points.
  ctx.send(distil("ob-1001", distillate("d-1001", [disposition("k.a", ROCKET.repeat(1001))])), "G-6"); // S-1
  ctx.send(distil("ob-1000", distillate("d-1000", [disposition("k.a", ROCKET.repeat(1000))])), "G-6"); // accepted
  // The 1000-code-point guidance reaches the store unchanged.
  ctx.send({ op: "samskara.merge", tick: 8, agent, obligation_ids: ["ob-1000"] }, "G-6");

  // G-47: tasks and revisions in the order added ("task-9" sorts after "task-10"; "rev-z" after "rev-a").
  ctx.send({ op: "ripa.task_start", tick: 9, agent, task_id: "task-9" }, "G-47");
  ctx.send({ op: "ripa.task_start", tick: 9, agent, task_id: "task-10" }, "G-47");
  ctx.send({ op: "ripa.evolve", tick: 9, agent, revision: "rev-z", authorization: AUTH }, "G-47");
  ctx.send({ op: "ripa.evolve", tick: 9, agent, revision: "rev-a", authorization: AUTH }, "G-47");
  const substrate = ctx.view().agents.find((a) => a.identity.identity === agent)?.substrate;
  if (substrate?.memory.task_ids.join() !== "task-9,task-10" || substrate.body.lineage.join() !== "rev-0,rev-z,rev-a")
    throw new Error("session-schema: tasks and body revisions are listed in the order added (TAB-5)");
  // The bundle manifest carries task_ids in memory order and the sorted required capabilities; its
  // digest, in the migration.checkpointed event, pins both.
  ctx.send({ op: "ripa.migration_fence", tick: 10, agent, migration_id: "m-1", token: "tok-fence" }, "s");
  ctx.send({ op: "ripa.migration_checkpoint", tick: 10, agent, migration_id: "m-1" }, "G-47");

  // A fresh agent for the lines below (the first one is fenced now).
  // OP-0.2.c1: a pattern is an ECMA-262 regular expression, its `$` the end of the string: an
  // identifier or a digest followed by a newline is MALFORMED (Python's re.match would accept it).
  ctx.send({ ...mint(11, "root-nl", "nl"), base_digest: `${BASE}\n` } as Command, "OP-0.2.c1"); // MALFORMED: digest + "\n"
  ctx.send(mint(11, "root-nl", "nl"), "s");
  const nl = ctx.view().agents.find((a) => a.identity.root === "root-nl")?.identity.identity;
  if (nl === undefined) throw new Error("session-schema: the agent root-nl was not minted");
  ctx.send({ op: "ripa.task_start", tick: 11, agent: nl, task_id: "t-1\n" }, "OP-0.2.c1"); // MALFORMED: id + "\n"
  ctx.send({ op: "ripa.task_start", tick: 11, agent: `${nl}\n` as never, task_id: "t-1" }, "OP-0.2.c1"); // MALFORMED: the agent digest + "\n"
  ctx.send({ op: "ripa.task_start", tick: 11, agent: nl, task_id: "t-1" }, "OP-0.2.c1"); // accepted: the id without the newline

  // G-5: two termination conditions sharing an id are MALFORMED (rules.json,
  // JanmaManifest.unique-termination-condition-ids): a withdrawal names the condition by its id.
  const nlHead = ctx.view().agents.find((a) => a.identity.identity === nl)?.store.head ?? EVIDENCE;
  const twoStops = (second: string): JanmaManifest => ({
    ...manifestFor(nlHead),
    termination_conditions: [
      { id: "stop", when: { op: "acts_at_least", n: 3 } },
      { id: second, when: { op: "failures_at_least", n: 1 } },
    ],
  });
  ctx.send(
    {
      op: "janma.conceive",
      tick: 12,
      agent: nl,
      instance_id: "i-dup-stops",
      nonce: "n-dup-stops",
      manifest: twoStops("stop"),
    },
    "G-5",
  );
  ctx.send(
    {
      op: "janma.conceive",
      tick: 12,
      agent: nl,
      instance_id: "i-stops",
      nonce: "n-stops",
      manifest: twoStops("stop-2"),
    },
    "G-5",
  ); // accepted
};

export const SCHEMA_SESSION: ScriptedGoldenSpec = { name: "session-schema", script };
