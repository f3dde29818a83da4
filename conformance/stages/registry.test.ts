/**
 * A stage is one definition (issue 22): the registry holds one per stage of the spec, in the spec's
 * order; the concerns and descriptions read from it are what the verdict rules and the reports used
 * before they were derived (the tables below are those rules, copied from decide.ts and
 * reports/render.ts as they stood); and the "not this shard's" outcome is built in one place, the
 * shard gate, with the same ownership the stages computed themselves.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { STAGES, type StageName } from "../../spec/certificate.ts";
import { KIT_ROOT } from "../kit-root.ts";
import { GOLDEN_SESSIONS } from "../golden/session.ts";
import { owns, ownsAny, type Shard } from "../shard/shard.ts";
import { STAGE_CONCERNS as DECIDE_CONCERNS } from "../verdicts/decide.ts";
import { STAGE_CATALOG, STAGE_CONCERNS, STAGE_WHAT } from "../core/stage-catalog.ts";
import type { StageDefinition } from "./definition.ts";
import { definitionOf, STAGE_DEFINITIONS, STAGE_RUNNERS } from "./registry.ts";
import { runStage } from "./shard-gate.ts";
import { NONE_OWNED, outcome, wasNotThisShard, type StageContext, type StageOutcome } from "./types.ts";

/** decide.ts STAGE_CONCERNS before it was derived from the definitions. */
const EXPECTED_CONCERNS: Readonly<Record<StageName, readonly InvariantId[]>> = {
  handshake: INVARIANT_IDS,
  golden: INVARIANT_IDS,
  wire: [],
  exhaustive: INVARIANT_IDS,
  differential: INVARIANT_IDS,
  algebra: ["AD-3", "S-4", "S-5"],
  crash: INVARIANT_IDS,
  forgetting: ["S-1", "S-5"],
};

/** reports/render.ts STAGE_WHAT before it was derived from the definitions. */
const EXPECTED_WHAT: Readonly<Record<StageName, string>> = {
  handshake: "version negotiation and the declared profile (W-5)",
  golden:
    "the golden sessions replayed, every reply compared (W-9), the implementation restarted on its data directory every 40 lines and at the end (W-7.1)",
  wire: "hostile input (W-1, W-4)",
  exhaustive:
    "every edge (state, command) of a small scope of the model explored breadth first, driven over the wire from the initial world, every reply and world view compared (D-074)",
  differential: "generated runs compared step by step with the reference model, failures shrunk over the wire (D-037)",
  algebra: "merge orders, batchings and duplicates (AD-3), replay claims (S-4), excision against never merging (S-5)",
  crash:
    "crash hook before and after every durable write, SIGKILL with requests in flight; the recovered world must equal the model's (W-7)",
  forgetting: "byte scans of the data directory for destroyed traces and excised distillates (W-7.2)",
};

const shards = (n: number): Shard[] => Array.from({ length: n }, (_, index) => ({ index, count: n }));

/** Just enough of a context for the shard gate and the units hooks. */
const ctxOf = (shard: Shard | undefined, over: Partial<StageContext> = {}): StageContext =>
  ({
    settings: { seed: 7, runs: 5, timeBudgetMs: 1_000, requestTimeoutMs: 1_000, startupTimeoutMs: 1_000, only: [] },
    families: ["advaita", "janma", "samskara", "ripa"],
    crashHook: true,
    ...(shard === undefined ? {} : { shard }),
    ...over,
  }) as unknown as StageContext;

