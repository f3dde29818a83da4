/**
 * The accepted and rejected examples in reports/invariants.md are real transcripts: each is the
 * golden line it cites (request and normative reply, byte for byte as JSON), it fits the invariant
 * (an operation it guards, accepted; or rejected with its code and id), and the kit's
 * implementation, replaying that golden session in process up to the line, answers exactly so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INVARIANTS } from "../spec/catalog.ts";
import { openImplementation } from "../impl/api.ts";
import { firstGoldenMismatch, readGolden } from "../conformance/golden/replay.ts";
import { goldenExamples, NO_REJECTION } from "./examples.ts";
import { REPO_ROOT } from "./paths.ts";

const doc = readFileSync(join(REPO_ROOT, "reports/invariants.md"), "utf8");
const examples = goldenExamples();

/** The transcript printed under "**<label>** — `<file>` line <n>" in one invariant's section. */
const printed = (
  id: string,
  label: string,
): { file: string; line: number; request: unknown; reply: unknown } | null => {
  const start = doc.indexOf(`\n## ${id}\n`);
  const end = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const m = new RegExp(
    `\\*\\*${label}[^*]*\\*\\* — \`([^\`]+)\` line (\\d+)[^\\n]*\\n\\n\`\`\`text\\n> (.*)\\n< (.*)\\n\`\`\``,
  ).exec(section);
  if (m === null) return null;
  return {
    file: m[1] ?? "",
    line: Number(m[2]),
    request: JSON.parse(m[3] ?? "null"),
    reply: JSON.parse(m[4] ?? "null"),
  };
};

describe("examples in reports/invariants.md are real golden transcripts", () => {
  for (const inv of INVARIANTS) {
    it(`${inv.id}: the accepted example is the golden line it cites, an accepted operation it guards`, () => {
      const ex = examples[inv.id].accepted;
      expect(ex).not.toBeNull();
      const p = printed(inv.id, "Accepted example");
      expect(p, "the printed transcript").not.toBeNull();
      const line = readGolden(join(REPO_ROOT, p?.file ?? ""))[(p?.line ?? 0) - 1];
      expect(p?.request).toEqual(line?.request);
      expect(p?.reply).toEqual(line?.reply);
      expect(line?.reply.ok).toBe(true);
      expect(line?.request.type === "command" && inv.guards.includes(line.request.command.op)).toBe(true);
    });

    it(`${inv.id}: the rejected example is the golden line it cites, rejected with ${inv.errorCode}${NO_REJECTION[inv.id] === undefined ? "" : " — or none, and the docs say why"}`, () => {
      const ex = examples[inv.id].rejected;
      const p = printed(inv.id, "Rejected example");
      if (NO_REJECTION[inv.id] !== undefined) {
        expect(ex).toBeNull();
        expect(p).toBeNull();
        expect(doc).toContain(`**Rejected example.** ${NO_REJECTION[inv.id] ?? ""}`);
        return;
      }
      expect(p, "the printed transcript").not.toBeNull();
      const line = readGolden(join(REPO_ROOT, p?.file ?? ""))[(p?.line ?? 0) - 1];
      expect(p?.request).toEqual(line?.request);
      expect(p?.reply).toEqual(line?.reply);
      expect(line?.reply).toEqual({ ok: false, error: { code: inv.errorCode, invariant: inv.id, definite: true } });
    });

    it(`${inv.id}: the kit's implementation, replaying the session up to each example, answers exactly so`, () => {
      for (const ex of [examples[inv.id].accepted, examples[inv.id].rejected]) {
        if (ex === null) continue;
        const impl = openImplementation({});
        try {
          expect(firstGoldenMismatch(readGolden(join(REPO_ROOT, ex.file)).slice(0, ex.line), impl)).toBeNull();
        } finally {
          impl.close();
        }
      }
    });
  }

  it("no invariant said to have no rejection has one in the golden sessions", () => {
    for (const id of Object.keys(NO_REJECTION)) expect(examples[id as keyof typeof examples].rejected).toBeNull();
  });
});
