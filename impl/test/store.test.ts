/**
 * The SQLite store: per-command writes proportional to the change (not to the state), excision
 * re-deriving only the suffix of the chain, recovery that detects damage, forgetting under churn
 * (every byte of every file under the data directory), and the store check on generated sessions.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Command, Digest, SamskaraDistillate, StoreVersion } from "../../spec/index.ts";
import { DOMAIN, batchDigestOf, digestOf, versionIdOf } from "../../spec/index.ts";
import { SamskaraStore, distillateDigest, type HeldDistillate, type LineageStep } from "../core/store.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "../../properties/generators/commands.ts";
import { openImplementation, type CommitStats, type Implementation } from "../api.ts";
import { DB_FILE } from "../durable/storage.ts";
import * as f from "./fixtures.ts";
import { dirContains, tempDir } from "./wire-driver.ts";

const dirs: string[] = [];
const newDir = (p: string): string => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ROOT = "root-store";
const A = f.identityOfRoot(ROOT);

const ok = (impl: Implementation, cmd: Command | Record<string, unknown>): CommitStats => {
  const out = impl.apply(cmd);
  if (!out.ok) throw new Error(`${String(cmd["op"])} rejected: ${out.error.code} ${out.error.message}`);
  return impl.lastCommit;
};

/** A store that grows by whole lives: each is conceived, born, acts (with a trace), withdrawn, distilled and merged alone. */
class Grower {
  tick = 2;
  n = 0;
  constructor(readonly impl: Implementation) {
    ok(impl, f.mint(1, ROOT));
  }

  life(i: number): f.Life {
    return { agent: A, instance_id: `i${i}`, nonce: `n${i}`, manifest: f.manifest(f.genesisOf(ROOT)) };
  }

  /** Up to the distillation; returns the stats of each step. */
  distil(
    i: number,
    trace = `trace of life ${i}`,
    guidance = `prefer option ${i % 7}`,
  ): Record<"conceive" | "birth" | "act" | "withdraw" | "distil", CommitStats> {
    const l = this.life(i);
    const t = this.tick++;
    const conceive = ok(this.impl, f.conceive(t, l));
    const birth = ok(this.impl, f.birth(t, l));
    const act = ok(this.impl, f.act(t, l, { trace: [trace] }));
    const withdraw = ok(this.impl, {
      op: "janma.withdraw",
      tick: t,
      agent: A,
      instance_id: l.instance_id,
      reason: "principal",
    });
    const distil = ok(
      this.impl,
      f.distil(t, l, `ob${i}`, f.distillate(l, `d${i}`, 800_000, [f.disposition(`key.${i % 5}`, 500_000, guidance)])),
    );
    return { conceive, birth, act, withdraw, distil };
  }

  merge(...ids: number[]): CommitStats {
    return ok(this.impl, { op: "samskara.merge", tick: this.tick, agent: A, obligation_ids: ids.map((i) => `ob${i}`) });
  }

  /** n more lives, one merge (one batch) each. */
  grow(count: number): void {
    for (let k = 0; k < count; k++) {
      const i = this.n++;
      this.distil(i);
      this.merge(i);
    }
  }

  excise(id: string, ...ids: number[]): CommitStats {
    return ok(this.impl, {
      op: "samskara.excise",
      tick: this.tick,
      agent: A,
      excision_id: id,
      distillate_ids: ids.map((i) => `d${i}`),
      authorization: { custodian: "alice", decision_id: `dec-${id}` },
    });
  }

  chain(): StoreVersion[] {
    const s = this.impl.query({ name: "store", agent: A });
    if (!s.ok) throw new Error(s.error.message);
    return s.result.chain;
  }
}

/** What each kind of command writes once the store holds `n` distillates (one batch each). */
const probe = (n: number) => {
  const g = new Grower(openImplementation());
  g.grow(n);
  const t = g.tick;
  const taskStart = ok(g.impl, { op: "ripa.task_start", tick: t, agent: A, task_id: "task-probe" });
  const life = g.distil(n);
  const merge = g.merge(n);
  const exciseRecent = g.excise("x-recent", n);
  const replay = ok(g.impl, { op: "samskara.replay", tick: g.tick, agent: A });
  g.impl.close();
  return { taskStart, ...life, merge, exciseRecent, replay };
};

