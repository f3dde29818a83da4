/**
 * The `quiesced` maker: while an agent has a migration in progress, one command of every
 * operation quiescence refuses (spec/checks.ts `QUIESCED_OPS`, OP-0.4), so that each operation's
 * quiescence check (its first own check) fires. Quiescence is checked right after the agent
 * lookup, before anything the command names is looked at, so the commands only need to parse:
 * RIPA's are the generator's valid draws (makers-gen.ts), Janma's and Samskara's name a life or an
 * obligation that need not exist. In a state without a migration the maker makes nothing (every
 * command it would make there is one another maker tries).
 */
import type { Command, CommandOp, JanmaManifest } from "../../spec/index.ts";
import { QUIESCED_OPS } from "../../spec/checks.ts";
import type { World } from "../../model/index.ts";
import { AUTH, EVIDENCE } from "../../properties/generators/values.ts";
import { genCommands, type ViewOf } from "./makers-gen.ts";
import type { GenMakerName, Scope } from "./scope.ts";

/** The generator maker of each quiesced RIPA operation. */
const RIPA: Partial<Record<CommandOp, GenMakerName>> = {
  "ripa.task_start": "task_start",
  "ripa.task_resume": "task_resume",
  "ripa.request": "request",
  "ripa.evolve": "evolve",
  "ripa.identity_update": "identity_update",
  "ripa.replicate": "replicate",
  "ripa.descend": "descend",
  "ripa.restart": "restart",
};

const janma = (op: CommandOp, agent: string, tick: number, manifest: JanmaManifest): Command | undefined => {
  const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick, trace: ["x"] };
  switch (op) {
    case "janma.conceive":
      return { op, tick, agent, instance_id: `i-q-${tick}`, nonce: `n-q-${tick}`, manifest };
    case "janma.birth":
      return { op, tick, agent, instance_id: "ghost", environment: { tools: [], grantable: [] } };
    case "janma.act":
      return {
        op,
        tick,
        agent,
        instance_id: "ghost",
        signed: { identity: agent, nonce: "n", manifest_digest: EVIDENCE, action, signature: EVIDENCE },
      };
    case "samskara.merge":
      return { op, tick, agent, obligation_ids: ["ghost"] };
    case "samskara.excise":
      return { op, tick, agent, excision_id: `x-q-${tick}`, distillate_ids: ["ghost"], authorization: AUTH };
    default:
      return undefined;
  }
};

export const quiescedCommands = (
  scope: Scope,
  world: World,
  v: ViewOf,
  tick: number,
  manifestOf: (head: string) => JanmaManifest,
): Command[] => {
  const out: Command[] = [];
  const quiesced = [...world.agents.values()].filter((a) => a.ripa.migration !== null);
  if (quiesced.length === 0) return out;
  const onlyFirstChoice: Scope = { ...scope, choices: [{ x: 0, y: 0, bad: 5 }] };
  for (const a of quiesced) {
    const A = a.identity.identity;
    const head = a.store.chain[a.store.chain.length - 1]?.version_id ?? EVIDENCE;
    for (const op of QUIESCED_OPS) {
      const kind = RIPA[op];
      if (kind === undefined) {
        const c = janma(op, A, tick, manifestOf(head));
        if (c === undefined) throw new Error(`quiesced maker: no command for ${op} (QUIESCED_OPS grew)`);
        out.push(c);
      } else
        out.push(
          ...genCommands(onlyFirstChoice, kind, v, tick).filter((c) => c.op === op && "agent" in c && c.agent === A),
        );
    }
  }
  return out;
};
