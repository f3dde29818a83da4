/**
 * The persisted rows (impl/core/persist.ts): recovery (W-7.1) rejects rows it cannot trust, and
 * the delta writer writes only what a command changed (O(change)), also right after recovery.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { openImplementation, type CommitStats, type Implementation } from "../api.ts";
import { decodeWorld, emptyWorldRows, encodeWorld, type Row } from "../core/persist.ts";
import { World } from "../core/world.ts";
import { DB_FILE } from "../durable/storage.ts";
import * as f from "./fixtures.ts";

const dirs: string[] = [];
const newDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "impl-persist-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ROOT = "root-persist";
const A = f.identityOfRoot(ROOT);
const auth = { custodian: "alice", decision_id: "dec-1" };

const ok = (impl: Implementation, cmd: Command | Record<string, unknown>): CommitStats => {
  const out = impl.apply(cmd);
  if (!out.ok) throw new Error(`${String(cmd["op"])} rejected: ${out.error.code} ${out.error.message}`);
  return impl.lastCommit;
};

const life = (i: number): f.Life => ({
  agent: A,
  instance_id: `i${i}`,
  nonce: `n${i}`,
  manifest: f.manifest(f.genesisOf(ROOT)),
});

/** Mint, then `n` whole lives (conceive, birth, act with a trace, withdraw, distil, merge). */
const history = (impl: Implementation, n: number): number => {
  ok(impl, f.mint(1, ROOT));
  let t = 2;
  for (let i = 0; i < n; i++, t++) {
    const l = life(i);
    ok(impl, f.conceive(t, l));
    ok(impl, f.birth(t, l));
    ok(impl, f.act(t, l, { trace: [`trace ${i}`] }));
    ok(impl, { op: "janma.withdraw", tick: t, agent: A, instance_id: l.instance_id, reason: "principal" });
    ok(impl, f.distil(t, l, `ob${i}`, f.distillate(l, `d${i}`, 800_000, [f.disposition(`key.${i % 3}`, 500_000)])));
    ok(impl, { op: "samskara.merge", tick: t, agent: A, obligation_ids: [`ob${i}`] });
  }
  return t;
};

const readRows = (dir: string): Row[] => {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  try {
    return db.prepare("SELECT agent, part, key, value FROM rows ORDER BY agent, part, seq").all() as Row[];
  } finally {
    db.close();
  }
};

const meta = (format: string, tick: string): Row[] => [
  { agent: "", part: "meta", key: "format", value: format },
  { agent: "", part: "meta", key: "tick", value: tick },
];
const FORMAT = JSON.stringify("samsara-ripa-impl/rows/v1");

describe("recovery rejects rows it cannot trust (W-7.1)", () => {
  it("the state format: only samsara-ripa-impl/rows/v1 is read; an empty or other format name is refused", () => {
    expect(decodeWorld(meta(FORMAT, "0")).tick).toBe(0);
    expect(() => decodeWorld(meta(JSON.stringify(""), "0"))).toThrow(/unknown state format/);
    expect(() => decodeWorld(meta(JSON.stringify("samsara-ripa-impl/rows/v0"), "0"))).toThrow(/unknown state format/);
    expect(() => decodeWorld(meta(FORMAT, "0").slice(1))).toThrow();
  });

  it("meta/tick: a non-negative safe integer; a negative or non-numeric tick is refused", () => {
    expect(decodeWorld(meta(FORMAT, "7")).tick).toBe(7);
    expect(() => decodeWorld(meta(FORMAT, "-1"))).toThrow(/meta\/tick is not a tick/);
    expect(() => decodeWorld(meta(FORMAT, "soon"))).toThrow(/meta\/tick is not a tick/);
    expect(() => decodeWorld(meta(FORMAT, "1.5"))).toThrow(/meta\/tick is not a tick/);
  });

  it("damaged agent rows: a second agent row, or trace rows of no instance, are refused", () => {
    const dir = newDir();
    const impl = openImplementation({ dataDir: dir });
    history(impl, 1);
    const l = life(9);
    ok(impl, f.conceive(9, l));
    ok(impl, f.birth(9, l));
    ok(impl, f.act(9, l, { trace: ["kept"] }));
    impl.close();
    const rows = readRows(dir);
    expect(decodeWorld(rows).agents.get(A)?.instances.get("i9")?.trace).toEqual(["kept"]);
    const head = rows.find((r) => r.agent === A && r.part === "agent");
    expect(head).toBeDefined();
    expect(() => decodeWorld([...rows, { ...head!, key: "again" }])).toThrow(/agent rows/);
    expect(() =>
      decodeWorld([...rows, { agent: A, part: "trace:ghost", key: "0", value: JSON.stringify("orphan") }]),
    ).toThrow(/belong to no instance/);
  });

  it("a fresh store starts with exactly the empty world's rows (format and tick 0)", () => {
    const fresh = emptyWorldRows().map((o) =>
      o.op === "put" ? { agent: o.agent, part: o.part, key: o.key, value: o.value } : o,
    );
    expect(fresh).toEqual(encodeWorld(new World()));
    expect(fresh).toEqual(meta(FORMAT, "0"));
  });
});

