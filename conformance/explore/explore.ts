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
 * A composite scope (`parts`, scope.ts) is explored part after part, each from the initial world,
 * and the result sums them (`parts` lists each). A scope declaring `symmetry` fingerprints a
 * representative of each state under permutations of its interchangeable ids (symmetry.ts).
 *
 * Pure except for the optional progress callback (and the clock and the heap, read for the
 * timings and the memory figures).
 */
import type { Command } from "../../spec/index.ts";
import { CHECKS, checksOf, type CheckClause } from "../../spec/checks.ts";
import { INVARIANT_IDS, type InvariantId } from "../../spec/invariant-ids.ts";
import {
  PREDICATES,
  STEP_CLAUSES,
  initialWorld,
  type HistoryStep,
  type Predicate,
  type StepClause,
  type World,
} from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { commandsAt } from "./commands.ts";
import { FingerprintSet, fnv1a64Halves, structuralHalves, worldText } from "./fingerprint.ts";
import { partsOf, type Scope } from "./scope.ts";
import { representativeOf } from "./symmetry.ts";

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
  /** The part being explored (the scope's name when it has no parts); the counts are that part's. */
  readonly part: string;
  readonly states: number;
  readonly distinct: number;
  readonly depth: number;
  readonly elapsedMs: number;
  readonly statesPerSecond: number;
}

/** Memory of an exploration (summed over parts: the largest part's figures are what one run needs). */
export interface MemoryUse {
  /** Bytes of the visited set (the fingerprint table) at the end, summed over parts. */
  readonly visitedBytes: number;
  /**
   * Visited-set bytes per million distinct states: the table's bytes over its entries, × 10⁶
   * (between 16 and 32 MB: 8 bytes a slot, the table between a quarter and half full; it starts
   * at 1024 slots, so tiny explorations show more).
   */
  readonly visitedBytesPerMillion: number;
  /**
   * Growth of the JavaScript heap during the exploration: the highest process.memoryUsage().heapUsed
   * sampled (every 1024 new states and at the end) minus the value at the start, without forcing a
   * collection, so garbage not yet collected is in it. Mostly the worlds kept for the shortest
   * paths, one per distinct state (structurally shared between a state and its successors).
   */
  readonly heapDeltaBytes: number;
  /** heapDeltaBytes per million distinct states. */
  readonly heapBytesPerMillion: number;
}

/** One part of a composite scope (the scope itself when it has no parts). */
export interface PartSummary {
  readonly name: string;
  readonly states: number;
  readonly distinct: number;
  readonly depth: number;
  readonly maxDepth: number;
  readonly truncated: boolean;
  readonly exhausted: boolean;
  readonly elapsedMs: number;
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
  /** Invariant id → accepted steps its step clause (D-076) read, for the invariants that have one. */
  readonly stepClauseChecks: Readonly<Record<string, number>>;
  readonly violations: readonly Violation[];
  readonly elapsedMs: number;
  readonly statesPerSecond: number;
  /** The parts explored (one, the scope, when it has no parts); the figures above are their sums. */
  readonly parts: readonly PartSummary[];
  /** Whether states were identified up to the scope's symmetric ids (symmetry.ts). */
  readonly symmetry: boolean;
  readonly memory: MemoryUse;
}

/**
 * One step the explorer tried: an edge (state, command) of the explored graph. States are numbered
 * per part in the order they were reached (0 is the initial world); `to` is the state the step
 * discovered, or null when it was rejected (the state is unchanged) or reached a state already
 * seen (up to the scope's symmetry). The steps with a `to` are the breadth-first tree: following
 * them from 0 rebuilds the shortest path to every state (edge-cover.ts builds the exhaustive
 * stage's sessions from these).
 */
export interface EdgeEvent {
  readonly part: string;
  readonly from: number;
  /** The state `from` itself (the world the breadth-first path reached). */
  readonly world: World;
  readonly command: Command;
  readonly accepted: boolean;
  /** The check that refused it (spec/CHECKS.md), when it was refused. */
  readonly check: string | null;
  readonly to: number | null;
}

