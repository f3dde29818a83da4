/**
 * Writes the three reports next to `certificate.json`: `junit.xml` (CI), `report.md` (pull
 * requests) and `report.html` (a person, in a browser). Called at the end of every `srk certify`.
 * Each report is a pure function of the certificate, the traces it names and, for report.html's
 * links to the invariants' docs, where the kit's docs are from the reports' folder (doc-links.ts).
 */
import { dirname, join } from "node:path";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import type { CertifyResult } from "../core/certify-result.ts";
import { loadReportInput } from "./common.ts";
import { renderDiagrams, renderHtml } from "./html.ts";
import { renderJunit } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";

export interface ReportFiles {
  readonly junit: string;
  readonly markdown: string;
  readonly html: string;
}

export const REPORT_FILES = { junit: "junit.xml", markdown: "report.md", html: "report.html" } as const;

/** Writes atomically (a temporary file renamed over the target). */
const writeAtomic = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
};

/** Writes the reports of a certification next to its certificate (the traces are read from disk). */
export const writeReports = async (
  result: Pick<CertifyResult, "certificate" | "certificatePath"> & Partial<CertifyResult>,
): Promise<ReportFiles> => {
  const input = loadReportInput(result.certificate, result.certificatePath);
  const dir = dirname(result.certificatePath);
  const files: ReportFiles = {
    junit: join(dir, REPORT_FILES.junit),
    markdown: join(dir, REPORT_FILES.markdown),
    html: join(dir, REPORT_FILES.html),
  };
  const html = renderHtml(input, await renderDiagrams(result.certificate));
  writeAtomic(files.junit, renderJunit(input));
  writeAtomic(files.markdown, renderMarkdown(input));
  writeAtomic(files.html, html);
  return files;
};
