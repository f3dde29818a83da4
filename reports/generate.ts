/** Writes the generated reports (`npm run docs` runs this, then typedoc). */
import { writeFileSync } from "node:fs";
import { currentTraceability } from "./traceability.ts";
import { renderReports } from "./render.ts";

const files = renderReports(currentTraceability());
for (const [path, content] of files) writeFileSync(path, content);
console.error(`reports: wrote ${[...files.keys()].join(", ")}`);
