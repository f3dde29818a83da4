/**
 * A certification cut short through its signal (issue 22, item 5): the stage under way stops at
 * once, its implementation processes are gone (by pid) when `certify` returns, no process starts
 * after the abort, and the certificate written says which stage was cut short and which were not
 * run. The hard time limit of a stage goes the same way and keeps the reason it always had.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Certificate } from "../spec/certificate.ts";
import { certify } from "./certify.ts";
import { silentProgress, type Progress } from "./core/progress.ts";
import { CutShort } from "./core/abort.ts";
import { isRunning, PID_RECORDING_KIT, recordedPids } from "./test/pids.ts";
import { REPO_ROOT } from "./transport/local.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-cancel-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const settings = { seed: 1, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000, only: [] };

describe("a certification whose signal fires mid-stage", () => {
  it("stops the stage, leaves no process, starts none after, and writes a certificate that says so", {
    timeout: 180_000,
  }, async () => {
    const log = join(tmp, "pids-interrupted");
    const outDir = join(tmp, "interrupted");
    const c = new AbortController();
    let current = "";
    let atAbort: number[] = [];
    // Aborted after the first differential run: the campaign's process is alive, between runs.
    const progress: Progress = {
      ...silentProgress,
      stage: (name) => (current = name),
      tick: () => {
        if (current !== "differential" || c.signal.aborted) return;
        atAbort = recordedPids(log);
        c.abort(new CutShort("interrupted by SIGINT"));
      },
    };
    const r = await certify({
      ...settings,
      commandLine: PID_RECORDING_KIT,
      cwd: REPO_ROOT,
      outDir,
      runs: 1_000,
      timeBudgetMs: 600_000,
      stages: ["handshake", "differential", "algebra", "crash"],
      progress,
      signal: c.signal,
      env: { ...process.env, SRK_TEST_PID_LOG: log },
    });
    expect(c.signal.aborted).toBe(true);
    const byStage = new Map(r.certificate.stages.map((s) => [s.stage, s]));
    expect(byStage.get("handshake")?.verdict).toBe("pass");
    const cut = byStage.get("differential");
    expect(cut?.verdict).toBe("inconclusive");
    expect(cut?.reason).toMatch(/^cut short: interrupted by SIGINT; its processes were stopped/);
    for (const later of ["algebra", "crash"] as const) {
      expect(byStage.get(later)).toMatchObject({
        verdict: "inconclusive",
        reason: "not run: the certification was cut short: interrupted by SIGINT",
        checks: 0,
      });
    }
    expect(r.certificate).toMatchObject({
      result: "inconclusive",
      exit_code: 2,
      harness_faults: [],
      implementation_faults: [],
    });
    expect(Certificate.parse(JSON.parse(readFileSync(r.certificatePath, "utf8")))).toEqual(r.certificate);
    // Every implementation process is gone when certify returns (not eventually: reaped), and none
    // was started after the abort.
    const pids = recordedPids(log);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids).toEqual(atAbort);
    for (const pid of pids) expect(isRunning(pid), `pid ${pid} is still running`).toBe(false);
  });

  it("before it starts: the first handshake is reported cut short, and no process is started", async () => {
    const log = join(tmp, "pids-never");
    const c = new AbortController();
    c.abort(new CutShort("interrupted by SIGTERM"));
    const r = await certify({
      ...settings,
      commandLine: PID_RECORDING_KIT,
      cwd: REPO_ROOT,
      outDir: join(tmp, "never"),
      runs: 5,
      timeBudgetMs: 60_000,
      stages: ["handshake", "golden"],
      progress: silentProgress,
      signal: c.signal,
      env: { ...process.env, SRK_TEST_PID_LOG: log },
    });
    expect(r.certificate.stages.map((s) => [s.stage, s.verdict, s.reason])).toEqual([
      ["handshake", "inconclusive", expect.stringMatching(/^cut short: interrupted by SIGTERM/)],
    ]);
    expect(r.certificate.exit_code).toBe(2);
    expect(recordedPids(log)).toEqual([]);
  });
});

describe("a stage's hard time limit (the budget plus grace)", () => {
  it("cuts a stage stuck on a request as it always did, and its processes are gone, SIGTERM or not", {
    timeout: 60_000,
  }, async () => {
    const log = join(tmp, "pids-limit");
    // Deaf to SIGTERM and silent after hello: only the time limit, then SIGKILL, ends the stage.
    // The budget leaves the first handshake time to finish on a loaded machine.
    const commandLine = `${process.execPath} --import ./conformance/test/fixtures/record-pid.mjs conformance/test/fixtures/silent-after-hello.mjs --deaf`;
    const r = await certify({
      ...settings,
      commandLine,
      cwd: REPO_ROOT,
      outDir: join(tmp, "limit"),
      runs: 1,
      timeBudgetMs: 8_000,
      graceMs: 500,
      requestTimeoutMs: 600_000,
      stages: ["golden"],
      progress: silentProgress,
      env: { ...process.env, SRK_TEST_PID_LOG: log },
    });
    expect(r.certificate.stages.map((s) => [s.stage, s.verdict, s.reason])).toEqual([
      [
        "golden",
        "inconclusive",
        "the stage did not finish within the time budget (+ grace); its processes were killed",
      ],
    ]);
    expect(r.certificate.implementation_faults).toEqual([]);
    const pids = recordedPids(log);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(isRunning(pid), `pid ${pid} is still running`).toBe(false);
  });
});
