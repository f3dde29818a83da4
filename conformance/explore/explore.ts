/**
 * Breadth-first exploration of the reference model over a finite scope (issue 27 item 1): from
 * the initial world, apply every command of the scope (commands.ts) in every state, deduplicate
 * states by a 64-bit fingerprint (fingerprint.ts), and check all 19 predicates in every state
 * reached; count every operation (accepted / rejected) and every check clause that fired (the
 * rejection's check) or held (each check of an accepted operation).
 *
 * Predicates: a state predicate is checked in every distinct state; a transition predicate on
 * every step tried (accepted or rejected); a history predicate on the breadth-first path to every
 * distinct state (the first, hence a shortest, path found to it: histories reaching the same state
 * by other paths are not checked). The first violation of each predicate comes with a shortest
 * path (breadth-first order) as the list of commands from the initial world.
 *
 * Pure except for the optional progress callback (and the clock, read for the timings).
 */
import type { Command } from "../../spec/index.ts";
import { CHECKS, checksOf } from "../../spec/checks.ts";
import { INVARIANT_IDS, type InvariantId } from "../../spec/invariant-ids.ts";
import { PREDICATES, initialWorld, type HistoryStep, type Predicate, type World } from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { commandsAt } from "./commands.ts";
import { fingerprint } from "./fingerprint.ts";
import type { Scope } from "./scope.ts";

export interface OpCount {
  accepted: number;
  rejected: number;
}

export interface CheckCount {
  fired: number;
  held: number;
}

export interface Violation {
  readonly predicate: InvariantId;
  readonly violation: string;
  /** Depth of the state (or of the step's target) where it was seen: the path's length. */
  readonly depth: number;
  /** The commands from the initial world; the last is the step that violated (transition kind) or reached the state. */
  readonly path: readonly Command[];
}

export interface Progress {
  readonly states: number;
  readonly distinct: number;
  readonly depth: number;
  readonly elapsedMs: number;
  readonly statesPerSecond: number;
}

export interface ExploreResult {
  readonly scope: string;
  /** Steps tried (commands applied, accepted or rejected). */
  readonly states: number;
  /** Distinct states (fingerprints) reached, the initial world included. */
  readonly distinct: number;
  /** Deepest depth with a state. */
  readonly depth: number;
  readonly maxDepth: number;
  /** Whether the search ended because max_states was reached (the rest is unexplored). */
  readonly truncated: boolean;
  /** Whether every state within max_depth was expanded (no new states below the bound: the scope's graph is finished). */
  readonly exhausted: boolean;
  /** New distinct states per depth, index = depth. */
  readonly perDepth: readonly number[];
  readonly perOp: Readonly<Record<string, OpCount>>;
  readonly perMaker: Readonly<Record<string, OpCount>>;
  readonly perCheck: Readonly<Record<string, CheckCount>>;
  /** Predicate id → times checked, for each of the 19. */
  readonly predicateChecks: Readonly<Record<string, number>>;
  readonly violations: readonly Violation[];
  readonly elapsedMs: number;
  readonly statesPerSecond: number;
}

export interface ExploreOptions {
  /** The predicates to check (default: the model's PREDICATES); a test may plant a wrong one. */
  readonly predicates?: Readonly<Record<InvariantId, Predicate>>;
  readonly onProgress?: (p: Progress) => void;
  /** Milliseconds between progress reports (default 1000). */
  readonly progressEveryMs?: number;
  readonly now?: () => number;
}

interface Node {
  readonly world: World;
  readonly parent: number;
  readonly step: HistoryStep | null;
  readonly depth: number;
}

const pathOf = (nodes: readonly Node[], k: number): HistoryStep[] => {
  const h: HistoryStep[] = [];
  for (let i = k; i >= 0; ) {
    const n = nodes[i] as Node;
    if (n.step !== null) h.push(n.step);
    i = n.parent;
  }
  return h.reverse();
};

