/**
 * A reply that fails the reply schema, planted in the kit's own implementation (every
 * `lineage.replayed` event gets an extra member, which the strict Event schema refuses): the
 * certificate names the JSON path and the schema rule, shows the whole reply, writes a portable
 * trace whose replay command still fails, and both stages go on — the golden stage through every
 * session, the differential campaign through every run — so every invariant gets a verdict
 * instead of being left inconclusive by one bad line (issue 20, point 5).
 *
 * A long test (vitest.config.ts LONG_TESTS): one certification of about a minute on 2 cores.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PortableTrace } from "../../spec/certificate.ts";
import { certify } from "../certify.ts";
import { readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { materialize } from "../mutants/harness.ts";
import { replayTrace } from "../replay.ts";
import { REPO_ROOT } from "../transport/local.ts";

const out = mkdtempSync(join(tmpdir(), "srk-schema-invalid-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const entry = materialize("schema-invalid-reply", {
  id: "planted.lineage-replayed-extra-member",
  invariant: null,
  description: "every lineage.replayed event carries an extra member `debug`",
  file: "impl/core/ops/samskara.ts",
  find: '      type: "lineage.replayed",\n',
  replace: '      type: "lineage.replayed",\n      debug: true,\n',
});
const commandLine = `${process.execPath} --import tsx ${join(dirname(entry), "main.ts")}`;

/** The golden sessions that send samskara.replay: exactly those the planted bug breaks. */
const withReplay = GOLDEN_SESSIONS.filter((g) =>
  readGolden(join(REPO_ROOT, goldenPath(g))).some(
    (l) => (l.request as { command?: { op?: string } }).command?.op === "samskara.replay",
  ),
);

describe("a schema-invalid reply", () => {
  it("is named by path and rule, traced, replayable, and does not stop the stages", async () => {
    expect(withReplay.length).toBeGreaterThan(1);
    const { certificate: c } = await certify({
      commandLine,
      cwd: REPO_ROOT,
      outDir: out,
      seed: 1,
      runs: 40,
      timeBudgetMs: 240_000,
      requestTimeoutMs: 15_000,
      startupTimeoutMs: 30_000,
      only: [],
      stages: ["handshake", "golden", "differential"],
      failFast: false,
      graceMs: 10_000,
    });
    const golden = c.stages.find((s) => s.stage === "golden");
    const breaks = golden?.findings.filter((f) => f.invariant === null && f.summary.includes("is not a Reply")) ?? [];
    // One finding per session that sends a replay: the stage went on after the first.
    expect(breaks.map((f) => f.check).sort()).toEqual(withReplay.map((g) => `golden/${g.name}`).sort());
    for (const f of breaks) {
      expect(f.summary).toMatch(
        /\$\.events\[\d+\]\.debug: unrecognized_keys: .*found true \(schema OkReply, spec\/wire\/PROTOCOL\.md W-3\)/,
      );
      // The whole reply is shown (it is short), not cut.
      expect(f.summary).toMatch(/raw: \{"type":"reply".*"debug":true.*\}$/);
      expect(f.summary).not.toContain("(cut:");
    }
    const refs = c.invariants.flatMap((i) => i.counterexamples);
    expect(refs).toEqual([]); // no invariant is blamed for a broken protocol
    // Every break has a portable trace up to its line; its replay still fails there.
    const differential = c.stages.find((s) => s.stage === "differential");
    const wireFinding = differential?.findings.find((f) => f.check === "wire/W-3");
    expect(wireFinding?.summary).toMatch(/\$\.events\[\d+\]\.debug: unrecognized_keys/);
    expect(wireFinding?.trace_file).toMatch(/^traces\/differential-wire-\d+\.json$/);
    expect(wireFinding?.replay).toContain("srk replay");
    const trace = PortableTrace.parse(JSON.parse(readFileSync(join(out, wireFinding?.trace_file ?? ""), "utf8")));
    expect(trace.failing_step).toBe(trace.steps.length - 1);
    expect(trace.steps[trace.failing_step ?? 0]?.actual).toBeNull();
    const verdict = await replayTrace(trace, { commandLine, cwd: REPO_ROOT });
    expect(verdict).toMatchObject({ kind: "still-fails", step: trace.steps.length });
    for (const f of breaks) {
      const t = PortableTrace.parse(JSON.parse(readFileSync(join(out, f.trace_file ?? ""), "utf8")));
      expect([t.stage, t.invariant, t.steps[t.failing_step ?? 0]?.actual]).toEqual(["golden", null, null]);
    }
    // The campaign ran every run: the break ended one run, not the stage, and nothing is inconclusive.
    expect(differential?.notes.some((n) => /^\d+ run\(s\), \d+ request\(s\) agreed/.test(n))).toBe(true);
    // Every one of the 40 runs was made: those that agreed, the one reported, and the others that broke the same way.
    const more = Number(
      /^(\d+) more failing run\(s\) of wire\/W-3/m.exec(differential?.notes.join("\n") ?? "")?.[1] ?? 0,
    );
    expect((differential?.checks ?? 0) + 1 + more).toBe(40);
    expect(differential?.checks).toBeGreaterThan(0);
    expect(c.invariants.filter((i) => i.verdict === "inconclusive").map((i) => `${i.invariant}: ${i.reason}`)).toEqual(
      [],
    );
    expect(c.invariants.every((i) => i.verdict === "pass")).toBe(true);
    expect([c.result, c.exit_code]).toEqual(["violations", 1]);
  }, 300_000);
});
