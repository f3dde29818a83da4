/**
 * The scripted golden session for the RIPA items of spec review 1 (spec/review/ripa.ts): each
 * pinned line (request id "G-xx.n") is a step whose reply, or the world view a pinned query shows
 * right after it, differs under the reading the kit rejected. Lines that only set the scene have
 * ids "s.n".
 *
 * A reading that shows only in the world view is pinned by a world query right after the step
 * that makes the difference, before any other item's query, so that the mutant taking it
 * (properties/mutants/catalog.ts) first fails on a line of its own item (conformance/review.test.ts):
 * - agent "rg-a": providers listed out of order with unsorted, repeated capabilities (G-33); a
 *   surface rebound with other labels (G-40); a conceived life that could not be withdrawn (G-43);
 * - agent "rg-b": a completed migration whose target is its only replica, promoted (G-36), with
 *   unsorted target capabilities (G-33); then a cancelled migration that keeps the first one's
 *   marker (G-42);
 * - agent "rg-e": a completed migration whose bind named one old surface and one new, with a
 *   replica that survives (G-37);
 * - agent "rg-p" and its child "rg-c": the child's body lineage, surfaces, replicas and tokens (G-35).
 */
import type { Command, ProviderGrant, WorldView } from "../../../spec/index.ts";
import { manifest } from "../../../model/testkit.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { BASE, counting, exec } from "./travel-driver.ts";
import { RESTART_EVERY } from "../types.ts";

const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };
const surface = (id: string, session: string) => ({ surface_id: id, kind: "chat", account: "a", session });

/** The identity digest of the agent minted from `root`. */
const agentOf = (v: WorldView, root: string): string => {
  const a = v.agents.find((x) => x.identity.root === root);
  if (a === undefined) throw new Error(`script: no agent minted from ${root}`);
  return a.identity.identity;
};

const mint = (tick: number, root: string, providers: ProviderGrant[], token: string): Command => ({
  op: "advaita.mint",
  tick,
  base_digest: BASE,
  root,
  designation: root,
  body_revision: "rev-0",
  custodians: ["custodian-1"],
  execution: exec(`exec-${root}`),
  providers,
  required_capabilities: ["fare.search"],
  authority_token: token,
});

