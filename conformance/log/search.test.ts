/**
 * The search for unlogged commands (spec/LOG.md L-2.4, D-066) on logs built from golden session-1:
 * the model answers each of its requests (expect1), which gives a complete, consistent log; the
 * tests then leave commands out (request and reply, so seq skips: a gap, L-1.2) or edit a reply as
 * a mutant would. Every expected value comes from what was left out or edited: the gap's line is
 * the line of the first logged request after the removed ones, the explanation is the removed
 * commands in order, its depth their number.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { initialWorld, view } from "../../model/index.ts";
import { readGolden } from "../golden/replay.ts";
import { goldenPath, GOLDEN_SESSIONS } from "../golden/session.ts";
import { expect1 } from "../oracle/model.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { checkLog, readAlphabet, type SearchOptions } from "./check.ts";
import { LogFileError } from "./lines.ts";
import { renderLogCheck } from "./render.ts";
import type { AlphabetCommand } from "./search.ts";
import { traceOfViolation } from "./trace.ts";

const run = promisify(execFile);
const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "srk-search-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SESSION = GOLDEN_SESSIONS.find((g) => g.name === "session-1");
if (SESSION === undefined) throw new Error("no golden session-1");
const LINES = readGolden(join(REPO_ROOT, goldenPath(SESSION)));

/** Each request of session-1 with the model's reply to it, in order: a complete log's body. */
const PAIRS: readonly {
  id: string;
  request: Record<string, unknown>;
  reply: Record<string, unknown>;
  command: Command | null;
}[] = (() => {
  let world = initialWorld();
  return LINES.map((l) => {
    if (l.request.type === "query")
      return {
        id: l.request.id,
        request: l.request,
        reply: { id: l.request.id, ok: true, events: [], result: view(world) },
        command: null,
      };
    const e = expect1(world, l.request.command);
    world = e.world;
    return {
      id: l.request.id,
      request: l.request,
      reply: { id: l.request.id, ...e.reply },
      command: l.request.command,
    };
  });
})();

const pair = (id: string) => {
  const p = PAIRS.find((x) => x.id === id);
  if (p === undefined) throw new Error(`no ${id} in session-1`);
  return p;
};
const commandOf = (id: string): Command => pair(id).command as Command;
const accepted = (id: string): boolean => pair(id).reply["ok"] === true;

interface Built {
  readonly file: string;
  /** The file line of each logged request, by id. */
  readonly requestLine: ReadonlyMap<string, number>;
  /** The file line of each logged reply, by id. */
  readonly replyLine: ReadonlyMap<string, number>;
}

/**
 * Writes session-1 as a log: header, then request and reply of each pair with seq counting every
 * entry of the complete log, so the entries of `drop` leave seq gaps; `edit` replaces a reply.
 */
const build = (drop: readonly string[], edit: Readonly<Record<string, Record<string, unknown>>> = {}): Built => {
  const out: unknown[] = [{ srk_log: 1, recorder: "search.test", impl: null, started_at: null }];
  const requestLine = new Map<string, number>();
  const replyLine = new Map<string, number>();
  let seq = 0;
  for (const p of PAIRS) {
    for (const dir of ["request", "reply"] as const) {
      seq++;
      if (drop.includes(p.id)) continue;
      out.push({ seq, t_us: seq, dir, msg: dir === "request" ? p.request : (edit[p.id] ?? p.reply) });
      (dir === "request" ? requestLine : replyLine).set(p.id, out.length);
    }
  }
  const file = join(temp(), "session-1.log");
  writeFileSync(file, `${out.map((o) => JSON.stringify(o)).join("\n")}\n`);
  return { file, requestLine, replyLine };
};

/** The id of the request after `id` in session-1. */
const after = (id: string): string => PAIRS[PAIRS.findIndex((p) => p.id === id) + 1]?.id ?? "?";

const search = (unlogged: number, alphabet: readonly AlphabetCommand[], budget = 100_000): SearchOptions => ({
  unlogged,
  alphabet,
  budget,
});

