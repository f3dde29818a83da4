/**
 * The two state machines the reports draw — the Janma lifecycle of an instance (OP-2) and the RIPA
 * migration of an agent (OP-7) — and the coverage of their transitions by a certification.
 *
 * A transition is derived from an accepted command and the model's reply to it, replayed in order
 * over one fresh world (a golden session, or one differential run after `reset`):
 *
 * - Janma, per (agent, instance_id): the `instance.*` events of the reply move the instance —
 *   `conceived`, `born` → ready, `acted` → active, `withdrawn`, `dissolved` — from the state it was
 *   in (`avyakrta` before its conception). A `janma.act` whose termination condition fires moves
 *   it twice (→ active, then → withdrawn), both under `janma.act`.
 * - RIPA migration, per agent: the op names the phase (`ripa.migration_fence` → fenced, …,
 *   `ripa.migration_resume` → resumed, `ripa.migration_cancel` → cancelled); after resumed or
 *   cancelled the agent is idle again.
 *
 * Only steps whose reply agreed with the model are recorded (the stages pass those), so a count is
 * how often the implementation made that transition as the reference model did.
 */
import { INSTANCE_STATES, type InstanceState } from "../../spec/schemas/janma.ts";
import { MIGRATION_STATES, type CoveredTransition } from "../../spec/certificate.ts";

export type MigrationState = (typeof MIGRATION_STATES)[number];
export type Machine = CoveredTransition["machine"];

export interface MachineEdge {
  readonly from: string;
  readonly to: string;
  /** The operations that make this transition (OPERATIONS.md). */
  readonly ops: readonly string[];
}

export interface MachineSpec {
  readonly machine: Machine;
  readonly title: string;
  readonly states: readonly string[];
  readonly initial: string;
  readonly terminal: readonly string[];
  /** The main path, drawn in a straight line. */
  readonly spine: readonly string[];
  readonly edges: readonly MachineEdge[];
}

/** OP-2: conceive, birth, act, withdraw / expire / a termination condition, dissolve. */
export const JANMA_MACHINE: MachineSpec = {
  machine: "janma",
  title: "Janma lifecycle of an instance (OP-2)",
  states: INSTANCE_STATES,
  initial: "avyakrta",
  terminal: ["dissolved"],
  spine: ["avyakrta", "conceived", "ready", "active", "withdrawn", "dissolved"],
  edges: [
    { from: "avyakrta", to: "conceived", ops: ["janma.conceive"] },
    { from: "conceived", to: "ready", ops: ["janma.birth"] },
    { from: "ready", to: "active", ops: ["janma.act"] },
    { from: "active", to: "active", ops: ["janma.act"] },
    { from: "ready", to: "withdrawn", ops: ["janma.withdraw", "janma.expire"] },
    { from: "active", to: "withdrawn", ops: ["janma.withdraw", "janma.expire", "janma.act"] },
    { from: "withdrawn", to: "dissolved", ops: ["janma.dissolve"] },
  ],
};

const CANCEL = "ripa.migration_cancel";

/** OP-7: fence → checkpoint → validate → bind → rehydrate → resume, or cancel from any phase. */
export const MIGRATION_MACHINE: MachineSpec = {
  machine: "ripa-migration",
  title: "RIPA migration of an agent (OP-7)",
  states: MIGRATION_STATES,
  initial: "idle",
  terminal: ["resumed", "cancelled"],
  spine: ["idle", "fenced", "checkpointed", "validated", "bound", "rehydrated", "resumed"],
  edges: [
    { from: "idle", to: "fenced", ops: ["ripa.migration_fence"] },
    { from: "fenced", to: "checkpointed", ops: ["ripa.migration_checkpoint"] },
    { from: "checkpointed", to: "validated", ops: ["ripa.migration_validate"] },
    { from: "validated", to: "bound", ops: ["ripa.migration_bind"] },
    { from: "bound", to: "rehydrated", ops: ["ripa.migration_rehydrate"] },
    { from: "rehydrated", to: "resumed", ops: ["ripa.migration_resume"] },
    ...(["fenced", "checkpointed", "validated", "bound", "rehydrated"] as const).map((from) => ({
      from,
      to: "cancelled",
      ops: [CANCEL],
    })),
  ],
};

export const MACHINES: readonly MachineSpec[] = [JANMA_MACHINE, MIGRATION_MACHINE];

