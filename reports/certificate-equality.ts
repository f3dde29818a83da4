/**
 * Issue 22's guard, as a module: a certificate without what two certifications of the same commit
 * and seed need not share (reports/certificate-equality.test.ts says what is left out and why), and
 * a command that compares any certificate with the one written before the runner's redesign, so a
 * change to a stage can be checked before the committed sample is regenerated:
 *
 *   npx srk certify --impl "node --import tsx impl/main.ts" --out /tmp/after
 *   npx tsx reports/certificate-equality.ts /tmp/after/certificate.json
 *
 * Exit status 0 when equal; 1 with the first differing paths otherwise.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { differingPaths, bracketedPath, valueAt } from "../properties/json-diff.ts";
import { REPO_ROOT } from "./paths.ts";

export type Json = Record<string, unknown>;

export const BEFORE_ISSUE_22 = "reports/fixtures/sample-certificate-before-issue-22.json";

export const readCertificate = (path: string): Json =>
  JSON.parse(readFileSync(isAbsolute(path) ? path : join(REPO_ROOT, path), "utf8")) as Json;

/** The certificate without what two certifications of the same commit and seed need not share. */
export const comparable = (c: Json): Json => {
  const copy = structuredClone(c) as Json & {
    kit: Json;
    stages: (Json & { notes: string[] })[];
    invariants: (Json & { witnesses: Json; reason: string })[];
  };
  delete copy["started_at"];
  delete copy["duration_ms"];
  delete copy.kit["spec_digest"];
  for (const s of copy.stages) {
    delete s["duration_ms"];
    s.notes = s.notes.map((n) => n.replace(/ in \d+ s \(seed /, " in … s (seed "));
  }
  for (const i of copy.invariants) {
    delete i.witnesses["crash_cuts"];
    i.reason = i.reason.replace(/^\d+ witness\(es\)/, "… witness(es)");
  }
  return copy;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const path = process.argv[2];
  if (path === undefined) {
    process.stderr.write("usage: npx tsx reports/certificate-equality.ts <certificate.json>\n");
    process.exit(2);
  }
  const before = comparable(readCertificate(BEFORE_ISSUE_22));
  const after = comparable(readCertificate(path));
  const paths = differingPaths(before, after);
  if (paths.length === 0) {
    process.stdout.write(`${path} equals ${BEFORE_ISSUE_22} (times and crash-cut witness counts left out)\n`);
  } else {
    const show = (v: unknown): string => JSON.stringify(v)?.slice(0, 300) ?? "absent";
    for (const p of paths.slice(0, 20))
      process.stdout.write(
        `${bracketedPath(p)}:\n  before ${show(valueAt(before, p))}\n  after  ${show(valueAt(after, p))}\n`,
      );
    process.stdout.write(`${paths.length} difference(s) from ${BEFORE_ISSUE_22}\n`);
    process.exitCode = 1;
  }
}
