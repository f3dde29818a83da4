#!/usr/bin/env node
// `srk`, the conformance runner of the kit. An installed package runs the compiled JavaScript in
// dist/ (built by `npm pack`: no compiler, no tsx at run time; the package holds no TypeScript
// sources). In a clone of the kit, where the sources are, tsx's loader runs them in place, so there
// is no build step between editing the kit and running it, and a dist/ left in the clone (stale, or
// half written by a build running meanwhile) is never what runs.
import { existsSync } from "node:fs";
import { engineProblem } from "./engine.mjs";

const problem = engineProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
const source = new URL("../conformance/cli/main.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../dist/conformance/cli/main.js", import.meta.url).href);
}
