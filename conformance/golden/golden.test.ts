/**
 * Golden transcripts (spec/wire/PROTOCOL.md W-9): the committed files are what the reference model
 * answers, and the kit's implementation reproduces every normative reply part, in process and over
 * the wire (a third-party implementation is checked the same way).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openImplementation } from "../../impl/api.ts";
import { WireClient } from "../transport/client.ts";
import { kitImplementation } from "../transport/local.ts";
import { firstGoldenMismatch, readGolden } from "./replay.ts";
import { GOLDEN_SESSIONS, goldenPath, normativePart, renderGolden } from "./session.ts";

const read = readGolden;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("golden transcripts", () => {
  for (const g of GOLDEN_SESSIONS) {
    describe(g.name, () => {
      it("is current: the reference model still answers exactly this (run `npm run golden`)", () => {
        expect(readFileSync(goldenPath(g), "utf8") === renderGolden(g), `${goldenPath(g)} is stale`).toBe(true);
      });

      it("covers accepted commands, invariant rejections and a final world query", () => {
        const lines = read(goldenPath(g));
        const accepted = lines.filter((l) => l.reply.ok).length;
        const invariantCodes = new Set(lines.flatMap((l) => (l.reply.ok || l.reply.error.invariant === null ? [] : [l.reply.error.invariant])));
        if ("script" in g) {
          // A scripted session is short on purpose: each of its pinned lines checks one decided point
          // of a spec review, so breadth is asked of the generated sessions only.
          expect(accepted).toBeGreaterThan(0);
          expect(lines.some((l) => /^G-\d+\.\d+$/.test(l.request.id))).toBe(true);
        } else {
          expect(accepted).toBeGreaterThan(80);
          expect(invariantCodes.size).toBeGreaterThan(6);
        }
        expect(lines.at(-1)?.request.type).toBe("query");
      });

      it("the implementation reproduces every reply in process", () => {
        const impl = openImplementation({});
        try {
          expect(firstGoldenMismatch(read(goldenPath(g)), impl)).toBeNull();
        } finally {
          impl.close();
        }
      });

      it("the implementation reproduces every reply over the wire", async () => {
        const dir = mkdtempSync(join(tmpdir(), "golden-"));
        dirs.push(dir);
        const client = await WireClient.start(kitImplementation(dir));
        try {
          for (const [n, line] of read(goldenPath(g)).entries()) {
            const reply = await client.request({ ...line.request });
            expect(normativePart(reply as never), `line ${n + 1} (${line.request.id})`).toEqual(line.reply);
          }
        } finally {
          await client.shutdown();
        }
      });
    });
  }
});
