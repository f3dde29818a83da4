/**
 * A copy of the kit with one model mutant applied, under .tmp/model-mutants/<name>/, from which
 * the copy's own `srk explore` runs. The explorer imports model/ through conformance/ (the oracle,
 * the predicates) and properties/ (the generators the oracle imports), so those three are copied:
 * Node resolves a symlinked folder to its real path, and a linked conformance/ would import the
 * unpatched model. spec/ and node_modules/ never import the model and are linked; package.json is
 * copied so the copy's KIT_ROOT (conformance/kit-root.ts) is the copy, and its shipped scopes are
 * the copy's. Tests are left out: the copy only runs.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KIT_ROOT } from "../../kit-root.ts";
import type { ModelMutant } from "./catalog.ts";

export const WORK = join(KIT_ROOT, ".tmp", "model-mutants");

export class PatchError extends Error {
  override readonly name = "PatchError";
}

const occurrences = (hay: string, needle: string): number => hay.split(needle).length - 1;

/** `text` with the mutant's patch applied; PatchError unless its text occurs exactly once. */
export const applyPatch = (m: Pick<ModelMutant, "id" | "file" | "find" | "replace">, text: string): string => {
  const n = occurrences(text, m.find);
  if (n !== 1)
    throw new PatchError(
      `model mutant ${m.id}: the text to patch occurs ${n} times in ${m.file}, expected once; update the mutant`,
    );
  return text.replace(m.find, () => m.replace);
};

const COPIED = ["model", "conformance", "properties"] as const;
const LINKED = ["spec", "node_modules"] as const;

/** Copies the tree for `name` (from `root`, default the kit), applies `mutant` (if any) and returns the copy's root. */
export const materializeModel = (name: string, mutant: ModelMutant | null, root: string = KIT_ROOT): string => {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const d of COPIED)
    cpSync(join(root, d), join(dir, d), { recursive: true, filter: (src) => !src.endsWith(".test.ts") });
  for (const d of LINKED) symlinkSync(join(root, d), join(dir, d), "dir");
  copyFileSync(join(root, "package.json"), join(dir, "package.json"));
  if (mutant !== null) {
    if (!mutant.file.startsWith("model/"))
      throw new PatchError(`model mutant ${mutant.id}: ${mutant.file} is not under model/`);
    const file = join(dir, mutant.file);
    writeFileSync(file, applyPatch(mutant, readFileSync(file, "utf8")));
  }
  return dir;
};

/** Removes the copy made for `name`. */
export const discardModel = (name: string): void => rmSync(join(WORK, name), { recursive: true, force: true });
