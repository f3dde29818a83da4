/**
 * The wire stage against the kit's implementation (it must pass) and against a stand-alone fake
 * (conformance/test/fixtures/wire-fake.mjs) that is right everywhere, or wrong in exactly one way
 * (`--flaw`): the stage must fail with the check of that rule, name the data directory when the
 * fake writes there, report a crash as a W-4 finding naming the line, and end inconclusive on a hang.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { HelloResult } from "../../spec/wire/index.ts";
import { silentProgress } from "../core/progress.ts";
import { Target } from "../driver/target.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";
import type { StageContext, StageOutcome } from "./types.ts";
import { runPass, wireStage } from "./wire.ts";
import { buildCatalog, judge, matches, repliesExpected } from "./wire-catalog.ts";

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