export interface ExploreOptions {
  /**
   * Which of the scope's commands to try (default: all): the exhaustive stage explores only the
   * operations a profile declares (W-5.2), so its graph is the one that profile can be driven through.
   */
  readonly allow?: (command: Command) => boolean;
  /** Called for every step tried, in breadth-first order (see EdgeEvent). */
  readonly onEdge?: (e: EdgeEvent) => void;
  /** The predicates to check (default: the model's PREDICATES); a test may plant a wrong one. */
  readonly predicates?: Readonly<Record<InvariantId, Predicate>>;
  /** The step clauses to check on every accepted step (default: the model's STEP_CLAUSES, D-076). */
  readonly stepClauses?: Readonly<Partial<Record<InvariantId, StepClause>>>;
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

const exploreOne = (scope: Scope, options: ExploreOptions): ExploreResult => {
  const heap0 = process.memoryUsage().heapUsed;
  let heapPeak = heap0;
  const represent = representativeOf(scope);
  // Without symmetry a state is its own representative: the structural fingerprint, kept per
  // object, costs what the step changed; with symmetry the representative is chosen among texts.
  const halves =
    (scope.symmetry ?? []).length === 0 ? structuralHalves : (w: World) => fnv1a64Halves(represent(worldText(w)));
  const seen = new FingerprintSet();
  /** Adds the state's fingerprint (its representative's); true when it is new. */
  const visit = (w: World): boolean => {
    const [hi, lo] = halves(w);
    return seen.add(hi, lo);
  };
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
  const clauses = Object.entries(options.stepClauses ?? STEP_CLAUSES) as [InvariantId, StepClause][];
  const stepClauseChecks: Record<string, number> = Object.fromEntries(clauses.map(([id]) => [id, 0]));

  const note = (
    id: InvariantId,
    v: true | { readonly violation: string },
    depth: number,
    path: () => readonly Command[],
    counts = predicateChecks,
  ) => {
    counts[id] = (counts[id] ?? 0) + 1;
    if (v !== true && !violated.has(id))
      violated.set(id, { predicate: id, violation: v.violation, depth, path: path() });
  };
  const checkState = (nodes: readonly Node[], k: number) => {
    const n = nodes[k] as Node;
    let history: HistoryStep[] | undefined;
    const hist = () => (history ??= pathOf(nodes, k));
    const cmds = () => hist().map((s) => s.command);
    for (const id of stateIds)
      note(id, (predicates[id] as Extract<Predicate, { kind: "state" }>).check(n.world), n.depth, cmds);
    for (const id of historyIds)
      note(id, (predicates[id] as Extract<Predicate, { kind: "history" }>).check(hist()), n.depth, cmds);
  };

  // checksOf filters the whole table: once per operation, not once per step.
  const checksByOp = new Map<string, readonly CheckClause[]>();
  const checksOfOp = (op: Command["op"]) => {
    let cs = checksByOp.get(op);
    if (cs === undefined) checksByOp.set(op, (cs = checksOf(op)));
    return cs;
  };
  const init = initialWorld();
  const nodes: Node[] = [{ world: init, parent: -1, step: null, depth: 0 }];
  visit(init);
  const perDepth: number[] = [1];
  checkState(nodes, 0);
  let tried = 0;
  let truncated = false;
  let frontierEmptyBelowBound = true;
  let depth = 0;

  const progress = (): Progress => {
    const elapsedMs = now() - t0;
    return {
      part: scope.name,
      states: tried,
      distinct: seen.size,
      depth,
      elapsedMs,
      statesPerSecond: elapsedMs > 0 ? Math.round((tried * 1000) / elapsedMs) : 0,
    };
  };

  outer: for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k] as Node;
    if (n.depth >= scope.max_depth) continue;
    for (const { maker, command } of commandsAt(scope, n.world)) {
      if (options.allow !== undefined && !options.allow(command)) continue;
      tried++;
      const e = expect1(n.world, command);
      const op = command.op;
      const accepted = e.reply.ok;
      const oc = (perOp[op] ??= { accepted: 0, rejected: 0 });
      const mc = (perMaker[maker] ??= { accepted: 0, rejected: 0 });
      if (accepted) {
        oc.accepted++;
        mc.accepted++;
        for (const c of checksOfOp(op)) (perCheck[c.id] as CheckCount).held++;
      } else {
        oc.rejected++;
        mc.rejected++;
        const id = e.rejectedAt?.check;
        if (id !== undefined) {
          (perCheck[id] ??= { fired: 0, held: 0 }).fired++;
          // The checks before the one that fired held: the command passed them (OP-0.2 order).
          for (const c of checksOfOp(op)) {
            if (c.id === id) break;
            (perCheck[c.id] as CheckCount).held++;
          }
        }
      }
      const step: HistoryStep = {
        prev: n.world,
        next: e.world,
        command,
        events: e.reply.ok ? e.reply.events : [],
        accepted,
      };
      for (const id of transitionIds)
        note(id, (predicates[id] as Extract<Predicate, { kind: "transition" }>).check(step), n.depth + 1, () => [
          ...pathOf(nodes, k).map((s) => s.command),
          command,
        ]);
      // A rule a state cannot show (D-076): checked on the step itself, every edge, not only the first path to a state.
      if (accepted)
        for (const [id, clause] of clauses)
          note(
            id,
            clause(step),
            n.depth + 1,
            () => [...pathOf(nodes, k).map((s) => s.command), command],
            stepClauseChecks,
          );
      if (accepted) {
        if (seen.size >= scope.max_states && !seen.has(...halves(e.world))) {
          truncated = true;
          break outer;
        }
        if (visit(e.world)) {
          const d = n.depth + 1;
          options.onEdge?.({
            part: scope.name,
            from: k,
            world: n.world,
            command,
            accepted,
            check: e.rejectedAt?.check ?? null,
            to: nodes.length,
          });
          nodes.push({ world: e.world, parent: k, step, depth: d });
          perDepth[d] = (perDepth[d] ?? 0) + 1;
          if ((seen.size & 1023) === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
          if (d > depth) depth = d;
          checkState(nodes, nodes.length - 1);
        } else
          options.onEdge?.({
            part: scope.name,
            from: k,
            world: n.world,
            command,
            accepted,
            check: e.rejectedAt?.check ?? null,
            to: null,
          });
      } else
        options.onEdge?.({
          part: scope.name,
          from: k,
          world: n.world,
          command,
          accepted,
          check: e.rejectedAt?.check ?? null,
          to: null,
        });
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
  const heapDelta = Math.max(heapPeak, process.memoryUsage().heapUsed) - heap0;
  const perMillion = (bytes: number) => Math.round((bytes / Math.max(1, seen.size)) * 1e6);
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
    stepClauseChecks,
    violations: INVARIANT_IDS.flatMap((id) => violated.get(id) ?? []),
    elapsedMs: p.elapsedMs,
    statesPerSecond: p.statesPerSecond,
    parts: [
      {
        name: scope.name,
        states: tried,
        distinct: seen.size,
        depth,
        maxDepth: scope.max_depth,
        truncated,
        exhausted: frontierEmptyBelowBound,
        elapsedMs: p.elapsedMs,
      },
    ],
    symmetry: (scope.symmetry ?? []).length > 0,
    memory: {
      visitedBytes: seen.bytes,
      visitedBytesPerMillion: perMillion(seen.bytes),
      heapDeltaBytes: heapDelta,
      heapBytesPerMillion: perMillion(heapDelta),
    },
  };
};

const sumOps = (rs: ReadonlyArray<Readonly<Record<string, OpCount>>>): Record<string, OpCount> => {
  const out: Record<string, OpCount> = {};
  for (const r of rs)
    for (const [k, c] of Object.entries(r)) {
      const acc = (out[k] ??= { accepted: 0, rejected: 0 });
      acc.accepted += c.accepted;
      acc.rejected += c.rejected;
    }
  return out;
};

const sumChecks = (rs: ReadonlyArray<Readonly<Record<string, CheckCount>>>): Record<string, CheckCount> => {
  const out: Record<string, CheckCount> = {};
  for (const r of rs)
    for (const [k, c] of Object.entries(r)) {
      const acc = (out[k] ??= { fired: 0, held: 0 });
      acc.fired += c.fired;
      acc.held += c.held;
    }
  return out;
};

/** The sum of the parts' results: counts added, depth the deepest, each predicate's shallowest violation. */
export const combineResults = (name: string, rs: readonly ExploreResult[]): ExploreResult => {
  if (rs.length === 1 && rs[0] !== undefined) return { ...rs[0], scope: name };
  const sum = (f: (r: ExploreResult) => number) => rs.reduce((a, r) => a + f(r), 0);
  const perDepth: number[] = [];
  for (const r of rs) r.perDepth.forEach((n, d) => (perDepth[d] = (perDepth[d] ?? 0) + n));
  const violations = INVARIANT_IDS.flatMap((id) => {
    const vs = rs.flatMap((r) => r.violations.filter((v) => v.predicate === id));
    return vs.length === 0 ? [] : [vs.reduce((a, b) => (b.depth < a.depth ? b : a))];
  });
  const states = sum((r) => r.states);
  const distinct = sum((r) => r.distinct);
  const elapsedMs = sum((r) => r.elapsedMs);
  const visitedBytes = sum((r) => r.memory.visitedBytes);
  const heapDeltaBytes = sum((r) => r.memory.heapDeltaBytes);
  return {
    scope: name,
    states,
    distinct,
    depth: Math.max(...rs.map((r) => r.depth)),
    maxDepth: Math.max(...rs.map((r) => r.maxDepth)),
    truncated: rs.some((r) => r.truncated),
    exhausted: rs.every((r) => r.exhausted),
    perDepth,
    perOp: sumOps(rs.map((r) => r.perOp)),
    perMaker: sumOps(rs.map((r) => r.perMaker)),
    perCheck: sumChecks(rs.map((r) => r.perCheck)),
    predicateChecks: Object.fromEntries(INVARIANT_IDS.map((id) => [id, sum((r) => r.predicateChecks[id] ?? 0)])),
    stepClauseChecks: Object.fromEntries(
      Object.keys(rs[0]?.stepClauseChecks ?? {}).map((id) => [id, sum((r) => r.stepClauseChecks[id] ?? 0)]),
    ),
    violations,
    elapsedMs,
    statesPerSecond: elapsedMs > 0 ? Math.round((states * 1000) / elapsedMs) : 0,
    parts: rs.flatMap((r) => r.parts),
    symmetry: rs.some((r) => r.symmetry),
    memory: {
      visitedBytes,
      visitedBytesPerMillion: Math.round((visitedBytes / Math.max(1, distinct)) * 1e6),
      heapDeltaBytes,
      heapBytesPerMillion: Math.round((heapDeltaBytes / Math.max(1, distinct)) * 1e6),
    },
  };
};

/** Explore a scope: each of its parts in turn (scope.ts `partsOf`), the results summed. */
export const explore = (scope: Scope, options: ExploreOptions = {}): ExploreResult =>
  combineResults(
    scope.name,
    partsOf(scope).map((part) => exploreOne(part, options)),
  );
