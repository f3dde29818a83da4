/**
 * The impl-events adapter (spec/LOG.md L-3, D-067) end to end: the bundled implementation, run with
 * SRK_IMPL_EVENT_LOG through a golden session (then a reset and part of it again), writes its own
 * event log; the adapted wire log checks consistent with every command compared; an event changed
 * as a bug would change it fails at the log line event line k maps to (2k + 1); a malformed event
 * line is refused naming its line; an event log inside the data directory is refused before the
 * data directory is touched; without the variable nothing is written.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_LOG_ENV, isInside } from "../../../impl/event-log.ts";
import { readGolden } from "../../golden/replay.ts";
import { goldenPath, GOLDEN_SESSIONS } from "../../golden/session.ts";
import { REPO_ROOT } from "../../transport/local.ts";
import { checkLog } from "../check.ts";
import { LogFileError } from "../lines.ts";
import { adaptImplEvents, IMPL_EVENTS_RECORDER } from "./impl-events.ts";

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "srk-impl-events-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// An absolute loader, so the implementation can run with a working directory of the test's own.
const TSX = pathToFileURL(join(REPO_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const MAIN = join(REPO_ROOT, "impl/main.ts");
const HELLO = { type: "hello", id: "h", protocol_versions: ["1"], settings: {} };
const SHUTDOWN = { type: "shutdown", id: "bye" };

/** Runs the implementation once over `requests` (hello first, shutdown last); `eventLog` undefined leaves the variable unset. */
const runImpl = (
  cwd: string,
  dataDir: string,
  eventLog: string | undefined,
  requests: readonly unknown[],
): Promise<{ code: number | null; stdout: string; stderr: string }> => {
  const env = { ...process.env };
  delete env[EVENT_LOG_ENV];
  if (eventLog !== undefined) env[EVENT_LOG_ENV] = eventLog;
  const child = spawn(process.execPath, ["--import", TSX, MAIN, "--data-dir", dataDir], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.on("error", () => {}); // a refused start exits before reading
  child.stdin.end([HELLO, ...requests, SHUTDOWN].map((r) => `${JSON.stringify(r)}\n`).join(""));
  return new Promise((resolve) => {
    child.on("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
};

const SESSION = GOLDEN_SESSIONS.find((g) => g.name === "session-1");
if (SESSION === undefined) throw new Error("no golden session-1");
const LINES = readGolden(join(REPO_ROOT, goldenPath(SESSION)));
const COMMANDS = LINES.filter((l) => l.request.type === "command").map((l) => l.request);
/** After the session: a reset, then its first 20 commands again (new ids: W-2.1), so the reset's mapping is exercised. */
const AGAIN = COMMANDS.slice(0, 20).map((r) => ({ ...r, id: `again.${String(r.id)}` }));
const REQUESTS = [...LINES.map((l) => l.request), { type: "reset", id: "reset-1" }, ...AGAIN];

const eventLines = (file: string): string[] => readFileSync(file, "utf8").trimEnd().split("\n");

describe("the bundled implementation's event log, adapted, checks against the model", () => {
  let work: string;
  let events: string;
  beforeAll(async () => {
    work = temp();
    events = join(work, "events.jsonl");
    const r = await runImpl(work, join(work, "data"), events, REQUESTS);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it("logs every command and the reset, in its own shape, and no query, hello or shutdown", () => {
    const lines = eventLines(events).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(COMMANDS.length + 1 + AGAIN.length);
    expect(lines.map((l) => l["request_id"])).toEqual([
      ...COMMANDS.map((c) => c.id),
      "reset-1",
      ...AGAIN.map((c) => c.id),
    ]);
    expect(new Set(lines.map((l) => l["kind"]))).toEqual(
      new Set(["command.accepted", "command.rejected", "store.reset"]),
    );
    const at = lines.map((l) => Number(l["at_ms"]));
    expect(at.every((x, i) => i === 0 || x >= (at[i - 1] as number))).toBe(true);
  });

  it("adapts to a wire log that validates, every command compared, the reset starting a second session", async () => {
    const out = join(temp(), "adapted.log");
    const a = await adaptImplEvents(events, out);
    expect(a).toEqual({ events: REQUESTS.length - LINES.length + COMMANDS.length, entries: 2 * a.events });
    const [header, ...body] = eventLines(out).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(header).toEqual({ srk_log: 1, recorder: IMPL_EVENTS_RECORDER, impl: null, started_at: null });
    expect(body.map((e) => e["seq"])).toEqual(body.map((_, i) => i + 1));
    const c = await checkLog(out);
    expect(c.violations).toEqual([]);
    expect(c.result).toBe("consistent");
    expect(c.profile).toBeNull(); // no hello in an event log: every family is judged
    expect(c.checked).toEqual({ replies: COMMANDS.length + AGAIN.length, worlds: 0 });
    expect(c.sessions).toBe(2);
    expect(c.unchecked).toEqual({ no_reply: 0, wire_level: 1, agent_not_in_log: 0, after_violation: 0 });
    // Never overwrites a log.
    await expect(adaptImplEvents(events, out)).rejects.toThrow(/exists and is not empty/);
  });

  it("an accepted event whose events were changed, as a bug would change them, fails at the log line of that event", async () => {
    const lines = eventLines(events);
    const k =
      lines.findIndex(
        (l, i) =>
          i > 10 && /"kind":"command.accepted"/.test(l) && (JSON.parse(l) as { events: unknown[] }).events.length > 1,
      ) + 1;
    expect(k).toBeGreaterThan(11);
    const e = JSON.parse(lines[k - 1] as string) as { events: unknown[] };
    lines[k - 1] = JSON.stringify({ ...e, events: e.events.slice(0, -1) }); // the last event lost
    const dir = temp();
    writeFileSync(join(dir, "bad.jsonl"), `${lines.join("\n")}\n`);
    await adaptImplEvents(join(dir, "bad.jsonl"), join(dir, "bad.log"));
    const c = await checkLog(join(dir, "bad.log"));
    expect(c.result).toBe("violations");
    expect(c.violations[0]).toMatchObject({ line: 2 * k + 1, request_line: 2 * k });
    // The rest of that session is not judged; the reset starts a new one, which is judged again.
    expect(c.checked.replies).toBe(k + AGAIN.length);
    expect(c.unchecked.after_violation).toBe(COMMANDS.length - k);
  });

  it("srk adapt-log impl-events writes the log; an unknown adapter or an existing log is a usage error (64)", () => {
    const dir = temp();
    const out = join(dir, "cli.log");
    const srk = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", TSX, join(REPO_ROOT, "conformance/cli/main.ts"), "adapt-log", ...args], {
        cwd: dir,
        encoding: "utf8",
      });
    const ok = srk("impl-events", events, "--out", out);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/srk check-log/);
    expect(eventLines(out)).toHaveLength(1 + 2 * eventLines(events).length);
    const again = srk("impl-events", events, "--out", out);
    expect(again.status).toBe(64);
    expect(again.stderr).toMatch(/never overwrites/);
    const unknown = srk("nginx", events, "--out", join(dir, "x.log"));
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toMatch(/unknown adapter "nginx"; the adapters are impl-events/);
  }, 60_000);

  it("a malformed event line is refused naming the event log and the line, and leaves no output", async () => {
    const lines = eventLines(events);
    const dir = temp();
    for (const [name, bad] of [
      ["torn", (lines[6] as string).slice(0, 40)],
      ["unknown-kind", JSON.stringify({ ...(JSON.parse(lines[6] as string) as object), kind: "command.maybe" })],
    ] as const) {
      const file = join(dir, `${name}.jsonl`);
      writeFileSync(file, `${[...lines.slice(0, 6), bad, ...lines.slice(7)].join("\n")}\n`);
      const out = join(dir, `${name}.log`);
      const err = await adaptImplEvents(file, out).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(LogFileError);
      expect((err as LogFileError).line, name).toBe(7);
      expect((err as Error).message, name).toContain(`${file}:7: `);
      expect(existsSync(out), name).toBe(false);
    }
    await expect(adaptImplEvents(join(dir, "absent.jsonl"), join(dir, "absent.log"))).rejects.toThrow(/no such file/);
    expect(existsSync(join(dir, "absent.log"))).toBe(false);
  });
});

describe("where the event log may be, and that it is opt-in", () => {
  it("an event log inside the data directory is refused (exit 2) before the data directory is created", async () => {
    const work = temp();
    const data = join(work, "data");
    const r = await runImpl(work, data, join(data, "events.jsonl"), []);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside the data directory/);
    expect(r.stderr).toMatch(/W-7\.2/);
    expect(existsSync(data)).toBe(false);
  }, 60_000);

  it("inside means under the directory after symlinks, not a name that starts with it", () => {
    const work = temp();
    const data = join(work, "data");
    mkdirSync(data);
    symlinkSync(data, join(work, "link"));
    expect(isInside(data, join(data, "x.jsonl"))).toBe(true);
    expect(isInside(data, join(data, "sub", "x.jsonl"))).toBe(true);
    expect(isInside(data, data)).toBe(true);
    expect(isInside(data, join(work, "link", "x.jsonl"))).toBe(true);
    expect(isInside(join(work, "link"), join(data, "x.jsonl"))).toBe(true);
    expect(isInside(data, join(work, "data2", "x.jsonl"))).toBe(false);
    expect(isInside(data, join(data, "..", "x.jsonl"))).toBe(false);
  });

  it("with the variable unset the implementation writes no file but its data directory", async () => {
    const work = temp();
    const r = await runImpl(work, join(work, "data"), undefined, COMMANDS.slice(0, 5));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(7);
    expect(readdirSync(work)).toEqual(["data"]);
  }, 60_000);
});
