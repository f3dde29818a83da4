/**
 * Builds a mutant of the implementation and hunts for it.
 *
 * A mutant is a copy of impl/ under .tmp/mutants/<id>/ with one patch applied (spec/ is linked,
 * not copied, so the mutant speaks the real spec). It is loaded as a module of its own and
 * compared with the reference model by the golden sessions and then by the differential property.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import type { Implementation, OpenOptions } from "../../impl/api.ts";
import { firstGoldenMismatch, readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { compareRun } from "../../properties/differential.ts";
import { choicesArb, type GenProfile } from "../../properties/generators/commands.ts";
import type { Mutant } from "../../properties/mutants/catalog.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const WORK = join(ROOT, ".tmp", "mutants");

/** Count non-overlapping occurrences of `needle` in `hay`. */
const occurrences = (hay: string, needle: string): number => hay.split(needle).length - 1;

/** Copies impl/ for `name`, applies `mutant` (if any), and returns the copy's entry module path. */
export const materialize = (name: string, mutant: Mutant | null): string => {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, "impl"), join(dir, "impl"), {
    recursive: true,
    filter: (src) => !src.includes(`${join("impl", "test")}`),
  });
  if (!existsSync(join(dir, "spec"))) symlinkSync(join(ROOT, "spec"), join(dir, "spec"), "dir");
  if (mutant !== null) {
    const file = join(dir, mutant.file);
    const text = readFileSync(file, "utf8");
    const n = occurrences(text, mutant.find);
    if (n !== 1)
      throw new Error(
        `mutant ${mutant.id}: the text to patch occurs ${n} times in ${mutant.file}, expected once; update the mutant`,
      );
    writeFileSync(file, text.replace(mutant.find, mutant.replace));
  }
  return join(dir, "impl", "api.ts");
};

type Opener = (opts?: OpenOptions) => Implementation;

export const load = async (entry: string): Promise<Opener> => {
  const mod = (await import(pathToFileURL(entry).href)) as { openImplementation: Opener };
  return mod.openImplementation;
};

/**
 * The in-process budget (conformance/mutants/in-process.test.ts): MUTANT_RUNS differential runs per
 * generator profile (default 150) from MUTANT_SEED (default 1). One budget for every mutant and for
 * the unpatched control, so "the control survives" means it survived what kills the mutants.
 */
export const IN_PROCESS_BUDGET: { readonly runs: number; readonly seed: number } = {
  runs: Number(process.env["MUTANT_RUNS"] ?? 150),
  seed: Number(process.env["MUTANT_SEED"] ?? 1),
};

export interface Verdict {
  readonly killed: boolean;
  /** Which check killed it and how, or why it survived. */
  readonly by: string;
}

/** The golden sessions alone: the first session whose replay differs, in process. */
export const huntGolden = (openImpl: Opener): Verdict => {
  for (const g of GOLDEN_SESSIONS) {
    const impl = openImpl({});
    try {
      const mismatch = firstGoldenMismatch(readGolden(join(ROOT, goldenPath(g))), impl);
      if (mismatch !== null) return { killed: true, by: `golden ${g.name}: ${mismatch}` };
    } catch (e) {
      return { killed: true, by: `golden ${g.name}: threw ${String(e).slice(0, 300)}` };
    } finally {
      impl.close();
    }
  }
  return { killed: false, by: "every golden session replayed as expected" };
};

/**
 * The differential alone: `runs` random sequences per generator profile (store-focused, then
 * mixed, or `first` first) from a fixed seed, stopping at the first disagreement (no shrinking).
 */
export const huntDifferential = (
  openImpl: Opener,
  runs: number,
  seed: number,
  first: GenProfile = "store",
): Verdict => {
  const profiles: readonly GenProfile[] = first === "mixed" ? ["mixed", "store"] : ["store", "mixed"];
  for (const profile of profiles) {
    const result = fc.check(
      fc.property(choicesArb(60, 200), (cs) => compareRun(() => openImpl({}), cs, { profile })),
      {
        numRuns: runs,
        seed,
        endOnFailure: true,
      },
    );
    if (result.failed) {
      const err = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      return {
        killed: true,
        by: `differential, ${profile} profile (seed ${seed}, run ${result.numRuns}): ${err.slice(0, 400)}`,
      };
    }
  }
  return { killed: false, by: `survived ${runs} differential runs per profile from seed ${seed}` };
};

/**
 * Hunts one implementation: the golden sessions first (cheap, fixed), then the differential,
 * stopping at the first kill. A mutant tagged with a spec-review item must instead be killed by
 * each of the two on its own (issue: every decided point is pinned by a golden step and by the
 * generator), which the mutation test checks with `huntGolden` and `huntDifferential` separately.
 */
export const hunt = (openImpl: Opener, runs: number, seed: number): Verdict => {
  const golden = huntGolden(openImpl);
  if (golden.killed) return golden;
  const differential = huntDifferential(openImpl, runs, seed);
  return differential.killed
    ? differential
    : { killed: false, by: `survived the golden sessions and ${runs} differential runs per profile from seed ${seed}` };
};
