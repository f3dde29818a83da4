/**
 * Why a stdout message is not a Reply (W-3), said so a person can find it: the JSON path of the
 * offending member, the schema rule that failed, and the schema it was checked against.
 *
 * The Reply schema is a union of OkReply and ErrorReply, and a failed union reports only
 * "Invalid input" at the root: useless for a reply whose seventh event has a misspelt field. So the
 * message is checked against the branch its own `ok` member selects, and a nested union failure
 * (an event, a result) is followed into the branch that got furthest before failing.
 */
import type { z } from "zod";
import { ErrorReply, OkReply, Reply } from "../../spec/wire/index.ts";

export interface ReplyIssue {
  /** `$.events[2].type`: where in the message the rule failed (`$` for the whole message). */
  readonly path: string;
  /** The zod issue code and what it says: `invalid_type: expected string, received number`. */
  readonly rule: string;
  /** The schema the message was checked against: OkReply, ErrorReply or Reply. */
  readonly schema: string;
  /** The value found at `path` (JSON, cut at 120 characters); absent when the member is missing. */
  readonly found?: string;
}

type Issue = z.core.$ZodIssue;

/** A JSONPath-like rendering: `$.events[0]["odd name"]`. */
export const jsonPath = (path: readonly PropertyKey[]): string =>
  `$${path.map((p) => (typeof p === "number" ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`)).join("")}`;

/**
 * The most specific issue: inside a union that matched no branch, the branch whose first issue
 * lies deepest (it matched the most before failing), recursively.
 */
const specific = (issue: Issue, base: readonly PropertyKey[]): { path: PropertyKey[]; issue: Issue } => {
  const here = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const candidates = issue.errors
      .filter((branch) => branch.length > 0)
      .map((branch) => specific(branch[0] as Issue, here));
    const best = candidates.reduce<{ path: PropertyKey[]; issue: Issue } | null>(
      (b, c) => (b === null || c.path.length > b.path.length ? c : b),
      null,
    );
    if (best !== null) return best;
  }
  // An extra member is named by its own path, not by the object's.
  if (issue.code === "unrecognized_keys" && issue.keys.length > 0)
    return { path: [...here, issue.keys[0] as string], issue };
  return { path: here, issue };
};

/** Long lists of allowed values (36 event types, 34 codes) are cut: the path already says which member. */
const MAX_RULE_CHARS = 240;
const describeIssue = (issue: Issue): string => {
  const text = `${issue.code}: ${issue.message.replace(/^Invalid input: /, "")}`;
  return text.length > MAX_RULE_CHARS ? `${text.slice(0, MAX_RULE_CHARS - 1)}…` : text;
};

/** Why `json` (a parsed stdout line) fails the Reply schema; null when it is a Reply. */
export const replyIssue = (json: unknown): ReplyIssue | null => {
  const ok =
    typeof json === "object" && json !== null && !Array.isArray(json) ? (json as { ok?: unknown }).ok : undefined;
  const [schema, name] =
    ok === true
      ? ([OkReply, "OkReply"] as const)
      : ok === false
        ? ([ErrorReply, "ErrorReply"] as const)
        : ([Reply, "Reply"] as const);
  const r = schema.safeParse(json);
  if (r.success) return null;
  if (name === "Reply") {
    const what =
      typeof json !== "object" || json === null
        ? `a ${json === null ? "null" : typeof json}`
        : Array.isArray(json)
          ? "an array"
          : ok === undefined
            ? "an object without `ok`"
            : `an object whose \`ok\` is ${JSON.stringify(ok)}`;
    return {
      path: typeof json === "object" && json !== null && !Array.isArray(json) ? "$.ok" : "$",
      rule: `a Reply is an object whose \`ok\` is true (OkReply) or false (ErrorReply); this is ${what}`,
      schema: name,
    };
  }
  const first = r.error.issues[0];
  if (first === undefined) return { path: "$", rule: "invalid", schema: name };
  const { path, issue } = specific(first, []);
  const value = valueAt(json, path);
  return {
    path: jsonPath(path),
    rule: describeIssue(issue),
    schema: name,
    ...(value === undefined ? {} : { found: clip(JSON.stringify(value) ?? String(value), 120) }),
  };
};

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const valueAt = (json: unknown, path: readonly PropertyKey[]): unknown => {
  let v: unknown = json;
  for (const p of path) {
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, p)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
};

/** One line: `$.events[0].type: invalid_value: expected one of … (OkReply)`. */
export const replyIssueText = (i: ReplyIssue): string =>
  `${i.path}: ${i.rule}${i.found === undefined ? "" : `; found ${i.found}`} (schema ${i.schema}, spec/wire/PROTOCOL.md W-3)`;
