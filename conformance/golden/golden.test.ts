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
import { check } from "../../spec/checks.ts";
import { WireClient } from "../transport/client.ts";
import { kitImplementation } from "../transport/local.ts";
import { firstGoldenMismatch, readGolden } from "./replay.ts";
import { GOLDEN_SESSIONS, goldenPath, renderGolden } from "./session.ts";
import { normativePart } from "../core/reply.ts";
import { firstWireMismatch, replayWireSession } from "./wire-replay.ts";
import { readWireSession, renderWireSession, WIRE_SESSION_PATH } from "./wire-session.ts";

const read = readGolden;
/** A line that pins a spec-review item (G-32.7) or a check clause (OP-2.3.c5.12). */
const PINNED = /^(G-\d+|OP-\d+(\.\d+)?\.c\d+)\.\d+$/;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("golden transcripts", () => {
  for (const g of GOLDEN_SESSIONS) {
    describe(g.name, () => {
      it("is current: the reference model still answers exactly this (run `npm run golden`)", () => {
        expect(readFileSync(goldenPath(g), "utf8") === renderGolden(g), `${goldenPath(g)} is stale`).toBe(true);
      });

      // A scripted session is short and pins review items' readings or check clauses' boundaries; the breadth bounds are for generated ones.
      if ("script" in g) {
        it("pins review items or check clauses: some line's request id names one (G-<n>.<line>, OP-<x.y>.c<n>.<line>), and it ends with a world query", () => {
          const lines = read(goldenPath(g));
          expect(lines.some((l) => PINNED.test(l.request.id))).toBe(true);
          // Short and targeted: it both accepts and rejects, so a reading that always accepts or
          // always rejects fails it.
          expect(lines.filter((l) => l.reply.ok).length).toBeGreaterThan(1);
          expect(lines.some((l) => !l.reply.ok)).toBe(true);
          expect(lines.at(-1)?.request.type).toBe("query");
        });
        it("a line pinned to a check clause that is rejected is rejected with what that check rejects with (spec/CHECKS.md)", () => {
          for (const l of read(goldenPath(g))) {
            const pin = /^(OP-[\d.]+c\d+)\.\d+$/.exec(l.request.id)?.[1];
            if (pin === undefined || l.reply.ok) continue;
            const targets: readonly string[] = check(pin).targets;
            expect(
              targets.includes(l.reply.error.invariant ?? l.reply.error.code),
              `${l.request.id}: ${JSON.stringify(l.reply.error)} is not one of ${targets.join(", ")}`,
            ).toBe(true);
          }
        });
      } else
        it("covers accepted commands, invariant rejections and a final world query", () => {
          const lines = read(goldenPath(g));
          const accepted = lines.filter((l) => l.reply.ok).length;
          const invariantCodes = new Set(
            lines.flatMap((l) => (l.reply.ok || l.reply.error.invariant === null ? [] : [l.reply.error.invariant])),
          );
          expect(accepted).toBeGreaterThan(80);
          expect(invariantCodes.size).toBeGreaterThan(6);
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

describe("wire golden session (W-9.1)", () => {
  const steps = readWireSession(readFileSync(WIRE_SESSION_PATH, "utf8"));

  it("is current: the script still states exactly these lines and replies (run `npm run golden`)", () => {
    expect(readFileSync(WIRE_SESSION_PATH, "utf8") === renderWireSession(), `${WIRE_SESSION_PATH} is stale`).toBe(true);
  });

  it("pins every wire item of spec review 1 it claims, with unique step names, and ends with shutdown", () => {
    expect(new Set(steps.map((s) => s.step)).size).toBe(steps.length);
    const pinned = new Set(steps.flatMap((s) => (s.pins === null ? [] : [s.pins])));
    for (const item of ["G-7", "G-8", "G-9", "G-11", "G-12", "G-13", "G-14", "G-15", "G-16", "G-17", "G-20"])
      expect(pinned.has(item), item).toBe(true);
    for (const s of steps) if (s.pins !== null) expect(s.step.startsWith(`${s.pins}.`), s.step).toBe(true);
    expect(steps.at(-1)?.send).toEqual([{ text: `{"type":"shutdown","id":"${steps.at(-1)?.step ?? ""}"}` }]);
  });

  it("the comparison fails on a reply that differs, one too many, or one missing (so a replay can fail)", () => {
    const replies = steps.filter((s) => s.reply !== null).map((s) => JSON.stringify(s.reply));
    expect(firstWireMismatch(steps, replies)).toBeNull();
    const i = steps.filter((s) => s.reply !== null).findIndex((s) => s.step === "G-8.1");
    const changed = [...replies];
    changed[i] = JSON.stringify({
      id: null,
      ok: false,
      error: { code: "BAD_REQUEST", invariant: null, definite: true },
    });
    expect(firstWireMismatch(steps, changed)).toMatch(/^step G-8\.1 .*W-1\.8.*expected .*BAD_JSON.*got .*BAD_REQUEST/);
    expect(firstWireMismatch(steps, [...replies, replies[0] as string])).toMatch(/1 reply line\(s\) too many/);
    expect(firstWireMismatch(steps, replies.slice(0, -1))).toMatch(/got no reply/);
    // A reply missing in the middle: the next one is named by its id as belonging to a later step.
    const j = steps.filter((s) => s.reply !== null).findIndex((s) => s.step === "G-14.1");
    expect(firstWireMismatch(steps, [...replies.slice(0, j), ...replies.slice(j + 1)])).toMatch(
      /^step G-14\.1 .*that is the id of step G-14\.2: a reply before this one is missing or extra/,
    );
    expect(firstWireMismatch(steps, ["not json", ...replies.slice(1)])).toMatch(/is not JSON/);
  });

  it("the implementation's process gives exactly these replies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "golden-wire-"));
    dirs.push(dir);
    const r = await replayWireSession(kitImplementation(dir), steps);
    expect(r.mismatch, r.mismatch ?? "").toBeNull();
    expect(r.replies).toBe(steps.filter((s) => s.reply !== null).length);
  });
});
