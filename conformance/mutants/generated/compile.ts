/**
 * Does a mutant compile? A mutant that TypeScript rejects is not a bug anyone could ship past the
 * kit's own typecheck, so the matrix counts it apart ("did not compile"), never as killed. This is
 * the check Stryker's TypeScript checker makes (stryker/base.mjs), done one mutant at a time with
 * a language service, which reuses every unchanged file between mutants.
 *
 * Two choices, both recorded in reports/mutants-generated.md:
 * - the errors read are those of the mutated file: a mutant changes an expression or a statement,
 *   not a declaration other files import, so another file's errors would not change (when one
 *   did, the mutant is run and counted like any other: the stricter side);
 * - the unused-declaration diagnostics of the kit's tsconfig (noUnusedLocals, noUnusedParameters:
 *   TS 6133, 6138, 6192, 6196, 6198, 6199, 6205) are lint, not types: a removed statement that
 *   leaves a variable unread is a real bug a build without those flags would ship, so it is run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../transport/local.ts";
import { applyMutant, type GeneratedMutant } from "./source.ts";

/** noUnusedLocals / noUnusedParameters and their kin: not type errors. */
export const LINT_CODES: ReadonlySet<number> = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

export interface CompileChecker {
  /** The first type error of the mutated file (as "line:col TSnnnn message"), or null when it compiles. */
  check(m: GeneratedMutant): string | null;
}

/** A checker over the implementation's TypeScript project (stryker/tsconfig.impl.json: spec and impl). */
export const compileChecker = (root = REPO_ROOT): CompileChecker => {
  const configPath = join(root, "stryker", "tsconfig.impl.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  const overrides = new Map<string, { text: string; version: number }>();
  let version = 0;
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => config.fileNames,
    getScriptVersion: (f) => String(overrides.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const o = overrides.get(f);
      if (o !== undefined) return ts.ScriptSnapshot.fromString(o.text);
      const text = ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const errorsOf = (file: string): string | null => {
    const diags = [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)].filter(
      (d) => d.category === ts.DiagnosticCategory.Error && !LINT_CODES.has(d.code),
    );
    const d = diags[0];
    if (d === undefined) return null;
    const pos = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    return `${pos === null ? "" : `${pos.line + 1}:${pos.character + 1} `}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  };
  return {
    check(m) {
      const file = join(root, m.file);
      const text = readFileSync(file, "utf8");
      overrides.set(file, { text: applyMutant(m, text), version: ++version });
      try {
        return errorsOf(file);
      } finally {
        overrides.set(file, { text, version: ++version });
      }
    },
  };
};
