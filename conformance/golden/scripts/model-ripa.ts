/**
 * Golden session "session-model-ripa": RIPA situations the generated sessions never build, found by
 * Stryker among the survivors of the reference model's model/ripa/substrate.ts and
 * model/ripa/migration.ts (reports/stryker.md). Each pinned line decides one check clause
 * (spec/CHECKS.md), so an implementation is checked on it over the wire too.
 *
 *  - OP-6.6.c1: an effect needs both halves of the authority: the current token AND its holder.
 *    The holder with the token its own restart superseded is I4; a replica with the current token
 *    is I4; the holder with the current token is performed.
 *  - OP-7.7.c1: a cancel naming a migration other than the one in progress is NOT_FOUND and does
 *    not cancel the one in progress (it checkpoints next, and the final view shows it in progress).
 */
import type { Command } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { BASE, exec } from "./travel-driver.ts";

const AUTH = { custodian: "custodian-1", decision_id: "d-1" };

const script = (ctx: ScriptContext): void => {
  let tick = 0;
  const send = (cmd: (t: number) => Command, pins?: string) => ctx.send(cmd(++tick), pins);
  send((t) => ({
    op: "advaita.mint",
    tick: t,
    base_digest: BASE,
    root: "mr",
    designation: "mr",
    body_revision: "rev-0",
    custodians: ["custodian-1"],
    execution: exec("exec-mr"),
    providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    required_capabilities: ["fare.search"],
    authority_token: "tok-mr",
  }));
  const agent = ctx.view().agents.find((a) => a.identity.root === "mr")?.identity.identity;
  if (agent === undefined) throw new Error("script: no agent minted from mr");

  // The holder restarts with a fresh token (the old one is superseded); a replica joins.
  send((t) => ({ op: "ripa.restart", tick: t, agent, execution_id: "exec-mr", token: "tok-mr-2" }));
  send((t) => ({ op: "ripa.replicate", tick: t, agent, execution: exec("rep-1") }));
  const effect =
    (execution_id: string, token: string, effect_id: string) =>
    (t: number): Command => ({
      op: "ripa.effect",
      tick: t,
      agent,
      execution_id,
      token,
      provider_id: "prov-a",
      capability: "fare.search",
      effect_id,
    });
  // OP-6.6.c1: the right holder with a stale token, then the right token from a non-holder: both I4.
  send(effect("exec-mr", "tok-mr", "e-1"), "OP-6.6.c1");
  send(effect("rep-1", "tok-mr-2", "e-2"), "OP-6.6.c1");
  // Both halves right: performed.
  send(effect("exec-mr", "tok-mr-2", "e-3"), "OP-6.6.c1");

  // OP-7.7.c1: with m-1 in progress, a cancel of m-2 is NOT_FOUND and leaves m-1 where it was.
  send((t) => ({ op: "ripa.migration_fence", tick: t, agent, migration_id: "m-1", token: "tok-fence" }));
  send(
    (t) => ({
      op: "ripa.migration_cancel",
      tick: t,
      agent,
      migration_id: "m-2",
      no_target_active: true,
      authorization: AUTH,
    }),
    "OP-7.7.c1",
  );
  send((t) => ({ op: "ripa.migration_checkpoint", tick: t, agent, migration_id: "m-1" }), "OP-7.2.c1");
};

export const MODEL_RIPA_SESSION: ScriptedGoldenSpec = { name: "session-model-ripa", script };
