/** stages/shutdowns.ts: the W-2.2 checker over the transport's record of ignored shutdowns. */
import { describe, expect, it } from "vitest";
import { outcome, type Finding } from "../core/finding.ts";
import { checkIgnoredShutdowns } from "./shutdowns.ts";

const ignored = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    rule: "W-2.2",
    message: `shutdown answered, process ${i + 1} killed`,
    raw: `r${i + 1}`,
  }));
const earlier: Finding = { invariant: "J-1", stage: "golden", check: "golden/x", summary: "s", trace: null };

describe("checkIgnoredShutdowns (W-2.2)", () => {
  it("holds: no ignored shutdown leaves the outcome as it was, whatever its verdict", () => {
    for (const v of ["pass", "fail", "inconclusive"] as const) {
      const out = outcome(v, "why", 3, v === "fail" ? [earlier] : [], ["n"]);
      expect(checkIgnoredShutdowns("golden", out, [])).toBe(out);
    }
  });

  it("breaks: one ignored shutdown turns a pass into a fail with a <stage>/W-2.2 finding naming it", () => {
    const out = checkIgnoredShutdowns("golden", outcome("pass", "all good", 7, [], ["n"]), ignored(1));
    expect(out.verdict).toBe("fail");
    expect(out.reason).toBe("W-2.2: shutdown answered, process 1 killed");
    expect(out.checks).toBe(7);
    expect(out.notes).toEqual(["n"]);
    expect(out.findings).toEqual([
      {
        invariant: null,
        stage: "golden",
        check: "golden/W-2.2",
        summary: "shutdown answered, process 1 killed; raw: r1",
        trace: null,
      },
    ]);
  });

  it("counts the processes past the first, and keeps a failing stage's reason and findings first", () => {
    const out = checkIgnoredShutdowns("crash", outcome("fail", "its own reason", 2, [earlier]), ignored(3));
    expect(out.verdict).toBe("fail");
    expect(out.reason).toBe("its own reason");
    expect(out.findings[0]).toBe(earlier);
    expect(out.findings[1]?.summary).toBe("shutdown answered, process 1 killed (3 processes in this stage); raw: r1");
    expect(out.findings[1]?.check).toBe("crash/W-2.2");
  });

  it("an inconclusive stage stays inconclusive, with the finding added", () => {
    const out = checkIgnoredShutdowns("wire", outcome("inconclusive", "no reply in time", 1), ignored(1));
    expect(out.verdict).toBe("inconclusive");
    expect(out.reason).toBe("no reply in time");
    expect(out.findings.map((f) => f.check)).toEqual(["wire/W-2.2"]);
  });
});
