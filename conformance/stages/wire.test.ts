/**
 * The wire stage against the kit's implementation (it must pass) and against a stand-alone fake
 * (conformance/test/fixtures/wire-fake.mjs) that is right everywhere, or wrong in exactly one way
 * (`--flaw`): the stage must fail with the check of that rule, name the data directory when the
 * fake writes there, report a crash as a W-4 finding naming the line, and end inconclusive on a hang.
 * The checkers are also tested on their own, on a recorded history edited by hand (issue 22).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { HelloResult } from "../../spec/wire/index.ts";
import { silentProgress } from "../core/progress.ts";
import { Target } from "../driver/target.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";
import type { StageContext, StageOutcome } from "./types.ts";
import { checkPass, checkWire, driveWire, pipelinedNeedsRerun, runPass, wireStage } from "./wire.ts";
import { buildCatalog, judge, matches, repliesExpected } from "./wire-catalog.ts";
import { newHistory } from "../core/history.ts";
import { bytesOf, type WireEvent, type WireHistory } from "./wire-history.ts";

const HELLO: HelloResult = {
  implementation: { name: "fake", version: "0" },
  protocol_version: "1",
  protocol_versions: ["1"],
  profile: { families: ["advaita"], crash_hook: false },
};

const targets: Target[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => t.dispose()));
});

const context = (commandLine: string, requestTimeoutMs = 15_000): StageContext => {
  const target = new Target({ commandLine, cwd: REPO_ROOT, requestTimeoutMs, startupTimeoutMs: 30_000 });
  targets.push(target);
  return {
    settings: { seed: 1, runs: 10, timeBudgetMs: 120_000, requestTimeoutMs, startupTimeoutMs: 30_000, only: [] },
    hello: HELLO,
    families: ["janma", "samskara", "advaita", "ripa"],
    crashHook: true,
    target,
    witnesses: new WitnessBook(),
    progress: silentProgress,
    deadline: Date.now() + 120_000,
  };
};

const fake = (flaw: string, requestTimeoutMs?: number): Promise<StageOutcome> =>
  wireStage(context(`${process.execPath} conformance/test/fixtures/wire-fake.mjs --flaw ${flaw}`, requestTimeoutMs));

const checksOf = (o: StageOutcome): string[] => o.findings.map((f) => f.check);

/** Catalog lines that get no reply (empty or JSON-whitespace only, W-1.2, W-1.9). */
const BLANK = buildCatalog().filter((c) => c.expect.kind === "none").length;
/** The (1-based) catalog lines that are not JSON text at all: JSON.parse refuses them, as a naive implementation sees it. */
const NOT_JSON_LINES = buildCatalog().flatMap((c, i) => {
  if (c.expect.kind !== "error" || c.expect.code !== "BAD_JSON") return [];
  try {
    JSON.parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(c.line).replace(/\r?\n$/, ""));
    return [];
  } catch {
    return [i + 1];
  }
});
const NOT_JSON = NOT_JSON_LINES.length;

/** The line number (1-based) of the first catalog entry whose label starts with `label`. */
const lineOf = (label: string): number => {
  const i = buildCatalog().findIndex((c) => c.label.startsWith(label));
  if (i < 0) throw new Error(`no catalog entry ${label}`);
  return i + 1;
};

describe("the hostile-input catalog", () => {
  const catalog = buildCatalog();

  it("has the size and boundaries the stage promises", () => {
    expect(catalog.length).toBeGreaterThanOrEqual(30);
    expect(repliesExpected(catalog)).toBe(catalog.length - BLANK); // the empty or blank lines
    expect(BLANK).toBe(4);
    const labels = catalog.map((c) => c.label).join("\n");
    for (const must of [
      "1048577 bytes",
      "exactly 1048576 bytes",
      "nesting 65 deep",
      "nesting exactly 64 deep",
      "129 characters",
      "exactly 128 characters",
      "2^53-1",
    ]) {
      expect(labels).toContain(must);
    }
    // Every line is one line: a single \n, at its end (W-1.2).
    for (const c of catalog) expect(c.line.indexOf(0x0a)).toBe(c.line.length - 1);
  });

  it("judges code, id, definite and invariant, and counts replies", () => {
    const e = { kind: "error", code: "BAD_JSON", id: null } as const;
    const bad = {
      type: "reply",
      id: null,
      ok: false,
      error: { code: "BAD_JSON", invariant: null, message: "", definite: true },
    } as const;
    expect(judge(e, [bad])).toBeNull();
    expect(judge(e, [])).toBe("got no reply");
    expect(judge(e, [bad, bad])).toMatch(/^got 2 replies/);
    expect(matches(e, { ...bad, error: { ...bad.error, definite: false } })).toBe(false);
    expect(matches(e, { ...bad, error: { ...bad.error, invariant: "AD-1" } })).toBe(false);
    expect(matches(e, { ...bad, id: "x" })).toBe(false);
    expect(judge({ kind: "none" }, [bad])).toBe("got BAD_JSON with id null");
  });
});