export const explore = (scope: Scope, options: ExploreOptions = {}): ExploreResult => {
  const predicates = options.predicates ?? PREDICATES;
  const now = options.now ?? (() => performance.now());
  const every = options.progressEveryMs ?? 1000;
  const t0 = now();
  let lastReport = t0;

  const perOp: Record<string, OpCount> = {};
  const perMaker: Record<string, OpCount> = {};
  const perCheck: Record<string, CheckCount> = Object.fromEntries(CHECKS.map((c) => [c.id, { fired: 0, held: 0 }]));
  const predicateChecks: Record<string, number> = Object.fromEntries(INVARIANT_IDS.map((id) => [id, 0]));
  const violated = new Map<InvariantId, Violation>();
  const ids = INVARIANT_IDS.filter((id) => predicates[id] !== undefined);
  const byKind = (kind: Predicate["kind"]) => ids.filter((id) => predicates[id].kind === kind);
  const stateIds = byKind("state");
  const transitionIds = byKind("transition");
  const historyIds = byKind("history");

  const note = (id: InvariantId, v: true | { readonly violation: string }, depth: number, path: () => readonly Command[]) => {
    predicateChecks[id] = (predicateChecks[id] ?? 0) + 1;
    if (v !== true && !violated.has(id)) violated.set(id, { predicate: id, violation: v.violation, depth, path: path() });
  };
  const checkState = (nodes: readonly Node[], k: number) => {
    const n = nodes[k] as Node;
    let history: HistoryStep[] | undefined;
    const hist = () => (history ??= pathOf(nodes, k));
    const cmds = () => hist().map((s) => s.command);
    for (const id of stateIds) note(id, (predicates[id] as Extract<Predicate, { kind: "state" }>).check(n.world), n.depth, cmds);
    for (const id of historyIds) note(id, (predicates[id] as Extract<Predicate, { kind: "history" }>).check(hist()), n.depth, cmds);
  };

  const init = initialWorld();
  const nodes: Node[] = [{ world: init, parent: -1, step: null, depth: 0 }];
  const seen = new Set<string>([fingerprint(init)]);
  const perDepth: number[] = [1];
  checkState(nodes, 0);
  let tried = 0;
  let truncated = false;
  let frontierEmptyBelowBound = true;
  let depth = 0;

  const progress = (): Progress => {
    const elapsedMs = now() - t0;
    return { states: tried, distinct: seen.size, depth, elapsedMs, statesPerSecond: elapsedMs > 0 ? Math.round((tried * 1000) / elapsedMs) : 0 };
  };

  outer: for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k] as Node;
    if (n.depth >= scope.max_depth) continue;
    for (const { maker, command } of commandsAt(scope, n.world)) {
      tried++;
      const e = expect1(n.world, command);
      const op = command.op;
      const accepted = e.reply.ok;
      const oc = (perOp[op] ??= { accepted: 0, rejected: 0 });
      const mc = (perMaker[maker] ??= { accepted: 0, rejected: 0 });
      if (accepted) {
        oc.accepted++;
        mc.accepted++;
        for (const c of checksOf(op)) (perCheck[c.id] as CheckCount).held++;
      } else {
        oc.rejected++;
        mc.rejected++;
        const id = e.rejectedAt?.check;
        if (id !== undefined) (perCheck[id] ??= { fired: 0, held: 0 }).fired++;
      }
      const step: HistoryStep = { prev: n.world, next: e.world, command, events: e.reply.ok ? e.reply.events : [], accepted };
      for (const id of transitionIds)
        note(id, (predicates[id] as Extract<Predicate, { kind: "transition" }>).check(step), n.depth + 1, () => [...pathOf(nodes, k).map((s) => s.command), command]);
      if (accepted) {
        const f = fingerprint(e.world);
        if (!seen.has(f)) {
          if (seen.size >= scope.max_states) {
            truncated = true;
            break outer;
          }
          seen.add(f);
          const d = n.depth + 1;
          nodes.push({ world: e.world, parent: k, step, depth: d });
          perDepth[d] = (perDepth[d] ?? 0) + 1;
          if (d > depth) depth = d;
          checkState(nodes, nodes.length - 1);
        }
      }
      if (options.onProgress !== undefined && now() - lastReport >= every) {
        lastReport = now();
        options.onProgress(progress());
      }
    }
  }
  // Exhausted: no state at the depth bound was produced (the graph closed before the bound).
  frontierEmptyBelowBound = !truncated && (perDepth[scope.max_depth] ?? 0) === 0;
  const p = progress();
  options.onProgress?.(p);
  return {
    scope: scope.name,
    states: tried,
    distinct: seen.size,
    depth,
    maxDepth: scope.max_depth,
    truncated,
    exhausted: frontierEmptyBelowBound,
    perDepth,
    perOp,
    perMaker,
    perCheck,
    predicateChecks,
    violations: INVARIANT_IDS.flatMap((id) => violated.get(id) ?? []),
    elapsedMs: p.elapsedMs,
    statesPerSecond: p.statesPerSecond,
  };
};
