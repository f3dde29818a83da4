/** A schema-invalid reply is reported with the path and rule that failed (issue 20: never ": Invalid input"). */
import { describe, expect, it } from "vitest";
import { jsonPath, replyIssue, replyIssueText } from "./reply-issue.ts";

const ok = (extra: Record<string, unknown> = {}) => ({ type: "reply", id: "a", ok: true, events: [], ...extra });
const err = (error: Record<string, unknown>) => ({
  type: "reply",
  id: "a",
  ok: false,
  error: { code: "MALFORMED", invariant: null, message: "m", definite: true, ...error },
});

describe("replyIssue", () => {
  it("a valid reply of either kind has no issue", () => {
    expect(replyIssue(ok())).toBeNull();
    expect(replyIssue(ok({ result: { any: ["json"] } }))).toBeNull();
    expect(replyIssue(err({}))).toBeNull();
  });

  it("an extra member is named by its own path, in the branch `ok` selects", () => {
    expect(replyIssue(ok({ extra: 1 }))).toMatchObject({ path: "$.extra", schema: "OkReply", found: "1" });
    expect(replyIssue(err({ hint: "x" }))).toMatchObject({ path: "$.error.hint", schema: "ErrorReply" });
  });

  it("follows a nested union into the branch that matched furthest (an event with a missing member)", () => {
    const i = replyIssue(ok({ events: [{ type: "task.started", task_id: "t" }, { type: "agent.minted" }] }));
    expect(i?.path).toMatch(/^\$\.events\[1\]\./);
    expect(i?.rule).toMatch(/^invalid_type: expected string/);
  });

  it("a wrong value names the member and shows what was found", () => {
    const i = replyIssue(err({ invariant: "J-9" }));
    expect(i).toMatchObject({ path: "$.error.invariant", found: '"J-9"' });
    expect(i?.rule).toMatch(/^invalid_value: /);
    expect(replyIssueText(i!)).toMatch(
      /^\$\.error\.invariant: invalid_value: .*; found "J-9" \(schema ErrorReply, spec\/wire\/PROTOCOL\.md W-3\)$/,
    );
  });

  it("without a boolean `ok` the message cannot be either kind, and says what it is", () => {
    expect(replyIssue({ type: "reply", id: "a", ok: "yes" })).toMatchObject({ path: "$.ok", schema: "Reply" });
    expect(replyIssue({ type: "reply", id: "a" })?.rule).toMatch(/an object without `ok`/);
    expect(replyIssue([1])).toMatchObject({ path: "$", rule: expect.stringMatching(/an array$/) });
    expect(replyIssue(null)?.rule).toMatch(/a null$/);
  });

  it("cuts a rule that lists dozens of allowed values, never the path", () => {
    const i = replyIssue(err({ code: "NOPE" }));
    expect(i?.path).toBe("$.error.code");
    expect((i?.rule.length ?? 0) <= 240).toBe(true);
  });

  it("jsonPath quotes names that are not identifiers", () => {
    expect(jsonPath(["events", 0, "odd name", "x"])).toBe('$.events[0]["odd name"].x');
    expect(jsonPath([])).toBe("$");
  });
});