describe("the delta writer writes only what changed (O(change))", () => {
  it("a command after recovery writes exactly what it writes without the restart", () => {
    const dir = newDir();
    const kept = openImplementation({ dataDir: dir });
    const volatile = openImplementation({});
    const t = history(kept, 4);
    expect(history(volatile, 4)).toBe(t);
    kept.close();
    const reopened = openImplementation({ dataDir: dir, verifyStore: true });
    const l = life(20);
    for (const cmd of [f.conceive(t, l), f.birth(t, l), f.act(t + 1, l, { trace: ["after the restart"] })]) {
      expect(ok(reopened, cmd)).toEqual(ok(volatile, cmd));
    }
    reopened.close();
    volatile.close();
  });

  it("the command right after a mint writes only its own change", () => {
    const impl = openImplementation({ verifyStore: true });
    ok(impl, f.mint(1, ROOT));
    const first = ok(impl, f.conceive(2, life(0)));
    const again = openImplementation({});
    ok(again, f.mint(1, ROOT));
    ok(again, f.conceive(2, life(1)));
    expect(ok(again, f.conceive(3, life(0)))).toEqual(first);
  });

  it("a trace grows by its new entries only; a withdrawal rewrites none; the distillation deletes it (S-1)", () => {
    const impl = openImplementation({ verifyStore: true });
    ok(impl, f.mint(1, ROOT));
    const l = life(0);
    ok(impl, f.conceive(2, l));
    ok(impl, f.birth(2, l));
    ok(impl, f.act(2, l, { trace: ["one", "two"] }));
    const second = ok(impl, f.act(3, l, { trace: ["three"] }));
    expect(second.rowsDeleted).toBe(0);
    const withdrawn = ok(impl, {
      op: "janma.withdraw",
      tick: 3,
      agent: A,
      instance_id: l.instance_id,
      reason: "principal",
    });
    expect(withdrawn.rowsDeleted).toBe(0);
    const distilled = ok(
      impl,
      f.distil(3, l, "ob0", f.distillate(l, "d0", 800_000, [f.disposition("key.0", 500_000)])),
    );
    expect(distilled.rowsDeleted).toBe(3);
  });

  it("the migration's bundle is written once, at checkpoint, and not again by later commands", () => {
    const impl = openImplementation({ verifyStore: true });
    ok(impl, f.mint(1, ROOT));
    ok(impl, { op: "ripa.migration_fence", tick: 2, agent: A, migration_id: "m1", token: "tok-2" });
    const cp = impl.apply({ op: "ripa.migration_checkpoint", tick: 2, agent: A, migration_id: "m1" });
    if (!cp.ok) throw new Error(cp.error.message);
    const checkpointed = cp.events.find((e) => e.type === "migration.checkpointed") as
      | { bundle_digest: string }
      | undefined;
    const target = { execution: f.exec("exec-t"), providers: f.PROVIDERS, body_revision: "body-1" };
    const validated = ok(impl, {
      op: "ripa.migration_validate",
      tick: 3,
      agent: A,
      migration_id: "m1",
      bundle_digest: checkpointed?.bundle_digest,
      target,
      gain_authorization: auth,
    });
    // The agent row and the tick change; the bundle row (the largest) is not rewritten.
    expect(validated.rowsWritten).toBe(2);
  });
});