describe("wireStage", () => {
  it("passes the kit's implementation with no finding", async () => {
    const o = await wireStage(context(`${process.execPath} --import tsx impl/main.ts`));
    expect(o.findings).toEqual([]);
    expect(o.verdict).toBe("pass");
    expect(o.checks).toBeGreaterThanOrEqual(30);
  });

  it("finds nothing line by line either (the mode used to name a failing line)", async () => {
    const p = await runPass(context(`${process.execPath} --import tsx impl/main.ts`), buildCatalog(), "sequential");
    expect(p.findings).toEqual([]);
    expect(p.undrivable).toBeNull();
    expect(p.checks).toBe(buildCatalog().length + 2); // every line, the data directory, the world
  });

  it("passes a fake that gets every rule right (the catalog asks nothing beyond the protocol)", async () => {
    const o = await fake("none");
    expect(o.findings).toEqual([]);
    expect(o.verdict).toBe("pass");
  });

  it("fails an implementation answering BAD_JSON to an oversized line, with check wire/W-1.4", async () => {
    const o = await fake("oversized-bad-json");
    expect(o.verdict).toBe("fail");
    expect(checksOf(o)).toContain("wire/W-1.4");
    const f = o.findings.find((x) => x.check === "wire/W-1.4");
    expect(f?.summary).toMatch(
      /^line 1 \(oversized line of 1048577 bytes.*expected LINE_TOO_LONG with id null.*got BAD_JSON with id null$/,
    );
    expect(o.findings.every((x) => x.invariant === null && x.stage === "wire" && x.trace === null)).toBe(true);
  });

  it("fails an implementation replying to empty lines, naming each blank line (W-1.2)", async () => {
    const o = await fake("reply-empty");
    expect(o.verdict).toBe("fail");
    expect(checksOf(o)).toEqual(Array<string>(BLANK).fill("wire/W-1.2"));
    expect(o.findings[0]?.summary).toMatch(/\(an empty line\): expected no reply, got BAD_JSON/);
    // The pipelined symptom (too many replies) is kept as context, not as a second finding.
    const n = repliesExpected(buildCatalog());
    expect(o.notes.join("\n")).toMatch(
      new RegExp(`^pipelined: the ${n} non-empty lines .* got ${n + BLANK} replies.*W-1.6`, "m"),
    );
  });

  it("fails an implementation that writes into its data directory on bad input, naming the directory", async () => {
    const o = await fake("write-on-bad");
    expect(o.verdict).toBe("fail");
    expect(checksOf(o)).toEqual(["wire/W-4"]);
    expect(o.findings[0]?.summary).toMatch(/data directory changed.*added rejected\.log/);
  });

  it("fails an implementation whose reset ignores an extra field: the reply, the bytes and the world", async () => {
    const o = await fake("reset-extra");
    expect(o.verdict).toBe("fail");
    const summaries = o.findings.map((f) => f.summary).join("\n");
    expect(summaries).toMatch(/reset with an extra envelope field.*expected BAD_REQUEST with id "w-reset-extra"/);
    expect(summaries).toMatch(/data directory changed.*changed state\.json/);
    expect(summaries).toMatch(/world changed/);
  });

  it("reports a crash on invalid UTF-8 as a W-4 finding naming the line and the exit", async () => {
    const o = await fake("die-on-bad-utf8");
    expect(o.verdict).toBe("fail");
    expect(checksOf(o)).toEqual(["wire/W-4"]);
    expect(o.findings[0]?.summary).toMatch(
      new RegExp(`^line ${lineOf("invalid UTF-8")} \\(invalid UTF-8.*must not crash.*exited with code 3`),
    );
  });

  it("fails an implementation that logs on stdout, with the rule the client saw broken (W-1.3)", async () => {
    const o = await fake("log-stdout");
    expect(o.verdict).toBe("fail");
    // Found in the pipelined batch, then named line by line: one finding per line that is not JSON.
    expect(NOT_JSON).toBe(13);
    expect(checksOf(o)).toEqual(Array<string>(NOT_JSON).fill("wire/W-1.3"));
    expect(o.findings[0]?.summary).toMatch(
      new RegExp(
        `^line ${NOT_JSON_LINES[0] ?? 0} .*: what came back broke the protocol: a stdout line is not one JSON value.*warning: a line that is not JSON`,
      ),
    );
    expect(o.notes.join("\n")).toMatch(
      new RegExp(`^pipelined: while answering the pipelined catalog: ${NOT_JSON} times`, "m"),
    );
  });

  it("names each line whose reply is not a Reply (an invalid id echoed), after re-sending line by line", async () => {
    const o = await fake("echo-bad-id");
    expect(o.verdict).toBe("fail");
    expect(new Set(checksOf(o))).toEqual(new Set(["wire/W-3"]));
    const summaries = o.findings.map((f) => f.summary).join("\n");
    expect(summaries).toMatch(
      new RegExp(
        `^line ${lineOf("a negative id")} \\(a negative id \\(-1\\)\\): what came back broke the protocol`,
        "m",
      ),
    );
    expect(summaries).toMatch(new RegExp(`^line ${lineOf("an id of 129")} \\(an id of 129 characters`, "m"));
    expect(o.notes.join("\n")).toMatch(
      new RegExp(`^pipelined: the ${repliesExpected(buildCatalog())} non-empty lines .* got \\d+ replies`, "m"),
    );
  });

  it("ends inconclusive when the implementation stops answering, naming the line", async () => {
    const o = await fake("stall-on-deep", 1_500);
    expect(o.findings).toEqual([]);
    expect(o.verdict).toBe("inconclusive");
    expect(o.reason).toMatch(
      new RegExp(`^line ${lineOf("nesting 65 deep")} \\(nesting 65 deep.*no reply within 1500 ms`),
    );
  });
});

describe("the wire stage's checkers read the history alone", () => {
  const catalog = buildCatalog();
  type Batch = Extract<WireEvent, { kind: "wire-batch" }>;
  const edit = (
    h: WireHistory,
    f: (e: WireEvent | WireHistory["events"][number]) => WireHistory["events"][number],
  ) => ({
    unit: h.unit,
    events: h.events.map(f),
  });
  const batchOf = (h: WireHistory): Batch => {
    const b = h.events.find((e): e is Batch => e.kind === "wire-batch");
    if (b === undefined) throw new Error("no batch");
    return b;
  };

  it("judges a recorded history the same after a JSON round trip, and an edited one as broken", {
    timeout: 120_000,
  }, async () => {
    const history = newHistory<WireEvent>("wire");
    await driveWire(context(`${process.execPath} --import tsx impl/main.ts`), catalog, history);
    // One pass (nothing asked for the line-by-line one): setup, world, data directory, one batch, data directory, world.
    expect(history.events.map((e) => e.kind)).toEqual([
      "exchange",
      "exchange",
      "wire-dir",
      "wire-batch",
      "wire-dir",
      "exchange",
    ]);
    expect(pipelinedNeedsRerun(history, catalog)).toBe(false);
    const batch = batchOf(history);
    expect(bytesOf(batch.bytes).equals(Buffer.concat(catalog.map((c) => c.line)))).toBe(true);
    const live = checkWire(history, catalog);
    expect(live.verdict).toBe("pass");
    expect(live.checks).toBe(catalog.length + 3); // the count, every line, the data directory, the world
    const copy = JSON.parse(JSON.stringify(history)) as WireHistory;
    expect(checkWire(copy, catalog)).toEqual(live);

    // A file added to the data directory after the catalog, and a world query after it that differs.
    const changed = edit(copy, (e) =>
      e.kind === "wire-dir" && e.label === "after"
        ? { ...e, entries: [...e.entries, ["junk.log", "0".repeat(64)] as const] }
        : e.kind === "exchange" && e.step === 2 && e.reply.ok
          ? { ...e, reply: { ...e.reply, result: { changed: true } } }
          : e,
    );
    const o = checkWire(changed, catalog);
    expect(o.verdict).toBe("fail");
    expect(o.checks).toBe(live.checks);
    expect(o.findings.map((f) => f.summary)).toEqual([
      "the data directory changed during the hostile-input catalog (pipelined): added junk.log; input, however hostile, must not change it (W-4)",
      expect.stringMatching(
        /^the world changed during the hostile-input catalog \(pipelined\), which was all refused or read-only: /,
      ),
    ]);

    // The reply to line 1 swapped for another: a finding naming the line, under its rule.
    const wrong = edit(copy, (e) => {
      if (e.kind !== "wire-batch") return e;
      const [first, ...rest] = e.replies;
      if (first === undefined || first.ok) throw new Error("line 1 is refused");
      return { ...e, replies: [{ ...first, error: { ...first.error, code: "BAD_JSON" } }, ...rest] };
    });
    expect(checkWire(wrong, catalog).findings.map((f) => [f.check, f.summary])).toEqual([
      [
        "wire/W-1.4",
        `line 1 (${catalog[0]?.label}): expected LINE_TOO_LONG with id null (definite, invariant null), got BAD_JSON with id null`,
      ],
    ]);

    // A reply missing: the replies cannot be matched, so the driver would send the catalog line by line.
    const short = edit(copy, (e) => (e.kind === "wire-batch" ? { ...e, replies: e.replies.slice(1) } : e));
    expect(pipelinedNeedsRerun(short, catalog)).toBe(true);
    expect(checkPass(short, catalog, "pipelined").batchProblem?.check).toBe("wire/W-1.6");
  });

  it("keeps a pipelined crash as a note when the line-by-line pass names the line, and says what was not sent", () => {
    const n = catalog.length;
    const setup = (part: "pipelined" | "sequential"): WireHistory["events"] => [
      {
        kind: "exchange",
        part,
        step: 0,
        request: { type: "command", id: "wire-setup-mint" },
        expected: null,
        reply: { type: "reply", id: "wire-setup-mint", ok: true, events: [], result: null },
      },
      {
        kind: "exchange",
        part,
        step: 1,
        request: { type: "query", id: "wire-world-before" },
        expected: null,
        reply: { type: "reply", id: "wire-world-before", ok: true, events: [], result: { agents: [] } },
      },
      { kind: "wire-dir", part, label: "before", entries: [["state.json", "ab"]] },
    ];
    const after = (part: "pipelined" | "sequential"): WireHistory["events"] => [
      { kind: "wire-dir", part, label: "after", entries: [["state.json", "ab"]] },
      { kind: "wire-exited", part, when: "after-catalog", exit: { code: 3, signal: null }, stderrTail: "boom" },
    ];
    const tooLong = {
      type: "reply",
      id: null,
      ok: false,
      error: { code: "LINE_TOO_LONG", invariant: null, message: "", definite: true },
    } as const;
    const crashed = (part: "pipelined" | "sequential", lines: number[], replies: (typeof tooLong)[]): Batch => ({
      kind: "wire-batch",
      part,
      lines,
      bytes: { text: "" },
      sentinel: "wire-sentinel-0",
      end: "exited",
      why: "the implementation ended (the implementation exited with code 3)",
      replies,
      violations: [],
      exit: { code: 3, signal: null },
      stderrTail: "boom",
    });
    const history: WireHistory = {
      unit: "wire",
      events: [
        ...setup("pipelined"),
        crashed("pipelined", [...catalog.keys()], [tooLong]),
        ...after("pipelined"),
        ...setup("sequential"),
        {
          ...crashed("sequential", [0], [tooLong]),
          end: "sentinel",
          why: null,
          exit: null,
          stderrTail: null,
          sentinel: "wire-sentinel-1",
        },
        { ...crashed("sequential", [1], []), sentinel: "wire-sentinel-2" },
        ...after("sequential"),
      ],
    };
    expect(pipelinedNeedsRerun(history, catalog)).toBe(true);
    const o = checkWire(history, catalog);
    expect(o.verdict).toBe("fail");
    expect(o.findings.map((f) => [f.check, f.summary])).toEqual([
      [
        "wire/W-4",
        `line 2 (${catalog[1]?.label}): hostile input must not crash the implementation (W-4), but it exited with code 3; last stderr lines:\nboom`,
      ],
    ]);
    expect(o.notes).toEqual([
      `pipelined: while answering the pipelined catalog of ${n} lines, after 1 of ${repliesExpected(catalog)} replies: hostile input must not crash the implementation (W-4), but it exited with code 3; last stderr lines:\nboom`,
      `lines 3..${n} of the catalog were not sent after the crash`,
    ]);
    // Pipelined: the count and the data directory; line by line: the two lines sent and the data directory; no world after a crash.
    expect(o.checks).toBe(2 + 3);
    // Without the line-by-line pass (the time budget ended), the crash stays the pipelined finding.
    const cut: WireHistory = {
      unit: "wire",
      events: [
        ...history.events.filter((e) => e.part === "pipelined"),
        { kind: "wire-budget-ended", part: "sequential" },
      ],
    };
    const c = checkWire(cut, catalog);
    expect(c.findings.map((f) => f.summary)).toEqual([expect.stringMatching(/^while answering the pipelined catalog/)]);
    expect(c.notes).toEqual([
      "the time budget ended before the catalog could be sent again line by line to name the failing line",
    ]);
  });
});
