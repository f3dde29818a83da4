/**
 * The committed sample certificate of the bundled implementation (`docs/examples/certificate/`,
 * written by `npm run docs:sample`, i.e. reports/sample-certificate.ts) and what it was made from:
 * the paths, the digests of its inputs (`inputs.json` beside it) and the re-rendering of its
 * reports. Shared by the script that writes the sample and by reports/sample-certificate.test.ts,
 * which fails when the sample is stale. Nothing here runs a certification.
 *
 * The inputs (the runner's and the implementation's modules, found by following their imports,
 * the golden transcripts the golden stage reads, and the installed version of every package those
 * modules import) are conformance/evidence/inputs.ts's INPUT_SETS["sample-certificate"], which says why each
 * is one; the spec's normative files are not digested there: the certificate carries their digest
 * (`kit.spec_digest`), which the test compares directly.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Certificate } from "../spec/certificate.ts";
import { loadReportInput } from "../conformance/reporters/common.ts";
import { renderDiagrams, renderHtml } from "../conformance/reporters/html.ts";
import { renderJunit } from "../conformance/reporters/junit.ts";
import { renderMarkdown } from "../conformance/reporters/markdown.ts";
import { REPORT_FILES } from "../conformance/reporters/write.ts";
import {
  RECORDS,
  REGENERATE as REGENERATE_ALL,
  type Artifact,
  type RecordedInputs,
} from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";

/** Where the sample lives, relative to the repository root. */
export const SAMPLE_DIR = "docs/examples/certificate";
export const SAMPLE_CERTIFICATE = `${SAMPLE_DIR}/certificate.json`;
export const SAMPLE_INPUTS = RECORDS["sample-certificate"].file;
/** The one command that writes the sample again (package.json `docs:sample`). */
export const REGENERATE = REGENERATE_ALL["sample-certificate"];
/** The bundled implementation's command line, as `npm start` runs it. */
export const SAMPLE_IMPL = "node --import tsx impl/main.ts";

/** The sample's inputs: the runner's and the implementation's modules, the golden transcripts (conformance/evidence/inputs.ts). */
export const SAMPLE_ARTIFACT: Artifact = "sample-certificate";

/**
 * What `inputs.json` records beside the sample: how it was made, and its inputs (`inputsOf`). A
 * record written before conformance/evidence/inputs.ts has `files` as the per-file digests and no digest; it is
 * still read, and checked the same way (staleInputs accepts both).
 */
export type SampleRecord = RecordedInputs & {
  readonly generated_by: string;
  /** The commit the sample was certified at (HEAD then); `uncommitted_inputs` the inputs that differed from it. */
  readonly commit: string;
  readonly node: string;
  readonly settings: {
    readonly impl: string;
    readonly seed: number;
    readonly runs: number;
    readonly time_budget_seconds: number;
  };
};

export const readSampleRecord = (): SampleRecord | null => {
  const file = join(REPO_ROOT, SAMPLE_INPUTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SampleRecord) : null;
};

/** The reports the current reporters render from a certificate whose folder is `dir` (traces are read from there). */
export const renderSampleReports = async (
  certificate: Certificate,
  dir = join(REPO_ROOT, SAMPLE_DIR),
): Promise<Record<string, string>> => {
  const input = loadReportInput(certificate, join(dir, "certificate.json"));
  return {
    [REPORT_FILES.junit]: renderJunit(input),
    [REPORT_FILES.markdown]: renderMarkdown(input),
    [REPORT_FILES.html]: renderHtml(input, await renderDiagrams(certificate)),
  };
};
