/**
 * OP-6.12 `ripa.task_pause` in the implementation (review G-53, D-046): native recovery revokes the
 * live attempt a dead worker left behind; its late reply is stale (I4), the fence is accepted, and
 * the revocation is durable (a reopened data directory keeps it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { errorCodeOf, type Command } from "../../spec/index.ts";
import { openImplementation, type Implementation } from "../api.ts";
import * as f from "./fixtures.ts";

const ROOT = "root-r";
const A = f.identityOfRoot(ROOT);
const request = (nonce: string, tick: number): Command => ({
  op: "ripa.request",
  tick,
  agent: A,
  task_id: "task-1",
  attempt_nonce: nonce,
});
const reply = (nonce: string, tick: number): Command => ({
  op: "ripa.reply",
  tick,
  agent: A,
  task_id: "task-1",
  attempt_nonce: nonce,
});
const pause = (nonce: string, tick: number, task = "task-1"): Command => ({
  op: "ripa.task_pause",
  tick,
  agent: A,
  task_id: task,
  attempt_nonce: nonce,
});
const fence = (tick: number): Command => ({
  op: "ripa.migration_fence",
  tick,
  agent: A,
  migration_id: "m-1",
  token: "tok-fence",
});

const okTypes = (impl: Implementation, c: Command): string[] => {
  const out = impl.apply(c);
  if (!out.ok) throw new Error(`${c.op} rejected: ${out.error.code} ${out.error.message}`);
  return out.events.map((e) => e.type);
};
const errOf = (
  impl: Implementation,
  c: Command,
): { code: string; invariant: string | null; path?: (string | number)[] } => {
  const out = impl.apply(c);
  if (out.ok) throw new Error(`${c.op} accepted: ${JSON.stringify(out.events)}`);
  return out.error;
};
/** A worker published att-a for task-1 and died before replying. */
const workerDied = (impl: Implementation): void => {
  okTypes(impl, f.mint(1, ROOT));
  okTypes(impl, { op: "ripa.task_start", tick: 2, agent: A, task_id: "task-1" });
  okTypes(impl, request("att-a", 3));
};
const live = (impl: Implementation) => impl.world().agents[0]?.ripa.live_attempts;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("ripa.task_pause (OP-6.12, G-53)", () => {
  it("the fence is refused while the dead attempt is live; after the pause a late reply is stale and the fence succeeds", () => {
    const impl = openImplementation({ verifyStore: true });
    workerDied(impl);
    expect(errOf(impl, fence(4)).code).toBe(errorCodeOf("I4"));
    const paused = impl.apply(pause("att-a", 4));
    expect(paused).toEqual({ ok: true, events: [{ type: "task.paused", task_id: "task-1", attempt_nonce: "att-a" }] });
    expect(live(impl)).toEqual([]);
    expect(errOf(impl, reply("att-a", 5))).toMatchObject({ code: errorCodeOf("I4"), invariant: "I4" });
    expect(errOf(impl, request("att-a", 5)).invariant).toBe("I4");
    expect(okTypes(impl, fence(6))).toEqual(["migration.fenced", "epoch.advanced"]);
  });

  it("boundary: without the pause the dead attempt's reply is still accepted; a fresh attempt after a pause is answered", () => {
    const impl = openImplementation({});
    workerDied(impl);
    expect(okTypes(impl, reply("att-a", 4))).toEqual(["reply.accepted"]);
    okTypes(impl, request("att-b", 5));
    okTypes(impl, pause("att-b", 6));
    okTypes(impl, request("att-c", 7));
    expect(errOf(impl, reply("att-b", 8)).invariant).toBe("I4");
    expect(okTypes(impl, reply("att-c", 8))).toEqual(["reply.accepted"]);
  });

  it("rejects in the order of OP-6.12: unknown task (I2), then an attempt that is not live (I4), leaving the attempt live", () => {
    const impl = openImplementation({});
    workerDied(impl);
    expect(errOf(impl, pause("zzz", 4, "task-x"))).toMatchObject({ code: errorCodeOf("I2"), invariant: "I2" });
    expect(errOf(impl, pause("att-old", 4))).toMatchObject({
      code: errorCodeOf("I4"),
      invariant: "I4",
      path: ["attempt_nonce"],
    });
    expect(live(impl)).toEqual([{ task_id: "task-1", attempt_nonce: "att-a" }]);
    expect(impl.world().tick).toBe(3);
  });

  it("is not refused while quiesced: under a migration its attempt check decides", () => {
    const impl = openImplementation({});
    okTypes(impl, f.mint(1, ROOT));
    okTypes(impl, { op: "ripa.task_start", tick: 2, agent: A, task_id: "task-1" });
    okTypes(impl, fence(3));
    expect(errOf(impl, pause("att-a", 4))).toMatchObject({ invariant: "I4", path: ["attempt_nonce"] });
    expect(errOf(impl, request("att-a", 4)).path).toBeUndefined();
  });

  it("the revocation is durable: reopening the data directory keeps the attempt revoked", () => {
    const dir = mkdtempSync(join(tmpdir(), "impl-pause-"));
    dirs.push(dir);
    const impl = openImplementation({ dataDir: dir, verifyStore: true });
    workerDied(impl);
    okTypes(impl, pause("att-a", 4));
    const before = impl.world();
    impl.close();
    const reopened = openImplementation({ dataDir: dir });
    expect(reopened.world()).toEqual(before);
    expect(errOf(reopened, reply("att-a", 5)).invariant).toBe("I4");
    expect(okTypes(reopened, fence(5))).toEqual(["migration.fenced", "epoch.advanced"]);
    reopened.close();
  });
});
