/**
 * The abstraction the coverage figure counts in (D-075): a world view's shape, not its values. Two
 * worlds that differ only in ids, texts, digests and ticks have the same abstract state; a life in
 * another Janma state, an obligation more, a migration in another phase make another one; counts
 * stop at CAP; agents are unordered. The worlds are built by the model from real commands.
 */
import { describe, expect, it } from "vitest";
import type { Command, WorldView } from "../../spec/index.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { loadScope } from "../explore/scope.ts";
import { edgeCover } from "../explore/edge-cover.ts";
import { abstractEdge, abstractState, CAP, edgeCoverage, outcomeOf, showEdgeCoverage } from "./abstract-edges.ts";
import { expect1 } from "./model.ts";

/** The world views along the breadth-first paths of the quick scope's Samsara part, with the commands that made them. */
const samsara = (() => {
  const scope = loadScope("quick");
  const part = { ...scope, parts: undefined, name: "s", max_depth: 4 };
  const cover = edgeCover(part);
  const views: { readonly commands: readonly Command[]; readonly view: WorldView }[] = [];
  for (const s of cover.sessions) {
    let w: World = initialWorld();
    const commands: Command[] = [];
    for (const item of s.items) {
      if ("command" in item) {
        const e = expect1(w, item.command);
        if (e.reply.ok) commands.push(item.command);
        w = e.world;
      } else views.push({ commands: [...commands], view: view(w) });
    }
  }
  return views;
})();

/** A deep copy with every string that looks like an id, a digest or a text replaced: the shape kept. */
const renamed = (v: WorldView): WorldView =>
  JSON.parse(JSON.stringify(v), (_k, x: unknown) =>
    typeof x === "string" &&
    ![
      "conceived",
      "ready",
      "active",
      "withdrawn",
      "dissolved",
      "corrective",
      "reinforcing",
      "fenced",
      "checkpointed",
      "validated",
      "bound",
      "rehydrated",
    ].includes(x)
      ? `${x}-renamed`
      : x,
  ) as WorldView;

describe("abstract state (D-075)", () => {
  it("is the same for worlds that differ only in ids, texts and digests", () => {
    expect(samsara.length).toBeGreaterThan(10);
    for (const { view: v } of samsara) expect(abstractState(renamed(v))).toBe(abstractState(v));
  });

  it("tells apart worlds whose lives are in different Janma states", () => {
    const byState = new Map<string, string>();
    for (const { view: v } of samsara) {
      const states = v.agents
        .flatMap((a) => a.instances.map((i) => i.state))
        .sort()
        .join(",");
      const a = abstractState(v);
      if (byState.has(states)) continue;
      for (const [other, abs] of byState) expect(abs, `${states} vs ${other}`).not.toBe(a);
      byState.set(states, a);
    }
    expect(byState.size).toBeGreaterThan(3);
  });

  it("stops counting at CAP, and does not care in which order the agents come", () => {
    const v = samsara.find((x) => (x.view.agents[0]?.instances.length ?? 0) > 0)?.view;
    if (v === undefined) throw new Error("no world with a life");
    const agent = v.agents[0] as WorldView["agents"][number];
    const life = agent.instances[0] as WorldView["agents"][number]["instances"][number];
    const withLives = (n: number): WorldView => ({
      ...v,
      agents: [{ ...agent, instances: Array.from({ length: n }, (_, k) => ({ ...life, instance_id: `i${k}` })) }],
    });
    expect(abstractState(withLives(CAP))).not.toBe(abstractState(withLives(CAP - 1)));
    expect(abstractState(withLives(CAP + 3))).toBe(abstractState(withLives(CAP)));
    const two: WorldView = { ...v, agents: [agent, { ...agent, instances: [] }] };
    const swapped: WorldView = { ...v, agents: [{ ...agent, instances: [] }, agent] };
    expect(abstractState(two)).toBe(abstractState(swapped));
    expect(abstractState(two)).not.toBe(abstractState({ ...v, agents: [agent] }));
  });

  it("an edge is the state before, the operation and the outcome: ok, or the check that refused it", () => {
    const v = view(initialWorld());
    expect(outcomeOf(true, "OP-2.3.c6")).toBe("ok");
    expect(outcomeOf(false, "OP-2.3.c6")).toBe("OP-2.3.c6");
    expect(abstractEdge(v, "janma.act", "OP-2.3.c6")).toBe(`${abstractState(v)} janma.act OP-2.3.c6`);
  });

  it("the coverage record holds the covered edges as indices into the sorted reachable ones", () => {
    const reachable = new Set(["c", "a", "b", "d"]);
    const c = edgeCoverage("quick", reachable, new Set(["d", "a", "z"]));
    expect(c).toEqual({ scope: "quick", reachable: 4, covered: [0, 3] });
    expect(showEdgeCoverage(c)).toBe("2 of 4 reachable abstract edges (50.0 %)");
    expect(showEdgeCoverage({ reachable: 0, covered: [] })).toBe("0 of 0 reachable abstract edges (—)");
  });
});
