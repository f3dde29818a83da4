/**
 * A Stryker ignorer: mutants inside texts the spec calls informative are not run.
 *
 * D-032 (spec/decisions.ts): "The code and the invariant are normative; the message and the issue
 * path are informative". So the message and the path arguments of `violates(inv, message, path)`
 * and `refuse(code, message, path)` — the two ways impl/ and model/ reject a command — can be
 * worded or located any way at all without breaking conformance; a mutant there is category (c)
 * ("outside the spec") by definition. The same holds for the text of an internal `new Error(...)`
 * (recovery refusing a damaged database, a broken internal invariant): that such an error is
 * thrown is behaviour, its wording is not.
 *
 * Ignoring them up front instead of letting them survive keeps a run within the machine's budget
 * (each would survive and so run every test that covers it). Stryker reports them as "Ignored"
 * with the reason below; stryker/report.ts counts them under (c). Only the argument expressions are
 * ignored: the call itself, its condition and its code/invariant argument are still mutated.
 */
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";

// impl/core/rejection.ts: violates, refuse; model/rejection.ts: violates, generic.
const REJECTORS = new Set(["violates", "refuse", "generic"]);

const calleeName = (call) => {
  const c = call.node.callee;
  if (c.type === "Identifier") return c.name;
  if (c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier") return c.property.name;
  return null;
};

export const REASON_REJECTION = "(c) D-032: the message and path of a rejection are informative";
export const REASON_ERROR = "(c) the text of an internal error is informative";

export const informativeTexts = {
  shouldIgnore(path) {
    if (path.listKey !== "arguments" || typeof path.key !== "number") return undefined;
    const parent = path.parentPath;
    if (parent === null || parent === undefined) return undefined;
    const name = calleeName(parent);
    if (parent.node.type === "CallExpression" && name !== null && REJECTORS.has(name) && path.key >= 1) return REASON_REJECTION;
    if (parent.node.type === "NewExpression" && name === "Error" && path.key === 0) return REASON_ERROR;
    return undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, "informative-texts", informativeTexts)];
