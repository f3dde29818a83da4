/**
 * The World schema: every world the model reaches encodes to JSON and decodes back to an equal
 * world that behaves identically; the encoding is canonical; corrupted encodings fail with the
 * path of the fault.
 * Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run model/state-schema.test.ts
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import { toRejectionData } from "./rejection.ts";
import { decodeWorld, encodeWorld } from "./state-schema.ts";
import type { Agent, World } from "./state.ts";
import { view } from "./view.ts";
import { initialWorld, transition } from "./world.ts";
import { choicesArb, materialize, newMemory, type Choice } from "../properties/generators/commands.ts";
import { assertReplayable } from "../properties/generators/replay.ts";

/** The encoded world as the corruptions reach into it: any member at any path. */
// biome-ignore lint/suspicious/noExplicitAny: a corruption writes anywhere in the JSON, which no narrower type allows
type AnyJson = any;

const FILE = "model/state-schema.test.ts";

/** Run generated choices against the model; return every world reached and the generator memory. */
const run = (choices: readonly Choice[]) => {
  const mem = newMemory();
  let world = initialWorld();
  const worlds: World[] = [world];
  for (const c of choices) {
    const r = transition(world, materialize(view(world), mem, c));
    if (Result.isSuccess(r)) {
      world = r.success.world;
      worlds.push(world);
    }
  }
  return { world, worlds, mem };
};

const decoded = (json: unknown): World => {
  const r = decodeWorld(json);
  if (Result.isFailure(r)) throw new Error(r.failure.message);
  return r.success;
};

/** Same outcome: same events and canonical next world, or the same rejection. */
const sameOutcome = (a: ReturnType<typeof transition>, b: ReturnType<typeof transition>): void => {
  if (Result.isSuccess(a) && Result.isSuccess(b)) {
    expect(b.success.events).toEqual(a.success.events);
    expect(JSON.stringify(encodeWorld(b.success.world))).toBe(JSON.stringify(encodeWorld(a.success.world)));
  } else if (Result.isFailure(a) && Result.isFailure(b)) {
    expect(toRejectionData(b.failure)).toEqual(toRejectionData(a.failure));
  } else {
    throw new Error(`outcomes differ: original ${a._tag}, decoded ${b._tag}`);
  }
};

describe("World schema round trip on generated worlds", () => {
  /** What the round trip saw, counted by the property below and checked by the witness test after it. */
  let seen: Record<"migration" | "held" | "retained" | "surfaces", number> | null = null;

  it("decode(encode(w)) equals w, has the same view, and every next command has the same outcome on it", () => {
    const counts = { migration: 0, held: 0, retained: 0, surfaces: 0 };
    seen = counts;
    const property = fc.property(choicesArb(5, 50), choicesArb(1, 4), (choices, next) => {
      const { world, worlds, mem } = run(choices);
      // The final world and a middle one: intermediate states have migrations and obligations in flight.
      for (const w of [world, worlds[Math.floor(worlds.length / 2)] ?? world]) {
        for (const a of w.agents.values()) {
          if (a.ripa.migration !== null) counts.migration++;
          if ([...a.obligations.values()].some((o) => o.held !== null)) counts.held++;
          if (a.store.retained.size > 0) counts.retained++;
          if (a.ripa.surfaces.size > 0) counts.surfaces++;
        }
        const json = encodeWorld(w);
        const back = decoded(json);
        expect(back).toEqual(w);
        expect(view(back)).toEqual(view(w));
        // The encoding is canonical: the decoded world (fresh insertion order) encodes identically.
        expect(JSON.stringify(encodeWorld(back))).toBe(JSON.stringify(json));
      }
      // Drive the original and the decoded copy with the same further commands.
      let a = world;
      let b = decoded(encodeWorld(world));
      for (const c of next) {
        const cmd = materialize(view(a), mem, c);
        const ra = transition(a, cmd);
        const rb = transition(b, cmd);
        sameOutcome(ra, rb);
        if (Result.isSuccess(ra) && Result.isSuccess(rb)) {
          a = ra.success.world;
          b = rb.success.world;
        }
      }
    });
    assertReplayable(FILE, property, 300);
  });

  // A measure of the generator, not of the code, kept apart so that a mutation run (which runs the
  // property at a small fixed count, stryker/vitest.config.ts) can leave it out.
  it("witness: the round trip saw the state only the internal world holds (migrations, held obligations, retained entries, surfaces)", () => {
    if (seen === null) throw new Error("run the round-trip test above first: this one checks what it saw");
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });

  it("the encoding is plain JSON: it survives JSON.stringify / JSON.parse unchanged and still decodes", () => {
    const property = fc.property(choicesArb(5, 40), (choices) => {
      const { world } = run(choices);
      const json = encodeWorld(world);
      const reparsed: unknown = JSON.parse(JSON.stringify(json));
      expect(reparsed).toEqual(json);
      expect(decoded(reparsed)).toEqual(world);
    });
    assertReplayable(FILE, property, 100);
  });
});