/** The phase a migration op moves to (OP-7). */
const MIGRATION_TARGET: Readonly<Record<string, MigrationState>> = {
  "ripa.migration_fence": "fenced",
  "ripa.migration_checkpoint": "checkpointed",
  "ripa.migration_validate": "validated",
  "ripa.migration_bind": "bound",
  "ripa.migration_rehydrate": "rehydrated",
  "ripa.migration_resume": "resumed",
  [CANCEL]: "cancelled",
};

/** The instance state an `instance.*` event moves to. */
const JANMA_EVENT_TARGET: Readonly<Record<string, InstanceState>> = {
  "instance.conceived": "conceived",
  "instance.born": "ready",
  "instance.acted": "active",
  "instance.withdrawn": "withdrawn",
  "instance.dissolved": "dissolved",
};

/** One step as the stages plan it: a request and the model's (agreed) reply. */
export interface CoverageStep {
  readonly request: { readonly type: string; readonly [k: string]: unknown };
  readonly expected: unknown;
}

type Transition = Omit<CoveredTransition, "count">;

const record = (x: unknown): Record<string, unknown> | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;

/** The transitions of one session on a fresh world, in order. */
export const sessionTransitions = (steps: readonly CoverageStep[]): Transition[] => {
  const instances = new Map<string, InstanceState>();
  const migrations = new Map<string, MigrationState>();
  const out: Transition[] = [];
  for (const s of steps) {
    if (s.request.type !== "command") continue;
    const reply = record(s.expected);
    if (reply?.["ok"] !== true) continue;
    const command = record(s.request["command"]);
    const op = command?.["op"];
    if (command === null || typeof op !== "string") continue;
    const agent = String(command["agent"] ?? "");
    const events = Array.isArray(reply["events"]) ? reply["events"] : [];
    for (const e of events) {
      const ev = record(e);
      const to = JANMA_EVENT_TARGET[String(ev?.["type"])];
      if (ev === null || to === undefined) continue;
      const key = `${agent}\u0000${String(ev["instance_id"])}`;
      const from = instances.get(key) ?? "avyakrta";
      instances.set(key, to);
      out.push({ machine: "janma", from, to, op });
    }
    const phase = MIGRATION_TARGET[op];
    if (phase !== undefined) {
      const from = migrations.get(agent) ?? "idle";
      migrations.set(agent, phase === "resumed" || phase === "cancelled" ? "idle" : phase);
      out.push({ machine: "ripa-migration", from, to: phase, op });
    }
  }
  return out;
};

/** The differential campaign's guidance, planned in the model: reachable abstract edges its guided and unguided runs make. */
export interface Guidance {
  readonly scope: string;
  readonly unguided: number;
  readonly guided: number;
  readonly steered: number;
}

/** Transition counts of a certification, next to the WitnessBook; written as `coverage` in the certificate. */
export class CoverageBook {
  private readonly counts = new Map<string, CoveredTransition>();
  private readonly abstract = new Set<string>();

  /** Records the abstract edges (abstract-edges.ts) of one agreed run of the differential campaign (D-075). */
  recordEdges(edges: Iterable<string>): void {
    for (const e of edges) this.abstract.add(e);
  }

  /** The abstract edges the differential campaign covered. */
  edges(): ReadonlySet<string> {
    return this.abstract;
  }

  private guiding: Guidance | null = null;

  /** What the coverage guidance of the differential campaign planned (D-075). */
  recordGuidance(g: Guidance): void {
    this.guiding = g;
  }

  guidance(): Guidance | null {
    return this.guiding;
  }

  /** Records the agreed steps of one session that started on a fresh world. */
  recordSession(steps: readonly CoverageStep[]): void {
    for (const t of sessionTransitions(steps)) {
      const key = `${t.machine} ${t.from} ${t.to} ${t.op}`;
      const c = this.counts.get(key);
      if (c === undefined) this.counts.set(key, { ...t, count: 1 } as CoveredTransition);
      else c.count++;
    }
  }

  /** Every transition made at least once, in machine order, then by state order, then op. */
  transitions(): CoveredTransition[] {
    const rank = (t: CoveredTransition): [number, number, number, string] => {
      const m = MACHINES.findIndex((x) => x.machine === t.machine);
      const states = MACHINES[m]?.states ?? [];
      return [m, states.indexOf(t.from), states.indexOf(t.to), t.op];
    };
    return [...this.counts.values()]
      .map((t) => ({ ...t }))
      .sort((a, b) => {
        const [x, y] = [rank(a), rank(b)];
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3].localeCompare(y[3]);
      });
  }
}
