/**
 * A stateful command-sequence generator. fast-check generates a list of small "choices"; a
 * deterministic interpreter turns each choice into a plain spec `Command`, consulting only the
 * observable `WorldView` of the system under test (model today, implementation later) and its own
 * memory of what it generated (manifests, nonces, trace text). Most commands are valid so runs
 * reach deep states (merges, excisions, quarantine, six-phase migrations); about one in eight is
 * deliberately invalid (bad signature, leaking or mis-signed distillate, stale token...).
 *
 * This module is the generator's public face and its step (`materialize`); the parts live beside it:
 * - choice.ts: the draws (`Choice`, `choiceArb`, `choicesArb`);
 * - memory.ts: what the generator remembers (`GenMemory`, `newMemory`, `GenProfile`);
 * - weights.ts: the operation kinds (`OpKind`) and how often each profile chooses them;
 * - makers.ts: one maker per kind (makers-*.ts, mint.ts), the ordinary commands;
 * - situations.ts, migration-situations.ts: rare situations made for half the invalid steps;
 * - edges.ts, chase.ts: the edge cases of `newMemory(…, { edges: true })`;
 * - values.ts, manifests.ts, traces.ts, distillates.ts, acts.ts, recovery.ts, views.ts: what
 *   commands are built from.
 *
 * Generated runs are committed (conformance/golden/*.jsonl, `npm run golden`): the same seed must
 * give the same commands, so any change to the order of draws, weights, situations or ids shows
 * there.
 */
import type { Command, WorldView } from "../../spec/index.ts";
import { narrowAct } from "./acts.ts";
import { chaseStep } from "./chase.ts";
import { pick, type Choice } from "./choice.ts";
import { edgeCase } from "./edges.ts";
import { MAKERS } from "./makers.ts";
import type { GenMemory } from "./memory.ts";
import { mint } from "./mint.ts";
import { migrationSituation, situation } from "./situations.ts";
import { OP_LISTS, type OpKind } from "./weights.ts";

export { choiceArb, choicesArb, type Choice } from "./choice.ts";
export { newMemory, type GenMemory, type GenProfile } from "./memory.ts";
export { OP_KINDS, OP_WEIGHTS, type OpKind } from "./weights.ts";
export { EDGE_CASES } from "./edges.ts";
export { traceEntriesOf } from "./traces.ts";

/** Interpret one choice against the current view. Always returns a command (valid or not). */
export const materialize = (v: WorldView, mem: GenMemory, c: Choice): Command => {
  if (mem.pendingAct != null) {
    const p = mem.pendingAct;
    const accepted =
      (v.agents.find((a) => a.identity.identity === p.agent)?.instances.find((x) => x.instance_id === p.instance_id)
        ?.acts ?? p.acts) > p.acts;
    if (accepted) mem.lives.get(`${p.agent}/${p.instance_id}`)?.trace.push(...p.trace);
    mem.pendingAct = null;
  }
  if (mem.edges === true) mem.lastEdge = null;
  if (c.y % 4 === 0) mem.tick += 1 + (c.x % 3 === 0 ? c.x % 25 : 0);
  const bad = c.bad === 0 || c.bad === 1; // ~1 in 8 invalid on purpose
  // A few TICK_REGRESSED (OP-0.2.c2, one tick below the world's): chosen by `x`, not `op`, which
  // also picks the kind, so that every kind of command has them (issue 21: `op % 7` left 15 out).
  const regressed = c.bad === 2 && c.x % 2 === 0 && v.tick > 0;
  const tick = regressed ? v.tick - 1 : mem.tick;
  const id = (p: string) => `${p}${mem.seq++}`;
  if (mem.edges === true && mem.chase != null) {
    const step = chaseStep(v, mem, mem.chase, tick, id);
    if (step !== null) {
      mem.lastEdge = step.name;
      return step.command;
    }
  }
  // Concentrate on the first agent most of the time so that its lineage grows deep.
  if (mem.home === undefined && v.agents[0] !== undefined) mem.home = v.agents[0].identity.identity;
  const agent =
    c.x % 4 === 0 && mem.profile === "mixed"
      ? pick(v.agents, c.x)
      : mem.profile === "store"
        ? (v.agents.find((a) => a.identity.identity === mem.home) ?? v.agents[0])
        : v.agents[0];
  // A quiesced agent mostly moves its migration on (or cancels it), as an operator would.
  const quiesced = agent !== undefined && agent.ripa.migration !== null && c.bad % 4 !== 3;
  const all = OP_LISTS[mem.profile];
  const enabled = mem.disabled.size === 0 ? all : all.filter((k) => !mem.disabled.has(k));
  const ops = enabled.length === 0 ? all : enabled;
  // Cancelling a migration before its validate while an earlier migration's marker stands shows
  // whether cancel drops only its own marker (spec review G-42), so it is made common.
  const early = agent?.ripa.migration?.phase === "fenced" || agent?.ripa.migration?.phase === "checkpointed";
  const cancelOverMarker = early && agent?.ripa.marker !== null && c.x % 2 === 0;
  const kind: OpKind = quiesced
    ? c.bad === 4 || cancelOverMarker
      ? "cancel"
      : "migrate"
    : (ops[c.op % ops.length] ?? "mint");
  // G-39: the store profile mints one neighbour once its own agent has excised.
  const neighbour =
    mem.profile === "store" && kind === "excise" && v.agents.length === 1 && (agent?.store.excisions.length ?? 0) > 0;
  if (kind === "mint" || agent === undefined || neighbour) return mint({ v, c, bad, tick, id });
  const A = agent.identity.identity;
  // Edge cases replace the ordinary invalid command, and also take three more values of `bad`,
  // so that each of them occurs several times in a run of ordinary length.
  if (mem.edges === true && (bad || c.bad >= 13)) {
    const edge = edgeCase(v, agent, mem, c, kind, tick);
    if (edge !== null) {
      mem.lastEdge = edge.name;
      return edge.command;
    }
  }
  // While a life holding a narrower wildcard lives (rarely, and not for long), half the invalid
  // moves are its acts outside the wildcard (OP-2.3.c7 without the separator, D-016).
  const narrow = bad && c.y % 2 === 0 && agent.ripa.migration === null ? narrowAct(agent, mem, tick) : undefined;
  if (narrow !== undefined) return narrow;
  // Migrations are few and each phase lasts one step, so they get one more step in sixteen.
  const special =
    agent.ripa.migration !== null && ((bad && c.op < 500) || c.bad === 14)
      ? migrationSituation({ v, mem, c, agent, A, tick, id })
      : bad && c.op < 500
        ? situation({ v, mem, c, agent, A, tick, id })
        : undefined;
  if (special !== undefined) return special;
  return MAKERS[kind]({ v, mem, c, agent, A, tick, id, bad, regressed });
};