/** A deep world from a fixed seed, with agents, lives, retained distillates and RIPA state. */
const deepWorld = (): World => {
  // The seed is re-chosen whenever the generator changes so that the first agent is deep (checked below).
  const [choices] = fc.sample(choicesArb(120, 120), { seed: 12, numRuns: 1 });
  return run(choices ?? []).world;
};

describe("World schema: canonical and strict", () => {
  /** The deep world, and its first agent in key order: the one the encoding lists first (`agents[0]`). */
  const fixture = () => {
    const world = deepWorld();
    const agent = world.agents.get([...world.agents.keys()].sort()[0] ?? "") as Agent;
    return { world, agent };
  };

  it("the fixture is deep enough for the checks below to mean something", () => {
    const { world, agent } = fixture();
    expect(world.agents.size).toBeGreaterThan(0);
    expect(agent.instances.size).toBeGreaterThan(1);
    expect(agent.store.retained.size).toBeGreaterThan(0);
    expect(agent.ripa.tokens_used.size).toBeGreaterThan(1);
    expect(agent.obligations.size).toBeGreaterThan(0);
  });

  it("encoding does not depend on the order maps and sets were filled in", () => {
    const { world } = fixture();
    const reversedMap = <V>(m: ReadonlyMap<string, V>) => new Map([...m].reverse());
    const shuffled: World = {
      ...world,
      agents: reversedMap(
        new Map(
          [...world.agents].map(([k, a]) => [
            k,
            {
              ...a,
              instances: reversedMap(a.instances),
              distillate_ids_used: new Set([...a.distillate_ids_used].reverse()),
              store: { ...a.store, retained: reversedMap(a.store.retained) },
              ripa: { ...a.ripa, tokens_used: new Set([...a.ripa.tokens_used].reverse()) },
            },
          ]),
        ),
      ),
    };
    expect(JSON.stringify(encodeWorld(shuffled))).toBe(JSON.stringify(encodeWorld(world)));
  });

  it("label records are encoded with their keys in ascending order (zod keeps input order)", () => {
    const { world, agent } = fixture();
    const withLabels = (labels: Readonly<Record<string, string>>): World => ({
      ...world,
      agents: new Map(
        [...world.agents].map(([k, a]) => [
          k,
          {
            ...a,
            ripa: { ...a.ripa, surfaces: new Map([...a.ripa.surfaces].map(([s, b]) => [s, { ...b, labels }])) },
          },
        ]),
      ),
    });
    expect(agent.ripa.surfaces.size).toBeGreaterThan(0);
    const text = JSON.stringify(encodeWorld(withLabels({ zone: "eu", app: "fares" })));
    expect(JSON.stringify(encodeWorld(withLabels({ app: "fares", zone: "eu" })))).toBe(text);
    expect(text).toContain(`"labels":{"app":"fares","zone":"eu"}`);
  });

  it("map entries and sets are encoded in ascending key order", () => {
    const { world } = fixture();
    const json = encodeWorld(world) as {
      agents: [string, { instances: [string, unknown][]; ripa: { tokens_used: string[] } }][];
    };
    const [, a] = json.agents[0] ?? [];
    const keys = (a?.instances ?? []).map(([k]) => k);
    expect(keys.length).toBeGreaterThan(1);
    expect(keys).toEqual([...keys].sort());
    expect(a?.ripa.tokens_used).toEqual([...(a?.ripa.tokens_used ?? [])].sort());
  });

  /** Corrupt a fresh copy of the encoding of `world` and expect a failure naming `path`. */
  const failsAtIn =
    (world: World) =>
    (corrupt: (j: AnyJson) => void, path: string, says?: RegExp): void => {
      const json: AnyJson = JSON.parse(JSON.stringify(encodeWorld(world)));
      corrupt(json);
      const r = decodeWorld(json);
      if (Result.isSuccess(r)) throw new Error(`corruption at ${path} was accepted`);
      expect(r.failure.issues.map((i) => i.path)).toContain(path);
      expect(r.failure.message).toContain(`at ${path}:`);
      if (says !== undefined) expect(r.failure.message).toMatch(says);
    };

  it("a wrong type fails at its path", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt((j) => (j.tick = "5"), "$.tick", /Tick/);
    failsAt(
      (j) => (j.agents[0][1].instances[0][1].trace = "text"),
      "$.agents[0][1].instances[0][1].trace",
      /Expected array/,
    );
    failsAt((j) => (j.agents[0][1].ripa.migration = 42), "$.agents[0][1].ripa.migration");
  });

  it("an unknown key fails at its path (structs and wire objects are strict)", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt((j) => (j.agents[0][1].store.extra = 1), "$.agents[0][1].store.extra");
    failsAt((j) => (j.agents[0][1].identity.extra = 1), "$.agents[0][1].identity", /AdvaitaIdentity: .*extra/);
  });

  it("a missing field fails at its path", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt((j) => delete j.agents[0][1].ripa.tokens_used, "$.agents[0][1].ripa.tokens_used", /Missing key/);
    failsAt((j) => delete j.roots_used, "$.roots_used", /Missing key/);
  });

  it("a non-digest where a digest is required fails at its path", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt((j) => (j.agents[0][0] = "not-a-digest"), "$.agents[0][0]", /expected a digest/);
    failsAt(
      (j) => (j.agents[0][1].store.retained[0][1].digest = "sha256:XYZ"),
      "$.agents[0][1].store.retained[0][1].digest",
      /expected a digest/,
    );
    failsAt(
      (j) => (j.agents[0][1].instances[0][1].view.manifest_digest = "md5:00"),
      "$.agents[0][1].instances[0][1].view.manifest_digest",
      /InstanceView: expected a digest/,
    );
  });

  it("a map key that differs from the id inside its value fails at that key", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt(
      (j) => (j.agents[0][1].instances[0][0] = "0-not-this-life"),
      "$.agents[0][1].instances[0][0]",
      /view.instance_id/,
    );
    failsAt(
      (j) => (j.agents[0][1].identity.identity = `sha256:${"0".repeat(64)}`),
      "$.agents[0][0]",
      /identity.identity/,
    );
  });

  it("unsorted or duplicated keys fail: there is one canonical spelling", () => {
    const failsAt = failsAtIn(fixture().world);
    failsAt((j) => j.agents[0][1].instances.reverse(), "$.agents[0][1].instances", /ascending key order/);
    failsAt(
      (j) => j.agents[0][1].ripa.tokens_used.push(j.agents[0][1].ripa.tokens_used[0]),
      "$.agents[0][1].ripa.tokens_used",
      /ascending/,
    );
  });
});

