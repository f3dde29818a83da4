/**
 * Read-only queries of spec/wire/queries.ts against the in-memory world. Results are deep
 * copies (via JSON), so neither the wire layer nor an in-process caller can alias live state.
 */
import type { Query } from "../spec/wire/index.ts";
import type { Agent } from "./core/agent.ts";
import { refuse } from "./core/rejection.ts";
import { agentView, instanceView, obligationView, ripaView, storeView, worldView } from "./core/views.ts";
import type { World } from "./core/world.ts";

const agentOf = (world: World, id: string): Agent =>
  world.agents.get(id) ?? refuse("NOT_FOUND", `no agent ${id}`, ["agent"]);

const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

const compute = (world: World, q: Query): unknown => {
  if (q.name === "world") return worldView(world);
  const a = agentOf(world, q.agent);
  switch (q.name) {
    case "agent":
      return agentView(a);
    case "store":
      return storeView(a);
    case "lineage": {
      const s = storeView(a);
      return {
        identity: a.identity.identity,
        genesis: a.store.genesis,
        head: s.head,
        chain: s.chain,
        batches: s.batches,
        excisions: s.excisions,
      };
    }
    case "instances":
      return agentView(a).instances;
    case "instance_state": {
      const i = a.instances.get(q.instance_id);
      return { instance_id: q.instance_id, state: i === undefined ? "avyakrta" : instanceView(i).state };
    }
    case "obligations":
      return [...a.obligations.values()]
        .map(obligationView)
        .sort((x, y) => (x.obligation_id < y.obligation_id ? -1 : 1));
    case "identity":
      return { identity: a.identity, record: a.identityRecord(), record_digest: a.identityRecordDigest() };
    case "substrate":
      return agentView(a).substrate;
    case "authority": {
      const r = ripaView(a);
      return { authority: r.authority, execution: r.execution, replicas: r.replicas };
    }
    case "migration": {
      const r = ripaView(a);
      return { fences: r.fences, marker: r.marker, migration: r.migration, reports: r.reports };
    }
  }
};

export const runQuery = (world: World, q: Query): unknown => copy(compute(world, q));
