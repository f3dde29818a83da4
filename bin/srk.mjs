#!/usr/bin/env node
// `srk`, the conformance runner of the kit. The runner is TypeScript source; tsx's loader runs it
// in place, so there is no build step between editing the kit and running it.
import { register } from "tsx/esm/api";

register();
await import("../conformance/cli/main.ts");
