/**
 * The exhaustive stage's sessions drive every edge of the explored graph and nothing else. The
 * expected edges are the explorer's own steps (its EdgeEvents, keyed by the exact state and the
 * command); the sessions are replayed in the model independently of how they were built
 * (drivenEdges), so a cover that loses or invents an edge fails here.
 */
import { describe, expect, it } from "vitest";
import { initialWorld } from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { drivenEdges, edgeCover, edgeKey, type CoverSession } from "./edge-cover.ts";
import { explore, type EdgeEvent } from "./explore.ts";
import { loadScope, parseScope, partsOf, type Scope } from "./scope.ts";

const quick = loadScope("quick");
/** The quick scope with each part's depth set (samsara, ripa, migration): small enough for a test. */
const shallow = (depths: readonly [number, number, number], over: Partial<Scope> = {}): Scope =>
  parseScope({
    ...quick,
    ...over,
    name: "shallow",
    max_depth: depths[0],
    parts: (quick.parts ?? []).map((p, i) => (i === 0 ? p : { ...p, max_depth: depths[i] })),
  });

const edgesOf = (scope: Scope): { keys: Set<string>; events: EdgeEvent[] } => {
  const keys = new Set<string>();
  const events: EdgeEvent[] = [];
  explore(scope, {
    onEdge: (e) => {
      keys.add(edgeKey(e.world, e.command));
      events.push(e);
    },
  });
  return { keys, events };
};

const missing = (want: ReadonlySet<string>, got: ReadonlySet<string>): string[] => [...want].filter((k) => !got.has(k));

describe("edge cover (issue 27 item 3)", () => {
  const scope = shallow([4, 2, 3]);
  const cover = edgeCover(scope);
  const { keys, events } = edgesOf(scope);

  it("drives every edge the explorer tried, and no other", () => {
    const driven = drivenEdges(cover);
    expect(keys.size).toBeGreaterThan(100);
    expect(missing(keys, driven), "edges no session drives").toEqual([]);
    expect(missing(driven, keys), "commands driven that the explorer never tried there").toEqual([]);
    expect(cover.edges).toBe(events.length);
  });

  it("the check fails for a cover that lost a session", () => {
    // One part: within a part each (state, command) is tried once, so every session drives an edge
    // no other does (its last command); parts start from the same initial world and share edges.
    const one = partsOf(scope)[0] as Scope;
    const c = edgeCover(one);
    const k1 = edgesOf(one).keys;
    expect(missing(k1, drivenEdges(c))).toEqual([]);
    for (const drop of [0, Math.floor(c.sessions.length / 2), c.sessions.length - 1]) {
      const lost = { sessions: c.sessions.filter((_, k) => k !== drop) };
      expect(missing(k1, drivenEdges(lost)).length, `without session ${drop}`).toBeGreaterThan(0);
    }
  });

  it("queries the world once per distinct state, and once after each command that rejoins a state already seen", () => {
    const worlds = cover.sessions.reduce((a, s) => a + s.items.filter((i) => "world" in i).length, 0);
    const rejoining = events.filter((e) => e.accepted && e.to === null).length;
    expect(cover.states).toBe(cover.explored.distinct);
    expect(worlds).toBe(cover.states + rejoining);
    expect(cover.requests).toBe(cover.sessions.reduce((a, s) => a + s.items.length, 0));
  });

  it("every session starts from the initial world and ends with a world query; rejected commands leave the model's state as it was", () => {
    for (const s of cover.sessions) {
      expect(s.items.at(-1)).toEqual({ world: true });
      let world = initialWorld();
      for (const item of s.items) {
        if (!("command" in item)) continue;
        const e = expect1(world, item.command);
        if (!e.reply.ok) expect(e.world).toBe(world);
        world = e.world;
      }
    }
  });

  it("a session per leaf of the breadth-first tree and per rejoining edge", () => {
    const parents = new Set(events.filter((e) => e.to !== null).map((e) => `${e.part}#${e.from}`));
    const leaves = cover.explored.parts.reduce((a, p) => a + p.distinct, 0) - parents.size;
    const rejoining = events.filter((e) => e.accepted && e.to === null).length;
    expect(cover.sessions.length).toBe(leaves + rejoining);
    const parts = new Set(cover.sessions.map((s: CoverSession) => s.part));
    expect([...parts].sort()).toEqual(cover.explored.parts.map((p) => p.name).sort());
  });

  it("stays exact when states are identified up to symmetry (a rejoining edge may reach a permuted state)", () => {
    const sym = shallow([4, 2, 3], { symmetry: ["instances"] });
    const c = edgeCover(sym);
    const e = edgesOf(sym);
    const driven = drivenEdges(c);
    expect(missing(e.keys, driven)).toEqual([]);
    expect(missing(driven, e.keys)).toEqual([]);
  });

  it("a scope of depth 0 is one session: the initial world's rejections and one world query", () => {
    const c = edgeCover(parseScope({ ...quick, name: "zero", parts: undefined, max_depth: 0 }));
    expect(c.edges).toBe(0);
    expect(c.sessions).toEqual([{ part: "zero", items: [{ world: true }] }]);
  });
});
