import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PREDICATES, type Predicate } from "../../../model/index.ts";
import type { InvariantId } from "../../../spec/invariant-ids.ts";
import { explore } from "../explore.ts";
import { parseScope } from "../scope.ts";
import { fileURLToPath } from "node:url";
import { CHECKS } from "../../../spec/checks.ts";
import { INVARIANT_IDS } from "../../../spec/invariant-ids.ts";
import { MUTANTS } from "../../../properties/mutants/catalog.ts";
import { KIT_ROOT } from "../../kit-root.ts";
import { readAnyTrace } from "../../itf/file.ts";
import { replayTrace } from "../../replay.ts";
import { REPO_ROOT } from "../../transport/local.ts";
import { loadScope } from "../scope.ts";
import { MODEL_MUTANTS, type ModelMutant } from "./catalog.ts";
import { boundedScope, campaignHolds, exploreCopy, outcomeOf, type MutantResult } from "./campaign.ts";
import { PatchError, applyPatch, discardModel } from "./copy.ts";
import { reachAll } from "./reach.ts";

const SMALL = fileURLToPath(new URL("./scopes/small.json", import.meta.url));
const small = loadScope(SMALL);
const mutant = (id: string): ModelMutant => {
  const m = MODEL_MUTANTS.find((x) => x.id === id);
  if (m === undefined) throw new Error(`no model mutant ${id}`);
  return m;
};

describe("the model-mutant catalog", () => {
  it("has at least one mutant per invariant, each named after its invariant, patching model/ only", () => {
    for (const id of INVARIANT_IDS)
      expect(
        MODEL_MUTANTS.some((m) => m.invariant === id),
        id,
      ).toBe(true);
    for (const m of MODEL_MUTANTS) {
      expect(m.id.startsWith(`${m.invariant}.`), m.id).toBe(true);
      expect(m.file.startsWith("model/"), m.id).toBe(true);
    }
    expect(new Set(MODEL_MUTANTS.map((m) => m.id)).size).toBe(MODEL_MUTANTS.length);
  });

  it("every patch applies exactly once to the current model", () => {
    for (const m of MODEL_MUTANTS) {
      const text = readFileSync(join(KIT_ROOT, m.file), "utf8");
      const patched = applyPatch(m, text);
      expect(patched, m.id).not.toBe(text);
      expect(patched.length - text.length, m.id).toBe(m.replace.length - m.find.length);
    }
  });

  it("a patch that no longer applies fails loudly, naming the mutant and the count", () => {
    const m = mutant("J-4.dissolve-before-discharge");
    expect(() => applyPatch(m, "nothing to patch here")).toThrow(PatchError);
    expect(() => applyPatch(m, "nothing to patch here")).toThrow(/J-4\.dissolve-before-discharge.*occurs 0 times/);
    expect(() => applyPatch(m, `${m.find}\n${m.find}`)).toThrow(/occurs 2 times/);
  });

  it("a twin is an impl mutant of the same invariant; a guard's check is a check of the operation that rejects with that invariant", () => {
    for (const m of MODEL_MUTANTS) {
      if (m.twin !== null) expect(MUTANTS.find((x) => x.id === m.twin)?.invariant, m.id).toBe(m.invariant);
      if (m.reach.check === undefined) continue;
      const c = CHECKS.find((x) => x.id === m.reach.check);
      expect(c?.ops, m.id).toContain(m.reach.op);
      expect(c?.targets, m.id).toContain(m.invariant);
      expect(m.clause, m.id).toBe(m.reach.check);
    }
  });
});

describe("where a scope reaches a mutant's rule", () => {
  const ids = [
    "J-4.dissolve-before-discharge",
    "J-3.act-after-ttl",
    "S-3.version-not-linked-to-head",
    "I1.ungoverned-identity-update",
    "S-2.sign-not-checked",
  ];
  const [dissolve, ttl, linked, identity, sign] = reachAll(small, ids.map(mutant));

  it("finds the shortest path to a guarded step in the correct model", () => {
    // The dissolve guard rejects a withdrawn life with a pending obligation: mint, conceive, birth, withdraw, distil, dissolve.
    expect(dissolve).toMatchObject({ reached: true, depth: 6 });
    if (dissolve?.reached === true)
      expect(dissolve.path.map((c) => c.op)).toEqual([
        "advaita.mint",
        "janma.conceive",
        "janma.birth",
        "janma.withdraw",
        "janma.distil",
        "janma.dissolve",
      ]);
    // Ticks advance by one from 1: birth at tick 3 at the earliest, so an act is first past the
    // TTL (4) at tick 3 + 4 = 7, the 7th command.
    expect(ttl).toMatchObject({ reached: true, depth: 7 });
  });

  it("says what the scope lacks when it never reaches the rule", () => {
    // One instance id: one life, one merge, so never a merge onto a head that is not the genesis.
    expect(linked).toMatchObject({ reached: false });
    if (linked?.reached === false)
      expect(linked.reason).toMatch(
        /samskara\.merge is tried .* but no accepted step is an accepted merge onto a store whose head is not the genesis/,
      );
    expect(identity).toMatchObject({ reached: false });
    if (identity?.reached === false) expect(identity.reason).toMatch(/never tries ripa\.identity_update/);
    // The scope's distillates all carry weights with their valence's sign.
    if (sign?.reached === false) expect(sign.reason).toMatch(/OP-2\.7\.c7 never fires/);
    else expect.fail("S-2.sign-not-checked should be out of the small scope's reach");
  });
});

