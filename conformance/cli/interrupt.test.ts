/**
 * `srk certify` interrupted (SIGINT, as Ctrl-C sends, or SIGTERM, as a CI runner cancelling a job
 * sends) once the implementation is being driven: it says so on stderr, writes a certificate.json
 * whose stage under way is cut short and whose later stages were not run, exits 2 (inconclusive)
 * and leaves no implementation process behind. And `listenForInterrupts` itself: the first signal
 * aborts with a reason naming it; without one nothing is aborted.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Certificate } from "../../spec/certificate.ts";
import { CutShort } from "../core/abort.ts";
import { isRunning, PID_RECORDING_KIT, recordedPids } from "../test/pids.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { listenForInterrupts } from "./interrupt.ts";

const tmp = mkdtempSync(join(tmpdir(), "srk-interrupt-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Interrupted {
  readonly code: number | null;
  readonly stderr: string;
  readonly outDir: string;
  readonly pids: number[];
}

/** Runs `srk certify` on the kit's implementation and sends `signal` once the golden stage has started an implementation process. */
const certifyAndInterrupt = (signal: NodeJS.Signals): Promise<Interrupted> => {
  const log = join(tmp, `pids-${signal}`);
  const outDir = join(tmp, `out-${signal}`);
  const child = spawn(
    process.execPath,
    ["bin/srk.mjs", "certify", "--impl", PID_RECORDING_KIT, "--runs", "300", "--time-budget", "900", "--out", outDir],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, SRK_TEST_PID_LOG: log },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  let sent = false;
  // The first handshake's process is pid 1 in the log; a second one is the golden stage's.
  const poll = setInterval(() => {
    if (!sent && stderr.includes("srk: stage golden") && recordedPids(log).length >= 2) {
      sent = true;
      child.kill(signal);
    }
  }, 50);
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearInterval(poll);
      resolve({ code, stderr, outDir, pids: recordedPids(log) });
    });
  });
};

describe("srk certify interrupted after the handshake", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`on ${signal}: a partial certificate naming the stage cut short, exit 2, no implementation left`, {
      timeout: 180_000,
    }, async () => {
      const r = await certifyAndInterrupt(signal);
      expect(r.stderr).toContain(`srk: ${signal}: stopping the implementation and writing a partial certificate`);
      expect(r.code, r.stderr).toBe(2);
      const path = join(r.outDir, "certificate.json");
      expect(existsSync(path)).toBe(true);
      const cert = Certificate.parse(JSON.parse(readFileSync(path, "utf8")));
      expect(cert).toMatchObject({ result: "inconclusive", exit_code: 2, harness_faults: [] });
      const stages = new Map(cert.stages.map((s) => [s.stage, s]));
      expect(stages.get("handshake")?.verdict).toBe("pass");
      expect(stages.get("golden")).toMatchObject({
        verdict: "inconclusive",
        reason: expect.stringMatching(new RegExp(`^cut short: interrupted by ${signal}`)),
      });
      for (const later of ["wire", "exhaustive", "differential", "algebra", "crash", "forgetting"] as const) {
        expect(stages.get(later)).toMatchObject({
          verdict: "inconclusive",
          reason: `not run: the certification was cut short: interrupted by ${signal}`,
        });
      }
      expect(r.pids.length).toBeGreaterThanOrEqual(2);
      for (const pid of r.pids) expect(isRunning(pid), `implementation pid ${pid} is still running`).toBe(false);
    });
  }
});

