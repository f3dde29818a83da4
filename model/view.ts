/**
 * Projection of the internal world onto the spec's observable `WorldView` (views.ts), with
 * every list in the order the view schema states (OP-0.6).
 */
import type { AgentView, WorldView } from "../spec/index.ts";
import { momentumSeries } from "./samskara/momentum.ts";
import { byKey, sortStrings, type Agent, type World } from "./state.ts";

const sortedValues = <T>(m: ReadonlyMap<string, T>): T[] => sortStrings(m.keys()).map((k) => m.get(k) as T);

export const agentView = (a: Agent): AgentView => {
  const store = a.store;
  const head = store.chain[store.chain.length - 1] ?? store.chain[0];
  if (head === undefined) throw new Error("a store chain always has its genesis");
  const r = a.ripa;
  return {
    identity: a.identity,
    substrate: { identity: a.record, memory: a.memory, body: a.body },
    store: {
      head: head.version_id,
      chain: [...store.chain],
      batches: [...store.batches],
      state: store.states[store.states.length - 1] ?? { entries: [] },
      distillates: sortedValues(store.retained).map((x) => ({
        distillate_id: x.distillate.distillate_id,
        digest: x.digest,
      })),
      excisions: [...store.excisions],
      quarantined: [...store.quarantined],
      momentum: momentumSeries(store.states),
    },
    instances: sortedValues(a.instances).map((i) => i.view),
    obligations: sortedValues(a.obligations).map((o) => o.view),
    ripa: {
      custodians: [...r.custodians],
      execution: r.execution,
      replicas: [...r.replicas],
      surfaces: sortedValues(r.surfaces).map((s) => ({ surface: s.surface, labels: s.labels })),
      providers: [...r.providers].sort(byKey((p) => p.provider_id)),
      required_capabilities: [...r.required_capabilities],
      authority: r.authority,
      live_attempts: sortStrings(r.live_attempts.keys()).map((task_id) => ({
        task_id,
        attempt_nonce: r.live_attempts.get(task_id) ?? "",
      })),
      effects: sortStrings(r.effects),
      fences: [...r.fences],
      marker: r.marker,
      migration:
        r.migration === null
          ? null
          : {
              migration_id: r.migration.migration_id,
              phase: r.migration.phase,
              source_execution_id: r.migration.source_execution_id,
              bundle: r.migration.bundle,
              bundle_digest: r.migration.bundle_digest,
              target:
                r.migration.target === null
                  ? null
                  : { ...r.migration.target, providers: [...r.migration.target.providers] },
              delta: r.migration.delta,
              surfaces: r.migration.surfaces.map((s) => ({ surface: s.surface, labels: s.labels })),
            },
      reports: [...r.reports],
    },
  };
};

export const view = (world: World): WorldView => ({
  tick: world.tick,
  roots_used: [...world.roots_used],
  agents: sortedValues(world.agents).map(agentView),
});
