/**
 * Wire logs (spec/LOG.md, D-050) on real recordings (a long test: it starts the implementation once
 * per recording): the bundled implementation recorded by `srk
 * record` under a golden session validates; a catalog mutant recorded the same way fails at the
 * line where the golden replay (a separate code path, in process) first sees it diverge, under the
 * invariant its label names (decided from the spec); logs with replies, queries or entries left
 * out still validate, or still fail for the mutant; logs with commands left out validate with the
 * search for unlogged commands (L-2.4) and still fail for the mutant, at its line, unexplained.
 * Hostile logs: hostile.test.ts.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { firstGoldenMismatchAt, readGolden } from "../golden/replay.ts";
import { goldenPath, GOLDEN_SESSIONS } from "../golden/session.ts";
import type { GoldenLine } from "../golden/types.ts";
import { load, materialize } from "../mutants/harness.ts";
import { seededSession } from "../oracle/model.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { checkLog, type SearchOptions } from "./check.ts";
import type { Command } from "../../spec/index.ts";
import { record } from "./record.ts";
import { traceOfViolation } from "./trace.ts";
import { replayTrace } from "../replay.ts";
import { PortableTrace } from "../../spec/certificate.ts";

const run = promisify(execFile);
const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "srk-log-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const HELLO = { type: "hello", id: "h", protocol_versions: ["1"], settings: {} };
const SHUTDOWN = { type: "shutdown", id: "bye" };

/** Records `requests` (hello first, shutdown last) sent to `main` through the proxy; returns the log and the replies the client saw. */
const recordSession = async (
  main: string,
  requests: readonly unknown[],
): Promise<{ log: string; replies: string[] }> => {
  const dir = temp();
  const log = join(dir, "wire.log");
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on("data", (c: Buffer) => chunks.push(c));
  const done = record({
    commandLine: `${process.execPath} --import tsx ${main} --data-dir ${join(dir, "data")}`,
    log,
    recorder: "log.test",
    stdin,
    stdout,
  });
  stdin.end([HELLO, ...requests, SHUTDOWN].map((r) => `${JSON.stringify(r)}\n`).join(""));
  expect(await done).toBe(0);
  return { log, replies: Buffer.concat(chunks).toString("utf8").trimEnd().split("\n") };
};