// Two consecutive accepted commands: a restart, then a migration fence (which the later commands of session-1 see).
const REMOVED = ["c19", "c20"] as const;

describe("unlogged commands at a seq gap (L-2.4)", () => {
  it("the removed commands are accepted ones, adjacent in the session", () => {
    expect(REMOVED.every(accepted)).toBe(true);
    expect(after("c19")).toBe("c20");
  });

  it("(a) without the search the log fails; with k ≥ 2 and the removed commands as alphabet it is consistent, explained by them at the gap", async () => {
    const log = build(REMOVED);
    const plain = await checkLog(log.file);
    expect(plain.result).toBe("violations");
    expect(plain.seq_gaps).toBe(1);
    expect(plain).not.toHaveProperty("search");
    // k = 0 is today's check, whatever else is given.
    expect(await checkLog(log.file, search(0, REMOVED.map(commandOf)))).toEqual(plain);

    for (const k of [2, 3]) {
      const c = await checkLog(log.file, search(k, REMOVED.map(commandOf)));
      expect(c.result, `k=${k}`).toBe("consistent");
      expect(c.violations).toEqual([]);
      const s = c.search;
      expect(s?.explanations.map((x) => ({ line: x.line, inserted: x.inserted }))).toEqual([
        { line: log.requestLine.get(after("c20")), inserted: REMOVED.map(commandOf) },
      ]);
      expect(s?.max_depth).toBe(REMOVED.length);
      expect(s?.states_visited).toBeGreaterThan(0);
      expect(s?.explained).toBeGreaterThanOrEqual(1);
      expect(s).toMatchObject({ unlogged: k, alphabet: REMOVED.length, gave_up: 0, unexplained: 0 });
      // Everything the complete log compares is still compared: every logged reply.
      expect(c.checked.replies + c.checked.worlds).toBe(PAIRS.length - REMOVED.length);
    }
  });

  it("(b) a budget of one state gives up and reports the violation as before, saying so", async () => {
    const log = build(REMOVED);
    const plain = await checkLog(log.file);
    const c = await checkLog(log.file, search(2, REMOVED.map(commandOf), 1));
    expect(c.result).toBe("violations");
    expect(c.violations.map((v) => ({ line: v.line, invariant: v.invariant }))).toEqual(
      plain.violations.map((v) => ({ line: v.line, invariant: v.invariant })),
    );
    expect(c.violations[0]?.search).toBe("gave-up");
    expect(c.search).toMatchObject({ gave_up: 1, explained: 0, states_visited: 1, explanations: [] });
    expect(renderLogCheck(log.file, c)).toMatch(/1 gave up \(budget exhausted\)/);
    expect(renderLogCheck(log.file, c)).toMatch(
      /search: the search for unlogged commands gave up: its budget of 1 states ran out/,
    );
  });

  it("(c) an alphabet without a needed command leaves the violation, unexplained", async () => {
    const log = build(REMOVED);
    const c = await checkLog(log.file, search(2, [commandOf("c19")]));
    expect(c.result).toBe("violations");
    expect(c.violations[0]?.search).toBe("unexplained");
    expect(c.search).toMatchObject({ explained: 0, gave_up: 0, explanations: [], max_depth: 0 });
    expect((c.search?.unexplained ?? 0) >= 1).toBe(true);
  });

  it("(d) a genuinely wrong reply after the gap stays a violation, at its line, with k = 2 and every command of the session as alphabet", async () => {
    // The first logged command after the gap is rejected by the model; a mutant answers it with another code.
    const target = after("c20");
    expect(accepted(target)).toBe(false);
    const wrong = {
      id: target,
      ok: false,
      error: { code: "NOT_FOUND", invariant: null, definite: true },
      message: "mutant",
    };
    const log = build(REMOVED, { [target]: wrong });
    const alphabet = PAIRS.flatMap((p) => (p.command === null ? [] : [p.command]));
    const c = await checkLog(log.file, search(2, alphabet));
    expect(c.result).toBe("violations");
    expect(c.violations[0]?.line).toBe(log.replyLine.get(target));
    expect(c.search?.explained).toBe(0);
    // Every state within two commands was tried (the budget did not end it): no alphabet command explains the code.
    expect(c.violations[0]?.search).toBe("unexplained");
    expect(c.search?.states_visited).toBeGreaterThan(0);
    // The same log without the gap: no place to insert, the violation names that.
    const whole = build([], { [target]: wrong });
    const w = await checkLog(whole.file, search(2, alphabet));
    expect(w.violations[0]?.line).toBe(whole.replyLine.get(target));
    expect(w.violations[0]?.search).toBe("no-gap");
    expect(w.search).toMatchObject({ searches: 0, states_visited: 0 });
  }, 60_000);

  it("(e) k larger than the gap needs finds the shortest: one command, its tick chosen when the alphabet omits it", async () => {
    // Only the fence left out; its tick (58) is the tick of the next logged command, one of the two the search tries (D-066).
    expect(commandOf("c20").tick).toBe(commandOf(after("c20")).tick);
    const log = build(["c20"]);
    expect((await checkLog(log.file)).result).toBe("violations");
    const { tick: _tick, ...tickless } = commandOf("c20");
    const alphabet = [commandOf("c19"), tickless as AlphabetCommand, commandOf("c21")];
    const c = await checkLog(log.file, search(3, alphabet));
    expect(c.result).toBe("consistent");
    expect(c.search?.max_depth).toBe(1);
    expect(c.search?.explanations).toEqual([
      {
        line: log.requestLine.get(after("c20")),
        explains_line: expect.any(Number) as number,
        inserted: [commandOf("c20")],
      },
    ]);
    expect(renderLogCheck(log.file, c)).toMatch(
      new RegExp(
        `explained: 1 unlogged command\\(s\\) before line ${log.requestLine.get(after("c20"))} \\[ripa\\.migration_fence@58\\]`,
      ),
    );
  });

  it("two gaps, one command left out at each: each explained at its own gap, the later one on the earlier one's run", async () => {
    // c9 conceives i10, c13 births it: without c9 the birth is refused, without c13 the later acts on i10 are.
    const removed = ["c9", "c13"];
    expect(removed.every(accepted)).toBe(true);
    const log = build(removed);
    expect((await checkLog(log.file)).result).toBe("violations");
    const c = await checkLog(log.file, search(1, removed.map(commandOf)));
    expect(c.result).toBe("consistent");
    expect(c.search?.explanations.map((x) => [x.line, x.inserted])).toEqual(
      removed.map((id) => [log.requestLine.get(after(id)), [commandOf(id)]]),
    );
    expect(c.search?.max_depth).toBe(1);
  });

  it("a violation after an explanation: its portable trace holds the explanation's commands before the gap's request, so a replay reaches the model's state", async () => {
    // c41 (accepted) answered as a refusal by a mutant, after the explained gap of c19, c20.
    const target = "c41";
    expect(accepted(target)).toBe(true);
    const wrong = {
      id: target,
      ok: false,
      error: { code: "NOT_FOUND", invariant: null, definite: true },
      message: "mutant",
    };
    const log = build(REMOVED, { [target]: wrong });
    const c = await checkLog(log.file, search(2, REMOVED.map(commandOf)));
    // One explanation kept, at the gap (a later search there may replace it, L-2.4).
    expect(c.search?.explanations.map((x) => [x.line, x.inserted])).toEqual([
      [log.requestLine.get(after("c20")), REMOVED.map(commandOf)],
    ]);
    expect(c.violations.map((v) => v.line)).toEqual([log.replyLine.get(target)]);
    const v = c.violations[0] as NonNullable<(typeof c.violations)[number]>;
    const trace = await traceOfViolation(log.file, v, c.search?.explanations ?? []);
    const ids = trace.steps.map((t) => (t.request as { id: string }).id);
    const gapLine = log.requestLine.get(after("c20")) as number;
    // The two unlogged commands come just before the first logged request after the gap, without a logged reply.
    const at = ids.indexOf(after("c20"));
    expect(ids.slice(at - 2, at)).toEqual([`unlogged-${gapLine}.1`, `unlogged-${gapLine}.2`]);
    expect(trace.steps.slice(at - 2, at).map((t) => [(t.request as { command: Command }).command, t.actual])).toEqual(
      REMOVED.map((id) => [commandOf(id), null]),
    );
    // Every logged step before the failing one agrees with the model; the failing one is the mutant's reply.
    const last = trace.steps[trace.failing_step ?? -1];
    expect(ids[trace.failing_step ?? -1]).toBe(target);
    expect(last?.actual).toEqual({ ok: false, error: wrong.error });
    expect(last?.expected).toEqual({ ok: true, events: (pair(target).reply as { events: unknown }).events });
    for (const t of trace.steps.slice(0, -1)) if (t.actual !== null) expect(t.actual).toEqual(t.expected);
    // Without the explanations the same trace parts from the log at the gap: some logged step before the failing one disagrees.
    const bare = await traceOfViolation(log.file, v);
    expect(
      bare.steps.slice(0, -1).some((t) => t.actual !== null && JSON.stringify(t.actual) !== JSON.stringify(t.expected)),
    ).toBe(true);
  });

  it("a mint left out: an agent gap without the search, explained by the mint with it", async () => {
    const log = build(["c1"]);
    const plain = await checkLog(log.file);
    // Without the search the agent c1 mints is a gap (L-2.2), first named by c2.
    expect(plain.gaps).toContainEqual({
      agent: (commandOf("c2") as { agent: string }).agent,
      line: log.requestLine.get("c2"),
    });
    const c = await checkLog(log.file, search(1, [commandOf("c1")]));
    expect(c.gaps).toEqual([]);
    expect(c.result).toBe("consistent");
    expect(c.search?.explanations.map((x) => [x.line, x.inserted])).toEqual([
      [log.requestLine.get("c2"), [commandOf("c1")]],
    ]);
    expect(c.checked.replies + c.checked.worlds).toBe(PAIRS.length - 1);
  });
});

