/** The scripted session, in-process, on volatile storage and on a real data directory. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorldView } from "../../spec/index.ts";
import { openImplementation, type Implementation } from "../api.ts";
import { fullSession, type Driver } from "./scenario.ts";

const driver = (impl: Implementation): Driver => ({
  apply: async (c) => impl.apply(c),
  world: async () => impl.world(),
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("in-process implementation", () => {
  it("runs the full scripted session on volatile storage, with schema-valid views", async () => {
    // The store check: after every commit the database holds exactly the world's rows, and they decode back to it.
    const impl = openImplementation({ verifyStore: true });
    await fullSession(driver(impl));
    expect(WorldView.safeParse(impl.world()).success).toBe(true);
  });

  it("persists every accepted command: reopening the data directory yields the same world", async () => {
    const dir = mkdtempSync(join(tmpdir(), "impl-inproc-"));
    dirs.push(dir);
    const impl = openImplementation({ dataDir: dir, verifyStore: true });
    await fullSession(driver(impl));
    const before = impl.world();
    impl.close();
    const reopened = openImplementation({ dataDir: dir });
    expect(reopened.world()).toEqual(before);
    reopened.reset();
    expect(reopened.world()).toEqual({ tick: 0, roots_used: [], agents: [] });
    reopened.close();
    expect(openImplementation({ dataDir: dir }).world()).toEqual({ tick: 0, roots_used: [], agents: [] });
  });
});