const requestsOf = (lines: readonly GoldenLine[]): unknown[] => lines.map((l) => l.request);
const logLines = (log: string): Record<string, unknown>[] =>
  readFileSync(log, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const writeLog = (file: string, lines: readonly unknown[]): string => {
  writeFileSync(file, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return file;
};

/** The log without the request and reply entries of the golden lines `ids` (a log that left those commands out: seq gaps, L-1.2). */
const withoutCommands = (
  entries: readonly Record<string, unknown>[],
  ids: readonly string[],
): Record<string, unknown>[] =>
  entries.filter((e) => !ids.includes(String((e["msg"] as { id?: unknown } | undefined)?.id)));
const commandsOf = (ids: readonly string[]): Command[] =>
  ids.map((id) => {
    const l = LINES.find((x) => x.request.id === id);
    if (l?.request.type !== "command") throw new Error(`no command ${id} in session-1`);
    return l.request.command;
  });
const search = (unlogged: number, alphabet: readonly Command[]): SearchOptions => ({
  unlogged,
  alphabet,
  budget: 100_000,
});

const SESSION = GOLDEN_SESSIONS.find((g) => g.name === "session-1");
if (SESSION === undefined) throw new Error("no golden session-1");
const LINES = readGolden(join(REPO_ROOT, goldenPath(SESSION)));

describe("srk record and check-log on the bundled implementation", () => {
  let recorded: { log: string; replies: string[] };
  it("the proxy passes every reply through and logs every request and reply, seq by seq, timestamps rising", async () => {
    recorded = await recordSession("impl/main.ts", requestsOf(LINES));
    // One reply per request (W-1.6): hello, the session, shutdown.
    expect(recorded.replies).toHaveLength(LINES.length + 2);
    const entries = logLines(recorded.log);
    expect(entries[0]).toMatchObject({ srk_log: 1, recorder: "log.test" });
    const body = entries.slice(1);
    expect(body.map((e) => e["seq"])).toEqual(body.map((_, i) => i + 1));
    const t = body.map((e) => Number(e["t_us"]));
    expect(t.every((x, i) => i === 0 || x >= (t[i - 1] as number))).toBe(true);
    expect(body.filter((e) => e["dir"] === "request")).toHaveLength(LINES.length + 2);
    // What the client saw is what the log holds, line for line.
    expect(body.filter((e) => e["dir"] === "reply").map((e) => e["msg"])).toEqual(
      recorded.replies.map((r) => JSON.parse(r) as unknown),
    );
    expect(body.at(-1)).toMatchObject({ exit: { code: 0, signal: null } });
  }, 120_000);

  it("the log validates: every command reply and world view is the model's", async () => {
    const c = await checkLog(recorded.log);
    const commands = LINES.filter((l) => l.request.type === "command").length;
    const worlds = LINES.length - commands;
    expect(c.result).toBe("consistent");
    expect(c.exit_code).toBe(0);
    expect(c.checked).toEqual({ replies: commands, worlds });
    expect(c.unchecked).toEqual({ no_reply: 0, wire_level: 2, agent_not_in_log: 0, after_violation: 0 });
    expect(c.profile).toEqual(["janma", "samskara", "advaita", "ripa"]);
    // Witnesses: every accepted command counts for the invariants guarding its operation.
    expect(c.invariants.filter((i) => i.accepted + i.rejected > 0).length).toBeGreaterThan(10);
    expect(c.violations).toEqual([]);
  });

  it("a log with replies, world queries and entries left out still validates, counting what it could not compare", async () => {
    const entries = logLines(recorded.log);
    const [header, ...body] = entries;
    let k = 0;
    const kept = body.filter((e) => {
      if (e["dir"] !== "reply") return true;
      k++;
      return k % 3 !== 0; // every third reply left out
    });
    const c = await checkLog(writeLog(join(temp(), "partial.log"), [header, ...kept]));
    expect(c.result).toBe("consistent");
    expect(c.unchecked.no_reply).toBeGreaterThan(0);
    expect(c.seq_gaps).toBeGreaterThan(0);
    expect(c.checked.replies + c.checked.worlds + c.unchecked.no_reply + c.unchecked.wire_level).toBe(LINES.length + 2);
    // Without the world queries (request and reply), nothing about them is compared, the rest is.
    const worldIds = new Set(LINES.filter((l) => l.request.type === "query").map((l) => l.request.id));
    const noQueries = body.filter((e) => !worldIds.has(String((e["msg"] as { id?: unknown } | undefined)?.id)));
    const q = await checkLog(writeLog(join(temp(), "no-queries.log"), [header, ...noQueries]));
    expect(q.result).toBe("consistent");
    expect(q.checked.worlds).toBe(0);
  });

  it("a log with commands left out fails without the search, and validates with it (L-2.4), the search's statistics reported", async () => {
    // c19 and c20 (a restart and a migration fence the rest of session-1 depends on), both accepted.
    const removed = ["c19", "c20"];
    expect(removed.map((id) => LINES.find((l) => l.request.id === id)?.reply.ok)).toEqual([true, true]);
    const file = writeLog(join(temp(), "unlogged.log"), withoutCommands(logLines(recorded.log), removed));
    const plain = await checkLog(file);
    expect(plain.result).toBe("violations");
    const c = await checkLog(file, search(2, commandsOf(removed)));
    expect(c.result).toBe("consistent");
    expect(c.search?.explanations.map((x) => x.inserted)).toEqual([commandsOf(removed)]);
    expect(c.search?.states_visited).toBeGreaterThan(0);
    expect(c.search).toMatchObject({ max_depth: 2, gave_up: 0 });
    expect(c.checked.replies + c.checked.worlds).toBe(LINES.length - removed.length);
  });

  it("an agent the log never mints is a gap, its commands unchecked, not a violation", async () => {
    const [header, ...body] = logLines(recorded.log);
    // Drop the first mint and its reply (session-1 mints first after the hello).
    const mintReq = body.findIndex(
      (e) => (e["msg"] as { command?: { op?: string } } | undefined)?.command?.op === "advaita.mint",
    );
    const mintId = (body[mintReq]!["msg"] as { id: string }).id;
    const rest = body.filter((e) => (e["msg"] as { id?: unknown } | undefined)?.id !== mintId);
    const c = await checkLog(writeLog(join(temp(), "no-mint.log"), [header, ...rest]));
    expect(c.gaps.length).toBeGreaterThanOrEqual(1);
    expect(c.unchecked.agent_not_in_log).toBeGreaterThan(0);
    // Everything else of session-1 is still checked; a later mint reusing the dropped mint's root would
    // be the one honest violation (the model never saw the root used), and session-1 has none.
    expect(c.violations).toEqual([]);
    expect(c.checked.replies).toBeGreaterThan(0);
  });
});

describe("every golden session and a differential campaign, recorded, validate", () => {
  it("each golden session: every reply compared and the model's", async () => {
    for (const g of GOLDEN_SESSIONS) {
      const lines = readGolden(join(REPO_ROOT, goldenPath(g)));
      const { log } = await recordSession("impl/main.ts", requestsOf(lines));
      const c = await checkLog(log);
      expect(c.violations, g.name).toEqual([]);
      expect(c.result, g.name).toBe("consistent");
      expect(c.checked.replies + c.checked.worlds, g.name).toBe(lines.length);
    }
  }, 600_000);

  it("a differential campaign: 12 seeded runs of 80 generated commands, each after a reset, in one process", async () => {
    const requests: unknown[] = [];
    let commands = 0;
    for (let r = 1; r <= 12; r++) {
      requests.push({ type: "reset", id: `r${r}` });
      const steps = seededSession(r, 80, {
        families: ["janma", "samskara", "advaita", "ripa"],
        profile: r % 2 === 0 ? "store" : "mixed",
      });
      steps.forEach((s, i) => requests.push({ type: "command", id: `r${r}.c${i + 1}`, command: s.command }));
      commands += steps.length;
      requests.push({ type: "query", id: `r${r}.world`, query: { name: "world" } });
    }
    const { log } = await recordSession("impl/main.ts", requests);
    const c = await checkLog(log);
    expect(c.violations).toEqual([]);
    expect(c.checked).toEqual({ replies: commands, worlds: 12 });
    expect(c.sessions).toBe(13);
    expect(c.result).toBe("consistent");
  }, 300_000);
});

describe("a catalog mutant's recording fails where the golden replay first diverges, under its label", () => {
  // The first catalog mutant killed by session-1 in process: its line there is found by the golden replay.
  it("fails at that line, under the mutant's invariant, and still fails with a third of the replies left out", async () => {
    let found: { id: string; main: string; line: number; invariant: string } | null = null;
    for (const m of MUTANTS.filter((x) => x.invariant !== null)) {
      const api = materialize(`log-${m.id}`, m);
      const open = await load(api);
      const miss = firstGoldenMismatchAt(LINES, open());
      if (miss !== null && miss.threw === null) {
        found = {
          id: m.id,
          main: api.replace(/api\.ts$/, "main.ts"),
          line: miss.line,
          invariant: m.invariant as string,
        };
        break;
      }
    }
    expect(found, "some labelled mutant diverges in session-1").not.toBeNull();
    if (found === null) return;
    const { log } = await recordSession(found.main, requestsOf(LINES));
    const c = await checkLog(log);
    expect(c.result).toBe("violations");
    expect(c.exit_code).toBe(1);
    const [v] = c.violations;
    // Golden line N is request N+1 of the log (the hello is the first); the log's line of that request:
    const entries = logLines(log);
    const reqLine =
      entries.findIndex(
        (e) => e["dir"] === "request" && (e["msg"] as { id?: unknown }).id === LINES[found.line - 1]?.request.id,
      ) + 1;
    expect(v?.request_line, found.id).toBe(reqLine);
    expect(v?.invariant, found.id).toBe(found.invariant);
    expect(c.unchecked.after_violation).toBeGreaterThanOrEqual(0);
    // Left out: every reply but the failing one among every third.
    const [header, ...body] = entries;
    const failingReplyLine = v?.line ?? -1;
    let k = 0;
    const kept = body.filter((e, i) => {
      if (e["dir"] !== "reply" || i + 2 === failingReplyLine) return true;
      k++;
      return k % 3 !== 0;
    });
    // The violation as a portable trace: srk replay still fails on the mutant, at its last step, and passes on the implementation.
    const trace = PortableTrace.parse(await traceOfViolation(log, v as NonNullable<typeof v>));
    expect(trace.stage).toBe("log");
    expect(trace.invariant).toBe(found.invariant);
    expect(trace.failing_step).toBe(trace.steps.length - 1);
    const mutantLine = `${process.execPath} --import tsx ${found.main}`;
    const onMutant = await replayTrace(trace, {
      commandLine: mutantLine,
      requestTimeoutMs: 30_000,
      startupTimeoutMs: 60_000,
    });
    expect(onMutant).toMatchObject({ kind: "still-fails", step: trace.steps.length });
    const onImpl = await replayTrace(trace, {
      commandLine: `${process.execPath} --import tsx impl/main.ts`,
      requestTimeoutMs: 30_000,
      startupTimeoutMs: 60_000,
    });
    expect(onImpl).toEqual({ kind: "passes", steps: trace.steps.length });
    // Commands left out before the divergence, searched for with an alphabet that holds them and
    // every other command of session-1 up to there: the search explains the gap, never the mutant's reply.
    const before = LINES.slice(0, found.line - 1)
      .filter((l) => l.request.type === "command" && l.reply.ok)
      .map((l) => l.request.id);
    if (before.length >= 2) {
      const removed = before.slice(-2);
      const upTo = LINES.slice(0, found.line - 1)
        .filter((l) => l.request.type === "command")
        .map((l) => l.request.id)
        .slice(-6);
      const unlogged = withoutCommands(entries, removed);
      const s = await checkLog(
        writeLog(join(temp(), "mutant-unlogged.log"), unlogged),
        search(2, commandsOf([...new Set([...upTo, ...removed])])),
      );
      // The same request as in the whole log, at its line in this one (requests and replies interleave as the proxy saw them).
      const failingId = LINES[found.line - 1]?.request.id;
      const lineHere =
        unlogged.findIndex((e) => e["dir"] === "request" && (e["msg"] as { id?: unknown }).id === failingId) + 1;
      expect(s.result).toBe("violations");
      expect(s.violations[0]?.invariant).toBe(found.invariant);
      expect(s.violations[0]?.request_line).toBe(lineHere);
      expect(s.violations[0]?.search).toBe("unexplained");
      expect(s.search?.searches).toBeGreaterThan(0);
    }
    const p = await checkLog(writeLog(join(temp(), "mutant-partial.log"), [header, ...kept]));
    expect(p.result).toBe("violations");
    expect(p.violations[0]?.invariant).toBe(found.invariant);
    expect(p.violations[0]?.request_line).toBe(reqLine);
  }, 240_000);
});

describe("the three commands from a shell", () => {
  it("srk record, then srk check-log: exit 0 and the summary; a broken log: exit 64 naming the line", async () => {
    const dir = temp();
    const log = join(dir, "cli.log");
    const impl = `${process.execPath} --import tsx impl/main.ts --data-dir ${join(dir, "data")}`;
    const input = `${[HELLO, ...requestsOf(LINES.slice(0, 12)), SHUTDOWN].map((r) => JSON.stringify(r)).join("\n")}\n`;
    const child = execFile(process.execPath, ["bin/srk.mjs", "record", "--impl", impl, "--log", log], {
      cwd: REPO_ROOT,
    });
    child.stdin?.end(input);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const ok = await run(process.execPath, ["bin/srk.mjs", "check-log", log, "--out", join(dir, "out")], {
      cwd: REPO_ROOT,
    });
    expect(JSON.parse(readFileSync(join(dir, "out", "check.json"), "utf8"))).toMatchObject({
      result: "consistent",
      exit_code: 0,
    });
    expect(ok.stdout).toMatch(
      /^srk check-log .*cli\.log: consistent \(exit 0\): every one of the \d+ compared replies is the model's/,
    );
    appendFileSync(log, '{"seq":');
    const bad = await run(process.execPath, ["bin/srk.mjs", "check-log", log], { cwd: REPO_ROOT }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((bad as { code: number }).code).toBe(64);
    expect((bad as { stderr: string }).stderr).toMatch(/cli\.log:\d+: not a JSON value/);
  }, 120_000);
});
