/**
 * stryker/ignore-informative.mjs, the Stryker ignorer of informative texts (D-032), against the
 * declarations it describes and through the instrumenter Stryker itself runs it in. (It lives
 * here because vitest's include covers reports/ and not stryker/.)
 *
 * - Its table of rejectors is the rejection modules' own: every function that builds a Rejection
 *   in model/rejection.ts and impl/core/rejection.ts, with its parameter list as declared, so a
 *   parameter added, removed, renamed or moved there fails this test until the table follows.
 * - On small sources it ignores exactly the message and path arguments of the rejector actually
 *   called (resolved through the file's imports): the model's check-clause argument is mutated, an
 *   unrelated function that is also called `violates` is not a rejector.
 * - On the kit's own files no mutant of a check-clause literal is ignored.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DECISIONS } from "../spec/decisions.ts";
import { REPO_ROOT } from "./paths.ts";

/** What stryker/ignore-informative.mjs exports and this test reads (the .mjs has no type declarations). */
interface IgnorerModule {
  readonly REJECTORS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly INFORMATIVE_PARAMETERS: readonly string[];
  readonly informativePositions: (parameters: readonly string[]) => number[];
  readonly informativeTexts: object;
  readonly REASON_REJECTION: string;
  readonly REASON_ERROR: string;
}
// A computed specifier: the .mjs has no type declarations, and needs none here.
const ignorerSpec: string = "../stryker/ignore-informative.mjs";
const ignorer = (await import(ignorerSpec)) as IgnorerModule;

/** The parts of Stryker's instrumenter read here (its API mutant: 0-based lines and columns). */
interface ApiMutant {
  readonly fileName: string;
  readonly mutatorName: string;
  readonly replacement: string;
  readonly status?: string;
  readonly statusReason?: string;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end: { readonly line: number; readonly column: number };
  };
}
interface InstrumenterModule {
  readonly Instrumenter: new (
    logger: object,
  ) => {
    instrument(
      files: readonly { name: string; mutate: boolean; content: string }[],
      options: object,
    ): Promise<{ readonly mutants: readonly ApiMutant[] }>;
  };
}
// The instrumenter @stryker-mutator/core runs (a dependency of core, so resolved from there).
const coreRequire = createRequire(createRequire(import.meta.url).resolve("@stryker-mutator/core/package.json"));
const { Instrumenter } = (await import(
  pathToFileURL(coreRequire.resolve("@stryker-mutator/instrumenter")).href
)) as InstrumenterModule;
const quiet = {
  debug() {},
  info() {},
  warn() {},
  trace() {},
  error() {},
  fatal() {},
  isDebugEnabled: () => false,
  isTraceEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
};

/** Every mutant Stryker makes of these files (paths relative to the root; they need not exist), with the text it replaces. */
const mutantsOf = async (
  files: Readonly<Record<string, string>>,
): Promise<{ readonly file: string; readonly text: string; readonly m: ApiMutant }[]> => {
  const input = Object.entries(files).map(([file, content]) => ({
    name: join(REPO_ROOT, file),
    mutate: true,
    content,
  }));
  const { mutants } = await new Instrumenter(quiet).instrument(input, {
    ignorers: [ignorer.informativeTexts],
    plugins: null,
    excludedMutations: [],
  });
  return mutants.map((m) => {
    const file = Object.keys(files).find((f) => join(REPO_ROOT, f) === m.fileName)!;
    const lines = files[file]!.split("\n");
    const { start, end } = m.location;
    const text =
      start.line === end.line
        ? lines[start.line]!.slice(start.column, end.column)
        : `${lines[start.line]!.slice(start.column)}…`;
    return { file, text, m };
  });
};

/** How each mutant of `text` fares: the ignore reason, or "mutated". */
const verdictsOn = (ms: Awaited<ReturnType<typeof mutantsOf>>, file: string, text: string): string[] => {
  const on = ms.filter((x) => x.file === file && x.text === text);
  if (on.length === 0) throw new Error(`no mutant of ${text} in ${file}`);
  return [...new Set(on.map((x) => (x.m.status === "Ignored" ? (x.m.statusReason ?? "ignored") : "mutated")))];
};

/** The exported functions of a module that construct a `Rejection`, with their parameter names in order. */
const declaredRejectors = (
  file: string,
  source = readFileSync(join(REPO_ROOT, file), "utf8"),
): Record<string, string[]> => {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const buildsRejection = (n: ts.Node): boolean =>
    (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "Rejection") ||
    (ts.forEachChild(n, buildsRejection) ?? false);
  const out: Record<string, string[]> = {};
  const add = (name: string, fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }): void => {
    if (fn.body !== undefined && buildsRejection(fn.body)) out[name] = fn.parameters.map((p) => p.name.getText(sf));
  };
  for (const st of sf.statements) {
    const exported =
      ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isFunctionDeclaration(st) && st.name !== undefined) add(st.name.text, st);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (
          ts.isIdentifier(d.name) &&
          d.initializer !== undefined &&
          (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
        )
          add(d.name.text, d.initializer);
      }
    }
  }
  return out;
};

