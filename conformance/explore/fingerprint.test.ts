/**
 * The explorer's two ways of telling states apart agree with the world's canonical encoding
 * (encodeWorld, Effect Schema): over every world of the quick scope's exploration, the structural
 * fingerprint and the directly written text split the worlds into exactly the classes the encoding
 * does; each is a function of the value, not of which objects it is made of; and a change of any
 * kind (a tick, a Set member, a Map entry, a member's order) moves both.
 */
import { describe, expect, it } from "vitest";
import { initialWorld, type World } from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { explore } from "./explore.ts";
import { encodedWorldText, fingerprint, structuralHalves, worldText } from "./fingerprint.ts";
import { loadScope } from "./scope.ts";

/** Worlds of the quick scope's exploration: every successor of every step, repeats included. */
const worlds = (): World[] => {
  const out: World[] = [initialWorld()];
  explore(loadScope("quick"), {
    onEdge: (e) => {
      if (e.accepted) out.push(expect1(e.world, e.command).world);
    },
  });
  return out;
};

/** The partition of `xs` by `key`, as the sorted list of class sizes with the first index of each. */
const classes = <T>(xs: readonly T[], key: (x: T) => string): string[] => {
  const by = new Map<string, number[]>();
  xs.forEach((x, i) => {
    const k = key(x);
    const c = by.get(k);
    if (c === undefined) by.set(k, [i]);
    else c.push(i);
  });
  return [...by.values()].map((c) => c.join(",")).sort();
};

/** A deep copy made of new objects (Maps and Sets rebuilt), so nothing is shared with the original. */
const copy = (x: unknown): unknown => {
  if (x === null || typeof x !== "object") return x;
  if (Array.isArray(x)) return x.map(copy);
  if (x instanceof Map) return new Map([...x].map(([k, v]) => [k, copy(v)]));
  if (x instanceof Set) return new Set([...x].map(copy));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, copy(v)]));
};

describe("state fingerprints", () => {
  it("the structural fingerprint and the direct text partition the quick scope's worlds as the canonical encoding does", () => {
    const ws = worlds();
    // The worlds the edges report are the states steps start from: many repeat, many are distinct.
    const byEncoding = classes(ws, encodedWorldText);
    expect(byEncoding.length).toBeGreaterThan(300);
    expect(byEncoding.length).toBeLessThan(ws.length);
    expect(classes(ws, worldText)).toEqual(byEncoding);
    expect(classes(ws, fingerprint)).toEqual(byEncoding);
  });

  it("is a function of the value: a copy sharing no object with the original has the same fingerprint and text", () => {
    const ws = worlds();
    for (const w of [ws[ws.length - 1], ws[Math.floor(ws.length / 2)]] as World[]) {
      const c = copy(w) as World;
      expect(c).not.toBe(w);
      expect(structuralHalves(c)).toEqual(structuralHalves(w));
      expect(worldText(c)).toBe(worldText(w));
    }
  });

  it("moves with a change of each kind: a scalar, a Set member, a Map entry, the order of an array", () => {
    const w = worlds().find((x) =>
      [...x.agents.values()].some((a) => a.instances.size > 0 && a.ripa.tokens_used.size > 0),
    ) as World;
    const [id, a] = [...w.agents][0] as [string, World["agents"] extends ReadonlyMap<string, infer A> ? A : never];
    const changed: World[] = [
      { ...w, tick: w.tick + 1 },
      {
        ...w,
        agents: new Map(w.agents).set(id, {
          ...a,
          ripa: { ...a.ripa, tokens_used: new Set([...a.ripa.tokens_used, "t-other"]) },
        }),
      },
      { ...w, agents: new Map(w.agents).set(id, { ...a, instances: new Map() }) },
      { ...w, roots_used: ["r-0", ...w.roots_used] },
      { ...w, roots_used: [...w.roots_used].reverse().concat(["r-0"]) },
    ];
    const all = [w, ...changed];
    expect(new Set(all.map(fingerprint)).size).toBe(all.length);
    expect(new Set(all.map(worldText)).size).toBe(all.length);
    // A Set's order of insertion is not part of the value.
    const reordered = {
      ...w,
      agents: new Map(w.agents).set(id, {
        ...a,
        ripa: { ...a.ripa, tokens_used: new Set([...a.ripa.tokens_used].reverse()) },
      }),
    };
    expect(fingerprint(reordered)).toBe(fingerprint(w));
  });
});