describe("the bounded first pass", () => {
  it("lowers every depth bound, the scope's and each part's, to at most the bound", () => {
    const dir = mkdtempSync(join(tmpdir(), "bounded-"));
    const file = join(dir, "s.json");
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(SMALL, "utf8")),
        max_depth: 9,
        parts: [{ name: "p", max_depth: 4 }, { name: "q" }],
      }),
    );
    const b = boundedScope(file, 6, join(dir, "b.json"));
    const raw = JSON.parse(readFileSync(b.file, "utf8")) as { max_depth: number; parts: { max_depth: number }[] };
    expect([raw.max_depth, ...raw.parts.map((p) => p.max_depth)]).toEqual([6, 4, 6]);
    expect(b.depth).toBe(6);
  });
  it("finds, breadth-first, the same shortest violation as the whole scope when it lies within the bound", () => {
    // "No life is ever dissolved" is first violated after 7 commands (traces.test.ts says why).
    const planted = {
      ...PREDICATES,
      "J-4": {
        kind: "state",
        check: (w) =>
          [...w.agents.values()].some((a) => [...a.instances.values()].some((i) => i.view.state === "dissolved"))
            ? { violation: "dissolved" }
            : true,
      } as Predicate,
    } as Record<InvariantId, Predicate>;
    const at = (d: number) =>
      explore(parseScope({ ...small, max_depth: d }), { predicates: planted }).violations.find(
        (v) => v.predicate === "J-4",
      );
    const whole = at(8);
    expect(whole?.depth).toBe(7);
    expect(at(7)).toEqual(whole);
    expect(at(6)).toBeUndefined();
  });
});

describe("outcomes", () => {
  it("a mutant is found or out of reach; a reached one not found, or one found out of reach, breaks the campaign", () => {
    expect([outcomeOf(true, true), outcomeOf(false, false), outcomeOf(false, true), outcomeOf(true, false)]).toEqual([
      "found",
      "not-reached",
      "missed",
      "found-unreached",
    ]);
    const r = (outcome: MutantResult["outcome"]) => ({ outcome }) as MutantResult;
    expect(campaignHolds([r("found"), r("not-reached")])).toBe(true);
    expect(campaignHolds([r("found"), r("missed")])).toBe(false);
    expect(campaignHolds([r("found-unreached")])).toBe(false);
    expect(campaignHolds([r("found"), r("error")])).toBe(false);
  });
});

describe("a planted model mutant, explored in a copy and replayed over the wire", () => {
  it("the unpatched copy violates nothing (the control)", async () => {
    const { result } = await exploreCopy("test-control", null, SMALL);
    discardModel("test-control");
    expect(result.violations).toEqual([]);
    expect(result.traces).toEqual([]);
  }, 120_000);

  it("dissolve-before-discharge is found as J-4 with the shortest path, and the correct implementation refuses its dissolve", async () => {
    const { result, out } = await exploreCopy(
      "test-J-4.dissolve-before-discharge",
      mutant("J-4.dissolve-before-discharge"),
      SMALL,
    );
    const v = result.violations.find((x) => x.predicate === "J-4");
    // The fewest commands to a dissolve with a pending obligation (see above): 6.
    expect(v?.depth).toBe(6);
    expect(v?.path.at(-1)?.op).toBe("janma.dissolve");
    const t = result.traces?.find((x) => x.predicate === "J-4");
    if (t === undefined) throw new Error("no J-4 trace written");
    const trace = readAnyTrace(join(out, t.json));
    expect(readAnyTrace(join(out, t.itf))).toEqual(trace);
    discardModel("test-J-4.dissolve-before-discharge");
    // The mutant model accepted the dissolve (step 6); the implementation keeps OP-2.8.c3 and rejects it with J-4.
    expect(trace.steps[5]?.expected).toMatchObject({ ok: true });
    const verdict = await replayTrace(trace, {
      commandLine: `${process.execPath} --import tsx impl/main.ts`,
      cwd: REPO_ROOT,
      requestTimeoutMs: 30_000,
      startupTimeoutMs: 60_000,
    });
    expect(verdict.kind).toBe("still-fails");
    if (verdict.kind === "still-fails") {
      expect(verdict.step).toBe(6);
      expect(verdict.summary).toMatch(/janma\.dissolve: the model accepted, the implementation rejected .*J-4/);
    }
  }, 180_000);
});
