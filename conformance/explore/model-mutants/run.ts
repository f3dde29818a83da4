/**
 * `npx tsx conformance/explore/model-mutants/run.ts [--scope NAME|FILE] [--only id,id] [--jobs N] [--out DIR] [--run-unreached]`
 *
 * Plants each model mutant (catalog.ts) in a copy of the kit and runs the copy's `srk explore`
 * over the scope (default: the shipped "default"); writes DIR/explore-mutants.md and .json
 * (DIR default: reports/) and each found mutant's traces under DIR/explore-mutants/<id>/. Exit 0
 * when every mutant the scope reaches is found and the control violates nothing; 1 otherwise. A
 * patch that no longer applies stops the run (copy.ts PatchError), as in the impl catalog.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { KIT_ROOT } from "../../kit-root.ts";
import { loadScope } from "../scope.ts";
import { MODEL_MUTANTS, type ModelMutant } from "./catalog.ts";
import { erroredMutant, exploreCopy, runMutant, type MutantResult } from "./campaign.ts";
import { applyPatch, discardModel, materializeModel } from "./copy.ts";
import { reachAll, type Reached } from "./reach.ts";
import { campaignJson, campaignMarkdown, campaignReport } from "./report.ts";

const { values } = parseArgs({
  options: {
    scope: { type: "string", default: "default" },
    only: { type: "string" },
    jobs: { type: "string", default: "1" },
    out: { type: "string", default: join(KIT_ROOT, "reports") },
    "run-unreached": { type: "boolean", default: false },
  },
});
const jobs = Math.max(1, Number(values.jobs));
const only = values.only
  ?.split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "");
const mutants: readonly ModelMutant[] =
  only === undefined ? MODEL_MUTANTS : MODEL_MUTANTS.filter((m) => only.includes(m.id));
if (only !== undefined && mutants.length !== only.length)
  throw new Error(`--only: unknown mutant among ${only.join(", ")}`);

// Every patch must apply before anything runs: a stale mutant fails loudly, not after an hour.
for (const m of mutants) applyPatch(m, readFileSync(join(KIT_ROOT, m.file), "utf8"));

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

// One snapshot of the tree and of the scope for the whole campaign: the copies are made from it,
// so every mutant explores the same code and data even while the working tree changes.
// Each campaign has its own folder of copies, so two campaigns can run side by side.
const tag = `run-${process.pid}/`;
const snapshot = materializeModel(`${tag}snapshot`, null);
const named = /^[a-z0-9_-]+$/.test(values.scope) && !existsSync(values.scope);
const scopeFile = named
  ? join(snapshot, "conformance", "explore", "scopes", `${values.scope}.json`)
  : resolve(values.scope);
const scope = loadScope(scopeFile);
log(`probing where scope ${scope.name} reaches each of ${mutants.length} mutants' rules in the correct model`);
const reached = reachAll(scope, mutants, (done, total) => log(`probed ${done}/${total}`));

log("control: the unpatched copy");
const control = await exploreCopy(`${tag}control`, null, scopeFile, snapshot);
discardModel(`${tag}control`);
log(`control: ${control.result.distinct} distinct states, ${control.result.violations.length} violations`);

const outDir = values.out;
const tracesDir = join(outDir, "explore-mutants");
const results: MutantResult[] = new Array(mutants.length);
let next = 0;
const worker = async () => {
  for (let k = next++; k < mutants.length; k = next++) {
    const m = mutants[k] as ModelMutant;
    const q = reached[k] as Reached;
    let r: MutantResult;
    try {
      r = await runMutant(m, q, {
        scopeFile,
        tracesDir,
        root: snapshot,
        runUnreached: values["run-unreached"],
        copyPrefix: tag,
      });
    } catch (e) {
      // A patch that does not apply was refused before anything ran; this is a run that broke.
      r = erroredMutant(m, q, e);
    }
    results[k] = r;
    log(
      `${m.id}: ${r.outcome} (${r.explored})${r.found.length > 0 ? ` ${r.found.map((f) => `${f.predicate}@${f.depth}`).join(", ")}` : ""}`,
    );
  }
};
await Promise.all(Array.from({ length: Math.min(jobs, mutants.length) }, worker));
discardModel(tag);

const report = campaignReport(
  scope.name,
  { states: control.result.states, distinct: control.result.distinct, violations: control.result.violations.length },
  results,
);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "explore-mutants.json"), campaignJson(report));
writeFileSync(join(outDir, "explore-mutants.md"), campaignMarkdown(report, "explore-mutants/"));
const c = report.counts;
process.stdout.write(
  `model mutants: ${c.total}; found ${c.found}; not reached ${c["not-reached"]}; missed ${c.missed}; found-unreached ${c["found-unreached"]}; errors ${c.error}; ${report.holds ? "holds" : "does NOT hold"}\n`,
);
process.stdout.write(`wrote ${join(outDir, "explore-mutants.md")} and .json\n`);
process.exitCode = report.holds ? 0 : 1;
