/**
 * The forgetting stage against the kit's implementation (passes, with S-1 and S-5 forgetting
 * witnesses) and against faulty wrappers of it: one that copies the distilled trace into a file
 * (S-1), one that copies the guidance so that it survives excision (S-5), one that refuses
 * distillation (the scans would prove nothing: a reply finding). Also the byte scan itself.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PortableTrace } from "../../spec/certificate.ts";
import { silentProgress } from "../core/progress.ts";
import { Target } from "../driver/target.ts";
import type { Family } from "../oracle/families.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { WitnessBook } from "../verdicts/witnesses.ts";
import { filesUnder, occurrences } from "./data-dir.ts";
import { checkForgetting, driveForgetting, forgettingStage, markersFor } from "./forgetting.ts";
import { newHistory, type History } from "../core/history.ts";
import type { StageContext } from "./types.ts";

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup) await f();
});
const target = (commandLine: string): Target => {
  const t = new Target({ commandLine, cwd: REPO_ROOT, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000 });
  cleanup.push(() => t.dispose());
  return t;
};

const KIT = `${process.execPath} --import tsx impl/main.ts`;
const fixture = (args: string): string => `${process.execPath} conformance/test/fixtures/${args}`;
const ALL: Family[] = ["janma", "samskara", "advaita", "ripa"];

const context = (t: Target, families: readonly Family[] = ALL): StageContext => ({
  settings: { seed: 1, runs: 10, timeBudgetMs: 120_000, requestTimeoutMs: 15_000, startupTimeoutMs: 30_000, only: [] },
  hello: {
    implementation: { name: "test", version: "0" },
    protocol_version: "1",
    protocol_versions: ["1"],
    profile: { families: [...families], crash_hook: true },
  },
  families,
  crashHook: true,
  target: t,
  witnesses: new WitnessBook(),
  progress: silentProgress,
  deadline: Date.now() + 120_000,
});

describe("byte scan of a data directory", () => {
  it("finds a text in any file, nested, as UTF-8 or JSON-escaped, without following directory links", () => {
    const dir = mkdtempSync(join(tmpdir(), "srk-scan-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "a", "b"), { recursive: true });
    writeFileSync(
      join(dir, "a", "b", "plain.bin"),
      Buffer.concat([Buffer.from([0, 255]), Buffer.from('xx say "hi"\nthere xx')]),
    );
    writeFileSync(join(dir, "doc.json"), JSON.stringify({ t: 'say "hi"\nthere' }));
    writeFileSync(join(dir, "other.txt"), "nothing here");
    symlinkSync(dir, join(dir, "a", "loop"));
    expect(
      filesUnder(dir)
        .map((f) => f.path)
        .sort(),
    ).toEqual([join("a", "b", "plain.bin"), "doc.json", "other.txt"]);
    expect(occurrences(dir, 'say "hi"\nthere')).toEqual([
      { file: join("a", "b", "plain.bin"), form: "utf-8" },
      { file: "doc.json", form: "json-escaped" },
    ]);
    expect(occurrences(dir, "absent")).toEqual([]);
  });
});

describe("markers", () => {
  it("are single lowercase tokens, distinct, and reproducible from the seed", () => {
    const m = markersFor(7);
    expect(markersFor(7)).toEqual(m);
    expect(new Set([m.trace, m.guidance, m.key]).size).toBe(3);
    for (const x of [m.trace, m.guidance, m.key]) expect(x).toMatch(/^zq7x[a-z0-9]{15}$/);
    expect(markersFor(8).trace).not.toBe(m.trace);
  });
});

describe("forgetting stage", () => {
  it("passes the kit's implementation with S-1 and S-5 forgetting witnesses", async () => {
    const ctx = context(target(KIT));
    const out = await forgettingStage(ctx);
    expect(out.findings).toEqual([]);
    expect(out.verdict, out.reason).toBe("pass");
    expect(out.checks).toBe(4);
    expect(ctx.witnesses.get("S-1").forgetting).toBe(2);
    expect(ctx.witnesses.get("S-5").forgetting).toBe(2);
    const m = markersFor(1);
    expect(out.notes.join("\n")).toContain(`scanned for after excision: ${m.guidance}, ${m.key}`);
  });

  it("finds the distilled trace copied into a file (S-1), after distillation and after restart", async () => {
    const ctx = context(target(fixture("forget-leak.mjs trace")));
    const out = await forgettingStage(ctx);
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f) => [f.invariant, f.check])).toEqual([
      ["S-1", "forgetting/trace"],
      ["S-1", "forgetting/trace"],
    ]);
    const trace = PortableTrace.parse(out.findings[0]?.trace);
    expect(trace.difference).toContain(`"${markersFor(1).trace}" is in leak.txt (utf-8)`);
    expect((trace.steps[trace.failing_step ?? -1]?.request["command"] as { op?: string } | undefined)?.op).toBe(
      "janma.distil",
    );
    expect(ctx.witnesses.get("S-1").forgetting).toBe(0);
    expect(ctx.witnesses.get("S-5").forgetting).toBe(2);
  });

  it("finds excised guidance that survives in a file (S-5)", async () => {
    const ctx = context(target(fixture("forget-leak.mjs guidance")));
    const out = await forgettingStage(ctx);
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f) => [f.invariant, f.check])).toEqual([
      ["S-5", "forgetting/excision"],
      ["S-5", "forgetting/excision"],
    ]);
    expect(out.findings[0]?.summary).toContain(markersFor(1).guidance);
    expect(ctx.witnesses.get("S-1").forgetting).toBe(2);
    expect(ctx.witnesses.get("S-5").forgetting).toBe(0);
  });

  it("reports a reply that departs from the model instead of scanning after it", async () => {
    const out = await forgettingStage(context(target(fixture("forget-refuse.mjs"))));
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f) => [f.invariant, f.check])).toEqual([["J-4", "forgetting/reply"]]);
    expect(out.checks).toBe(0);
  });

  it("checks only trace forgetting without samskara, and nothing without janma", async () => {
    const ctx = context(target(KIT), ["janma", "advaita"]);
    const out = await forgettingStage(ctx);
    expect(out.verdict, out.reason).toBe("pass");
    expect(out.checks).toBe(2);
    expect(ctx.witnesses.get("S-5").forgetting).toBe(0);
    expect(out.notes.join("\n")).toMatch(/excision \(S-5\) is not applicable/);
    // No process is started: a command line that cannot run would otherwise make it inconclusive.
    const none = await forgettingStage(context(target("/nonexistent/implementation"), ["samskara", "advaita", "ripa"]));
    expect(none.verdict).toBe("not-applicable");
  });
});

describe("the forgetting stage's checker reads the history alone", () => {
  it("a scan that finds what must be gone is a finding; a marker never seen on disk makes no witness, and a note says so", {
    timeout: 120_000,
  }, async () => {
    const t = target(KIT);
    const session = await t.open();
    const m = markersFor(1);
    const history = newHistory("forgetting");
    try {
      await driveForgetting(session, m, true, history);
    } finally {
      await session.close();
    }
    const clean = checkForgetting(JSON.parse(JSON.stringify(history)) as History, 1, true, m, []);
    expect(clean.outcome.verdict).toBe("pass");
    expect(clean.witnessed).toEqual(["S-1", "S-5", "S-1", "S-5"]);
    expect(history.events.filter((e) => e.kind === "scan").map((e) => (e.kind === "scan" ? e.label : ""))).toEqual([
      "present:trace",
      "gone:trace",
      "present:guidance",
      "gone:excised",
      "gone:trace:restarted",
      "gone:excised:restarted",
    ]);

    const leaked: History = {
      unit: history.unit,
      events: history.events.map((e) =>
        e.kind === "scan" && e.label === "gone:trace:restarted"
          ? { ...e, found: [{ marker: m.trace, where: `${m.trace} in trace.log at 0 (utf-8)` }] }
          : e,
      ),
    };
    const v = checkForgetting(leaked, 1, true, m, []);
    expect(v.outcome.verdict).toBe("fail");
    expect(v.outcome.findings.map((f) => [f.invariant, f.check])).toEqual([["S-1", "forgetting/trace"]]);
    expect(v.outcome.findings[0]?.summary).toMatch(
      /^after a restart on the same directory \(after distillation\), the data directory still holds/,
    );
    expect(v.witnessed).toEqual(["S-1", "S-5", "S-5"]);

    const unseen: History = {
      unit: history.unit,
      events: history.events.map((e) => (e.kind === "scan" && e.label === "present:trace" ? { ...e, found: [] } : e)),
    };
    const u = checkForgetting(unseen, 1, true, m, []);
    expect(u.witnessed).toEqual(["S-5", "S-5"]);
    expect(u.outcome.notes.some((n) => n.startsWith("the trace marker was in no file after the act"))).toBe(true);
  });
});