describe("srk certify interrupted twice", () => {
  it("quits at once on the second (128 + its number), writes no certificate, and still leaves no implementation", {
    timeout: 120_000,
  }, async () => {
    const log = join(tmp, "pids-twice");
    const deaf = join(tmp, "deaf-twice");
    const outDir = join(tmp, "out-twice");
    // Silent after hello and deaf to SIGTERM: stopping it takes the 2 s grace, in which the second SIGINT lands.
    const impl = `${process.execPath} --import ./conformance/test/fixtures/record-pid.mjs conformance/test/fixtures/silent-after-hello.mjs --deaf`;
    const child = spawn(
      process.execPath,
      [
        "bin/srk.mjs",
        "certify",
        "--impl",
        impl,
        "--request-timeout",
        "600000",
        "--startup-timeout",
        "3000",
        "--out",
        outDir,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, SRK_TEST_PID_LOG: log, SRK_TEST_DEAF_LOG: deaf },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    let sent = 0;
    /** How many processes had gone deaf before the golden stage: the first after them is the golden stage's. */
    let before: number | null = null;
    const poll = setInterval(() => {
      if (before === null && stderr.includes("srk: stage golden")) before = recordedPids(deaf).length;
      if (sent === 0 && before !== null && recordedPids(deaf).length > before) {
        sent = 1;
        child.kill("SIGINT");
      }
    }, 50);
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString("utf8");
      // The second SIGINT as soon as srk says it is stopping, from the stderr event itself rather
      // than the next poll: under load a poll could come after the 2 s grace had already ended.
      if (sent === 1 && stderr.includes("srk: SIGINT: stopping")) {
        sent = 2;
        child.kill("SIGINT");
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearInterval(poll);
    expect(code, stderr).toBe(130);
    expect(existsSync(join(outDir, "certificate.json"))).toBe(false);
    const pids = recordedPids(log);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(isRunning(pid), `implementation pid ${pid} is still running`).toBe(false);
  });
});

/**
 * Runs `srk <args>` against an implementation that answers hello and then nothing (so a request
 * stays in flight), and sends `signal` once that process has recorded its pid.
 */
const runAndInterrupt = (
  args: readonly string[],
  tag: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stderr: string; pids: number[] }> => {
  const log = join(tmp, `pids-${tag}`);
  const impl = `${process.execPath} --import ./conformance/test/fixtures/record-pid.mjs conformance/test/fixtures/silent-after-hello.mjs`;
  const child = spawn(process.execPath, ["bin/srk.mjs", ...args, "--impl", impl], {
    cwd: REPO_ROOT,
    env: { ...process.env, SRK_TEST_PID_LOG: log },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  let sent = false;
  const poll = setInterval(() => {
    // Its hello answered and a request sent after it: the process is in the middle of the work.
    if (!sent && recordedPids(log).length >= 1) {
      sent = true;
      setTimeout(() => child.kill(signal), 300);
    }
  }, 50);
  child.stderr.on("data", (b: Buffer) => {
    stderr += b.toString("utf8");
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearInterval(poll);
      resolve({ code, stderr, pids: recordedPids(log) });
    });
  });
};

describe("srk replay and srk golden interrupted", () => {
  const trace = join(tmp, "world-query.trace.json");
  writeFileSync(
    trace,
    JSON.stringify({
      trace_version: 1,
      invariant: null,
      stage: "golden",
      check: "golden/interrupt",
      summary: "one world query",
      seed: null,
      path: null,
      steps: [
        {
          request: { type: "query", id: "q1", query: { name: "world" } },
          expected: { ok: true, events: [], result: { tick: 0, roots_used: [], agents: [] } },
          actual: null,
        },
      ],
      failing_step: 0,
      difference: null,
      shrink: null,
    }),
  );
  const cases: readonly [string, readonly string[], NodeJS.Signals, number][] = [
    ["replay", ["replay", trace, "--request-timeout", "600000"], "SIGINT", 130],
    ["golden", ["golden"], "SIGTERM", 143],
  ];
  for (const [command, args, signal, exit] of cases) {
    it(`srk ${command} on ${signal}: stops the implementation, says so, exits ${exit}, leaves no process`, {
      timeout: 120_000,
    }, async () => {
      const r = await runAndInterrupt(args, command, signal);
      expect(r.stderr).toContain(`srk ${command}: ${signal}: stopping the implementation`);
      expect(r.stderr).toContain(
        `srk ${command}: cut short: interrupted by ${signal}; no implementation process is left`,
      );
      expect(r.code, r.stderr).toBe(exit);
      expect(r.pids.length).toBeGreaterThanOrEqual(1);
      for (const pid of r.pids) expect(isRunning(pid), `implementation pid ${pid} is still running`).toBe(false);
    });
  }
});

describe("srk certify --jobs 2 interrupted", () => {
  it("passes the interrupt on to each shard once: each writes its part, they are merged, exit 2, no implementation left", {
    timeout: 240_000,
  }, async () => {
    const log = join(tmp, "pids-jobs");
    const outDir = join(tmp, "out-jobs");
    const child = spawn(
      process.execPath,
      [
        "bin/srk.mjs",
        "certify",
        "--impl",
        PID_RECORDING_KIT,
        "--runs",
        "300",
        "--time-budget",
        "900",
        "--jobs",
        "2",
        "--out",
        outDir,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, SRK_TEST_PID_LOG: log },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString("utf8");
      // Sent to the parent alone (not its group), as `kill -INT <pid>` would: only the parent can pass it on.
      if (
        /\[shard 1\/2\] srk: stage golden/.test(stderr) &&
        /\[shard 2\/2\] srk: stage golden/.test(stderr) &&
        !child.killed
      )
        child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toContain("srk: SIGINT: passing it on to the shards");
    expect(code, stderr).toBe(2);
    for (const i of [1, 2]) {
      const shard = Certificate.parse(
        JSON.parse(readFileSync(join(outDir, "shards", `shard-${i}`, "certificate.json"), "utf8")),
      );
      expect(
        shard.stages.some((s) => s.reason.includes("interrupted by SIGINT")),
        `shard ${i}`,
      ).toBe(true);
    }
    const merged = Certificate.parse(JSON.parse(readFileSync(join(outDir, "certificate.json"), "utf8")));
    expect(merged).toMatchObject({ result: "inconclusive", exit_code: 2, harness_faults: [] });
    const pids = recordedPids(log);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(isRunning(pid), `implementation pid ${pid} is still running`).toBe(false);
  });
});

describe("listenForInterrupts", () => {
  it("aborts on the first signal with a reason that names it, and stops listening when disposed", () => {
    const told: string[] = [];
    // SIGUSR2 stands in for SIGINT: the test runner's own SIGINT handling stays untouched.
    const i = listenForInterrupts((s) => told.push(s), ["SIGUSR2"]);
    expect(i.signal.aborted).toBe(false);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(told).toEqual(["SIGUSR2"]);
    expect(i.signal.reason).toBeInstanceOf(CutShort);
    expect((i.signal.reason as CutShort).why).toBe("interrupted by SIGUSR2");
    i.dispose();
    expect(process.listenerCount("SIGUSR2")).toBe(0);
  });
});
