#!/usr/bin/env node
// `srk`, the conformance runner of the kit. An installed package runs the compiled JavaScript in
// dist/ (built by `npm pack`: no compiler, no tsx at run time). In a clone of the kit, where the
// TypeScript sources are and dist/ is not, tsx's loader runs the sources in place, so there is no
// build step between editing the kit and running it.
import { existsSync } from "node:fs";
import { engineProblem } from "./engine.mjs";

const problem = engineProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
const compiled = new URL("../dist/conformance/cli/main.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../conformance/cli/main.ts");
}
