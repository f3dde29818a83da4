/**
 * A hostile or broken implementation never hangs or crashes the conformance runner: for each way
 * the fake `conformance/test/fixtures/hostile.mjs` can misbehave (`--mode`), `certify` returns
 * within a bound, writes a `certificate.json` that matches its schema, ends with the right result
 * (a protocol violation fails with the W-rule broken, exit 1; an implementation that cannot be
 * driven is inconclusive, exit 2) and a diagnosis that names what happened (exit code or signal
 * with the last stderr lines, "no reply", the offending bytes), and never blames the harness.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Certificate, type StageName } from "../../spec/certificate.ts";
import { certify, type CertifyResult } from "../certify.ts";
import { silentProgress } from "../core/progress.ts";
import { WireClient } from "../transport/client.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { STDERR_KEEP_BYTES } from "../transport/process.ts";

const FIXTURE = "conformance/test/fixtures/hostile.mjs";
const REQUEST_TIMEOUT_MS = 2_000;
const STARTUP_TIMEOUT_MS = 3_000;
/** No mode may keep certify busier than this (the slowest take about a third of it). */
const BOUND_MS = 30_000;

const tmp = mkdtempSync(join(tmpdir(), "srk-hostile-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const q = (s: string): string => `'${s.replaceAll("'", `'"'"'`)}'`;
const commandLine = (mode: string, extra = ""): string =>
  `${q(process.execPath)} ${FIXTURE} --mode ${mode}${extra === "" ? "" : ` ${extra}`}`;

interface Run {
  readonly result: CertifyResult;
  /** certificate.json as written, parsed with the schema. */
  readonly cert: Certificate;
  readonly ms: number;
  /** Every diagnosis in the certificate: implementation faults, stage reasons, findings. */
  readonly text: string;
}

const run = async (
  mode: string,
  opts: { stages?: readonly StageName[]; extra?: string; startupTimeoutMs?: number } = {},
): Promise<Run> => {
  const outDir = mkdtempSync(join(tmp, `${mode}-`));
  const t0 = performance.now();
  const result = await certify({
    commandLine: commandLine(mode, opts.extra),
    cwd: REPO_ROOT,
    outDir,
    seed: 1,
    runs: 3,
    timeBudgetMs: 20_000,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    startupTimeoutMs: opts.startupTimeoutMs ?? STARTUP_TIMEOUT_MS,
    only: [],
    graceMs: 3_000,
    progress: silentProgress,
    ...(opts.stages === undefined ? {} : { stages: opts.stages }),
  });
  const ms = performance.now() - t0;
  const path = join(outDir, "certificate.json");
  expect(result.certificatePath).toBe(path);
  expect(existsSync(path)).toBe(true);
  const cert = Certificate.parse(JSON.parse(readFileSync(path, "utf8")));
  expect(cert).toEqual(result.certificate);
  const text = [
    ...cert.implementation_faults,
    ...cert.stages.flatMap((s) => [s.reason, ...s.findings.map((f) => `${f.check}: ${f.summary}`)]),
  ].join("\n");
  return { result, cert, ms, text };
};

/** The common promises: bounded, never the harness's fault, and the expected result. */
const expectOutcome = (r: Run, result: Certificate["result"]): void => {
  expect(r.ms).toBeLessThan(BOUND_MS);
  expect(r.cert.harness_faults).toEqual([]);
  expect(r.cert.result).toBe(result);
  expect(r.cert.exit_code).toBe(result === "violations" ? 1 : result === "inconclusive" ? 2 : 0);
};

const checks = (r: Run): string[] => r.cert.stages.flatMap((s) => s.findings.map((f) => f.check));
const stage = (r: Run, name: StageName) => {
  const s = r.cert.stages.find((x) => x.stage === name);
  if (s === undefined) throw new Error(`no stage ${name} in ${JSON.stringify(r.cert.stages.map((x) => x.stage))}`);
  return s;
};
/** Whether `pid` is a running process (a zombie, dead but not yet reaped by init, is not). */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", comm may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return !existsSync("/proc/self"); // no /proc: trust kill(0)
  }
};

const TEST_MS = 45_000;

describe("the fake's well-behaved baseline", () => {
  it("passes the handshake stage with no fault (so each mode's diagnosis is the mode's)", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("well-behaved", { stages: ["handshake"] });
    // Nothing is certified: it implements no operation, so every invariant lacks a witness.
    expectOutcome(r, "inconclusive");
    expect(stage(r, "handshake").verdict).toBe("pass");
    expect(r.cert.implementation_faults).toEqual([]);
    expect(checks(r)).toEqual([]);
    expect(r.cert.implementation.name).toBe("hostile-well-behaved");
  });
});

// The cases mostly wait on the runner's timeouts, so they run side by side (each has its own
// directories and processes).
describe.concurrent("an implementation that cannot be driven is inconclusive, with the reason", () => {
  it("exit-at-start: the exit code and the last stderr lines", { timeout: TEST_MS }, async () => {
    const r = await run("exit-at-start");
    expectOutcome(r, "inconclusive");
    expect(r.cert.protocol_version).toBeNull();
    expect(r.cert.stages.map((s) => [s.stage, s.verdict])).toEqual([["handshake", "inconclusive"]]);
    expect(stage(r, "handshake").reason).toContain("the first handshake failed");
    expect(r.cert.implementation_faults).toHaveLength(1);
    const fault = r.cert.implementation_faults[0] ?? "";
    expect(fault).toContain("exited with code 3");
    expect(fault).toContain("cannot open the database: permission denied");
    expect(fault).toContain("giving up (exit 3)");
    expect(r.cert.invariants.every((i) => i.verdict === "inconclusive")).toBe(true);
  });

  it("hang-at-start: no reply to hello within the start-up timeout", { timeout: TEST_MS }, async () => {
    const r = await run("hang-at-start");
    expectOutcome(r, "inconclusive");
    expect(r.cert.implementation_faults).toHaveLength(1);
    expect(r.text).toContain(
      `no reply to hello within ${STARTUP_TIMEOUT_MS} ms (--startup-timeout ${STARTUP_TIMEOUT_MS}; raise it`,
    );
    expect(r.text).toContain("starting, and never answering");
    expect(r.ms).toBeLessThan(STARTUP_TIMEOUT_MS + 10_000);
  });

  it("missing-replies: no reply, in every stage that sends requests", { timeout: TEST_MS }, async () => {
    const r = await run("missing-replies", { stages: ["handshake", "differential"] });
    expectOutcome(r, "inconclusive");
    expect(checks(r)).toEqual([]);
    expect(stage(r, "handshake").verdict).toBe("inconclusive");
    expect(stage(r, "handshake").reason).toContain(`no reply to hello "h-again" within ${REQUEST_TIMEOUT_MS} ms`);
    expect(stage(r, "differential").verdict).toBe("inconclusive");
    expect(stage(r, "differential").reason).toContain(`no reply to reset`);
    expect(stage(r, "differential").reason).toContain(`within ${REQUEST_TIMEOUT_MS} ms`);
  });

  it("partial-line: half a reply then silence is a hang, and the diagnosis shows the unterminated bytes", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("partial-line", { stages: ["handshake", "differential"] });
    expectOutcome(r, "inconclusive");
    expect(checks(r)).toEqual([]);
    const reason = stage(r, "handshake").reason;
    expect(reason).toContain(`no reply to hello "h-again" within ${REQUEST_TIMEOUT_MS} ms`);
    expect(reason).toMatch(/; \d+ bytes of an unterminated line on stdout/);
    expect(reason).toContain(`{"type":"reply","id":"h-again"`);
    expect(reason).toContain("wrote half a reply; now hanging");
    expect(stage(r, "differential").reason).toContain("no reply to reset");
  });

  it("crash-mid-run: killed by SIGSEGV after answering requests, with its last stderr line", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("crash-mid-run", { stages: ["handshake", "differential"], extra: "--after 1" });
    expectOutcome(r, "inconclusive");
    expect(checks(r)).toEqual([]);
    expect(stage(r, "handshake").verdict).toBe("pass"); // one request after hello, then shutdown: no crash yet
    const diff = stage(r, "differential");
    expect(diff.verdict).toBe("inconclusive");
    // It answered hello and reset, then died on the first command: exactly that request is named.
    expect(diff.reason).toContain(
      `the implementation ended before replying to command "t1" (step 1) (the implementation killed by SIGSEGV)`,
    );
    expect(diff.reason).toContain("crashing after answering 1 request(s) after hello");
  });

  it("stderr-flood: ~75 MB of stderr cost nothing, and the diagnosis keeps only the last lines", {
    timeout: TEST_MS,
  }, async () => {
    // Writing ~75 MB takes the fixture more than the suite's 3 s startup timeout on a loaded
    // machine (these tests run side by side); the point is the exit diagnosis, so it gets 30 s.
    const r = await run("stderr-flood", { stages: ["handshake"], startupTimeoutMs: 30_000 });
    expectOutcome(r, "inconclusive");
    const reason = stage(r, "handshake").reason;
    expect(reason).toContain("exited with code 7");
    expect(reason).toContain("the last line before exiting with status 7");
    // Bounded diagnosis: a few KiB, not the flood.
    expect(r.cert.implementation_faults.join("\n").length).toBeLessThan(16 * 1024);
    expect(JSON.stringify(r.cert).length).toBeLessThan(64 * 1024);
  });

  it("stderr-flood: the client keeps only the tail of stderr", { timeout: TEST_MS }, async () => {
    const dir = mkdtempSync(join(tmp, "flood-client-"));
    const client = WireClient.spawnRaw(
      { command: process.execPath, args: [FIXTURE, "--mode", "stderr-flood", "--data-dir", dir], cwd: REPO_ROOT },
      { timeoutMs: REQUEST_TIMEOUT_MS, startupTimeoutMs: 20_000 },
    );
    await client.handshake(); // after ~25 MB of stderr
    const o = await client.send({ type: "query", query: { name: "world" } }, 20_000); // another ~25 MB, then exit 7
    expect(o.kind).toBe("exited");
    expect(client.exitInfo).toEqual({ code: 7, signal: null });
    expect(client.stderr.length).toBeLessThanOrEqual(2 * STDERR_KEEP_BYTES + 100);
    expect(client.stderr).toMatch(/^\[… \d+ earlier bytes of stderr dropped\]/);
    expect(client.stderrTail(10)).toContain("the last line before exiting with status 7");
    expect(client.stderrTail(10).length).toBeLessThanOrEqual(4200);
  });

  it("spawns-children: the whole process group is killed, no child outlives the run", {
    timeout: TEST_MS,
  }, async () => {
    const pidFile = join(tmp, "spawned-pids");
    const r = await run("spawns-children", { stages: ["handshake"], extra: `--pid-file ${q(pidFile)}` });
    expectOutcome(r, "inconclusive");
    expect(stage(r, "handshake").reason).toContain(`no reply to hello "h-again"`);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    // Two processes (the implementation and its child) for each of the two sessions.
    expect(pids.length).toBe(4);
    // SIGKILL is asynchronous: give the kernel a moment, then every one of them must be gone.
    for (let i = 0; i < 20 && pids.some(isRunning); i++) await new Promise((res) => setTimeout(res, 100));
    for (const pid of pids) expect(isRunning(pid), `pid ${pid} is still running`).toBe(false);
  });
});

describe.concurrent("a protocol violation fails, naming the W-rule", () => {
  it("garbage-stdout: a log line on stdout breaks W-1.3", { timeout: TEST_MS }, async () => {
    const r = await run("garbage-stdout", { stages: ["handshake", "differential"] });
    expectOutcome(r, "violations");
    expect(checks(r)).toContain("handshake/W-1.3");
    expect(r.text).toContain('[info] handling hello "h-again"');
    expect(r.cert.baseline.unexpected_failures).toContain("handshake");
    expect(stage(r, "differential").verdict).toBe("fail"); // the differential stage sees it too, at its first request
    expect(
      stage(r, "differential")
        .findings.map((f) => f.check)
        .some((c) => c.endsWith("W-1.3")),
    ).toBe(true);
  });

  it("wrong-ids: a reply that does not echo its request's id breaks W-3", { timeout: TEST_MS }, async () => {
    const r = await run("wrong-ids", { stages: ["handshake", "differential"] });
    expectOutcome(r, "violations");
    expect(checks(r)).toContain("handshake/W-3");
    expect(r.text).toContain("not-h-again");
    // A wrong id is a violation, not a hang: the stage does not wait for the timeout.
    expect(stage(r, "handshake").duration_ms).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  it("invalid-utf8: stdout bytes that are not UTF-8 break W-1.2", { timeout: TEST_MS }, async () => {
    const r = await run("invalid-utf8", { stages: ["handshake", "differential"] });
    expectOutcome(r, "violations");
    expect(checks(r)).toContain("handshake/W-1.2");
    expect(r.text).toContain("not valid UTF-8");
  });

  it("bad-hello: a hello result without a profile breaks W-5.1 at the first handshake", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("bad-hello");
    expectOutcome(r, "violations");
    expect(r.cert.protocol_version).toBeNull();
    expect(checks(r)).toEqual(["handshake/W-5.1"]);
    expect(r.text).toContain("profile");
    expect(stage(r, "handshake").verdict).toBe("fail");
  });

  it("oversized-reply: a reply line over the runner's 64 MiB cap is cut off and reported", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("oversized-reply", { stages: ["handshake", "differential"] });
    expectOutcome(r, "violations");
    expect(checks(r)).toContain("handshake/W-1.4");
    expect(r.text).toContain(`${64 * 1024 * 1024} bytes`);
    expect(r.text).toContain(
      `{"type":"reply","id":"h-again","ok":false,"error":{"code":"NOT_FOUND","invariant":null,"message":"xxxx`,
    );
  });

  it("ignores-shutdown: answered shutdown, then neither exits nor dies of SIGTERM: W-2.2, and it is killed", {
    timeout: TEST_MS,
  }, async () => {
    const r = await run("ignores-shutdown", { stages: ["handshake"] });
    expectOutcome(r, "violations");
    expect(checks(r)).toContain("handshake/W-2.2");
    expect(r.text).toContain("shutdown");
    expect(r.text).toContain("did not exit");
  });
});

describe("through the real command line", () => {
  it("srk certify on an implementation that hangs at start exits 2 and writes the certificate", {
    timeout: TEST_MS,
  }, async () => {
    const outDir = mkdtempSync(join(tmp, "cli-"));
    const t0 = performance.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          "bin/srk.mjs",
          "certify",
          "--impl",
          commandLine("hang-at-start"),
          "--out",
          outDir,
          "--runs",
          "3",
          "--time-budget",
          "20",
          "--request-timeout",
          String(REQUEST_TIMEOUT_MS),
          "--startup-timeout",
          String(STARTUP_TIMEOUT_MS),
        ],
        { cwd: REPO_ROOT, timeout: BOUND_MS },
        (err, out) => resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : null, stdout: out }),
      );
    });
    expect(performance.now() - t0).toBeLessThan(BOUND_MS);
    expect(code).toBe(2);
    const cert = Certificate.parse(JSON.parse(readFileSync(join(outDir, "certificate.json"), "utf8")));
    expect(cert.result).toBe("inconclusive");
    expect(cert.exit_code).toBe(2);
    expect(cert.harness_faults).toEqual([]);
    expect(cert.implementation_faults.join("\n")).toContain("no reply to hello within");
    expect(cert.implementation_faults.join("\n")).toContain("--startup-timeout");
    expect(stdout).toContain("inconclusive");
  });
});