describe("the SQLite store", () => {
  it("writes the same rows per command at 10 and at 1000 distillates (O(change), not O(state))", () => {
    const small = probe(10);
    const large = probe(1000);
    for (const [step, s] of Object.entries(small)) {
      const l = large[step as keyof typeof large];
      // Same rows touched; bytes differ only by the longer ids and numbers (d1000 vs d10).
      expect({ step, rowsWritten: l.rowsWritten, rowsDeleted: l.rowsDeleted }).toEqual({
        step,
        rowsWritten: s.rowsWritten,
        rowsDeleted: s.rowsDeleted,
      });
      expect(l.bytesWritten, step).toBeLessThanOrEqual(s.bytesWritten + 200);
      expect(l.bytesWritten, step).toBeLessThan(4096);
    }
    // What the rows are: a merge writes the tick, its lineage step, the obligation, the retained
    // content and the memory snapshot; an excision of the newest distillate deletes its batch and
    // content and writes the excision record and the memory snapshot; the distillation rewrites
    // the instance and deletes its trace, and records the obligation and the distillate id.
    expect(large.merge).toMatchObject({ rowsWritten: 5, rowsDeleted: 0 });
    expect(large.exciseRecent).toMatchObject({ rowsWritten: 2, rowsDeleted: 2 });
    expect(large.distil).toMatchObject({ rowsWritten: 3, rowsDeleted: 1 });
    expect(large.taskStart).toMatchObject({ rowsWritten: 2, rowsDeleted: 0 });
    // The replay (S-4) reads the whole chain but writes only the tick, if it moved.
    expect(large.replay.rowsWritten).toBeLessThanOrEqual(1);
  });

  it("writes only each command's change after a reopen, as without it (the load forgets the marks of what it read)", () => {
    const run = (reopen: boolean) => {
      const dir = newDir("impl-store-reopen-");
      const g = new Grower(openImplementation({ dataDir: dir }));
      g.grow(3);
      if (reopen) {
        g.impl.close();
        (g as { impl: Implementation }).impl = openImplementation({ dataDir: dir });
      }
      const life = g.distil(3);
      const merge = g.merge(3);
      const world = g.impl.world();
      g.impl.close();
      return {
        rows: Object.entries({ ...life, merge }).map(([step, c]) => ({
          step,
          rowsWritten: c.rowsWritten,
          rowsDeleted: c.rowsDeleted,
        })),
        world,
      };
    };
    const reopened = run(true);
    const straight = run(false);
    expect(reopened.world).toEqual(straight.world);
    expect(reopened.rows).toEqual(straight.rows);
  });

  it("writes only each command's change after a rejected command (OP-0.3: the rejection's touches are forgotten)", () => {
    const g = new Grower(openImplementation({ verifyStore: true }));
    g.grow(1);
    const before = ok(g.impl, { op: "ripa.task_start", tick: g.tick, agent: A, task_id: "task-1" });
    // The life of i0 is over (J-3): the act is refused after its instance was fetched for update.
    const refused = g.impl.apply(f.act(g.tick, g.life(0), { trace: ["too late"] }));
    expect(refused.ok ? null : refused.error.invariant).toBe("J-3");
    const after = ok(g.impl, { op: "ripa.task_start", tick: g.tick, agent: A, task_id: "task-2" });
    expect({ rowsWritten: after.rowsWritten, rowsDeleted: after.rowsDeleted }).toEqual({
      rowsWritten: before.rowsWritten,
      rowsDeleted: before.rowsDeleted,
    });
    g.impl.close();
  });

  it("excises by re-deriving only the suffix from the first batch that held an excised distillate", () => {
    const g = new Grower(openImplementation({ verifyStore: true }));
    g.grow(60);
    const before = g.chain();
    expect(before).toHaveLength(61);

    // d50 is in batch 50 (version 51): versions 0..50 stay, 51..60 are re-derived without it.
    const recent = g.excise("x-50", 50);
    expect(recent).toMatchObject({ rowsDeleted: 10 + 1, rowsWritten: 9 + 2 }); // lineage 51..60 (+ content) out, 51..59 in (+ record, memory)
    const after = g.chain();
    expect(after).toHaveLength(60);
    expect(after.slice(0, 51)).toEqual(before.slice(0, 51));
    expect(after[51]?.version_id).not.toBe(before[51]?.version_id);
    // S-4: a replay from genesis of the recorded batches reproduces the re-derived chain exactly.
    ok(g.impl, { op: "samskara.replay", tick: g.tick, agent: A });

    // Excising two, the older in batch 5: everything after version 5 is re-derived (the chain
    // has versions 0..59: 54 lineage rows and 2 contents out; 52 batches survive, plus record and memory).
    const old = g.excise("x-5", 5, 40);
    expect(old.rowsDeleted).toBe(54 + 2);
    expect(old.rowsWritten).toBe(52 + 2);
    expect(g.chain().slice(0, 6)).toEqual(before.slice(0, 6));
    ok(g.impl, { op: "samskara.replay", tick: g.tick, agent: A });
    g.impl.close();
  });

  it("recovers the exact world from the rows and refuses a damaged database", () => {
    const dir = newDir("impl-store-recover-");
    const g = new Grower(openImplementation({ dataDir: dir, verifyStore: true }));
    g.grow(8);
    g.excise("x-3", 3);
    g.distil(100); // pending: its obligation holds the distillate
    const world = g.impl.world();
    g.impl.close();
    const again = openImplementation({ dataDir: dir });
    expect(again.world()).toEqual(world);
    again.close();

    const tamper = (sql: string): void => {
      const db = new Database(join(dir, DB_FILE));
      db.prepare(sql).run();
      db.close();
    };
    // A retained distillate whose content no longer matches its digest.
    tamper(
      "UPDATE rows SET value = replace(value, 'prefer option 1', 'prefer option 9') WHERE part = 'retained' AND key = 'd1'",
    );
    expect(() => openImplementation({ dataDir: dir })).toThrow(/does not match its digest/);
    tamper(
      "UPDATE rows SET value = replace(value, 'prefer option 9', 'prefer option 1') WHERE part = 'retained' AND key = 'd1'",
    );
    expect(openImplementation({ dataDir: dir }).world()).toEqual(world);
    // A lost version in the middle of the chain.
    tamper("DELETE FROM rows WHERE part = 'lineage' AND key = '3'");
    expect(() => openImplementation({ dataDir: dir })).toThrow(/S-4/);
  });

  it("leaves no distilled trace and no excised content in any file under the data directory, under churn", () => {
    const dir = newDir("impl-store-forget-");
    const impl = openImplementation({ dataDir: dir });
    const g = new Grower(impl);
    const marker = (kind: string, i: number): string => `zq${kind}${i}x${(i * 7919).toString(36)}`;
    // Traces of varied length (some span several pages), distilled in an order that interleaves
    // with other lives acting, so rows move between B-tree pages before they are deleted.
    const traceOf = (i: number): string =>
      `${marker("trace", i)} ${"window seat lisbon tuesday ".repeat((i * 37) % 140)}`;
    const lives = 24;
    const live: number[] = [];
    for (let i = 0; i < lives; i++) {
      const l = g.life(i);
      const t = g.tick++;
      ok(impl, f.conceive(t, l));
      ok(impl, f.birth(t, l));
      ok(impl, f.act(t, l, { trace: [traceOf(i), `second entry of ${marker("trace", i)}`] }));
      live.push(i);
      if (i % 3 === 2) {
        const j = live.splice((i * 5) % live.length, 1)[0] as number;
        const lj = g.life(j);
        ok(impl, { op: "janma.withdraw", tick: g.tick, agent: A, instance_id: lj.instance_id, reason: "principal" });
        expect(dirContains(dir, marker("trace", j))).toBe(true);
        ok(
          impl,
          f.distil(
            g.tick,
            lj,
            `ob${j}`,
            f.distillate(lj, `d${j}`, 800_000, [
              f.disposition(marker("key", j), 500_000, `${marker("guidance", j)} prefer aisle`),
            ]),
          ),
        );
        expect(dirContains(dir, marker("trace", j)), `trace ${j} after its distillation`).toBe(false);
        g.merge(j);
      }
    }
    const merged = Array.from({ length: lives }, (_, i) => i).filter((i) => !live.includes(i));
    for (const i of merged) expect(dirContains(dir, marker("guidance", i))).toBe(true);
    const excised = merged.filter((_, k) => k % 2 === 0);
    g.excise("x-churn", ...excised);
    impl.close();
    const reopened = openImplementation({ dataDir: dir });
    reopened.close();
    for (const i of excised) {
      expect(dirContains(dir, marker("guidance", i)), `guidance ${i}`).toBe(false);
      expect(dirContains(dir, marker("key", i)), `key ${i}`).toBe(false);
    }
    for (const i of merged) expect(dirContains(dir, marker("trace", i)), `trace ${i}`).toBe(false);
    // What must stay is still there (the scan can fail).
    for (const i of merged.filter((i) => !excised.includes(i)))
      expect(dirContains(dir, marker("guidance", i))).toBe(true);
    for (const i of live) expect(dirContains(dir, marker("trace", i))).toBe(true);
  });

  for (const profile of ["mixed", "store"] as const satisfies readonly GenProfile[]) {
    it(`holds exactly the world after every command of generated sessions (${profile} profile)`, () => {
      fc.assert(
        fc.property(choicesArb(60, 200), (choices) => {
          const impl = openImplementation({ verifyStore: true });
          try {
            const mem = newMemory(profile);
            for (const c of choices) {
              const out = impl.apply(materialize(impl.world(), mem, c));
              if (!out.ok && out.error.code === "INTERNAL") throw new Error(out.error.message);
            }
          } finally {
            impl.close();
          }
        }),
        { numRuns: 25, seed: 8 },
      );
    });
  }
});

