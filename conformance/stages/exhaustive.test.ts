/**
 * The exhaustive stage (issue 27 item 3, D-074) on a small scope written to a file: the kit's
 * implementation passes with every edge driven; a catalog mutant fails under its invariant with a
 * trace that `srk replay` reproduces on the mutant and that the kit's implementation passes; the
 * profile, the shards and the time budget decide what is sent. The expected counts come from the
 * cover itself (edge-cover.ts), built here from the same scope.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { opAllowed } from "../oracle/families.ts";
import { edgeCover } from "../explore/edge-cover.ts";
import { loadScope, parseScope, partsOf } from "../explore/scope.ts";
import { materialize } from "../mutants/harness.ts";
import { replayTrace } from "../replay.ts";
import { KIT_COMMAND_LINE, stageContext, disposedAfterAll } from "../test/stage-context.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { exhaustive, exhaustiveStage } from "./exhaustive.ts";

const quick = loadScope("quick");
const dir = mkdtempSync(join(tmpdir(), "srk-exhaustive-"));
const scopeFile = join(dir, "small.json");
const small = parseScope({
  ...quick,
  name: "small",
  max_depth: 4,
  parts: (quick.parts ?? []).map((p, i) => (i === 0 ? p : { ...p, max_depth: [4, 2, 3][i] })),
});
writeFileSync(scopeFile, JSON.stringify(small));
const cover = edgeCover(small);

const target = disposedAfterAll();

const mutantLine = (id: string): string => {
  const m = MUTANTS.find((x) => x.id === id);
  if (m === undefined) throw new Error(`no mutant ${id}`);
  return `${process.execPath} --import tsx ${materialize(`exhaustive-${id}`, m).replace(/api\.ts$/, "main.ts")}`;
};

describe("the exhaustive stage", () => {
  it("passes the kit's implementation, every request of the cover sent and compared", async () => {
    const out = await exhaustiveStage(stageContext(target(KIT_COMMAND_LINE), {}, { exhaustiveScope: scopeFile }));
    expect(out.verdict, out.reason).toBe("pass");
    expect(out.reason).toBe(
      `every edge of scope ${scopeFile} driven in ${cover.sessions.length} sessions, every reply and world view as the model's`,
    );
    expect(out.checks).toBe(cover.requests);
    expect(out.notes[0]).toBe(
      `scope ${scopeFile}: ${cover.edges} edges of ${cover.states} states (depth ≤ 4), driven by ${cover.sessions.length} sessions of ${cover.requests} requests in all`,
    );
    expect(out.notes[1]).toBe(
      `sent ${cover.requests + cover.sessions.length} requests (resets included) in ${cover.sessions.length} sessions`,
    );
  }, 120_000);

  it("fails a catalog mutant under its invariant, with a trace srk replay reproduces on it and the kit's implementation passes", async () => {
    const id = "J-1.birth-ignores-unresolved-tool";
    const line = mutantLine(id);
    const out = await exhaustiveStage(stageContext(target(line), {}, { exhaustiveScope: scopeFile }));
    expect(out.verdict, out.reason).toBe("fail");
    const f = out.findings.find((x) => x.invariant === "J-1");
    expect(f, JSON.stringify(out.findings.map((x) => x.summary))).toBeDefined();
    expect(f?.stage).toBe("exhaustive");
    expect(f?.check).toBe(`exhaustive/${scopeFile}`);
    expect(f?.summary).toMatch(/^scope .*, session \d+ of \d+ \(small\/samsara\) step \d+: /);
    // At most one finding per invariant, however many sessions differ.
    expect(new Set(out.findings.map((x) => x.invariant)).size).toBe(out.findings.length);
    const trace = f?.trace;
    if (trace == null) throw new Error("no trace");
    expect(trace.stage).toBe("exhaustive");
    expect((await replayTrace(trace, { commandLine: line, cwd: REPO_ROOT })).kind).toBe("still-fails");
    expect((await replayTrace(trace, { commandLine: KIT_COMMAND_LINE, cwd: REPO_ROOT })).kind).toBe("passes");
  }, 180_000);

  it("explores a partial profile with its own operations only, and sends nothing else (W-5.2)", async () => {
    const families = ["janma", "advaita"] as const;
    const line = `${KIT_COMMAND_LINE} --families=${families.join(",")}`;
    const own = edgeCover(small, { allow: (c) => opAllowed(c.op, families) });
    expect(own.edges).toBeGreaterThan(0);
    expect(own.edges).toBeLessThan(cover.edges);
    const ops = new Set(own.sessions.flatMap((s) => s.items.flatMap((i) => ("command" in i ? [i.command.op] : []))));
    expect([...ops].filter((op) => !opAllowed(op, families))).toEqual([]);
    const out = await exhaustiveStage(
      stageContext(target(line), { families: [...families] }, { exhaustiveScope: scopeFile }),
    );
    expect(out.verdict, out.reason).toBe("pass");
    expect(out.checks).toBe(own.requests);
    expect(out.notes[0]).toContain(`${own.edges} edges of ${own.states} states`);
  }, 120_000);

  it("is not applicable to the empty profile, and starts nothing", async () => {
    const t = target("no-such-program-srk-test");
    const out = await exhaustiveStage(stageContext(t, { families: [] }, { exhaustiveScope: scopeFile }));
    expect(out).toEqual({
      verdict: "not-applicable",
      reason: `the profile's operations make no step in scope ${scopeFile}`,
      checks: 0,
      findings: [],
      notes: [],
    });
  }, 60_000);

  it("deals its sessions out over shards, each once", async () => {
    expect(exhaustive.shard).toEqual({ dealt: "before", units: expect.any(Function) });
    if (exhaustive.shard.dealt !== "before") return;
    expect(exhaustive.shard.units(stageContext(target(KIT_COMMAND_LINE), {}, { exhaustiveScope: scopeFile }))).toBe(
      cover.sessions.length,
    );
    const mine = await Promise.all(
      [0, 1].map(async (index) => {
        const out = await exhaustiveStage(
          stageContext(target(KIT_COMMAND_LINE), { shard: { index, count: 2 } }, { exhaustiveScope: scopeFile }),
        );
        expect(out.verdict).toBe("pass");
        return Number(/this shard's: (\d+) sessions/.exec(out.notes[0] ?? "")?.[1]);
      }),
    );
    expect(mine[0]).toBeGreaterThan(0);
    expect(mine[1]).toBeGreaterThan(0);
    expect((mine[0] ?? 0) + (mine[1] ?? 0)).toBe(cover.sessions.length);
  }, 120_000);

  it("stops at a spent budget and says how far it got (inconclusive, not pass)", async () => {
    const out = await exhaustiveStage(
      stageContext(target(KIT_COMMAND_LINE), { deadline: Date.now() - 1 }, { exhaustiveScope: scopeFile }),
    );
    expect(out.verdict).toBe("inconclusive");
    expect(out.reason).toBe(`the time budget ran out after 0 of the scope's ${cover.sessions.length} sessions`);
  }, 60_000);

  it("runs the shipped quick scope when --exhaustive names none", () => {
    if (exhaustive.shard.dealt !== "before") throw new Error("dealt before");
    expect(exhaustive.shard.units(stageContext(target(KIT_COMMAND_LINE)))).toBe(edgeCover(quick).sessions.length);
    // No edge for the empty profile: each part's graph is its initial state alone (the run then sends nothing).
    expect(exhaustive.shard.units(stageContext(target(KIT_COMMAND_LINE), { families: [] }))).toBe(
      partsOf(quick).length,
    );
  });
});