/** Every non-test source file under model/ and impl/ that declares `class Rejection`. */
const rejectionModules = (): string[] =>
  ["model", "impl"]
    .flatMap((d) =>
      readdirSync(join(REPO_ROOT, d), { recursive: true, encoding: "utf8" }).map(
        (f) => `${d}/${f.replaceAll("\\", "/")}`,
      ),
    )
    .filter(
      (f) =>
        f.endsWith(".ts") &&
        !f.endsWith(".test.ts") &&
        /\bclass Rejection\b/.test(readFileSync(join(REPO_ROOT, f), "utf8")),
    )
    .sort();

describe("the ignorer's table of rejectors (stryker/ignore-informative.mjs REJECTORS)", () => {
  it("lists every module that declares a Rejection, and no other", () => {
    expect(Object.keys(ignorer.REJECTORS).sort()).toEqual(rejectionModules());
    expect(rejectionModules()).toEqual(["impl/core/rejection.ts", "model/rejection.ts"]);
  });

  it("has, for each of those modules, exactly the functions that build a Rejection, each with its parameter list as declared", () => {
    for (const [module, rejectors] of Object.entries(ignorer.REJECTORS))
      expect(rejectors, module).toEqual(declaredRejectors(module));
  });

  it("calls informative exactly what D-032 calls informative: the message and the issue path", () => {
    const d032 = DECISIONS.find((d) => d.id === "D-032")!;
    expect(d032.decision).toContain("the message and the issue path are informative");
    expect([...ignorer.INFORMATIVE_PARAMETERS].sort()).toEqual(["message", "path"]);
    // The consequence the whole fix is about: the model's check clause is not informative, and
    // is at the position where the implementation has its message.
    expect(ignorer.informativePositions(ignorer.REJECTORS["model/rejection.ts"]!["violates"]!)).toEqual([2, 3]);
    expect(ignorer.informativePositions(ignorer.REJECTORS["model/rejection.ts"]!["generic"]!)).toEqual([2, 3]);
    expect(ignorer.informativePositions(ignorer.REJECTORS["impl/core/rejection.ts"]!["violates"]!)).toEqual([1, 2]);
    expect(ignorer.informativePositions(ignorer.REJECTORS["impl/core/rejection.ts"]!["refuse"]!)).toEqual([1, 2]);
  });

  it("reads a declaration's parameter list as written, so a changed one fails the comparison above", () => {
    // The reader on a module whose violates has message and check swapped, plus two functions
    // that are not rejectors (one builds no Rejection, one is not exported).
    const swapped = [
      "export class Rejection {}",
      "export const violates = (invariant: string, message: string, check: string, path?: readonly string[]): Rejection => new Rejection();",
      "export function generic(code: string, check: string, message: string, path?: readonly string[]) { return new Rejection(); }",
      "export const toData = (r: Rejection, message: string) => ({ r, message });",
      "const hidden = (message: string) => new Rejection();",
    ].join("\n");
    const read = declaredRejectors("model/rejection.ts", swapped);
    expect(read).toEqual({
      violates: ["invariant", "message", "check", "path"],
      generic: ["code", "check", "message", "path"],
    });
    expect(read).not.toEqual(ignorer.REJECTORS["model/rejection.ts"]);
  });
});

