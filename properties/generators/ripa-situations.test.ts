/**
 * The random generator produces the situations that the RIPA items of spec review 1 decide
 * (spec/review/ripa.ts), so the differential compares the model and the implementation on them:
 * each situation is counted over fixed-seed runs of the mixed profile and must occur. A situation
 * that stopped occurring would leave its decided reading unchecked by the differential.
 *
 * G-41 (no-gap) is checked here as a property of the model: at every accepted resume the agent's
 * generation equals the bundle's source generation, so `max(current, source) + 1` cannot be told
 * apart from either argument + 1.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import type { AgentView, Command, WorldView } from "../../spec/index.ts";
import { initialWorld, toRejectionData, transition, view } from "../../model/index.ts";
import { choicesArb, materialize, newMemory } from "./commands.ts";

const SITUATIONS = [
  "G-33 mint: capabilities unsorted or repeated",
  "G-33 mint: providers out of provider_id order",
  "G-33 mint: a provider id twice (DUPLICATE_ID)",
  "G-33 validate: target capabilities unsorted or repeated",
  "G-34 restart/fence/resume with the install token (I4)",
  "G-35 descend: parent has evolved",
  "G-35 descend: parent has surfaces",
  "G-35 descend: parent has replicas",
  "G-35 descend: child token used by the parent (accepted)",
  "G-36 validate: target is a replica (accepted)",
  "G-36 resume: a replica promoted",
  "G-37 resume: a surface the bind did not name is dropped",
  "G-37 resume: replicas survive",
  "G-38 phase command or cancel with no migration in progress (NOT_FOUND)",
  "G-40 rebind a surface with a label key it did not have",
  "G-42 cancel keeps an earlier migration's marker",
] as const;
type Situation = (typeof SITUATIONS)[number];

const sortedUnique = (xs: readonly string[]): boolean => xs.every((x, i) => i === 0 || (xs[i - 1] as string) < x);

/** The situations `cmd` creates, judged from the views before and after and from the outcome. */
const situationsOf = (
  before: WorldView,
  after: WorldView,
  cmd: Command,
  accepted: boolean,
  code: string | null,
): Situation[] => {
  const out: Situation[] = [];
  const agentIn = (v: WorldView, id: string): AgentView | undefined => v.agents.find((a) => a.identity.identity === id);
  if (cmd.op === "advaita.mint") {
    if (accepted && cmd.providers.some((p) => !sortedUnique(p.capabilities)))
      out.push("G-33 mint: capabilities unsorted or repeated");
    if (accepted && !sortedUnique(cmd.providers.map((p) => p.provider_id)))
      out.push("G-33 mint: providers out of provider_id order");
    if (code === "DUPLICATE_ID") out.push("G-33 mint: a provider id twice (DUPLICATE_ID)");
    return out;
  }
  const a = agentIn(before, cmd.agent);
  const b = agentIn(after, cmd.agent);
  if (a === undefined) return out;
  switch (cmd.op) {
    case "ripa.migration_validate":
      if (accepted && cmd.target.providers.some((p) => !sortedUnique(p.capabilities)))
        out.push("G-33 validate: target capabilities unsorted or repeated");
      if (accepted && a.ripa.replicas.some((r) => r.execution_id === cmd.target.execution.execution_id))
        out.push("G-36 validate: target is a replica (accepted)");
      break;
    case "ripa.restart":
    case "ripa.migration_fence":
    case "ripa.migration_resume":
      // The generation-1 token is the one the mint or descend installed.
      if (
        code === "RIPA_AUTHORITY_CONFLICT" &&
        a.ripa.authority.generation === 1 &&
        cmd.token === a.ripa.authority.token
      )
        out.push("G-34 restart/fence/resume with the install token (I4)");
      if (cmd.op === "ripa.migration_resume" && accepted && b !== undefined) {
        const bundle = a.ripa.migration?.bundle;
        // G-41: quiescence keeps the generation at the fence's, which is the bundle's source generation.
        expect(a.ripa.authority.generation, "G-41: generation at resume").toBe(bundle?.source_generation);
        const target = a.ripa.migration?.target?.execution.execution_id;
        if (a.ripa.replicas.some((r) => r.execution_id === target)) out.push("G-36 resume: a replica promoted");
        const bound = new Set(a.ripa.migration?.surfaces.map((s) => s.surface.surface_id));
        if (a.ripa.surfaces.some((s) => !bound.has(s.surface.surface_id)))
          out.push("G-37 resume: a surface the bind did not name is dropped");
        if (b.ripa.replicas.length > 0) out.push("G-37 resume: replicas survive");
      }
      break;
    case "ripa.descend":
      if (!accepted) break;
      if (a.substrate.body.lineage.length > 1) out.push("G-35 descend: parent has evolved");
      if (a.ripa.surfaces.length > 0) out.push("G-35 descend: parent has surfaces");
      if (a.ripa.replicas.length > 0) out.push("G-35 descend: parent has replicas");
      if (cmd.authority_token === a.ripa.authority.token)
        out.push("G-35 descend: child token used by the parent (accepted)");
      break;
    case "ripa.migration_checkpoint":
    case "ripa.migration_cancel":
      if (a.ripa.migration === null && code === "NOT_FOUND")
        out.push("G-38 phase command or cancel with no migration in progress (NOT_FOUND)");
      if (
        cmd.op === "ripa.migration_cancel" &&
        accepted &&
        a.ripa.marker !== null &&
        a.ripa.marker.migration_id !== cmd.migration_id &&
        b?.ripa.marker !== null
      )
        out.push("G-42 cancel keeps an earlier migration's marker");
      break;
    case "ripa.bind_surface": {
      const old = a.ripa.surfaces.find((s) => s.surface.surface_id === cmd.surface.surface_id);
      if (accepted && old !== undefined && Object.keys(old.labels).some((k) => !(k in cmd.labels)))
        out.push("G-40 rebind a surface with a label key it did not have");
      break;
    }
  }
  return out;
};

describe("the generator produces the situations of the RIPA review items (G-33 .. G-42)", () => {
  it("every situation occurs in 40 fixed-seed mixed runs, and G-41's generation equality holds at every resume", () => {
    const counts = new Map<Situation, number>(SITUATIONS.map((s) => [s, 0]));
    const runs = fc.sample(choicesArb(100, 200), { seed: 20261130, numRuns: 40 });
    for (const choices of runs) {
      const mem = newMemory("mixed");
      let world = initialWorld();
      for (const choice of choices) {
        const before = view(world);
        const cmd = materialize(before, mem, choice);
        const r = transition(world, cmd);
        const accepted = Result.isSuccess(r);
        if (accepted) world = r.success.world;
        const code = accepted ? null : toRejectionData(r.failure).code;
        for (const s of situationsOf(before, accepted ? view(world) : before, cmd, accepted, code))
          counts.set(s, (counts.get(s) ?? 0) + 1);
      }
    }
    const seen = Object.fromEntries(counts);
    if (process.env["SHOW_COUNTS"]) console.log(seen);
    for (const s of SITUATIONS) expect(counts.get(s), `${s} (counts: ${JSON.stringify(seen)})`).toBeGreaterThan(0);
  });
});
