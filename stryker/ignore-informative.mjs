/**
 * A Stryker ignorer: mutants inside texts the spec calls informative are not run.
 *
 * D-032 (spec/decisions.ts): "The code and the invariant are normative; the message and the issue
 * path are informative". So the message and the path arguments of a rejection can be worded or
 * located any way at all without breaking conformance; a mutant there is category (c) ("outside
 * the spec") by definition. The same holds for the text of an internal `new Error(...)` (recovery
 * refusing a damaged database, a broken internal invariant): that such an error is thrown is
 * behaviour, its wording is not.
 *
 * Which arguments those are depends on the function called, so the rule goes by its declared
 * signature (REJECTORS below), never by the callee's name alone: the implementation's
 * `violates(inv, message, path)` has its message second, the model's
 * `violates(invariant, check, message, path)` has the check clause there — the clause the model's
 * witness book (properties/witness.ts) reads as the verdict of which check failed, so it is
 * behaviour and is mutated. The callee is resolved through the mutated file's own imports (Babel's
 * scope binding → the import declaration's source, resolved against that file), so a function of
 * another module that happens to be called `violates` is not a rejector, and neither is anything
 * the file declares itself or takes from a module not listed here. Only the informative argument
 * expressions are ignored: the call itself, its condition and its code/invariant/check arguments
 * are still mutated.
 *
 * Ignoring them up front instead of letting them survive keeps a run within the machine's budget
 * (each would survive and so run every test that covers it). Stryker reports them as "Ignored"
 * with the reason below; stryker/report.ts counts them under (c). reports/ignore-informative.test.ts
 * checks REJECTORS against the declarations in model/rejection.ts and impl/core/rejection.ts.
 */
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";

/** The repository root: REJECTORS' module paths are relative to it. */
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The rejectors, by the module that declares them (relative to the repository root), each with its
 * parameter list exactly as declared there; the parameters named in INFORMATIVE_PARAMETERS are the
 * ones D-032 calls informative.
 */
export const REJECTORS = {
  "model/rejection.ts": {
    violates: ["invariant", "check", "message", "path"],
    generic: ["code", "check", "message", "path"],
  },
  "impl/core/rejection.ts": {
    violates: ["inv", "message", "path"],
    refuse: ["code", "message", "path"],
  },
};

/** D-032: "the message and the issue path are informative". */
export const INFORMATIVE_PARAMETERS = ["message", "path"];

/** The 0-based argument positions of a parameter list that are informative. */
export const informativePositions = (parameters) =>
  parameters.flatMap((p, i) => (INFORMATIVE_PARAMETERS.includes(p) ? [i] : []));

/** `spec` (an import source) as a module path relative to the root, when it names a file of ours. */
const moduleOf = (fileName, spec) => {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return null;
  const rel = relative(ROOT, resolve(dirname(fileName), spec))
    .split(sep)
    .join("/");
  return rel.startsWith("../") ? null : rel;
};

/** The name a specifier imports (`import { a as b }` imports a). */
const importedName = (specifier) =>
  specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;

/**
 * The rejector a call expression calls, as `{ module, name, parameters }`, or null when it calls
 * none: the callee must be a value imported from a module in REJECTORS (`violates(…)` through a
 * named import, or `R.violates(…)` through a namespace import) under a name that module declares.
 */
export const rejectorOf = (call) => {
  const fileName = call.hub?.file?.opts?.filename;
  if (typeof fileName !== "string") return null;
  const callee = call.node.callee;
  let name;
  let local;
  if (callee.type === "Identifier") {
    local = callee.name;
  } else if (
    callee.type === "MemberExpression" &&
    !callee.computed &&
    callee.object.type === "Identifier" &&
    callee.property.type === "Identifier"
  ) {
    local = callee.object.name;
    name = callee.property.name;
  } else {
    return null;
  }
  const binding = call.scope.getBinding(local);
  if (binding === undefined || binding.kind !== "module") return null;
  const specifier = binding.path.node;
  const declaration = binding.path.parentPath?.node;
  if (declaration?.type !== "ImportDeclaration" || declaration.importKind === "type" || specifier.importKind === "type")
    return null;
  if (name === undefined) {
    if (specifier.type !== "ImportSpecifier") return null;
    name = importedName(specifier);
  } else if (specifier.type !== "ImportNamespaceSpecifier") {
    return null;
  }
  const module = moduleOf(fileName, declaration.source.value);
  if (module === null || !Object.hasOwn(REJECTORS, module) || !Object.hasOwn(REJECTORS[module], name)) return null;
  return { module, name, parameters: REJECTORS[module][name] };
};

/** `new Error(…)` or `new x.Error(…)` (only Error itself: a RangeError's text is triaged by hand). */
const errorConstructor = (c) =>
  (c.type === "Identifier" && c.name === "Error") ||
  (c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier" && c.property.name === "Error");

export const REASON_REJECTION = "(c) D-032: the message and path of a rejection are informative";
export const REASON_ERROR = "(c) the text of an internal error is informative";

export const informativeTexts = {
  shouldIgnore(path) {
    if (path.listKey !== "arguments" || typeof path.key !== "number") return undefined;
    const parent = path.parentPath;
    if (parent === null || parent === undefined) return undefined;
    if (parent.node.type === "CallExpression") {
      const rejector = rejectorOf(parent);
      if (rejector !== null && informativePositions(rejector.parameters).includes(path.key)) return REASON_REJECTION;
    }
    if (parent.node.type === "NewExpression" && errorConstructor(parent.node.callee) && path.key === 0)
      return REASON_ERROR;
    return undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, "informative-texts", informativeTexts)];
