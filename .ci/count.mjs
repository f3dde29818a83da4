// Prints the plain closing line CI reads: "N passed, N failed", from vitest's JSON reports of
// `npm test` and `npm run test:long`, and the report of `npm run ad3:exhaustive` (one check). A test file that failed without any failed test (it could
// not load) counts as one failure; a missing report means that suite never ran (e.g. the
// typecheck failed): that is one failure too.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const [path, what] of [
  ["reports/.last-test-run.json", "npm test"],
  ["reports/.last-long-run.json", "npm run test:long"],
]) {
  if (!existsSync(path)) {
    console.log(`no test report from ${what}: the typecheck or the test runner failed before any test ran`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(path, "utf8"));
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  passed += r.numPassedTests;
  failed += r.numFailedTests + brokenFiles;
}
// The whole-space AD-3 check (npm run ad3:exhaustive --report): one check, failed when it found a
// mismatch, did not cover its space, or never wrote its report.
const ad3 = "reports/.last-ad3-run.json";
if (!existsSync(ad3)) {
  console.log("no report from npm run ad3:exhaustive: it did not finish");
  failed += 1;
} else {
  const r = JSON.parse(readFileSync(ad3, "utf8"));
  console.log(
    `ad3:exhaustive: ${r.cases} cases of ${r.distillates} distillates, ${r.mismatches} mismatch(es), ${Math.round(r.seconds)} s`,
  );
  if (r.ok === true) passed += 1;
  else failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