describe("World schema: refusals at the root", () => {
  it("a value that is not an encoded world at all fails at the root path $, listing every missing field at its own path", () => {
    for (const v of [null, 42, "world", []]) {
      const r = decodeWorld(v);
      if (Result.isSuccess(r)) throw new Error(`${JSON.stringify(v)} was accepted as a world`);
      expect(r.failure.issues.map((i) => i.path)).toEqual(["$"]);
      expect(r.failure.message).toContain("at $:");
    }
    const r = decodeWorld({});
    if (Result.isSuccess(r)) throw new Error("{} was accepted as a world");
    expect(r.failure.issues.map((i) => i.path)).toEqual(["$.tick", "$.roots_used", "$.agents"]);
  });
});

describe("World schema leaves: spec wire objects and sorted collections", () => {
  const fixture = () => deepWorld();

  /** Decode a corrupted fresh copy of the encoding of `world`; return the issues' paths (fails if it decodes). */
  const issuePaths = (world: World, corrupt: (j: AnyJson) => void): string[] => {
    const json: AnyJson = JSON.parse(JSON.stringify(encodeWorld(world)));
    corrupt(json);
    const r = decodeWorld(json);
    if (Result.isFailure(r)) return r.failure.issues.map((i) => i.path);
    throw new Error("the corruption was accepted");
  };

  it("a fault inside a wire object's array fails at its index, and every fault in one wire object is reported", () => {
    const world = fixture();
    const life = "$.agents[0][1].instances[0][1]";
    // zod's numeric path segment stays an index (`[1]`), not a key (`.1`).
    expect(issuePaths(world, (j) => (j.agents[0][1].instances[0][1].manifest.capability_grants[1] = 7))).toEqual([
      `${life}.manifest.capability_grants[1]`,
    ]);
    // Two faults in one InstanceView: both are named (errors: "all"), not only the first.
    const both = issuePaths(world, (j) => {
      j.agents[0][1].instances[0][1].view.instance_id = 5;
      j.agents[0][1].instances[0][1].view.manifest_digest = "md5:00";
    });
    expect([...both].sort()).toEqual([`${life}.view.instance_id`, `${life}.view.manifest_digest`]);
  });

  it("a duplicate next to its twin fails: sets and map keys are strictly ascending, not merely non-descending", () => {
    const world = fixture();
    const dupFirst = (xs: unknown[]) => xs.splice(0, 0, xs[0]);
    expect(issuePaths(world, (j) => dupFirst(j.agents[0][1].ripa.tokens_used))).toContain(
      "$.agents[0][1].ripa.tokens_used",
    );
    expect(issuePaths(world, (j) => dupFirst(j.agents[0][1].instances))).toContain("$.agents[0][1].instances");
    expect(issuePaths(world, (j) => dupFirst(j.roots_used))).toContain("$.roots_used");
  });
});
