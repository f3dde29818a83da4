/**
 * Mutants of the wire layer (properties/mutants/catalog.ts, `invariant: null`): each takes the
 * reading of a spec-review item that the spec did not choose, in impl/wire. The in-process checks
 * never see the wire, so each is run as its own process (a patched copy of impl/, as the kill
 * matrix runs it) and must be killed by the wire golden session (W-9.1) alone; the unpatched copy,
 * built the same way, must pass it, so a kill is never an artefact of copying. A fixed sample runs
 * by default (conformance/mutants/sample.ts); MUTANTS=all (`npm run mutants:check`) runs every one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS, type Mutant } from "../../properties/mutants/catalog.ts";
import { replayWireSession } from "../golden/wire-replay.ts";
import { readWireSession, WIRE_SESSION_PATH } from "../golden/wire-session.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { materialize } from "./harness.ts";
import { ALL_MUTANTS, notSampled, sampled, WIRE_SAMPLE } from "./sample.ts";

const steps = readWireSession(readFileSync(join(REPO_ROOT, WIRE_SESSION_PATH), "utf8"));
const WIRE_MUTANTS = MUTANTS.filter((m) => m.invariant === null);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Replays the wire session against a patched (or unpatched) copy of impl/ run as a process. */
const replayCopy = async (name: string, m: Mutant | null): Promise<string | null> => {
  const main = join(dirname(materialize(name, m)), "main.ts");
  const data = mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "srk-wire-mutant-"));
  dirs.push(data);
  const r = await replayWireSession(
    { command: process.execPath, args: ["--import", "tsx", main, "--data-dir", data], cwd: REPO_ROOT },
    steps,
    30_000,
  );
  return r.mismatch;
};

describe("wire mutants are killed by the wire golden session", () => {
  it("every wire mutant patches impl/wire and names the review item whose other reading it takes", () => {
    expect(WIRE_MUTANTS.length).toBeGreaterThan(0);
    for (const m of WIRE_MUTANTS) {
      expect(m.file.startsWith("impl/wire/"), m.id).toBe(true);
      expect(m.review, m.id).toMatch(/^G-\d+$/);
      expect(m.id.startsWith(`${m.review ?? ""}.`), m.id).toBe(true);
    }
  });

  it("the unpatched copy passes it (the harness itself kills nothing)", async () => {
    expect(await replayCopy("wire-session-unpatched", null)).toBeNull();
  }, 60_000);

  it(`the default sample names wire mutants of the catalog${ALL_MUTANTS ? " (MUTANTS=all: every one is checked)" : ""}`, () => {
    expect(
      sampled(WIRE_MUTANTS, WIRE_SAMPLE)
        .map((m) => m.id)
        .sort(),
    ).toEqual(ALL_MUTANTS ? WIRE_MUTANTS.map((m) => m.id).sort() : [...WIRE_SAMPLE].sort());
  });

  for (const m of notSampled(WIRE_MUTANTS, WIRE_SAMPLE))
    it.skip(`${m.review} mutant ${m.id}: not in the default sample (MUTANTS=all, npm run mutants:check)`, () => {});

  for (const m of sampled(WIRE_MUTANTS, WIRE_SAMPLE)) {
    it(`${m.review} mutant ${m.id} (${m.description})`, async () => {
      const mismatch = await replayCopy(`wire-session-${m.id}`, m);
      expect(mismatch, `${m.id} survived the wire golden session`).not.toBeNull();
      // The line that kills it pins the same review item (a kill by an unrelated line would not show the decision is pinned).
      expect(mismatch, mismatch ?? "").toMatch(new RegExp(`^step ${(m.review ?? "").replace("-", "\\-")}\\.\\d+ `));
    }, 60_000);
  }
});
