/**
 * The kit's JSON data this adapter reads, shipped as a verbatim copy under spec-copy/ so that the
 * adapter works from any directory an implementer copies it to, with no path to the kit at start.
 * The copy is generated; `specCopyDifferences` (and the adapter's test) fail when it is stale.
 *
 *   node adapters/js/spec-copy.mjs            write the copy from the kit this file sits in
 *   node adapters/js/spec-copy.mjs --check    exit 1 and list the differences when it is stale
 *   node spec-copy.mjs [--check] KIT_ROOT     the same from another kit checkout, e.g. after
 *                                             `npm install samsara-ripa-kit`: node_modules/samsara-ripa-kit
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Where the copy lives. */
export const COPY_DIR = join(HERE, "spec-copy");

/**
 * What is copied, relative to the kit's spec/ folder; a name ending in "/" is every file of that
 * folder. tables.json: the error codes (TAB-3) and the family of each operation (TAB-4);
 * json-schema/: the request schemas (wire/), the Command schema, the result schemas (WorldView,
 * wire/*Result) and the distillate schema that janma.distil checks (OP-2.7), with rules.json;
 * unicode/tokeniser-17.0.json: the D-045 table of the S-1 leakage check (OP-2.7), which
 * tokeniser.mjs reads when given its path (examples/lifecycle.mjs does).
 */
export const COPIED = [
  "tables.json",
  "unicode/tokeniser-17.0.json",
  "json-schema/rules.json",
  "json-schema/Command.schema.json",
  "json-schema/WorldView.schema.json",
  "json-schema/SamskaraDistillate.schema.json",
  "json-schema/wire/",
];

/** The kit checkout this file sits in (adapters/js/ → the kit's root). */
export const DEFAULT_KIT_ROOT = resolve(HERE, "..", "..");

/** Every copied file, relative to spec/, as listed in the kit at `kitRoot`. */
const sourceFiles = (kitRoot) =>
  COPIED.flatMap((entry) => {
    if (!entry.endsWith("/")) return [entry];
    const dir = join(kitRoot, "spec", entry);
    if (!existsSync(dir))
      throw new Error(`${dir} does not exist: is ${kitRoot} the root of a samsara-ripa-kit checkout?`);
    return readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort()
      .map((n) => entry + n);
  });

const filesUnder = (dir, prefix = "") =>
  !existsSync(dir)
    ? []
    : readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
      );

/** The differences between the copy in `copyDir` and the kit's spec/, one line each; [] when current. */
export const specCopyDifferences = (kitRoot = DEFAULT_KIT_ROOT, copyDir = COPY_DIR) => {
  const wanted = sourceFiles(kitRoot);
  const out = [];
  for (const f of wanted) {
    const src = join(kitRoot, "spec", f);
    const dst = join(copyDir, f);
    if (!existsSync(src)) out.push(`${f}: missing from the kit (${src})`);
    else if (!existsSync(dst)) out.push(`${f}: missing from the copy`);
    else if (!readFileSync(src).equals(readFileSync(dst))) out.push(`${f}: differs from the kit's spec/${f}`);
  }
  for (const f of filesUnder(copyDir))
    if (!wanted.includes(f)) out.push(`${f}: in the copy but not a copied file of the kit`);
  return out;
};

/** Writes the copy afresh (removing files the kit no longer has); returns the files written. */
export const writeSpecCopy = (kitRoot = DEFAULT_KIT_ROOT, copyDir = COPY_DIR) => {
  const files = sourceFiles(kitRoot);
  rmSync(copyDir, { recursive: true, force: true });
  for (const f of files) {
    mkdirSync(dirname(join(copyDir, f)), { recursive: true });
    writeFileSync(join(copyDir, f), readFileSync(join(kitRoot, "spec", f)));
  }
  return files;
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const kitRoot = resolve(args.find((a) => a !== "--check") ?? DEFAULT_KIT_ROOT);
  if (check) {
    const diff = specCopyDifferences(kitRoot);
    if (diff.length > 0) {
      process.stderr.write(
        `spec-copy/ is stale against ${kitRoot}/spec (run node ${relative(process.cwd(), fileURLToPath(import.meta.url))} to refresh it):\n${diff.map((d) => `  ${d}\n`).join("")}`,
      );
      process.exit(1);
    }
    process.stdout.write(`spec-copy/ matches ${kitRoot}/spec\n`);
  } else {
    const files = writeSpecCopy(kitRoot);
    process.stdout.write(
      `wrote ${files.length} files to ${relative(process.cwd(), COPY_DIR) || "."} from ${kitRoot}/spec\n`,
    );
  }
}