const script = (outer: ScriptContext): void => {
  const ctx = counting(outer);
  let tick = 0;
  const t = () => ++tick;
  const send = (c: Command, pin?: string) => ctx.send(c, pin);

  // G-33: capabilities are a set and providers are sorted by provider_id (OP-5.2), whatever order
  // and repetition the mint used; a provider listed twice is DUPLICATE_ID (OP-5.1), never last-wins.
  send(
    mint(
      t(),
      "rg-a",
      [
        {
          provider_id: "prov-z",
          kind: "vcs",
          contract_version: "v1",
          capabilities: ["vcs.push", "vcs.read", "vcs.push"],
        },
        { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["mail.send", "fare.search"] },
      ],
      "tok-a1",
    ),
    "G-33",
  );
  const A = agentOf(ctx.view(), "rg-a");
  const twice: ProviderGrant[] = [
    { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] },
    { provider_id: "prov-a", kind: "service", contract_version: "v2", capabilities: ["mail.send"] },
  ];
  send(mint(t(), "rg-dup", twice, "tok-dup"), "G-33");
  // The duplicate check comes after AD-1: a used root with a provider twice is AD-1.
  send(mint(t(), "rg-a", twice, "tok-dup2"), "G-33");
  // The repeated capability is still granted: an effect through it goes ahead; the set grants
  // nothing the list did not (I5, fail closed).
  send({
    op: "ripa.effect",
    tick: t(),
    agent: A,
    execution_id: "exec-rg-a",
    token: "tok-a1",
    provider_id: "prov-z",
    capability: "vcs.push",
    effect_id: "e-a1",
  });
  send({
    op: "ripa.effect",
    tick: t(),
    agent: A,
    execution_id: "exec-rg-a",
    token: "tok-a1",
    provider_id: "prov-a",
    capability: "vcs.push",
    effect_id: "e-a2",
  });
  // The agent's providers as a world query shows them: sorted by provider_id, each capability once.
  ctx.query("G-33");

  // G-34: the token installed by the mint is a used token: no later epoch may take it (OP-5.1, OP-6).
  send({ op: "ripa.restart", tick: t(), agent: A, execution_id: "exec-rg-a", token: "tok-a1" }, "G-34");
  send({ op: "ripa.migration_fence", tick: t(), agent: A, migration_id: "m-a1", token: "tok-a1" }, "G-34");
  send({ op: "ripa.restart", tick: t(), agent: A, execution_id: "exec-rg-a", token: "tok-a2" });

  // G-43: withdrawing a conceived, never-born life is J-1 (OP-2.6); clear, and pinned here too
  // because the generated sessions' line numbers move whenever the generator changes.
  const genesis = ctx.view().agents.find((x) => x.identity.identity === A)?.store.head ?? BASE;
  send({ op: "janma.conceive", tick: t(), agent: A, instance_id: "i-a1", nonce: "n-a1", manifest: manifest(genesis) });
  send({ op: "janma.withdraw", tick: t(), agent: A, instance_id: "i-a1", reason: "principal" }, "G-43");

  // G-40: rebinding a surface replaces its labels; the old "team" label is gone (OP-6.9).
  send({
    op: "ripa.bind_surface",
    tick: t(),
    agent: A,
    surface: surface("s-1", "one"),
    labels: { team: "t1", zone: "z1" },
  });
  send(
    { op: "ripa.bind_surface", tick: t(), agent: A, surface: surface("s-1", "two"), labels: { region: "eu" } },
    "G-40",
  );
  ctx.query("G-40");

  // G-36, G-33 (target providers): a migration whose target is the agent's only replica. Validate
  // accepts it (OP-7.3) and resume promotes it: the bound execution, no longer a replica (the query
  // after resume). The agent has no surfaces and no other replica, so the G-37 readings (surfaces
  // replaced, other replicas kept) give the same world here; they have a migration of their own.
  send(
    mint(
      t(),
      "rg-b",
      [{ provider_id: "prov-b", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
      "tok-b1",
    ),
  );
  const B = agentOf(ctx.view(), "rg-b");
  send({ op: "ripa.replicate", tick: t(), agent: B, execution: exec("rep-b1") });
  send({ op: "ripa.task_start", tick: t(), agent: B, task_id: "task-b" });
  send({ op: "ripa.migration_fence", tick: t(), agent: B, migration_id: "m-b1", token: "tok-b2" });
  const cp = send({ op: "ripa.migration_checkpoint", tick: t(), agent: B, migration_id: "m-b1" });
  const bundle_digest = cp.ok && cp.events[0]?.type === "migration.checkpointed" ? cp.events[0].bundle_digest : BASE;
  send(
    {
      op: "ripa.migration_validate",
      tick: t(),
      agent: B,
      migration_id: "m-b1",
      bundle_digest,
      target: {
        execution: exec("rep-b1"),
        body_revision: "rev-0",
        providers: [
          {
            provider_id: "prov-t",
            kind: "runtime",
            contract_version: "v2",
            capabilities: ["vcs.push", "fare.search", "fare.search"],
          },
          { provider_id: "prov-c", kind: "chat", contract_version: "v1", capabilities: ["mail.send"] },
        ],
      },
      gain_authorization: AUTH,
    },
    "G-36",
  );
  send({
    op: "ripa.migration_bind",
    tick: t(),
    agent: B,
    migration_id: "m-b1",
    surfaces: [surface("s-new", "2")],
    labels: { region: "eu" },
  });
  send({ op: "ripa.migration_rehydrate", tick: t(), agent: B, migration_id: "m-b1" });
  send({ op: "ripa.migration_resume", tick: t(), agent: B, migration_id: "m-b1", token: "tok-b3" });
  ctx.query("G-36");
  // The promoted replica is the bound execution now, so replicating it again is a duplicate, while
  // the source execution (fenced, not a replica) may be added as a replica.
  send({ op: "ripa.replicate", tick: t(), agent: B, execution: exec("rep-b1") });
  send({ op: "ripa.replicate", tick: t(), agent: B, execution: exec("exec-rg-b") });
  send({
    op: "ripa.effect",
    tick: t(),
    agent: B,
    execution_id: "rep-b1",
    token: "tok-b3",
    provider_id: "prov-t",
    capability: "vcs.push",
    effect_id: "e-b1",
  });

  // G-37: resume replaces the surfaces with the bind's (one old, one new: the old "s-old" is gone)
  // and keeps the replicas other than the target (here the target is a fresh execution, so the G-36
  // reading of a promoted replica gives the same world).
  send(
    mint(
      t(),
      "rg-e",
      [{ provider_id: "prov-e", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
      "tok-e1",
    ),
  );
  const E = agentOf(ctx.view(), "rg-e");
  send({ op: "ripa.bind_surface", tick: t(), agent: E, surface: surface("s-old", "1"), labels: { team: "t1" } });
  send({ op: "ripa.bind_surface", tick: t(), agent: E, surface: surface("s-keep", "1"), labels: { team: "t2" } });
  send({ op: "ripa.replicate", tick: t(), agent: E, execution: exec("rep-e1") });
  send({ op: "ripa.migration_fence", tick: t(), agent: E, migration_id: "m-e1", token: "tok-e2" });
  const cpE = send({ op: "ripa.migration_checkpoint", tick: t(), agent: E, migration_id: "m-e1" });
  const bundleE = cpE.ok && cpE.events[0]?.type === "migration.checkpointed" ? cpE.events[0].bundle_digest : BASE;
  send({
    op: "ripa.migration_validate",
    tick: t(),
    agent: E,
    migration_id: "m-e1",
    bundle_digest: bundleE,
    target: {
      execution: exec("exec-e-target"),
      body_revision: "rev-0",
      providers: [{ provider_id: "prov-e", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    },
    gain_authorization: null,
  });
  send({
    op: "ripa.migration_bind",
    tick: t(),
    agent: E,
    migration_id: "m-e1",
    surfaces: [surface("s-new", "2"), surface("s-keep", "2")],
    labels: { region: "eu" },
  });
  send({ op: "ripa.migration_rehydrate", tick: t(), agent: E, migration_id: "m-e1" });
  send({ op: "ripa.migration_resume", tick: t(), agent: E, migration_id: "m-e1", token: "tok-e3" }, "G-37");
  ctx.query("G-37");

  // G-38: no migration is in progress; naming the completed one is NOT_FOUND, not an I4 phase error.
  send({ op: "ripa.migration_checkpoint", tick: t(), agent: B, migration_id: "m-b1" }, "G-38");
  send(
    {
      op: "ripa.migration_cancel",
      tick: t(),
      agent: B,
      migration_id: "m-b1",
      no_target_active: true,
      authorization: AUTH,
    },
    "G-38",
  );
  // G-42: a migration cancelled before its validate keeps the completed migration's marker.
  send({ op: "ripa.migration_fence", tick: t(), agent: B, migration_id: "m-b2", token: "tok-b4" });
  send({ op: "ripa.migration_checkpoint", tick: t(), agent: B, migration_id: "m-b2" });
  send(
    {
      op: "ripa.migration_cancel",
      tick: t(),
      agent: B,
      migration_id: "m-b2",
      no_target_active: true,
      authorization: AUTH,
    },
    "G-42",
  );
  ctx.query("G-42");
  // ...and the cancelled one is no longer in progress either (G-38).
  send({ op: "ripa.migration_checkpoint", tick: t(), agent: B, migration_id: "m-b2" }, "G-38");
  send({ op: "ripa.restart", tick: t(), agent: B, execution_id: "rep-b1", token: "tok-b5" });

  // G-35: what a descendant takes from its parent.
  send(
    mint(
      t(),
      "rg-p",
      [{ provider_id: "prov-p", kind: "service", contract_version: "v1", capabilities: ["mail.send", "fare.search"] }],
      "tok-p1",
    ),
  );
  const P = agentOf(ctx.view(), "rg-p");
  send({ op: "ripa.evolve", tick: t(), agent: P, revision: "rev-1", authorization: AUTH });
  send({ op: "ripa.bind_surface", tick: t(), agent: P, surface: surface("s-p", "1"), labels: { team: "tp" } });
  send({ op: "ripa.replicate", tick: t(), agent: P, execution: exec("rep-p") });
  send({ op: "ripa.restart", tick: t(), agent: P, execution_id: "exec-rg-p", token: "tok-p2" });
  // The child's token is one its parent used (its mint token): tokens are per agent, so accepted.
  send(
    {
      op: "ripa.descend",
      tick: t(),
      agent: P,
      root: "rg-c",
      designation: "child",
      execution: exec("exec-rg-c"),
      authority_token: "tok-p1",
    },
    "G-35",
  );
  // What the child holds as a world query shows it: no surfaces and no replicas of its parent's.
  const C = agentOf(ctx.query("G-35"), "rg-c");
  // The child's lineage is [rev-1] alone, so it may evolve to rev-0, which its parent held before.
  send({ op: "ripa.evolve", tick: t(), agent: C, revision: "rev-0", authorization: AUTH }, "G-35");
  // The child is governed by the custodians it took from its parent, and no one else (I3).
  send({
    op: "ripa.evolve",
    tick: t(),
    agent: C,
    revision: "rev-9",
    authorization: { custodian: "mallory", decision_id: "d-x" },
  });
  // The parent's current token is fresh for the child; the child's own install token is not (G-34).
  send({ op: "ripa.restart", tick: t(), agent: C, execution_id: "exec-rg-c", token: "tok-p2" }, "G-35");
  send({ op: "ripa.restart", tick: t(), agent: C, execution_id: "exec-rg-c", token: "tok-p1" }, "G-34");
  // The child has no replicas: the parent's replica id is free for it.
  send({ op: "ripa.replicate", tick: t(), agent: C, execution: exec("rep-p") }, "G-35");

  // Appended for a generated survivor of shard 6 (issue 21). OP-6.4.c3 (I4) across a restart
  // (D-069): an attempt nonce used before the implementation restarts on its data directory is
  // still used after it. Used nonces appear in no world view, so only a request after the restart
  // shows an implementation that forgot them (a generated mutant of impl/core/persist.ts wrote them
  // under another part and recovered none). The nonce is used on the last line before a restart,
  // and the first line after it requests it again; the lines before set up tasks of the child.
  send({ op: "ripa.task_start", tick: t(), agent: C, task_id: "task-nonce" });
  while ((ctx.lines() + 1) % RESTART_EVERY !== 0)
    send({ op: "ripa.task_start", tick: t(), agent: C, task_id: `task-pad-${ctx.lines() + 1}` });
  send({ op: "ripa.request", tick: t(), agent: C, task_id: "task-nonce", attempt_nonce: "att-before-restart" });
  send(
    { op: "ripa.request", tick: t(), agent: C, task_id: "task-nonce", attempt_nonce: "att-before-restart" },
    "OP-6.4.c3",
  );
};

export const RIPA_DECISIONS_SESSION: ScriptedGoldenSpec = { name: "session-decisions-ripa", script };
