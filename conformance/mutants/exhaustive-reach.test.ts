/**
 * Issue 27 item 2: every catalog mutant the quick scope reaches is killed by the exhaustive stage
 * over the wire, and no other. "Reached" is decided without the wire (exhaustive-reach.ts: the
 * scope's cover driven through the mutant in process); "killed" is `srk certify`'s verdict with
 * the handshake and the exhaustive stage, the mutant built and started as its own process. Every
 * reached mutant is certified, and a seeded sample of the unreached ones (certifying all would add
 * minutes for the same answer each time). In the long suite (vitest.config.ts LONG_TESTS).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS, type LabelledMutant } from "../../properties/mutants/catalog.ts";
import { certify } from "../certify.ts";
import { coverOf } from "../stages/scope-cover.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { firstDifferenceInProcess } from "./exhaustive-reach.ts";
import { load, materialize } from "./harness.ts";
import { mutantCommandLine } from "./matrix.ts";

const FAMILIES = ["janma", "samskara", "advaita", "ripa"] as const;
const cover = coverOf("quick", FAMILIES);
/** Mutants of a rule with an invariant (the wire-protocol ones are the golden and wire stages' work). */
const MODEL_MUTANTS = MUTANTS.filter((m) => m.invariant !== null);
/** Unreached mutants certified too, drawn with a fixed seed. */
const UNREACHED_SAMPLE = 6;

const reach = new Map<string, string | null>();
const reachOf = async (m: LabelledMutant | null): Promise<string | null> =>
  firstDifferenceInProcess(await load(materialize(`reach-${m?.id ?? "control"}`, m)), cover.sessions);

/** Certifies `m` with the handshake and the exhaustive stage; the invariants its findings name (null: the wire). */
const killedBy = async (m: LabelledMutant): Promise<{ verdict: string; invariants: (string | null)[] }> => {
  const out = mkdtempSync(join(tmpdir(), "srk-exh-reach-"));
  const data = mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "srk-exh-reach-data-"));
  try {
    const { certificate } = await certify({
      commandLine: mutantCommandLine(m, `exh-reach-${m.id}`),
      cwd: REPO_ROOT,
      outDir: out,
      dataRoot: data,
      seed: 1,
      runs: 1,
      timeBudgetMs: 240_000,
      requestTimeoutMs: 15_000,
      startupTimeoutMs: 30_000,
      only: [],
      stages: ["handshake", "exhaustive"],
      graceMs: 10_000,
    });
    const stage = certificate.stages.find((s) => s.stage === "exhaustive");
    return { verdict: stage?.verdict ?? "absent", invariants: (stage?.findings ?? []).map((f) => f.invariant) };
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
};

/** A deterministic sample of `n` of `xs` (a linear congruential walk from a fixed seed). */
const sample = <T>(xs: readonly T[], n: number, seed = 27): T[] => {
  const pool = [...xs];
  const out: T[] = [];
  let s = seed;
  while (out.length < n && pool.length > 0) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(pool.splice(s % pool.length, 1)[0] as T);
  }
  return out;
};

describe("the exhaustive stage kills exactly the catalog mutants its scope reaches (quick)", () => {
  it("the unpatched implementation: nothing differs in process", async () => {
    expect(await reachOf(null)).toBeNull();
  }, 120_000);

  it("reach, decided in process for every mutant with an invariant", async () => {
    for (const m of MODEL_MUTANTS) reach.set(m.id, await reachOf(m));
    const reached = MODEL_MUTANTS.filter((m) => reach.get(m.id) !== null);
    // The quick scope reaches a good part of the catalog: a scope or a cover that lost its reach fails here.
    expect(reached.length, reached.map((m) => m.id).join(", ")).toBeGreaterThanOrEqual(25);
    expect(reached.length).toBeLessThan(MODEL_MUTANTS.length);
  }, 600_000);

  it("every reached mutant is killed over the wire, under some invariant, and a sample of the unreached survive", async () => {
    if (reach.size === 0) throw new Error("the previous test did not run");
    const reached = MODEL_MUTANTS.filter((m) => reach.get(m.id) !== null);
    const unreached = sample(
      MODEL_MUTANTS.filter((m) => reach.get(m.id) === null),
      UNREACHED_SAMPLE,
    );
    const wrong: string[] = [];
    let own = 0;
    for (const m of [...reached, ...unreached]) {
      const r = await killedBy(m);
      const isReached = reach.get(m.id) !== null;
      if ((r.verdict === "fail") !== isReached)
        wrong.push(
          `${m.id}: reached ${isReached} (${reach.get(m.id) ?? "no difference"}), exhaustive stage ${r.verdict}`,
        );
      if (r.invariants.includes(m.invariant)) own++;
    }
    expect(wrong).toEqual([]);
    // Attribution is the golden stage's (D-035); most kills name the mutant's own invariant.
    expect(own).toBeGreaterThan(reached.length / 2);
  }, 1_200_000);
});