/**
 * Recovery of one Samskara store from its persisted parts (SamskaraStore.restore, used when a data
 * directory is opened): every link the rows commit to is checked (S-4), retained content is exactly
 * the chain's members (S-5), and OP-1.7's replay notices a chain whose links hold but whose
 * intermediate states were rewritten. Each damage below is the only one, so each check must catch it alone.
 */
describe("recovery of a store from its persisted parts (S-4, S-5, OP-1.7)", () => {
  const genesis = f.genesisOf(ROOT);
  const held = (i: number): HeldDistillate => {
    const l: f.Life = { agent: A, instance_id: `i${i}`, nonce: `n${i}`, manifest: f.manifest(genesis) };
    const distillate = f.distillate(l, `d${i}`, 800_000, [
      f.disposition(`key.${i}`, 500_000, `prefer option ${i}`),
    ]) as unknown as SamskaraDistillate;
    return { digest: distillateDigest(distillate), distillate };
  };
  /** A store of four batches of one distillate each, as its persisted parts (deep copies, free to damage). */
  const parts = () => {
    const s = new SamskaraStore(genesis);
    for (let i = 0; i < 4; i++) s.merge([held(i)]);
    return {
      genesis,
      steps: structuredClone(s.steps(1)) as LineageStep[],
      retained: structuredClone([...s.retainedDistillates()]),
      excisions: [],
      quarantined: [],
    };
  };
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  const v = (s: LineageStep): Mutable<StoreVersion> => s.version as Mutable<StoreVersion>;
  const OTHER = digestOf(DOMAIN.storeState, { entries: [{ other: true }] }) as string;

  it("restores an undamaged store whose replay reproduces its chain", () => {
    const p = parts();
    const s = SamskaraStore.restore(p);
    expect(s.chain().slice(1)).toEqual(p.steps.map((x) => x.version));
    expect(s.replayReproducesChain()).toBe(true);
  });

  it("S-4: refuses a head step whose seq, parent, batch digest, recorded batch digest or version id alone does not link", () => {
    const damages: [string, (s: LineageStep) => void][] = [
      [
        "seq",
        (s) => {
          v(s).seq += 1;
        },
      ],
      [
        "parent",
        (s) => {
          v(s).parent = genesis;
        },
      ],
      [
        "version batch digest",
        (s) => {
          v(s).batch_digest = OTHER;
        },
      ],
      [
        "batch digest (version and batch agree, members do not)",
        (s) => {
          v(s).batch_digest = OTHER;
          (s.batch as { batch_digest: string }).batch_digest = OTHER;
        },
      ],
      [
        "version id",
        (s) => {
          v(s).version_id = OTHER;
        },
      ],
    ];
    for (const [what, damage] of damages) {
      const p = parts();
      damage(p.steps[p.steps.length - 1] as LineageStep);
      expect(() => SamskaraStore.restore(p), what).toThrow(
        /S-4: persisted version \d+ does not link to its parent and batch/,
      );
    }
  });

  it("S-4: refuses a batch whose member content is not retained", () => {
    const p = parts();
    p.retained.splice(1, 1);
    expect(() => SamskaraStore.restore(p)).toThrow(
      /S-4: persisted batch 1 references distillate content that is missing/,
    );
  });

  it("S-4: refuses a batch whose member is retained under another digest (the content the batch names is gone)", () => {
    const p = parts();
    const r = p.retained[1];
    if (r === undefined) throw new Error("no retained d1");
    p.retained[1] = { ...r, digest: OTHER as Digest };
    expect(() => SamskaraStore.restore(p)).toThrow(
      /S-4: persisted batch 1 references distillate content that is missing/,
    );
  });

  it("S-4: refuses steps that link but whose rebuilt state is not the head's state digest", () => {
    const p = parts();
    const head = p.steps[p.steps.length - 1] as LineageStep;
    v(head).state_digest = OTHER;
    v(head).version_id = versionIdOf(
      head.version.parent as Digest,
      head.version.batch_digest as Digest,
      OTHER as Digest,
    );
    expect(() => SamskaraStore.restore(p)).toThrow(
      /S-4: the retained distillates do not reproduce the head's state digest/,
    );
  });

  it("S-5: refuses retained content that is in no batch of the chain", () => {
    const p = parts();
    p.retained.push(held(9));
    expect(() => SamskaraStore.restore(p)).toThrow(/S-5: retained distillate d9 is in no batch/);
  });

  it("OP-1.7 (S-4): a chain whose intermediate state digest was rewritten, links recomputed, does not replay to itself", () => {
    const p = parts();
    let parent = (p.steps[0] as LineageStep).version.version_id;
    p.steps.forEach((s, i) => {
      if (i === 0) return;
      if (i === 1) v(s).state_digest = OTHER;
      v(s).parent = parent;
      v(s).version_id = versionIdOf(
        parent as Digest,
        s.version.batch_digest as Digest,
        s.version.state_digest as Digest,
      );
      parent = s.version.version_id;
    });
    const s = SamskaraStore.restore(p); // the head's state is right, so recovery's cheap checks pass
    expect(s.replayReproducesChain()).toBe(false);
  });

  it("OP-1.7 (S-4): a chain with an empty step (which replay drops) does not replay to itself", () => {
    const p = parts();
    const head = (p.steps[p.steps.length - 1] as LineageStep).version;
    const empty = batchDigestOf([]);
    p.steps.push({
      version: {
        version_id: versionIdOf(head.version_id as Digest, empty, head.state_digest as Digest),
        seq: head.seq + 1,
        parent: head.version_id,
        batch_digest: empty,
        state_digest: head.state_digest,
      },
      batch: { batch_digest: empty, members: [] },
      kappa: 0,
    });
    const s = SamskaraStore.restore(p);
    expect(s.chain()).toHaveLength(6);
    expect(s.replayReproducesChain()).toBe(false);
  });
});
