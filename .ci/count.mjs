// Prints the plain closing line CI reads: "N passed, N failed", from vitest's JSON report.
// A test file that failed without any failed test (it could not load) counts as one failure;
// a missing report means the suite never ran (e.g. the typecheck failed): that is one failure too.
import { existsSync, readFileSync } from "node:fs";

const path = "reports/.last-test-run.json";
if (!existsSync(path)) {
  console.log("no test report: the typecheck or the test runner failed before any test ran");
  console.log("0 passed, 1 failed");
} else {
  const r = JSON.parse(readFileSync(path, "utf8"));
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed`);
}
