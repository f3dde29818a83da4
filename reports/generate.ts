/** Writes the generated reports (`npm run docs` runs this, then builds the docs site with reports/site.ts). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.ts";
import { renderReports } from "./render.ts";
import { currentTraceability } from "./traceability.ts";

const files = renderReports(currentTraceability());
for (const [path, content] of files) writeFileSync(join(REPO_ROOT, path), content);
console.error(`reports: wrote ${[...files.keys()].join(", ")}`);
