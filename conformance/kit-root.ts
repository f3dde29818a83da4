/**
 * The kit's package root: the folder of the nearest `package.json` above this module. In a clone
 * that is the repository root (this file is `conformance/kit-root.ts`); in an installed package it
 * is the package folder (this file is `dist/conformance/kit-root.js`, and `dist/` has no
 * `package.json`). The runner reads the data it ships from there: the golden transcripts and the
 * spec's normative files (whose digest a certificate carries), never from the caller's folder.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const findPackageRoot = (from: string): string => {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir)
      throw new Error(`no package.json above ${from}: the kit's files are not where it was installed`);
  }
};

export const KIT_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
