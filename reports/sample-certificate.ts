/**
 * `npm run docs:sample` (the first step of `npm run docs`): certifies the bundled implementation
 * with the defaults of `srk certify` (seed 1, 300 runs, the default time budget), as `npm start`
 * does, and puts the certificate, its reports (report.md, report.html, junit.xml) and its traces,
 * if any, in `docs/examples/certificate/`, with `inputs.json`: the commit, and the digest of every
 * input of the certification (conformance/evidence/inputs.ts, `inputsOf("sample-certificate")`). Nothing is
 * rewritten by hand: the files are the ones `certify` wrote, except that the reports are rendered
 * again once the sample is in place (by the same reporters, from the same certificate), since
 * report.html's links to the invariants' docs are relative to its folder
 * (conformance/reporters/doc-links.ts).
 *
 * The certification runs in a temporary folder, the sample is replaced only once it is done, so
 * an interrupted run leaves the committed sample as it was. It writes to the relative folder
 * `docs/examples/certificate` (inside the temporary one), so the replay commands the certificate
 * and its reports carry (`npx srk replay docs/examples/certificate/traces/… --impl …`) read right
 * from the repository root, where the sample is committed. The implementation runs from the
 * repository root, with the same command line as `npm start`.
 *
 *   npx tsx reports/sample-certificate.ts                 certify, then replace the sample (a few minutes)
 *   npx tsx reports/sample-certificate.ts --reports-only  render the reports again from the committed
 *                                                         certificate.json (after a reporter change)
 *
 * Exit status: 0 when the sample was written and the bundled implementation is certified; 1
 * otherwise (a sample that is not certified is still written, for a look at its reports).
 * reports/sample-certificate.test.ts fails when the sample is stale.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certify } from "../conformance/index.ts";
import { DEFAULTS } from "../conformance/cli/defaults.ts";
import { SRK_ENTRIES } from "../conformance/reporters/out-dir.ts";
import { writeReports } from "../conformance/reporters/write.ts";
import type { Certificate } from "../spec/certificate.ts";
import { currentInputs, inputChanges, inputsOf } from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";
import {
  renderSampleReports,
  SAMPLE_ARTIFACT,
  SAMPLE_CERTIFICATE,
  SAMPLE_DIR,
  SAMPLE_IMPL,
  SAMPLE_INPUTS,
  type SampleRecord,
} from "./sample-inputs.ts";

const target = join(REPO_ROOT, SAMPLE_DIR);
const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Checks that the reports beside the certificate are what the reporters render from it (they are pure functions of it). */
const checkReproducible = async (): Promise<void> => {
  const certificate = JSON.parse(readFileSync(join(REPO_ROOT, SAMPLE_CERTIFICATE), "utf8")) as Certificate;
  for (const [file, text] of Object.entries(await renderSampleReports(certificate))) {
    if (readFileSync(join(target, file), "utf8") !== text)
      throw new Error(
        `${SAMPLE_DIR}/${file} differs from what the reporters render from its certificate.json: the reports are not reproducible`,
      );
  }
};

const reportsOnly = async (): Promise<number> => {
  const certificatePath = join(REPO_ROOT, SAMPLE_CERTIFICATE);
  if (!existsSync(certificatePath)) throw new Error(`${SAMPLE_CERTIFICATE} is missing: run npm run docs:sample`);
  const certificate = JSON.parse(readFileSync(certificatePath, "utf8")) as Certificate;
  const files = await writeReports({ certificate, certificatePath });
  say(
    `sample: rendered ${Object.values(files)
      .map((f) => f.slice(REPO_ROOT.length + 1))
      .join(", ")} from ${SAMPLE_CERTIFICATE}`,
  );
  return 0;
};

const full = async (): Promise<number> => {
  // The commit, the digest of every input and the inputs that differ from the commit, before certifying.
  const before = inputsOf(SAMPLE_ARTIFACT);
  const work = mkdtempSync(join(tmpdir(), "srk-sample-"));
  const home = process.cwd();
  let result: Awaited<ReturnType<typeof certify>>;
  try {
    say(
      `sample: certifying the bundled implementation (${SAMPLE_IMPL}; seed ${DEFAULTS.seed}, ${DEFAULTS.runs} runs, time budget ${DEFAULTS.timeBudgetSeconds} s): a few minutes`,
    );
    // The relative --out is resolved against the working directory: the temporary folder.
    process.chdir(work);
    try {
      result = await certify({ impl: SAMPLE_IMPL, out: SAMPLE_DIR, cwd: REPO_ROOT, onProgress: say });
    } finally {
      process.chdir(home);
    }
    const changed = inputChanges(before, currentInputs(SAMPLE_ARTIFACT));
    if (changed.length > 0)
      throw new Error(
        `inputs changed while certifying, the sample would not match them; nothing written, run again:\n  ${changed.join("\n  ")}`,
      );

    mkdirSync(target, { recursive: true });
    for (const e of readdirSync(target))
      if (SRK_ENTRIES.has(e) || e === "inputs.json") rmSync(join(target, e), { recursive: true, force: true });
    const made = join(work, SAMPLE_DIR);
    for (const e of readdirSync(made)) cpSync(join(made, e), join(target, e), { recursive: true });
    // Written in the temporary folder, report.html linked the docs from there: render it where it now is.
    await writeReports({ certificate: result.certificate, certificatePath: join(target, "certificate.json") });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const record: SampleRecord = {
    generated_by: "npm run docs:sample (reports/sample-certificate.ts); checked by reports/sample-certificate.test.ts",
    node: process.version,
    settings: {
      impl: SAMPLE_IMPL,
      seed: DEFAULTS.seed,
      runs: DEFAULTS.runs,
      time_budget_seconds: DEFAULTS.timeBudgetSeconds,
    },
    ...before,
  };
  writeFileSync(join(REPO_ROOT, SAMPLE_INPUTS), `${JSON.stringify(record, null, 2)}\n`);
  await checkReproducible();

  const c = result.certificate;
  say(
    `sample: wrote ${SAMPLE_DIR}/ (${readdirSync(target).sort().join(", ")}): ${c.result} (exit ${c.exit_code}), ${c.invariants.filter((i) => i.verdict === "pass").length} of ${c.invariants.length} pass, ${(c.duration_ms / 1000).toFixed(0)} s`,
  );
  if (c.result !== "certified") {
    say(`sample: the bundled implementation is not certified; see ${SAMPLE_DIR}/report.md`);
    return 1;
  }
  return 0;
};

process.exitCode = await (process.argv.includes("--reports-only") ? reportsOnly() : full());
