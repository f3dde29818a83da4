import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PREDICATES, type Predicate } from "../../model/index.ts";
import { PortableTrace } from "../../spec/certificate.ts";
import type { InvariantId } from "../../spec/invariant-ids.ts";
import { readAnyTrace } from "../itf/file.ts";
import { itfOfPortableTrace, portableTraceOfItf } from "../itf/trace.ts";
import { replayTrace } from "../replay.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { explore } from "./explore.ts";
import { loadScope } from "./scope.ts";
import { traceOfViolation, writeViolationTraces } from "./traces.ts";

const SMALL = fileURLToPath(new URL("./model-mutants/scopes/small.json", import.meta.url));
const SRK = fileURLToPath(new URL("../../bin/srk.mjs", import.meta.url));
const small = loadScope(SMALL);

// A wrong predicate planted in place of J-4's: "no life is ever dissolved". The correct model can
// violate it, so its shortest path is a correct session any correct implementation replays.
const neverDissolved: Predicate = {
  kind: "state",
  check: (w) =>
    [...w.agents.values()].some((a) => [...a.instances.values()].some((i) => i.view.state === "dissolved"))
      ? { violation: "a life dissolved" }
      : true,
};
const planted = { ...PREDICATES, "J-4": neverDissolved } as Record<InvariantId, Predicate>;

describe("explore violations as portable traces", () => {
  it("the correct model violates nothing: srk explore --out writes no trace and lists none", () => {
    const out = mkdtempSync(join(tmpdir(), "explore-traces-"));
    const r = spawnSync(process.execPath, [SRK, "explore", "--scope", SMALL, "--out", out], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "explore.json"), "utf8")).traces).toEqual([]);
    expect(readFileSync(join(out, "explore.md"), "utf8")).toContain("## Portable traces (0)");
    expect(existsSync(join(out, "traces"))).toBe(false);
  }, 60_000);

  it("a violation becomes its shortest path as requests with the model's replies, then a world query", () => {
    const x = explore(small, { predicates: planted });
    const v = x.violations.find((y) => y.predicate === "J-4");
    // A dissolution needs a withdrawn life whose obligation is discharged: mint, conceive, birth,
    // withdraw, distil, one discharge (an attempt or a merge), dissolve: 7 commands, none fewer.
    expect(v?.path.length).toBe(7);
    if (v === undefined) return;
    const t = PortableTrace.parse(traceOfViolation(small.name, v));
    expect(t.invariant).toBe("J-4");
    expect(t.check).toBe("explore/mutants-small/J-4");
    expect(t.steps).toHaveLength(8);
    expect(t.failing_step).toBe(6);
    expect(t.steps.map((s) => (s.request["command"] as { op?: string } | undefined)?.op ?? s.request["type"])).toEqual([
      ...v.path.map((c): string => c.op),
      "query",
    ]);
    expect(t.steps[6]?.request["command"]).toEqual(v.path[6]);
    // Every step is the model's accepted step (each led to a new state), and nothing was sent yet.
    expect(t.steps.slice(0, 7).every((s) => (s.expected as { ok: boolean }).ok && s.actual === null)).toBe(true);
    const world = t.steps[7]?.expected as { result: { agents: { instances: { state: string }[] }[] } };
    expect(world.result.agents[0]?.instances.some((i) => i.state === "dissolved")).toBe(true);
    // The ITF form holds the same trace.
    expect(portableTraceOfItf(JSON.parse(JSON.stringify(itfOfPortableTrace(t))))).toEqual(t);
  });

  it("writes each violation's trace as JSON and ITF under traces/, readable by srk replay's reader", () => {
    const x = explore(small, { predicates: planted });
    const out = mkdtempSync(join(tmpdir(), "explore-traces-"));
    const files = writeViolationTraces(out, small.name, x.violations);
    expect(files.map((f) => f.predicate)).toEqual(x.violations.map((v) => v.predicate));
    expect(readdirSync(join(out, "traces")).sort()).toEqual(["explore-J-4.itf.json", "explore-J-4.json"]);
    const f = files[0];
    expect(f?.depth).toBe(7);
    if (f === undefined) return;
    expect(readAnyTrace(join(out, f.itf))).toEqual(readAnyTrace(join(out, f.json)));
  });

  it("the trace of a correct model's path passes over the wire against the bundled implementation", async () => {
    const x = explore(small, { predicates: planted });
    const v = x.violations.find((y) => y.predicate === "J-4");
    if (v === undefined) throw new Error("no planted violation");
    const verdict = await replayTrace(traceOfViolation(small.name, v), {
      commandLine: `${process.execPath} --import tsx impl/main.ts`,
      cwd: REPO_ROOT,
      requestTimeoutMs: 30_000,
      startupTimeoutMs: 60_000,
    });
    expect(verdict).toEqual({ kind: "passes", steps: 8 });
  }, 90_000);
});
