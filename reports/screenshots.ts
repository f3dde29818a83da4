/**
 * Refreshes the committed screenshots of report.html (reports/screenshots/): runs the browser test
 * (conformance/reporters/browser.test.ts, Debian's Chromium, about two minutes) with
 * $SRK_SCREENSHOT_DIR set to a temporary folder, and copies the pictures it took into
 * reports/screenshots/ only when every one of its tests passed, so a committed screenshot is
 * always of a report whose checks held. The test itself never writes there.
 *
 *   npx tsx reports/screenshots.ts
 *
 * Exit status 0 when the screenshots were replaced; 1 when the test failed or took none (no
 * Chromium: the test is skipped), and the committed ones are left as they were.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  COMMITTED_SCREENSHOTS,
  pngSize,
  SCREENSHOT_DIR_ENV,
  SCREENSHOT_FILES,
  VIEWPORT,
} from "../test-support/screenshots.ts";
import { REPO_ROOT } from "./paths.ts";

const BROWSER_TEST = "conformance/reporters/browser.test.ts";

const main = (): number => {
  const work = mkdtempSync(join(tmpdir(), "srk-screenshots-"));
  try {
    const vitest = join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs");
    const run = spawnSync(process.execPath, [vitest, "run", "-c", "vitest.long.config.ts", BROWSER_TEST], {
      cwd: REPO_ROOT,
      stdio: "inherit",
      env: { ...process.env, [SCREENSHOT_DIR_ENV]: work },
    });
    if (run.status !== 0) {
      process.stderr.write(
        `screenshots: ${BROWSER_TEST} failed (exit ${run.status ?? run.signal ?? "?"}); ${COMMITTED_SCREENSHOTS}/ left as it was\n`,
      );
      return 1;
    }
    const missing = SCREENSHOT_FILES.filter((f) => !existsSync(join(work, f)));
    if (missing.length > 0) {
      process.stderr.write(
        `screenshots: ${BROWSER_TEST} passed but took no ${missing.join(", ")} (skipped without Chromium?); ${COMMITTED_SCREENSHOTS}/ left as it was\n`,
      );
      return 1;
    }
    for (const f of SCREENSHOT_FILES) {
      const size = pngSize(join(work, f));
      if (size.width !== VIEWPORT.width || size.height !== VIEWPORT.height)
        throw new Error(
          `${f} is ${size.width}×${size.height}, not the viewport's ${VIEWPORT.width}×${VIEWPORT.height}`,
        );
    }
    mkdirSync(join(REPO_ROOT, COMMITTED_SCREENSHOTS), { recursive: true });
    for (const f of SCREENSHOT_FILES) copyFileSync(join(work, f), join(REPO_ROOT, COMMITTED_SCREENSHOTS, f));
    process.stderr.write(
      `screenshots: wrote ${SCREENSHOT_FILES.map((f) => `${COMMITTED_SCREENSHOTS}/${f}`).join(", ")}\n`,
    );
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

process.exitCode = main();