describe("the ignorer in Stryker's instrumenter, on small sources", () => {
  const { REASON_REJECTION, REASON_ERROR } = ignorer;
  const modelFile = "model/janma/sample.ts";
  const implFile = "impl/core/ops/sample.ts";
  const files = {
    [modelFile]: [
      'import { generic, violates } from "../rejection.ts";',
      'export const m1 = () => violates("J-1", "OP-2.2.c7", "not grantable", ["grants"]);',
      'export const m2 = () => generic("NOT_FOUND", "OP-2.3.c2", "no such instance", ["instance_id"]);',
    ].join("\n"),
    [implFile]: [
      'import { refuse, violates } from "../rejection.ts";',
      'export const i1 = () => violates("J-2", "not held", ["capability"]);',
      'export const i2 = () => refuse("MALFORMED", "bad shape", ["body"]);',
      'export const i3 = () => { throw new Error("broken internal state"); };',
    ].join("\n"),
    // Another module's violates (same name, same argument shapes) is not a rejector.
    "model/janma/other.ts": [
      'import { violates } from "./rules.ts";',
      'export const o1 = () => violates("J-1", "OP-9.9.c9", "other message", ["other_path"]);',
    ].join("\n"),
    // Nor is one the file declares itself.
    "impl/core/local.ts": [
      "const violates = (a: string, b: string) => `${a}${b}`;",
      'export const l1 = () => violates("J-3", "local message");',
    ].join("\n"),
    // The model's rejector renamed on import, and through a namespace import.
    "model/ripa/aliased.ts": [
      'import { violates as reject } from "../rejection.ts";',
      'import * as R from "../rejection.ts";',
      'export const a1 = () => reject("I1", "OP-4.1.c3", "renamed message", ["renamed_path"]);',
      'export const a2 = () => R.generic("DUPLICATE_ID", "OP-4.1.c1", "namespace message", ["namespace_path"]);',
    ].join("\n"),
  };
  const run = mutantsOf(files);

  it("mutates the check-clause argument of the model's violates and generic", async () => {
    const ms = await run;
    expect(verdictsOn(ms, modelFile, '"OP-2.2.c7"')).toEqual(["mutated"]);
    expect(verdictsOn(ms, modelFile, '"OP-2.3.c2"')).toEqual(["mutated"]);
  });

  it("ignores the message and the path of the model's violates and generic", async () => {
    const ms = await run;
    for (const text of [
      '"not grantable"',
      '["grants"]',
      '"grants"',
      '"no such instance"',
      '["instance_id"]',
      '"instance_id"',
    ])
      expect(verdictsOn(ms, modelFile, text), text).toEqual([REASON_REJECTION]);
  });

  it("ignores the message and the path of the implementation's violates and refuse", async () => {
    const ms = await run;
    for (const text of ['"not held"', '["capability"]', '"capability"', '"bad shape"', '["body"]', '"body"'])
      expect(verdictsOn(ms, implFile, text), text).toEqual([REASON_REJECTION]);
  });

  it("mutates the invariant or code argument in both", async () => {
    const ms = await run;
    expect(verdictsOn(ms, modelFile, '"J-1"')).toEqual(["mutated"]);
    expect(verdictsOn(ms, modelFile, '"NOT_FOUND"')).toEqual(["mutated"]);
    expect(verdictsOn(ms, implFile, '"J-2"')).toEqual(["mutated"]);
    expect(verdictsOn(ms, implFile, '"MALFORMED"')).toEqual(["mutated"]);
  });

  it("does not take a function of another module, or of the file itself, for a rejector because of its name", async () => {
    const ms = await run;
    for (const text of ['"OP-9.9.c9"', '"other message"', '["other_path"]'])
      expect(verdictsOn(ms, "model/janma/other.ts", text), text).toEqual(["mutated"]);
    expect(verdictsOn(ms, "impl/core/local.ts", '"local message"')).toEqual(["mutated"]);
  });

  it("follows the rejector through a renamed or a namespace import", async () => {
    const ms = await run;
    const f = "model/ripa/aliased.ts";
    expect(verdictsOn(ms, f, '"OP-4.1.c3"')).toEqual(["mutated"]);
    expect(verdictsOn(ms, f, '"OP-4.1.c1"')).toEqual(["mutated"]);
    for (const text of ['"renamed message"', '["renamed_path"]', '"namespace message"', '["namespace_path"]'])
      expect(verdictsOn(ms, f, text), text).toEqual([REASON_REJECTION]);
  });

  it("ignores the text of an internal Error, not the throw", async () => {
    const ms = await run;
    expect(verdictsOn(ms, implFile, '"broken internal state"')).toEqual([REASON_ERROR]);
    expect(verdictsOn(ms, implFile, '{ throw new Error("broken internal state"); }')).toEqual(["mutated"]);
  });
});

describe("the ignorer on the kit's own rejecting files", () => {
  it("ignores no mutant of a check-clause literal, and does ignore rejection messages, in both the model and the implementation", async () => {
    const dirs = ["model", "impl/core"];
    const sources = Object.fromEntries(
      dirs
        .flatMap((d) =>
          readdirSync(join(REPO_ROOT, d), { recursive: true, encoding: "utf8" }).map(
            (f) => `${d}/${f.replaceAll("\\", "/")}`,
          ),
        )
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
        .map((f) => [f, readFileSync(join(REPO_ROOT, f), "utf8")] as const)
        .filter(([, src]) => /from "\.\.?\/(?:\.\.\/)?rejection\.ts"/.test(src)),
    );
    const ms = await mutantsOf(sources);
    const clause = /^"OP-\d+\.\d+\.c\d+"$/;
    const clauses = ms.filter((x) => x.file.startsWith("model/") && clause.test(x.text));
    expect(clauses.length).toBeGreaterThan(0);
    expect(
      clauses.filter((x) => x.m.status === "Ignored").map((x) => `${x.file}:${x.m.location.start.line + 1} ${x.text}`),
    ).toEqual([]);
    for (const d of dirs)
      expect(
        ms.some((x) => x.file.startsWith(`${d}/`) && x.m.statusReason === ignorer.REASON_REJECTION),
        d,
      ).toBe(true);
  }, 60_000);
});
