/**
 * Survivors rerun after a change of the runner, the golden sessions or the generator:
 * conformance/mutants/generated/reruns.json, one record per rerun (`npm run mutants:wire-generated
 * -- --rerun <id>...`). The measured run stays what it measured; a survivor that a later commit's
 * certification kills is shown as such beside it (issue 21: every survivor killed by a generator
 * or golden change, or argued equivalent), with the commit that killed it and how, so a reader
 * can check the claim with the same command.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../transport/local.ts";
import type { WireOptions, WireRow } from "./certify-one.ts";

export const RERUNS_FILE = "conformance/mutants/generated/reruns.json";

export interface Rerun {
  /** The commit the rerun certified (its inputs' commit: the tree must be clean for it to mean anything). */
  readonly commit: string;
  readonly at: string;
  /** Why it was rerun: the change it tests. */
  readonly why: string;
  readonly options: WireOptions;
  readonly control: WireRow;
  /** The rows as the run wrote them (report rows; the renderer reads their WireRow part). */
  readonly rows: readonly WireRow[];
}

export const readReruns = (root = REPO_ROOT): Rerun[] => {
  const file = join(root, RERUNS_FILE);
  if (!existsSync(file)) return [];
  const raw = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${RERUNS_FILE}: not a list of reruns`);
  for (const [i, r] of raw.entries()) {
    const x = r as Partial<Rerun> | null;
    if (
      x === null ||
      typeof x !== "object" ||
      typeof x.commit !== "string" ||
      typeof x.why !== "string" ||
      x.why.length < 20 ||
      !Array.isArray(x.rows)
    ) {
      throw new Error(`${RERUNS_FILE}: rerun ${i + 1} needs a commit, a reason (why) and its rows`);
    }
  }
  return raw as Rerun[];
};

export const appendRerun = (r: Rerun, root = REPO_ROOT): void => {
  const all = [...readReruns(root), r];
  writeFileSync(join(root, RERUNS_FILE), `[\n${all.map((x) => JSON.stringify(x)).join(",\n")}\n]\n`);
};

/** The latest rerun row of each mutant id (later reruns override earlier ones), with its rerun. */
export const latestRerun = (
  reruns: readonly Rerun[],
): ReadonlyMap<string, { readonly rerun: Rerun; readonly row: WireRow }> => {
  const out = new Map<string, { rerun: Rerun; row: WireRow }>();
  for (const rerun of reruns) for (const row of rerun.rows) out.set(row.id, { rerun, row });
  return out;
};
