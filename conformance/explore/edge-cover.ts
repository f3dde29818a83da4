/**
 * A set of sessions that drives every edge (state, command) of a scope's explored graph (issue 27
 * item 3): what the exhaustive certification stage replays over the wire. Each session starts from
 * the initial world (the stage sends `reset` before it) and is a list of commands, with a world
 * query after every state it checks.
 *
 * Built from the breadth-first tree of the exploration (explore.ts EdgeEvent), depth first:
 *
 * - On its first visit to a state, a session sends every command the model rejects there (a
 *   rejection leaves the state as it was, OP-0.2, so they all apply to the same state), then a
 *   world query: every distinct state's world view is compared once, and a rejection that changed
 *   the implementation's state shows in it.
 * - It then goes down the tree: the first child on the same session, each other child on a new
 *   session that replays the tree path to the parent (its replies compared again) and goes on
 *   from there. A leaf ends its session.
 * - An accepted command that reaches a state already seen (up to the scope's symmetry), the only
 *   edges the tree does not hold, each gets a session of its own: the tree path to its state, the
 *   command, a world query. Going on from there would mean renaming ids (the state matched only
 *   up to symmetry), so the session ends.
 *
 * So each edge is driven on a session that reached its state by the model's own shortest path,
 * and the cover is checked, not assumed: `drivenEdges` replays the sessions in the model and
 * names the edges the sessions drive (edge-cover.test.ts compares them with the exploration's).
 */
import type { Command, WorldView } from "../../spec/index.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { abstractEdge, outcomeOf } from "../oracle/abstract-edges.ts";
import { expect1 } from "../oracle/model.ts";
import { canonicalJson, fingerprint } from "./fingerprint.ts";
import { explore, type EdgeEvent, type ExploreOptions, type ExploreResult } from "./explore.ts";
import type { Scope } from "./scope.ts";

/** A step of a cover session: a command, or a world query checking the state reached. */
export type CoverItem = { readonly command: Command } | { readonly world: true };

export interface CoverSession {
  /** The part of the scope whose graph it walks (the scope's name when it has no parts). */
  readonly part: string;
  readonly items: readonly CoverItem[];
}

export interface EdgeCover {
  readonly scope: string;
  /** Edges of the explored graph (steps the explorer tried), all driven by the sessions. */
  readonly edges: number;
  /** Distinct states, each with a world query on the session that first reaches it. */
  readonly states: number;
  readonly sessions: readonly CoverSession[];
  /** Commands and world queries over all sessions (the `reset` before each not counted). */
  readonly requests: number;
  /** The exploration the cover was built from. */
  readonly explored: ExploreResult;
  /** The graph's edges abstracted (oracle/abstract-edges.ts): the reachable set the coverage figure measures against. */
  readonly abstractEdges: ReadonlySet<string>;
}

interface PartGraph {
  /** Per state: the tree edges to its children, in the order found. */
  readonly children: Array<Array<{ readonly to: number; readonly command: Command }>>;
  /** Per state: the commands rejected there. */
  readonly rejected: Command[][];
  /** Per state: the accepted commands that reach a state already seen. */
  readonly rejoining: Command[][];
}

const slot = <T>(xs: T[][], k: number): T[] => (xs[k] ??= []);

/** The sessions walking one part's graph from its initial state 0. */
const sessionsOf = (part: string, g: PartGraph): CoverSession[] => {
  const out: CoverSession[] = [];
  const visit = (k: number, items: CoverItem[], pathTo: readonly Command[]): void => {
    for (const command of g.rejected[k] ?? []) items.push({ command });
    items.push({ world: true });
    for (const command of g.rejoining[k] ?? [])
      out.push({ part, items: [...pathTo.map((c) => ({ command: c })), { command }, { world: true }] });
    const kids = g.children[k] ?? [];
    if (kids.length === 0) {
      out.push({ part, items });
      return;
    }
    kids.forEach(({ to, command }, i) => {
      const session = i === 0 ? items : pathTo.map((c): CoverItem => ({ command: c }));
      session.push({ command });
      visit(to, session, [...pathTo, command]);
    });
  };
  visit(0, [], []);
  return out;
};

/** Explores `scope` and builds the sessions that drive every edge of its graph. */
export const edgeCover = (scope: Scope, options: Omit<ExploreOptions, "onEdge"> = {}): EdgeCover => {
  const graphs = new Map<string, PartGraph>();
  const abstractEdges = new Set<string>();
  // A state's view once, for all the commands tried in it (they come one state after another).
  let viewed: { world: World; view: WorldView } | null = null;
  let edges = 0;
  const onEdge = (e: EdgeEvent): void => {
    edges++;
    if (viewed?.world !== e.world) viewed = { world: e.world, view: view(e.world) };
    abstractEdges.add(abstractEdge(viewed.view, e.command.op, outcomeOf(e.accepted, e.check ?? undefined)));
    let g = graphs.get(e.part);
    if (g === undefined) graphs.set(e.part, (g = { children: [], rejected: [], rejoining: [] }));
    if (!e.accepted) slot(g.rejected, e.from).push(e.command);
    else if (e.to === null) slot(g.rejoining, e.from).push(e.command);
    else slot(g.children, e.from).push({ to: e.to, command: e.command });
  };
  const explored = explore(scope, { ...options, onEdge });
  const sessions = explored.parts.flatMap((p) =>
    sessionsOf(p.name, graphs.get(p.name) ?? { children: [], rejected: [], rejoining: [] }),
  );
  return {
    scope: scope.name,
    edges,
    states: explored.distinct,
    sessions,
    requests: sessions.reduce((a, s) => a + s.items.length, 0),
    explored,
    abstractEdges,
  };
};

/** The key of an edge: the exact state (its fingerprint, no symmetry) and the command. */
export const edgeKey = (world: World, command: Command): string => `${fingerprint(world)} ${canonicalJson(command)}`;

/**
 * The edges the sessions drive, replayed in the model from the initial world: each command's key
 * in the state the session had reached. A check of the cover, independent of how it was built.
 */
export const drivenEdges = (cover: Pick<EdgeCover, "sessions">): Set<string> => {
  const driven = new Set<string>();
  for (const s of cover.sessions) {
    let world = initialWorld();
    for (const item of s.items) {
      if (!("command" in item)) continue;
      driven.add(edgeKey(world, item.command));
      world = expect1(world, item.command).world;
    }
  }
  return driven;
};
