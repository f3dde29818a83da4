/**
 * Step 1 of the implementer's path (docs/IMPLEMENTING.md): the world of spec/OPERATIONS.md OP-0.1,
 * `advaita.mint` (OP-5.1), `advaita.project_write` (OP-4.4), every query of W-6, `reset` (W-2.4)
 * and durability (W-7.1). The program of step 1 is advaita.mjs; step 2 (janma.mjs) imports this
 * module and adds the janma lifecycle to the same world.
 *
 * The state is plain JSON so that it can be written as one snapshot (durable.mjs). Its parts have
 * the shape of the views they are shown as (WorldView.schema.json), with two differences: the
 * maps `agents`, `instances` and `obligations` are keyed by id and listed sorted by their key when
 * viewed, and what no view shows (a life's manifest and trace, a held distillate) is kept in maps
 * of its own, which step 2 adds.
 */
import { Refusal, serve, dataDir } from "../index.mjs";
import { digestOf, identityOf } from "./canonical.mjs";
import { openSnapshot } from "./durable.mjs";

// ---------------------------------------------------------------------------------------------
// Lists and maps

/** Ascending by UTF-16 code units (OP-0.6), which is what `<` compares. */
export const byString = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted, each once (e.g. custodians, required capabilities: TAB-5). @param {string[]} xs */
export const sortedSet = (xs) => [...new Set(xs)].sort(byString);

/** The values of a map keyed by id, in the order of their keys (TAB-5's "sorted by …_id"). */
export const valuesByKey = (map) =>
  Object.keys(map)
    .sort(byString)
    .map((k) => map[k]);

/** A map's own entry, never one inherited from Object.prototype (an id may be "constructor"). */
export const own = (map, key) => (Object.hasOwn(map, key) ? map[key] : undefined);

// ---------------------------------------------------------------------------------------------
// The world (OP-0.1)

/** The empty world (W-2.4): tick 0, no agents, no roots used. */
export const emptyWorld = () => ({ tick: 0, roots_used: [], agents: {} });

/** OP-0.2 (3): the command's agent, or NOT_FOUND. */
export const agentOf = (world, identity, path = ["agent"]) => {
  const agent = own(world.agents, identity);
  if (agent === undefined) throw new Refusal("NOT_FOUND", null, `no agent ${identity}`, path);
  return agent;
};

/**
 * OP-0.4: quiescence. A migration in progress (ripa, OP-7) refuses the guarded operations with I4.
 * Without ripa nothing ever starts a migration, so this never refuses; it is written here so that
 * each guarded operation states the check where OPERATIONS.md lists it.
 */
export const checkQuiescent = (agent) => {
  if (agent.ripa.migration !== null)
    throw new Refusal("RIPA_AUTHORITY_CONFLICT", "I4", `migration ${agent.ripa.migration.migration_id} is in progress`);
};

// ---------------------------------------------------------------------------------------------
// advaita.mint (OP-5.1) and advaita.project_write (OP-4.4)

/** OP-5.2: a provider grant's capabilities are a set; providers are sorted by provider_id. */
export const providerSet = (providers) =>
  providers
    .map((p) => ({ ...p, capabilities: sortedSet(p.capabilities) }))
    .sort((a, b) => byString(a.provider_id, b.provider_id));

/** OP-5.1. */
export const mint = (world, cmd) => {
  if (world.roots_used.includes(cmd.root)) {
    throw new Refusal("ADVAITA_IDENTITY_NOT_SINGLE", "AD-1", `root ${cmd.root} was already used`, ["root"]);
  }
  const seen = new Set();
  cmd.providers.forEach((p, i) => {
    if (seen.has(p.provider_id))
      throw new Refusal("DUPLICATE_ID", null, `provider ${p.provider_id} is granted twice`, [
        "providers",
        i,
        "provider_id",
      ]);
    seen.add(p.provider_id);
  });

  const genesis = digestOf("genesis", { base_digest: cmd.base_digest, root: cmd.root }); // OP-1.4
  const identity = identityOf(cmd.base_digest, genesis); // OP-1.5
  const install = digestOf("memorySnapshot", { prev: null, cause: "install", store_head: genesis, task_ids: [] }); // OP-1.10
  world.agents[identity] = {
    identity: { identity, base_digest: cmd.base_digest, lineage_root: genesis, root: cmd.root },
    substrate: {
      identity: { identity, designation: cmd.designation, identity_version: 1 },
      memory: { ancestry: [install], store_head: genesis, task_ids: [] },
      body: { revision: cmd.body_revision, lineage: [cmd.body_revision] },
    },
    store: {
      chain: [
        {
          version_id: genesis,
          seq: 0,
          parent: null,
          batch_digest: null,
          state_digest: digestOf("storeState", { entries: [] }),
        },
      ],
      batches: [],
      state: { entries: [] },
      distillates: [],
      excisions: [],
      quarantined: [],
      momentum: [],
    },
    instances: {}, // instance_id → InstanceView (step 2: janma.conceive)
    obligations: {}, // obligation_id → DistillationObligation (step 2: janma.distil)
    ripa: {
      custodians: sortedSet(cmd.custodians),
      execution: cmd.execution,
      replicas: [],
      surfaces: [],
      providers: providerSet(cmd.providers),
      required_capabilities: sortedSet(cmd.required_capabilities),
      authority: { token: cmd.authority_token, generation: 1, holder: cmd.execution.execution_id },
      live_attempts: [],
      effects: [],
      fences: [],
      marker: null,
      migration: null,
      reports: [],
    },
  };
  world.roots_used = sortedSet([...world.roots_used, cmd.root]);
  return [
    { type: "agent.minted", identity, genesis },
    { type: "epoch.advanced", generation: 1, holder: cmd.execution.execution_id },
  ];
};