describe("the stage registry", () => {
  it("holds exactly one definition per stage of the spec, in the spec's order", () => {
    expect(STAGE_DEFINITIONS.map((d) => d.name)).toEqual([...STAGES]);
    for (const s of STAGES) expect(definitionOf(s).name).toBe(s);
    expect(Object.keys(STAGE_RUNNERS).sort()).toEqual([...STAGES].sort());
  });

  it("each definition carries its catalog entry, with the concerns the verdict rules used", () => {
    for (const d of STAGE_DEFINITIONS) {
      expect(d.concerns, d.name).toEqual(EXPECTED_CONCERNS[d.name]);
      expect({ name: d.name, concerns: d.concerns, description: d.description, listed: d.listed }).toEqual(
        STAGE_CATALOG[d.name],
      );
    }
    expect(STAGE_CONCERNS).toEqual(EXPECTED_CONCERNS);
    // decide.ts re-exports the derived table: the verdict rules read the definitions.
    expect(DECIDE_CONCERNS).toBe(STAGE_CONCERNS);
  });

  it("each description is the report's text, non-empty", () => {
    for (const d of STAGE_DEFINITIONS) {
      expect(d.description.trim(), d.name).not.toBe("");
      expect(d.description, d.name).toBe(EXPECTED_WHAT[d.name]);
    }
    expect(STAGE_WHAT).toEqual(EXPECTED_WHAT);
  });

  it('builds the "not this shard\'s" outcome in one place, the shard gate', () => {
    const dir = join(KIT_ROOT, "conformance/stages");
    const callers = readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .filter((f) => /\bnotThisShard\(/.test(readFileSync(join(dir, f), "utf8")));
    // core/finding.ts defines it (`notThisShard = (shard…`); shard-gate.ts is the only caller.
    expect(callers).toEqual(["shard-gate.ts"]);
  });
});

describe("the shard gate", () => {
  const probe = (
    shard: ShardUnitsLike,
    result: StageOutcome = outcome("pass", "ran", 1),
  ): { def: StageDefinition; runs: () => number } => {
    let n = 0;
    const def: StageDefinition = {
      name: "golden",
      concerns: [],
      description: "probe",
      listed: "probe",
      shard,
      run: async () => {
        n++;
        return result;
      },
    };
    return { def, runs: () => n };
  };
  type ShardUnitsLike = StageDefinition["shard"];

  it("ownsAny is owns over every unit, for 1 to 6 shards and up to 20 units", () => {
    for (let n = 1; n <= 6; n++) {
      for (const sh of shards(n)) {
        for (const stage of STAGES) {
          for (let units = 0; units <= 20; units++) {
            const brute = Array.from({ length: units }, (_, k) => k).some((k) => owns(sh, stage, k));
            expect(ownsAny(sh, stage, units), `${stage} ${units} units, shard ${sh.index + 1}/${n}`).toBe(brute);
          }
        }
      }
    }
  });

  it("skips the run on a shard that owns no unit, and runs it everywhere else", async () => {
    for (const sh of shards(3)) {
      const p = probe({ dealt: "before", units: () => 1 });
      const out = await runStage(p.def, ctxOf(sh));
      const mine = owns(sh, "golden", 0);
      expect(p.runs()).toBe(mine ? 1 : 0);
      expect(wasNotThisShard(out)).toBe(!mine);
      if (!mine) expect(out.reason).toBe(`no unit of this stage belongs to shard ${sh.index + 1}/3`);
    }
    // Unsharded: always run, even with no unit (the stage says what that means).
    const none = probe({ dealt: "before", units: () => 0 });
    expect((await runStage(none.def, ctxOf(undefined))).verdict).toBe("pass");
    // No units dealt out (null): the run's own outcome, on every shard.
    for (const sh of shards(3)) {
      const p = probe({ dealt: "before", units: () => null }, outcome("not-applicable", "needs janma", 0));
      expect((await runStage(p.def, ctxOf(sh))).reason).toBe("needs janma");
    }
  });

  it("turns a run's NONE_OWNED into the \"not this shard's\" outcome", async () => {
    const p = probe({ dealt: "while-running" }, NONE_OWNED);
    const out = await runStage(p.def, ctxOf({ index: 1, count: 2 }));
    expect(p.runs()).toBe(1);
    expect(out).toEqual({
      verdict: "not-applicable",
      reason: "no unit of this stage belongs to shard 2/2",
      checks: 0,
      findings: [],
      notes: [],
    });
  });

  it("gates each stage on the units it dealt out itself before the gate was shared", () => {
    const before = (name: StageName, ctx: StageContext): number | null => {
      const s = definitionOf(name).shard;
      return s.dealt === "before" ? s.units(ctx) : null;
    };
    for (const name of ["handshake", "wire", "forgetting"] as const) expect(before(name, ctxOf(undefined))).toBe(1);
    // The golden sessions, then the wire session.
    expect(before("golden", ctxOf(undefined))).toBe(GOLDEN_SESSIONS.length + 1);
    // Algebra: three merge groups, then the excision cases; none dealt out when its needs or --only leave it nothing.
    const all = before("algebra", ctxOf(undefined));
    expect(all).toBeGreaterThan(3);
    expect(before("algebra", ctxOf(undefined, { settings: { ...ctxOf(undefined).settings, only: ["S-5"] } }))).toBe(
      (all ?? 0) - 3,
    );
    expect(before("algebra", ctxOf(undefined, { settings: { ...ctxOf(undefined).settings, only: ["AD-3"] } }))).toBe(3);
    expect(
      before("algebra", ctxOf(undefined, { settings: { ...ctxOf(undefined).settings, only: ["I1"] } })),
    ).toBeNull();
    expect(before("algebra", ctxOf(undefined, { families: ["advaita", "ripa"] }))).toBeNull();
    // Differential and crash deal their units out while running.
    expect(definitionOf("differential").shard.dealt).toBe("while-running");
    expect(definitionOf("crash").shard.dealt).toBe("while-running");
  });
});
