/**
 * The implementer's guide (docs/IMPLEMENTING.md) promises that a program in another language can be
 * certified by `srk` with nothing but the spec's files. This test runs that path end to end on the
 * guide's example, docs/examples/empty_profile.py (Python, standard library only, an empty profile):
 * `srk certify` from the command line, exactly as the guide shows it, must report every invariant
 * not applicable, pass the handshake and the hostile wire stage, and exit as D-036 decides. Its
 * command check (W-2.3) must agree with the spec's schemas on real commands.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { INVARIANT_IDS } from "../spec/catalog.ts";
import { Certificate } from "../spec/certificate.ts";
import { EXAMPLES } from "../spec/examples.ts";
import { readGolden } from "./golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "./golden/session.ts";
import { WireClient } from "./transport/client.ts";
import { REPO_ROOT } from "./transport/local.ts";

const EXAMPLE = "docs/examples/empty_profile.py";
const COMMAND_LINE = `python3 ${EXAMPLE}`;
const run = promisify(execFile);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

describe(`the guide's Python example (${EXAMPLE})`, () => {
  it("is under 100 lines and imports only the Python standard library", () => {
    const text = readFileSync(join(REPO_ROOT, EXAMPLE), "utf8");
    expect(text.trimEnd().split("\n").length).toBeLessThan(100);
    const imported = [...text.matchAll(/^(?:import ([\w, ]+)|from (\w+) import)/gm)].flatMap((m) =>
      (m[1] ?? m[2] ?? "").split(",").map((s) => s.trim()),
    );
    expect(imported.sort()).toEqual(["itertools", "json", "os", "re", "sys"]);
  });

  it("runs end to end through `srk certify`: every invariant not applicable, the wire protocol checked, nothing certified", async () => {
    const out = tempDir("srk-example-cert-");
    let exitCode = 0;
    let stdout = "";
    try {
      ({ stdout } = await run(process.execPath, ["bin/srk.mjs", "certify", "--impl", COMMAND_LINE, "--out", out], {
        cwd: REPO_ROOT,
        maxBuffer: 16 << 20,
      }));
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      exitCode = err.code ?? -1;
      stdout = `${err.stdout ?? ""}\n${err.stderr ?? ""}`;
    }
    const certificate = Certificate.parse(JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")));
    expect(certificate.implementation.profile, stdout).toEqual({ families: [], crash_hook: false });
    expect(certificate.protocol_version).toBe("1");
    expect(certificate.invariants.map((i) => i.invariant)).toEqual([...INVARIANT_IDS]);
    for (const inv of certificate.invariants) {
      expect(inv.verdict, `${inv.invariant}: ${inv.reason}`).toBe("not-applicable");
      expect(inv.reason).toContain("not in the declared profile (W-5.2)");
      expect(
        Object.values(inv.witnesses).every((n) => n === 0),
        `${inv.invariant} has witnesses`,
      ).toBe(true);
    }
    const stage = (name: string) => certificate.stages.find((s) => s.stage === name);
    // What an empty profile still certifies: the handshake (W-5), the wire session's lines that need
    // no family (W-9.1, D-049) and the hostile-input catalog (W-1, W-4).
    expect(stage("handshake")?.verdict, stage("handshake")?.reason).toBe("pass");
    expect(stage("golden")?.verdict, stage("golden")?.reason).toBe("pass");
    expect(stage("golden")?.notes.join("\n")).toMatch(
      /wire-session: \d+ of its \d+ lines, those the profile may be sent/,
    );
    expect(stage("wire")?.verdict, JSON.stringify(stage("wire")?.findings.slice(0, 3))).toBe("pass");
    expect(stage("wire")?.checks ?? 0).toBeGreaterThan(70);
    for (const s of ["differential", "algebra", "crash", "forgetting"])
      expect(stage(s)?.verdict, `${s}: ${stage(s)?.reason}`).toBe("not-applicable");
    expect(certificate.implementation_faults).toEqual([]);
    expect(certificate.harness_faults).toEqual([]);
    // D-036: an empty profile certifies nothing, so the run is inconclusive (exit 2) although the
    // handshake and the wire protocol passed: a path that works end to end, not a certification.
    expect(certificate.result).toBe("inconclusive");
    expect(certificate.exit_code).toBe(2);
    expect(exitCode, stdout).toBe(2);
    expect(stdout).toContain("invariants: 0 pass, 0 fail, 19 not applicable, 0 not selected, 0 inconclusive");
    expect(stdout).toContain(
      "result: inconclusive (exit 2): 0 invariants inconclusive, 0 stages inconclusive; no invariant passed, so nothing is certified",
    );
  }, 120_000);

  it("checks commands with the spec's JSON Schemas: real commands are well-formed, broken ones MALFORMED (W-2.3)", async () => {
    const client = await WireClient.start({
      command: "python3",
      args: [EXAMPLE, "--data-dir", tempDir("srk-example-data-")],
      cwd: REPO_ROOT,
    });
    const codeOf = async (command: unknown): Promise<string> => {
      const r = await client.request({ type: "command", command });
      return r.ok ? "ok" : r.error.code;
    };
    try {
      // The golden sessions also hold a few commands that fail their schema on purpose (the
      // generator's OP-0.2.c1 situation); their expected reply says so, and they are left out.
      const commands = GOLDEN_SESSIONS.flatMap((g) => readGolden(join(REPO_ROOT, goldenPath(g)))).flatMap((l) =>
        l.request.type === "command" && (l.reply.ok || l.reply.error.code !== "MALFORMED") ? [l.request.command] : [],
      );
      const byOp = new Map(commands.map((c) => [c.op, c]));
      expect(byOp.size).toBeGreaterThan(25);
      // Every command of the golden sessions is well-formed, so it reaches the profile check.
      for (const c of commands)
        expect(await codeOf(c), `${c.op} ${JSON.stringify(c).slice(0, 200)}`).toBe("UNSUPPORTED");
      // One broken variant per operation: an extra field, a tick that is not an integer, a missing field.
      for (const c of byOp.values()) {
        const { tick: _tick, ...noTick } = c;
        expect(await codeOf({ ...c, backdoor: true }), `${c.op} with an extra field`).toBe("MALFORMED");
        expect(await codeOf({ ...c, tick: 1.5 }), `${c.op} with a fractional tick`).toBe("MALFORMED");
        expect(await codeOf(noTick), `${c.op} without a tick`).toBe("MALFORMED");
      }
      for (const bad of EXAMPLES["Command"]?.invalid ?? []) expect(await codeOf(bad.value), bad.why).toBe("MALFORMED");
      const world = await client.request({ type: "query", query: { name: "world" } });
      expect(world.ok && world.result).toEqual({ tick: 0, roots_used: [], agents: [] });
    } finally {
      await client.shutdown();
    }
  }, 120_000);
});
