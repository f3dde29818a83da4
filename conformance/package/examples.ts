/**
 * The library's documented examples: every ```ts block under an `@example` tag of the package's
 * entry point (`conformance/index.ts`), so the examples a reader sees in the API docs are the
 * programs the tests run (from source, and from the packed tarball in an empty project).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KIT_ROOT } from "../kit-root.ts";

export interface ApiExample {
  /** The exported name the example documents. */
  readonly entry: string;
  /** The program, as a reader sees it (imports from "samsara-ripa-kit"). */
  readonly code: string;
}

export const ENTRY_SOURCE = "conformance/index.ts";

/** The examples of `source`, each with the name of the export that follows its comment. */
export const apiExamples = (source = readFileSync(join(KIT_ROOT, ENTRY_SOURCE), "utf8")): ApiExample[] => {
  const out: ApiExample[] = [];
  for (const m of source.matchAll(
    /\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*export (?:const|function|async function) (\w+)/g,
  )) {
    const [, comment = "", entry = ""] = m;
    const at = comment.indexOf("@example");
    if (at < 0) continue;
    const block = /```ts\n([\s\S]*?)```/.exec(comment.slice(at).replace(/^[ \t]*\* ?/gm, ""));
    if (block?.[1] === undefined) throw new Error(`${ENTRY_SOURCE}: the @example of ${entry} has no \`\`\`ts block`);
    out.push({ entry, code: block[1] });
  }
  return out;
};

/**
 * The examples' implementation, `empty_profile.py` in the folder they run in: a stand-in that runs
 * the kit's own `docs/examples/empty_profile.py` where it lies (it reads the JSON Schemas beside it).
 */
export const emptyProfileShim = (): string =>
  `import runpy\nrunpy.run_path(${JSON.stringify(join(KIT_ROOT, "docs", "examples", "empty_profile.py"))}, run_name="__main__")\n`;
