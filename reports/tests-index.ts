/**
 * The tests behind each invariant, by name: every `it(…)`/`test(…)` of the kit's test files, with
 * its `describe` titles, its file and line. A test counts for an invariant when its name says so:
 * the invariant id occurs as a whole word in its title or in an enclosing `describe` title, or a
 * title says it covers "all 19 invariants" (a test that only uses an id in its body, as data, does
 * not). The test files are parsed with the TypeScript compiler, so titles are read exactly (a
 * template title is shown as written, `${…}` included).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { INVARIANT_IDS, type InvariantId } from "../spec/catalog.ts";
import { REPO_ROOT } from "./paths.ts";

export interface TestCase {
  /** Path relative to the repository root. */
  readonly file: string;
  /** 1-based line of the `it(` call. */
  readonly line: number;
  /** Enclosing `describe` titles, outermost first. */
  readonly describes: readonly string[];
  readonly title: string;
  /** Invariants it counts for. */
  readonly invariants: readonly InvariantId[];
}

/** A whole-word match for an id: "I1" must not match "I10" or "AI1". */
export const mentions = (text: string, id: InvariantId): boolean =>
  new RegExp(`(^|[^A-Za-z0-9-])${id.replace("-", "\\-")}(?![A-Za-z0-9])`).test(text);

const ALL_INVARIANTS = /\ball (?:the )?19 invariants\b/i;

export const listFiles = (dir: string, suffix: string): string[] =>
  readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [join(dir, e.name)] : [],
    )
    .sort();

const titleOf = (node: ts.Expression | undefined, source: ts.SourceFile): string | null => {
  if (node === undefined) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.getText(source).slice(1, -1);
  return null;
};

/** The name a call is made under: `it`, `describe`, `it.skip` → `it`…; a gated block, `needs(X).describe` or `needs(X).it` (test-support/needs.ts), → `describe`, `it`. */
const calleeName = (e: ts.Expression): string | null => {
  if (ts.isIdentifier(e)) return e.text;
  if (
    ts.isPropertyAccessExpression(e) &&
    ["describe", "it"].includes(e.name.text) &&
    ts.isCallExpression(e.expression) &&
    ts.isIdentifier(e.expression.expression) &&
    e.expression.expression.text === "needs"
  )
    return e.name.text;
  if (
    ts.isPropertyAccessExpression(e) &&
    ts.isIdentifier(e.expression) &&
    ["skip", "only", "concurrent", "sequential", "fails"].includes(e.name.text)
  )
    return e.expression.text;
  return null;
};

/** Every test of one file. */
export const testsOf = (file: string): TestCase[] => {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: TestCase[] = [];
  const visit = (node: ts.Node, describes: readonly string[]): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const title = titleOf(node.arguments[0], source);
      if ((name === "describe" || name === "it" || name === "test") && title !== null) {
        if (name === "describe") {
          for (const a of node.arguments.slice(1)) visit(a, [...describes, title]);
          return;
        }
        const names = [...describes, title];
        const invariants = INVARIANT_IDS.filter((id) => names.some((n) => ALL_INVARIANTS.test(n) || mentions(n, id)));
        out.push({
          file,
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          describes,
          title,
          invariants,
        });
        return;
      }
    }
    ts.forEachChild(node, (c) => visit(c, describes));
  };
  visit(source, []);
  return out;
};

/** The folders whose tests check the kit (the reports' own tests are about the docs). */
export const TEST_DIRS = ["spec", "model", "impl", "properties", "conformance"] as const;

export const allTests = (): TestCase[] => TEST_DIRS.flatMap((d) => listFiles(d, ".test.ts")).flatMap(testsOf);

export const testsFor = (tests: readonly TestCase[], id: InvariantId): TestCase[] =>
  tests.filter((t) => t.invariants.includes(id));

/** `a › b › c` */
export const fullTitle = (t: TestCase): string => [...t.describes, t.title].join(" › ");

export const relativeTo = (from: string, file: string): string => relative(from, file);
