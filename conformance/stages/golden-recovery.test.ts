/**
 * The golden sessions' restarts and recovery check (golden-recovery.ts, W-7.1): the kit's
 * implementation recovers every session; an implementation that forgets its data directory at
 * every start answers every transcript line as expected until a restart, and is failed right after
 * one, with a portable trace that `srk replay` runs (the trace's shutdown is followed by a restart). That the
 * kit's implementation passes the check is shown by every golden stage run against it
 * (conformance/stages/golden.test.ts, the certification tests), and by the replay below.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { PortableTrace } from "../../spec/certificate.ts";
import { initialWorld, view } from "../../model/index.ts";
import { certify } from "../certify.ts";
import { expect1 } from "../oracle/model.ts";
import type { PlannedStep } from "../oracle/planned.ts";
import { replayTrace } from "../replay.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { leavesState, RESTART_EVERY, withRestarts, worldAfterTranscript } from "./golden-recovery.ts";
import { goldenSteps, lineOf } from "./golden.ts";
import { GOLDEN_SESSIONS } from "../golden/session.ts";

const IMPL = `${process.execPath} --import tsx ${join(REPO_ROOT, "impl", "main.ts")}`;
/** Answers like the kit's implementation while it runs, and starts every time on an emptied data directory. */
const FORGETFUL = `sh -c "rm -rf {data_dir}/* && exec ${IMPL} --data-dir {data_dir}"`;

const mint = (tick: number, root: string): Command =>
  ({
    op: "advaita.mint",
    tick,
    base_digest: `sha256:${"ab".repeat(32)}`,
    root,
    designation: root,
    body_revision: "rev-0",
    custodians: ["custodian-1"],
    execution: { execution_id: `exec-${root}`, reasoner: "r", harness: "h", host: "host" },
    providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    required_capabilities: ["fare.search"],
    authority_token: `tok-${root}`,
  }) as unknown as Command;
const cmd = (id: string, command: Command): PlannedStep => ({
  request: { type: "command", id, command } as PlannedStep["request"],
  expected: { ok: true, events: [] } as PlannedStep["expected"],
});
const req = (type: string, id: string): PlannedStep => ({
  request: { type, id, ...(type === "query" ? { query: { name: "world" } } : {}) } as PlannedStep["request"],
  expected: { ok: true, events: [] } as PlannedStep["expected"],
});

describe("restarts inside a transcript", () => {
  const lines = Array.from({ length: 7 }, (_, i) => req("query", `q${i + 1}`));

  it("a shutdown after every `every` lines, none after the last line, the lines in their order", () => {
    const out = withRestarts(lines, 3);
    expect(out.map((s) => s.request.type)).toEqual([
      "query",
      "query",
      "query",
      "shutdown",
      "query",
      "query",
      "query",
      "shutdown",
      "query",
    ]);
    expect(out.filter((s) => s.request.type === "query")).toEqual(lines);
    expect(
      withRestarts(lines.slice(0, 6), 3)
        .map((s) => s.request.type)
        .at(-1),
    ).toBe("query");
    expect(withRestarts(lines.slice(0, 3), 3)).toHaveLength(3);
  });

  it("a step is named by its line in the transcript file, with the restart before it", () => {
    const out = withRestarts(lines, 3);
    expect(lineOf(out, 0)).toBe("line 1");
    expect(lineOf(out, 2)).toBe("line 3");
    expect(lineOf(out, 3)).toBe("the shutdown after line 3");
    expect(lineOf(out, 4)).toBe("line 4 (after a restart on the same data directory after line 3)");
    expect(lineOf(out, 8)).toBe("line 7 (after a restart on the same data directory after line 6)");
  });
});

describe("the model's world after a transcript", () => {
  it("applies commands, empties at reset and ignores queries; the last command's op is kept for attribution", () => {
    const first = expect1(initialWorld(), mint(1, "r1"));
    const second = expect1(first.world, mint(2, "r2"));
    expect([first.reply.ok, second.reply.ok]).toEqual([true, true]);
    const after = worldAfterTranscript([cmd("1", mint(1, "r1")), req("query", "2"), cmd("3", mint(2, "r2"))]);
    const expected = view(second.world);
    expect(after.world).toEqual(expected);
    expect(after.world.agents).toHaveLength(2);
    expect(after.lastOp).toBe("advaita.mint");
    expect(leavesState(after.world)).toBe(true);
  });

  it("a transcript ending in reset leaves nothing to recover, so the check is not run", () => {
    const after = worldAfterTranscript([cmd("1", mint(1, "r1")), req("reset", "2")]);
    expect(after.world).toEqual(view(initialWorld()));
    expect(after.lastOp).toBe("reset");
    expect(leavesState(after.world)).toBe(false);
  });
});

const goldenOnly = async (commandLine: string) => {
  const out = mkdtempSync(join(tmpdir(), "srk-golden-recovery-"));
  const { certificate } = await certify({
    commandLine,
    cwd: REPO_ROOT,
    outDir: out,
    dataRoot: mkdtempSync(join(tmpdir(), "srk-golden-recovery-data-")),
    seed: 1,
    runs: 0,
    timeBudgetMs: 600_000,
    requestTimeoutMs: 30_000,
    startupTimeoutMs: 60_000,
    only: [],
    failFast: false,
    graceMs: 10_000,
    stages: ["handshake", "golden"],
  });
  return { certificate, out };
};

describe("the recovery check over the wire", () => {
  it("fails an implementation that forgets its data directory at start, on every session that leaves a world, with a trace srk replay runs", async () => {
    const { certificate, out } = await goldenOnly(FORGETFUL);
    const golden = certificate.stages.find((s) => s.stage === "golden");
    expect(golden?.verdict).toBe("fail");
    const findings = golden?.findings ?? [];
    // Every transcript line is answered as the file says: the only findings are recoveries.
    expect(findings.length).toBeGreaterThan(0);
    // Every finding is after a restart: inside a transcript longer than RESTART_EVERY lines, or at
    // the recovery check of a shorter one.
    for (const f of findings) {
      if (f.check.endsWith("/recovery"))
        expect(f.summary).toContain(
          "started again on the same data directory, the recovered world differs from the one before (W-7.1)",
        );
      else expect(f.summary).toMatch(/ line \d+ \(after a restart on the same data directory after line \d+\)/);
    }
    const short = GOLDEN_SESSIONS.filter((g) => goldenSteps(g.name).length <= RESTART_EVERY).map(
      (g) => `golden/${g.name}/recovery`,
    );
    expect(short.length).toBeGreaterThan(0);
    for (const check of short) expect(findings.map((f) => f.check)).toContain(check);
    const first = findings.find((f) => f.check.endsWith("/recovery"));
    if (first?.trace_file == null) throw new Error("no trace written");
    const trace = PortableTrace.parse(JSON.parse(readFileSync(join(out, first.trace_file), "utf8")));
    const last = trace.steps.length - 1;
    expect(trace.steps[last - 1]?.request["type"]).toBe("shutdown");
    expect(trace.failing_step).toBe(last);
    const forgetful = await replayTrace(trace, { commandLine: FORGETFUL, cwd: REPO_ROOT });
    expect(forgetful).toMatchObject({ kind: "still-fails", step: last + 1 });
    const kit = await replayTrace(trace, { commandLine: IMPL, cwd: REPO_ROOT });
    expect(kit).toEqual({ kind: "passes", steps: trace.steps.length });
  }, 600_000);
});