describe("(f) the alphabet file", () => {
  const write = (text: string): string => {
    const f = join(temp(), "alpha.json");
    writeFileSync(f, text);
    return f;
  };
  it("a bad command is an input error naming the file and its index", () => {
    const good = commandOf("c20");
    const f = write(JSON.stringify([good, { ...good, agent: 5 }]));
    expect(() => readAlphabet(f)).toThrow(LogFileError);
    expect(() => readAlphabet(f)).toThrow(
      /alpha\.json: alphabet command 1 \(op "ripa\.migration_fence"\): not a wire command: agent/,
    );
    expect(() => readAlphabet(write("{}"))).toThrow(/alpha\.json: the alphabet must be a JSON array/);
    expect(() => readAlphabet(write("[1]"))).toThrow(/alpha\.json: alphabet command 0: not a JSON object/);
    expect(() => readAlphabet(write(JSON.stringify([{ ...good, tick: -1 }])))).toThrow(
      /alpha\.json: alphabet command 0: tick must be/,
    );
    expect(() => readAlphabet(write("[,"))).toThrow(/alpha\.json: the alphabet is not JSON/);
    const { tick: _t, ...tickless } = good;
    expect(readAlphabet(write(JSON.stringify([tickless])))).toEqual([tickless]);
  });
  it("srk check-log exits 64 on it, naming the file and the index", async () => {
    const log = build(REMOVED);
    const f = write(JSON.stringify([commandOf("c19"), { op: "ripa.migration_fence" }]));
    const bad = await run(
      process.execPath,
      ["bin/srk.mjs", "check-log", log.file, "--unlogged", "2", "--alphabet", f, "--out", join(temp(), "out")],
      { cwd: REPO_ROOT },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(64);
    expect((bad as { stderr: string }).stderr).toMatch(
      /alpha\.json: alphabet command 1 \(op "ripa\.migration_fence"\)/,
    );
  }, 60_000);
});