/** OP-4.4: a projection never writes the store; the door exists so that it can be refused. */
export const projectWrite = (world, cmd, agent) => {
  if (own(agent.instances, cmd.instance_id) === undefined)
    throw new Refusal("NOT_FOUND", null, `no instance ${cmd.instance_id}`, ["instance_id"]);
  throw new Refusal(
    "ADVAITA_PROJECTION_STATEFUL",
    "AD-2",
    "a projection cannot write the store; its only path to it is its distillate",
    ["disposition"],
  );
};

// ---------------------------------------------------------------------------------------------
// Views (W-6, WorldView.schema.json): each query result is a slice of the world view

export const storeView = (agent) => ({
  head: agent.store.chain[agent.store.chain.length - 1].version_id,
  ...agent.store,
});

export const agentView = (agent) => ({
  identity: agent.identity,
  substrate: agent.substrate,
  store: storeView(agent),
  instances: valuesByKey(agent.instances),
  obligations: valuesByKey(agent.obligations),
  ripa: agent.ripa,
});

export const worldView = (world) => ({
  tick: world.tick,
  roots_used: world.roots_used,
  agents: valuesByKey(world.agents).map(agentView),
});

/** The W-6 queries over a world; `world()` returns the current one. */
export const queries = (world) => {
  const agent = (q) => agentOf(world(), q.agent);
  return {
    world: () => worldView(world()),
    agent: (q) => agentView(agent(q)),
    store: (q) => storeView(agent(q)),
    lineage: (q) => {
      const a = agent(q);
      const s = storeView(a);
      return {
        identity: a.identity.identity,
        genesis: a.identity.lineage_root,
        head: s.head,
        chain: s.chain,
        batches: s.batches,
        excisions: s.excisions,
      };
    },
    instances: (q) => valuesByKey(agent(q).instances),
    // D-017: an id never conceived is avyakrta (unmanifest), not NOT_FOUND.
    instance_state: (q) => ({
      instance_id: q.instance_id,
      state: own(agent(q).instances, q.instance_id)?.state ?? "avyakrta",
    }),
    obligations: (q) => valuesByKey(agent(q).obligations),
    identity: (q) => {
      const a = agent(q);
      return {
        identity: a.identity,
        record: a.substrate.identity,
        record_digest: digestOf("identityRecord", a.substrate.identity),
      }; // OP-1.11
    },
    substrate: (q) => agent(q).substrate,
    authority: (q) => {
      const { authority, execution, replicas } = agent(q).ripa;
      return { authority, execution, replicas };
    },
    migration: (q) => {
      const { fences, marker, migration, reports } = agent(q).ripa;
      return { fences, marker, migration, reports };
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The process

/**
 * Serves a world with these operations. Each operation is `(world, cmd, agent) => events`: it
 * throws a Refusal before changing anything, or changes `world` and returns the events. It is run
 * on a copy of the committed world after the common checks of OP-0.2 (the adapter has already
 * checked the schema); the copy, with the tick advanced (OP-0.3), is written durably and becomes
 * the world only when the operation returns. A refusal leaves the committed world untouched.
 *
 * @param {{ implementation: { name: string, version: string }, families: string[],
 *           operations: Record<string, (world: any, cmd: any, agent: any) => object[]> }} options
 */
export const serveWorld = ({ implementation, families, operations }) => {
  const dir = dataDir();
  const snapshot = openSnapshot(dir, emptyWorld); // recovers before hello (W-7.1)
  let world = snapshot.state;

  const command = {};
  for (const [op, run] of Object.entries(operations)) {
    command[op] = (cmd) => {
      const draft = structuredClone(world);
      if (cmd.tick < draft.tick)
        throw new Refusal("TICK_REGRESSED", null, `tick ${cmd.tick} is before the world tick ${draft.tick}`, ["tick"]);
      const agent = cmd.agent === undefined ? undefined : agentOf(draft, cmd.agent);
      const events = run(draft, cmd, agent);
      draft.tick = cmd.tick;
      snapshot.save(draft);
      world = draft;
      return events;
    };
  }
  const current = () => world;
  serve({
    implementation,
    profile: { families, crash_hook: false },
    handlers: {
      command,
      query: queries(current),
      reset: () => {
        const empty = emptyWorld();
        snapshot.save(empty);
        world = empty;
      },
    },
  });
};
