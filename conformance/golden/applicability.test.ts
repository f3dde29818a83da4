/**
 * Golden applicability per profile (W-5.2, D-034, W-9.1), computed from the lines: each command
 * session applies exactly to the profiles that may be sent every operation it uses; the wire
 * session sends no operation but advaita.mint, applies whole to every profile that declares a
 * family, and gives the empty profile the lines that need none — which are a session of their own,
 * replayed here against the kit's implementation.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROTOCOLS } from "../../spec/catalog.ts";
import { familyOfOp, type Family } from "../oracle/families.ts";
import { kitImplementation } from "../transport/local.ts";
import {
  applicableProfiles,
  EVERY_PROFILE,
  opsOutside,
  sessionOps,
  wireStepNeeds,
  wireStepOp,
  wireStepsFor,
} from "./applicability.ts";
import { readGolden } from "./replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "./session.ts";
import type { GoldenLine } from "./types.ts";
import { replayWireSession } from "./wire-replay.ts";
import { readWireSession, WIRE_SESSION_PATH, type WireStep } from "./wire-session.ts";

const wire = readWireSession(readFileSync(WIRE_SESSION_PATH, "utf8"));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const command = (id: string, op: string): Pick<GoldenLine, "request"> => ({
  request: { type: "command", id, command: { op } as never },
});
const query = (id: string): Pick<GoldenLine, "request"> => ({
  request: { type: "query", id, query: { name: "world" } },
});
const step = (name: string, raw: string | { hex: string }, reply: WireStep["reply"]): WireStep => ({
  step: name,
  pins: null,
  clause: "test",
  what: name,
  send: [typeof raw === "string" ? { text: raw } : raw],
  reply,
});
const ok = (id: string): WireStep["reply"] => ({ id, ok: true, events: [] });
const err = (id: string | null, code: string): WireStep["reply"] => ({
  id,
  ok: false,
  error: { code, invariant: null, definite: true },
});
const names = (profiles: readonly (readonly Family[])[]): string[] =>
  profiles.map((p) => p.join("+") || "(empty)").sort();

describe("command sessions apply exactly to the profiles that may be sent all their operations", () => {
  it("every set of families hello can declare is considered, the empty one included", () => {
    expect(EVERY_PROFILE.length).toBe(2 ** PROTOCOLS.length);
    expect(EVERY_PROFILE).toContainEqual([]);
    expect(new Set(EVERY_PROFILE.map((p) => p.join("+"))).size).toBe(EVERY_PROFILE.length);
  });

  it("the rule where it holds and where it breaks: a family's operation needs that family, the bootstrap mint any family, a query nothing", () => {
    expect(opsOutside(["janma.birth", "advaita.mint"], ["janma"])).toEqual([]);
    expect(opsOutside(["janma.birth", "advaita.mint"], [])).toEqual(["janma.birth", "advaita.mint"]);
    expect(opsOutside(["custody.attempt", "ripa.task_start"], ["janma"])).toEqual(["ripa.task_start"]);
    expect(names(applicableProfiles([command("c1", "advaita.mint")]))).toEqual(
      names(EVERY_PROFILE.filter((p) => p.length > 0)),
    );
    expect(
      names(
        applicableProfiles([
          command("c1", "advaita.mint"),
          command("c2", "samskara.merge"),
          command("c3", "custody.attempt"),
        ]),
      ),
    ).toEqual(names(EVERY_PROFILE.filter((p) => p.includes("samskara") && p.includes("janma"))));
    expect(names(applicableProfiles([query("q")]))).toEqual(names(EVERY_PROFILE));
    expect(
      sessionOps([command("a", "janma.act"), query("q"), command("b", "advaita.mint"), command("c", "janma.act")]),
    ).toEqual(["janma.act", "advaita.mint"]);
  });

  for (const g of GOLDEN_SESSIONS) {
    it(`${g.name}: applicable to exactly the profiles declaring the family of every operation it sends but the bootstrap mint`, () => {
      const lines = readGolden(goldenPath(g));
      // Stated the other way round from the rule: the families the session's operations belong to.
      const needed = new Set(
        lines.flatMap((l) =>
          l.request.type === "command" && l.request.command.op !== "advaita.mint"
            ? [familyOfOp(l.request.command.op)]
            : [],
        ),
      );
      const expected = EVERY_PROFILE.filter((p) => p.length > 0 && [...needed].every((f) => p.includes(f)));
      expect(names(applicableProfiles(lines))).toEqual(names(expected));
      // No golden session applies to the empty profile: each sends at least one operation.
      expect(applicableProfiles(lines)).not.toContainEqual([]);
    });
  }
});

describe("the wire session by profile", () => {
  it("a wire step needs the operation its line names (read leniently), a query the operations accepted before it, anything else nothing", () => {
    const mint = '{"type":"command","id":"m","command":{"op":"advaita.mint","tick":1}}';
    const steps = [
      step("q1", '{"type":"query","id":"q1","query":{"name":"world"}}', ok("q1")),
      step("bad", '{"type":"command","id":"bad","command":{"op":"janma.teleport"}}', err("bad", "MALFORMED")),
      step("str", '{"type":"command","id":"str","command":"advaita.mint"}', err("str", "MALFORMED")),
      step(
        "dup",
        '{"type":"command","id":"dup","command":{"op":"ripa.evolve","op":"ripa.evolve"}}',
        err(null, "BAD_JSON"),
      ),
      step("hex", { hex: "ff" }, err(null, "BAD_ENCODING")),
      step("m", mint, ok("m")),
      step("q2", '{"type":"query","id":"q2","query":{"name":"world"}}', ok("q2")),
      step("bye", '{"type":"shutdown","id":"bye"}', ok("bye")),
    ];
    expect(steps.map(wireStepOp)).toEqual([null, null, null, "ripa.evolve", null, "advaita.mint", null, null]);
    expect(wireStepNeeds(steps)).toEqual([[], [], [], ["ripa.evolve"], [], ["advaita.mint"], ["advaita.mint"], []]);
    expect(wireStepsFor(steps, []).map((s) => s.step)).toEqual(["q1", "bad", "str", "hex", "bye"]);
    expect(wireStepsFor(steps, ["janma"]).map((s) => s.step)).toEqual(["q1", "bad", "str", "hex", "m", "q2", "bye"]);
    expect(wireStepsFor(steps, ["ripa"]).map((s) => s.step)).toEqual(steps.map((s) => s.step));
    // A rejected command adds nothing to what a later query needs.
    const refused = [step("m", mint, err("m", "MALFORMED")), steps[6] as WireStep];
    expect(wireStepNeeds(refused)).toEqual([["advaita.mint"], []]);
  });

  it("its only operation is advaita.mint (W-9.1), so it applies whole to every profile that declares a family (D-034)", () => {
    expect([...new Set(wire.map(wireStepOp).filter((op) => op !== null))]).toEqual(["advaita.mint"]);
    for (const p of EVERY_PROFILE.filter((x) => x.length > 0))
      expect(wireStepsFor(wire, p).length, p.join("+")).toBe(wire.length);
  });

  it("the empty profile gets every line that needs no family: all but the mints and the world query after them, the shutdown last", () => {
    const empty = wireStepsFor(wire, []);
    const left = wire.filter((s) => !empty.includes(s));
    expect(left.length).toBeGreaterThan(0);
    for (const s of left)
      expect(
        wireStepOp(s) === "advaita.mint" || s.send.some((x) => "text" in x && x.text.includes('"name":"world"')),
        s.step,
      ).toBe(true);
    expect(empty.length).toBeGreaterThan(wire.length / 2);
    expect(empty.at(-1)).toEqual(wire.at(-1));
    // Every wire item the session pins keeps lines the empty profile is sent.
    const pinned = new Set(wire.flatMap((s) => (s.pins === null ? [] : [s.pins])));
    expect([...pinned].filter((item) => !empty.some((s) => s.pins === item))).toEqual([]);
  });

  it("the empty profile's lines are a session of their own: the kit's implementation gives exactly their replies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "golden-wire-empty-"));
    dirs.push(dir);
    const empty = wireStepsFor(wire, []);
    const r = await replayWireSession(kitImplementation(dir), empty);
    expect(r.mismatch, r.mismatch ?? "").toBeNull();
    expect(r.replies).toBe(empty.filter((s) => s.reply !== null).length);
  }, 60_000);
});
