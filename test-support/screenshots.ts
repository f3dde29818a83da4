/**
 * The screenshots of report.html that conformance/reporters/browser.test.ts takes, and where: into
 * a temporary folder of its own on every run, or into the folder $SRK_SCREENSHOT_DIR names. Only
 * reports/screenshots.ts sets it (to a folder of its own, then copies the files into the committed
 * reports/screenshots/ once the whole browser test has passed), so a test run never rewrites the
 * committed pictures.
 */
import { readFileSync } from "node:fs";

/** The variable that sends the screenshots to a chosen folder. */
export const SCREENSHOT_DIR_ENV = "SRK_SCREENSHOT_DIR";
/** The committed screenshots, relative to the repository root. */
export const COMMITTED_SCREENSHOTS = "reports/screenshots";
/** What the browser test shoots: the passing report, its diagrams, the failing report. */
export const SCREENSHOT_FILES = ["report-pass.png", "report-diagrams.png", "report-fail.png"] as const;
/** The browser's viewport, which is each screenshot's size. */
export const VIEWPORT = { width: 1280, height: 1100 } as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The width and height a PNG file declares (its IHDR chunk), or an error naming the file. */
export const pngSize = (file: string): { width: number; height: number } => {
  const b = readFileSync(file);
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.subarray(12, 16).toString("latin1") !== "IHDR")
    throw new Error(`${file} is not a PNG file`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
};
